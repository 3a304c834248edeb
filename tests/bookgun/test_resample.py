"""The Book and The Gun: re-sampling what the army cannot see keeps what it does know
(bookgun.conceal.markers, bookgun.cards.skip, bookgun.turn.fire)."""

from __future__ import annotations

import random

from tests.bookgun.test_rules import _deployed
from umpire.core.flow import Pending
from umpire.rulesets.bookgun import RULESET
from umpire.rulesets.bookgun.ruleset import eligible, may_fire
from umpire.rulesets.bookgun.state import BookGunState

TRIES = 40


def _fire_phase_with_only_the_c1_marker_in_range() -> BookGunState:
    """Market Day as ``_deployed`` leaves it (cell-1 in A1, cell-2 in B1, the group HQ in C1,
    dummies in the grove and the gully), in the fire phase with a red (insurgent) card turned
    and team A standing at (29, 29), where only the occupant of C1 has a shot."""
    s = _deployed().state
    assert isinstance(s, BookGunState)
    s.flow.phase, s.acted, s.card = "fire", [], "5-hearts"
    for i, f in enumerate(s.unit_figures(s.units["team-a"])):
        f.x, f.y, f.room, f.prone, f.facing = 29.0 + 1.2 * i, 29.0, None, False, 180.0
    s.units["team-a"].moved_last = True
    return s


def test_a_card_called_for_the_insurgents_still_finds_a_unit_that_can_fire() -> None:
    """bookgun.cards.skip: the army saw the red card called, not set aside, so every re-dealt
    position must still give the insurgents a unit able to fire (a dummy in C1 would not)."""
    s = _fire_phase_with_only_the_c1_marker_in_range()
    assert [u for u in ("cell-1", "cell-2", "group-hq") if may_fire(s, s.units[u])] == ["group-hq"]
    assert RULESET.to_act(s) == "insurgents" and RULESET.legal_actions(s)
    held_c1 = set()
    deals = set()
    for k in range(TRIES):
        twin = RULESET.resample(s, "army", random.Random(k))
        assert RULESET.observation(twin, "army") == RULESET.observation(s, "army")
        assert RULESET.to_act(twin) == "insurgents"
        assert eligible(twin, "insurgents") and RULESET.legal_actions(twin), k
        c1 = next(m for m in twin.markers.values() if m.site == "C1")
        assert c1.unit is not None
        held_c1.add(c1.unit)
        deals.add(tuple(sorted((m.site, m.unit or "") for m in twin.markers.values())))
    # only the group leader fits the one-room house C1 (bookgun.building.capacity: a cell of
    # seven does not), so the re-deal varies elsewhere: still a real re-deal, not the truth
    assert held_c1 == {"group-hq"}
    assert len(deals) > 1


def test_a_marker_seen_to_stir_never_becomes_a_dummy() -> None:
    """bookgun.conceal.markers: the army read "marker .. stirs" when the unit under it was
    activated; in every re-deal that marker holds a unit. A unit in the middle of its move stays
    under its own marker where it is."""
    game = _deployed()
    s = game.state
    assert isinstance(s, BookGunState)
    assert s.flow.phase == "movement"
    m1 = next(m for m in s.markers.values() if m.site == "A1")
    assert m1.unit == "cell-1" and not m1.stirred
    s.card = "5-hearts"
    activate = next(
        a for a in RULESET.legal_actions(s) if a.kind == "activate" and a.unit == "cell-1"
    )
    RULESET.apply(s, activate)
    assert m1.stirred and isinstance(s.flow.stack[-1], Pending)
    where = {f.id: (f.x, f.y, f.room) for f in s.unit_figures(s.units["cell-1"])}
    for k in range(TRIES):
        twin = RULESET.resample(s, "army", random.Random(k))
        assert twin.markers[m1.id].unit == "cell-1"
        assert {f.id: (f.x, f.y, f.room) for f in twin.unit_figures(twin.units["cell-1"])} == where
        assert RULESET.to_act(twin) == "insurgents" and RULESET.legal_actions(twin)
    # with the activation over, the stirred marker may hold another unit, but never a dummy
    s.flow.stack.clear()
    s.acted.clear()
    held = set()
    for k in range(TRIES):
        twin = RULESET.resample(s, "army", random.Random(k))
        held.add(twin.markers[m1.id].unit)
    assert None not in held and len(held) > 1
