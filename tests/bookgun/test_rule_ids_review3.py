"""The Book and The Gun: a third review against the specification
(/work/shared/rules/book-and-gun.md) and the rulebook's pages it restates; each test is written
from the wording (rule id, spec section and page cited) before the fix."""

from __future__ import annotations

from umpire.core.events import Event
from umpire.core.game import Game
from umpire.rulesets.bookgun import RULESET
from umpire.rulesets.bookgun.movement import roll_allowance
from umpire.rulesets.bookgun.state import BookGunState


def _state(scenario: str = "market-day", seed: int = 1) -> BookGunState:
    game = Game(RULESET, scenario, seed)
    while game.state.flow.phase == "setup":
        game.apply(game.legal_actions()[0])
    state = game.state
    assert isinstance(state, BookGunState)
    return state


def _place(
    s: BookGunState, unit: str, x: float, y: float, facing: float = 90.0, gap: float = 1.2
) -> None:
    u = s.units[unit]
    if u.concealed and u.marker in s.markers:
        del s.markers[str(u.marker)]
    u.concealed, u.marker = False, None
    for i, f in enumerate(s.unit_figures(u)):
        f.x, f.y, f.room, f.facing, f.prone = x + gap * i, y, None, facing, False


# -- 1. prone figures move 1D6 regardless of terrain (bookgun.move.prone / move.chart) -----------
def test_prone_figures_move_one_d6_in_rough_ground_as_in_the_open() -> None:
    """Spec §3.8 bookgun.move.chart ("Prone figures - 1D6 anywhere") and p.14/p.16 (4.3):
    prone figures move 1D6 whatever the terrain, so rough ground takes no die from a prone
    unit's single d6 (it used to drop it, leaving the 1 in. minimum) - army (high die) and
    insurgents (low die) alike; dense ground likewise."""
    seen = set()
    for seed in range(1, 9):
        for unit, x, y in (("team-a", 2.0, 2.0), ("cell-1", 1.0, 31.0)):
            s = _state(seed=seed)
            _place(s, unit, x, y, gap=0.8)
            events: list[Event] = []
            al = roll_allowance(s, s.units[unit], None, True, events)
            rolls = [e for e in events if e.get("kind") == "roll"]
            assert len(rolls[0]["dice"]) == 1
            die = float(rolls[0]["dice"][0])
            assert al.clear == die
            assert al.rough == die, (unit, al)
            assert al.in_dense == die
            seen.add(die)
    assert max(seen) > 1.0  # a die above the 1 in. minimum was rolled

