"""portable.fire.or_close_combat (house: an activated unit fires or fights a close combat, not
both) holds after the winner of a close combat advances (portable.cc.advance, seed 'Close
Combat' d): the advance lets it fight again from the square it took, not fire."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.portable.helpers import act_as, fix_dice, make, st, unit, waiting
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.game import Game


def _advanced(tmp_path: Path, both: bool = False) -> Game:
    options = {"house_rules": {"fire_and_close_combat": True}} if both else None
    game = make(
        tmp_path,
        [unit("i", "infantry", "E4")],
        [unit("r", "infantry", "E5", quality="poor"), unit("q", "infantry", "E7")],
        options=options,
    )
    act_as(game, "blue-i")
    fix_dice(game, [6, 1, 1])  # attacker safe; defender hit and, at 1 SP, destroyed
    st(game).units["red-r"].sp = 1
    game.apply(Action("assault", unit="blue-i", target="red-r"))
    assert waiting(game)[0] == "advance"
    game.apply(Action("advance", unit="blue-i"))
    faces = [a for a in game.legal_actions() if a.kind == "face"]
    if faces:  # it turns to face the enemy beyond (portable.grid.facing)
        game.apply(next(a for a in faces if a.option == "N"))
    return game


def test_a_unit_that_advanced_after_close_combat_does_not_fire(tmp_path: Path) -> None:
    game = _advanced(tmp_path)
    fires = [a for a in game.legal_actions() if a.kind == "fire"]
    assert fires == []
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Action("fire", unit="blue-i", target="red-q"))
    assert refused.value.rule == "portable.fire.or_close_combat"


def test_with_the_house_rule_off_it_may_fire_after_advancing(tmp_path: Path) -> None:
    game = _advanced(tmp_path, both=True)
    fires = [a for a in game.legal_actions() if a.kind == "fire"]
    assert [a.target for a in fires] == ["red-q"]
