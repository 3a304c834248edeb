"""Rule switches in 7 Days to the Rhine: combat and set-up rules under enforce, advise and off
(issue 21). Combat positions are built by hand on the Autobahn Gap map (hexes 0704 and its
neighbours are clear); the set-up is a new game's."""

from __future__ import annotations

from typing import Any

import pytest

from tests.switches.helpers import MODES, check_modes
from umpire.core.actions import Action
from umpire.core.game import Game, new_game
from umpire.rulesets.rhine.state import RhineState


def position(
    units: dict[str, str], side: str, options: dict[str, Any], attacked: tuple[str, ...] = ()
) -> Game:
    """A game with only ``units`` on the map, in ``side``'s combat phase."""
    game = new_game("rhine/autobahn-gap", seed=1, options=options)
    state = game.state
    assert isinstance(state, RhineState)
    for u in state.pos:
        state.pos[u] = units.get(u)
        state.status[u] = "on" if u in units else "gone"
    state.flow.phase = f"{side}_1"
    state.flow.stack.clear()
    state.order = {side: "fight-move"}
    state.attacked = list(attacked)
    state.memo.clear()
    return game


@pytest.mark.parametrize("mode", MODES)
def test_defence_only_units_never_attack(mode: str) -> None:
    """rhine.combat.defonly (a bracketed strength only defends): the Heimatschutz unit W
    (defence-only, 3) next to a Soviet recon regiment (3) in the open."""

    def build(options: dict[str, Any]) -> Game:
        return position({"N-HS-W": "0803", "P-79-RB": "0704"}, "nato", options)

    attack = Action("attack", cell="0704", units=("N-HS-W",))
    check_modes(build, attack, "rhine.combat.defonly", mode, acting="nato", other="pact")


@pytest.mark.parametrize("mode", MODES)
def test_a_unit_attacks_once_per_combat_phase(mode: str) -> None:
    """rhine.combat.once (spec 3.12.1): a Soviet tank regiment that has attacked this phase
    attacks no more (apart from momentum)."""

    def build(options: dict[str, Any]) -> Game:
        return position(
            {"P-79-TR1": "0803", "N-3-MI1": "0704"}, "pact", options, attacked=("P-79-TR1",)
        )

    attack = Action("attack", cell="0704", units=("P-79-TR1",))
    check_modes(build, attack, "rhine.combat.once", mode, acting="pact", other="nato")


@pytest.mark.parametrize("mode", MODES)
def test_heliborne_attack_only_with_their_own_division(mode: str) -> None:
    """rhine.combat.heliborne_div: heliborne units may not attack together with units of
    another division (the air-assault brigade with the 79th Guards Tank's regiment)."""

    def build(options: dict[str, Any]) -> Game:
        return position({"P-AAB": "0803", "P-79-TR1": "0804", "N-3-MI1": "0704"}, "pact", options)

    attack = Action("attack", cell="0704", units=("P-AAB", "P-79-TR1"))
    check_modes(build, attack, "rhine.combat.heliborne_div", mode, acting="pact", other="nato")


@pytest.mark.parametrize("mode", MODES)
def test_a_unit_set_up_outside_its_area(mode: str) -> None:
    """rhine.setup.area (spec 5.5: 11 ACR "any hex cols 08-10"): a squadron set up in 0704,
    column 07, at the opening set-up (the order of set-up and stacking stay enforced:
    tests/rhine/test_setup_switches.py)."""

    def build(options: dict[str, Any]) -> Game:
        return new_game("rhine/autobahn-gap", seed=1, options=options)

    place = Action("place", unit="N-11-SQ1", cell="0704")
    check_modes(build, place, "rhine.setup.area", mode, acting="nato", other="pact")
