"""The Book and The Gun: fixes from a verification review of the 0.3 changes, each test
written from the rulebook's wording (page cited) and the specification
(/work/shared/rules/book-and-gun.md) before the fix."""

from __future__ import annotations

from umpire.core.events import Event
from umpire.core.game import Game
from umpire.core.rng import RandomStream
from umpire.rulesets.bookgun import RULESET, combat
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


# -- D. a defensive circle faces outwards all round: no flank or rear charge on it ----------------
def _stand_roll(formation: str, facing: float, seed: int) -> Event | None:
    s = _state()
    _place(s, "cell-1", 10.0, 2.0, facing=90.0)
    _place(s, "team-a", 10.0, 3.5, facing=facing)
    s.units["team-a"].formation = formation
    s.rng = RandomStream(seed)
    events = combat.fight(s, s.units["cell-1"], s.units["team-a"])
    stand = [e for e in events if e.get("rule") == "bookgun.cc.stand" and e.get("kind") == "roll"]
    return stand[0] if stand else None


def test_a_defensive_circle_is_never_charged_in_flank_or_rear() -> None:
    """p.10 V.11 (a defensive circle is the all-round formation standing in for the square, a
    stationary formation for close combat) with spec §4.3 step 3 bookgun.cc.stand (+1 if
    charged in flank or rear): the circle's men face outwards every way, so a charge from
    behind its leader's facing is no rear charge - the open-order team facing away from the
    chargers stands on +1, the same team in a circle does not."""
    s = _state()
    _place(s, "team-a", 10.0, 3.5, facing=90.0)
    s.units["team-a"].formation = "circle"
    for charger in ((10.0, 0.0), (14.0, 10.0), (5.0, 3.5), (20.0, 3.5)):
        assert not combat.flank_or_rear(s, s.units["team-a"], charger), charger
    for seed in range(1, 40):
        open_rear = _stand_roll("open", 90.0, seed)  # facing north, the chargers to the south
        circle = _stand_roll("circle", 90.0, seed)
        if open_rear is None or circle is None:
            continue  # the charge did not close
        assert "+1 (charged in flank or rear)" in open_rear.text
        assert "flank or rear" not in circle.text, circle.text
        return
    raise AssertionError("no charge closed")
