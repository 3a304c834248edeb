"""Small Book and Gun positions laid out by the rule tests."""

from __future__ import annotations

from umpire.core.game import Game
from umpire.rulesets.bookgun import RULESET
from umpire.rulesets.bookgun.state import BookGunState


def past_setup(scenario: str = "market-day", seed: int = 1) -> BookGunState:
    """The scenario's state once the set-up is done, taking the first offer at each step."""
    game = Game(RULESET, scenario, seed)
    while game.state.flow.phase == "setup":
        game.apply(game.legal_actions()[0])
    state = game.state
    assert isinstance(state, BookGunState)
    return state


def place_in_open(
    s: BookGunState, unit: str, x: float, y: float, facing: float = 90.0, gap: float = 1.2
) -> None:
    """Put a unit's figures in a row east of (x, y), ``gap`` inches apart, standing, visible
    and outside any building."""
    u = s.units[unit]
    if u.concealed and u.marker in s.markers:
        del s.markers[str(u.marker)]
    u.concealed, u.marker = False, None
    for i, f in enumerate(s.unit_figures(u)):
        f.x, f.y, f.room, f.facing, f.prone = x + gap * i, y, None, facing, False
