"""The Book and The Gun: re-sampling the hidden truth for the search AI (issue 17: it "decides
from its own side's observation only: hidden enemy units are sampled from what that side
knows") neither keeps nor reads what the side cannot see.

- bookgun.move.mount (house, docs/rules/bookgun.md): "inside an armoured vehicle the enemy does
  not see it until it gets out" - so the insurgents' re-sample seats the army riders they never
  saw get in anew among the army's closed vehicles, within each vehicle's passengers
  (bookgun.move.vehicles: light wheeled 7).
- bookgun.conceal.markers: the army does not know which marker holds which unit or a dummy; when
  the random deals are all rejected, the deal taken does not depend on the true one.
- The battle report names the winner in a sentence ("The insurgents win")."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from dataclasses import replace

from tests.bookgun.test_rule_ids import _deployed as _deployed_raid_or_market
from tests.bookgun.test_rule_ids import _state
from tests.bookgun.test_rule_ids_terrain_weather import _with
from tests.bookgun.test_rules import _deployed
from umpire.core.events import Event
from umpire.core.game import Game
from umpire.rulesets.bookgun import RULESET, combat
from umpire.rulesets.bookgun.ruleset import BookGun, passengers
from umpire.rulesets.bookgun.state import BookGunState

SEEDS = 60
BLACK = "5-spades"  # an army card in Night Raid (army black)
RED = "5-hearts"


def _deployed_raid() -> Game:
    return _deployed_raid_or_market("night-raid", 1)


def _seating(s: BookGunState) -> dict[str, str | None]:
    return {u: s.units[u].aboard for u in ("squad", "team") if u in s.units}


def _two_humvees(seed: int = 1) -> BookGunState:
    """Night Raid after set-up with a second up-armoured Humvee 3 in. east of the first and a
    two-man team aboard it from the start (the squad of seven aboard the first). Each Humvee
    carries 7 (bookgun.move.vehicles), so the squad and the team never share one: the two
    seatings the insurgents cannot tell apart are squad/team and team/squad."""
    s = _state("night-raid", seed)
    hv, model = s.units["humvee"], s.figures["hmv"]
    s.figures["hmv2"] = replace(model, id="hmv2", name="Second Humvee", unit="humvee-2")
    s.figures["hmv2"].x = model.x + 3.0
    s.units["humvee-2"] = replace(
        hv, id="humvee-2", name="Second Humvee", figures=["hmv2"], arrive_cards=[]
    )
    rifleman = s.figures["sq-r1"]
    for k in (1, 2):
        s.figures[f"tm-{k}"] = replace(rifleman, id=f"tm-{k}", name=f"Team {k}", unit="team")
    squad = s.units["squad"]
    s.units["team"] = replace(
        squad,
        id="team",
        name="Team",
        figures=["tm-1", "tm-2"],
        leader=None,
        aboard="humvee-2",
        arrive_cards=[],
    )
    for f in s.unit_figures(s.units["team"]):
        f.x, f.y = s.figures["hmv2"].x, s.figures["hmv2"].y
    assert passengers(s, hv) == 7 and passengers(s, s.units["humvee-2"]) == 2
    return s


def _same_menus(s: BookGunState, twin: BookGunState, side: str) -> None:
    """``side`` reads the same observation and, when it is to act, has the same menu."""
    assert RULESET.observation(twin, side) == RULESET.observation(s, side)
    assert RULESET.to_act(twin) == RULESET.to_act(s)
    if RULESET.to_act(s) == side:
        assert RULESET.legal_actions(twin) == RULESET.legal_actions(s)


# -- the insurgents never keep the army's true riders --------------------------------------------
def test_night_raid_riders_are_reseated_within_the_view_and_the_passenger_limit() -> None:
    """The insurgents' view has neither the squad nor the team (both ride unseen); every
    re-sample keeps that view and its menu, seats each rider in one of the two Humvees at the
    Humvee's place, never puts nine men into a 7-man Humvee, and over many seeds gives both
    seatings - not the truth every time."""
    s = _two_humvees()
    seen = RULESET.observation(s, "insurgents")
    assert "squad" not in seen["units"] and "team" not in seen["units"]
    assert {"humvee", "humvee-2"} <= set(seen["units"])
    seatings = []
    for side, card in (("insurgents", RED), ("army", BLACK)):
        s.flow.phase, s.card, s.acted = "movement", card, []
        assert RULESET.to_act(s) == side
        for k in range(SEEDS):
            twin = RULESET.resample(s, "insurgents", random.Random(k))
            _same_menus(s, twin, "insurgents")
            for v in ("humvee", "humvee-2"):
                assert passengers(twin, twin.units[v]) <= 7
                model = twin.figures[twin.units[v].figures[0]]
                for u in twin.units.values():
                    if u.aboard == v:
                        assert all(f.pos == model.pos for f in twin.unit_figures(u))
            seatings.append(_seating(twin))
    assert {tuple(x.values()) for x in seatings} == {
        ("humvee", "humvee-2"),
        ("humvee-2", "humvee"),
    }
    truth = _seating(s)
    assert 0 < sum(x == truth for x in seatings) < len(seatings)


def test_the_search_view_of_the_stock_night_raid_keeps_the_insurgents_view() -> None:
    """Through the game's own ``View.determinise`` (what the search AI calls): in Night Raid as
    published there is one closed Humvee and the squad is the only army unit the insurgents
    do not see, so the only seating that fits their view is the squad in the Humvee."""
    game = _deployed_raid()
    view = game.view("insurgents")
    assert view.can_determinise
    for k in range(5):
        twin = view.determinise(random.Random(k))
        assert isinstance(twin, BookGunState)
        assert RULESET.observation(twin, "insurgents") == view.observation
        assert twin.units["squad"].aboard == "humvee"


def test_the_army_resample_keeps_its_own_riders_and_view() -> None:
    """The army sees its own riders: its re-sample leaves them where they are."""
    s = _two_humvees()
    s.flow.phase, s.card, s.acted = "movement", BLACK, []
    for k in range(10):
        twin = RULESET.resample(s, "army", random.Random(k))
        _same_menus(s, twin, "army")
        assert _seating(twin) == _seating(s)


def test_a_unit_seen_getting_in_stays_in_that_vehicle() -> None:
    """bookgun.move.mount: the insurgents saw the team mount the second Humvee in turn 2 (the
    mount is a public event; they would have seen it get out). It stays there in every
    re-sample, and the squad, which cannot join it (9 > 7), stays in the first."""
    s = _two_humvees()
    s.units["team"].mounted = 2
    for k in range(SEEDS):
        twin = RULESET.resample(s, "insurgents", random.Random(k))
        assert _seating(twin) == {"squad": "humvee", "team": "humvee-2"}


def test_a_vehicle_someone_was_seen_spotting_from_is_never_left_empty() -> None:
    """bookgun.spot.roll: the insurgents read "someone inside Humvee spots ..." - that Humvee
    holds a rider until a unit gets out. With a third, empty Humvee and someone seen in each of
    the first two, the re-sample uses only those two; once the squad dismounts, the mark is
    cleared."""
    s = _two_humvees()
    w = _with(s, light="day")
    third = s.figures["hmv3"] = replace(s.figures["hmv"], id="hmv3", unit="humvee-3")
    third.x += 6.0
    s.units["humvee-3"] = replace(s.units["humvee"], id="humvee-3", figures=["hmv3"])
    probe = [s.figures["c-l"]]
    probe[0].x, probe[0].y, probe[0].room = 18.0, 12.0, None
    for rider in ("squad", "team"):
        events: list[Event] = []
        combat._look(s, w, [s.units[rider]], probe, "the cell", events, static=False)
        assert any(e.text.startswith("someone inside") for e in events)
    assert s.units["humvee"].occupied_seen and s.units["humvee-2"].occupied_seen
    used = set()
    for k in range(SEEDS):
        twin = RULESET.resample(s, "insurgents", random.Random(k))
        used |= set(_seating(twin).values())
    assert used == {"humvee", "humvee-2"}
    # without that knowledge the empty third Humvee is a possible seat too
    s.units["humvee"].occupied_seen = s.units["humvee-2"].occupied_seen = False
    used = set()
    for k in range(SEEDS):
        used |= set(_seating(RULESET.resample(s, "insurgents", random.Random(k))).values())
    assert "humvee-3" in used


def test_the_reseat_fallback_does_not_depend_on_the_true_seating() -> None:
    """With no random draw allowed (tries=0), two truths the insurgents cannot tell apart
    (squad/team and team/squad) give the same seating."""
    a = _two_humvees()
    b = RULESET.clone(a)
    b.units["squad"].aboard, b.units["team"].aboard = "humvee-2", "humvee"
    assert RULESET.observation(a, "insurgents") == RULESET.observation(b, "insurgents")
    got = []
    for s in (a, b):
        twin = RULESET.clone(s)
        BookGun._reseat(twin, "insurgents", random.Random(3), tries=0)
        got.append((_seating(twin), {f.id: f.pos for f in twin.figures.values()}))
    assert got[0] == got[1]
    assert got[0][0] == {"squad": "humvee", "team": "humvee-2"}  # first by ids that fits


# -- the army's markers (Market Day) ---------------------------------------------------------------
def _market_day() -> BookGunState:
    s = _deployed().state
    assert isinstance(s, BookGunState)
    return s


def _deal(s: BookGunState) -> dict[str, str | None]:
    return {m.site: m.unit for m in s.markers.values()}


def test_market_day_deals_keep_the_views_and_are_not_the_truth_every_time() -> None:
    """bookgun.conceal.markers: the army's re-sample keeps its view and menu, deals every
    concealed unit and dummy anew, and over many seeds differs from the true deal; the
    insurgents' re-sample (they know their own markers) keeps the deal and their view."""
    s = _market_day()
    truth = _deal(s)
    deals = []
    for k in range(SEEDS):
        twin = RULESET.resample(s, "army", random.Random(k))
        _same_menus(s, twin, "army")
        deals.append(_deal(twin))
        mine = RULESET.resample(s, "insurgents", random.Random(k))
        _same_menus(s, mine, "insurgents")
        assert _deal(mine) == truth
    assert 0 < sum(d == truth for d in deals) < len(deals) / 2
    assert len({tuple(sorted((k, str(v)) for k, v in d.items())) for d in deals}) > 5


def test_the_redeal_fallback_does_not_depend_on_the_true_deal() -> None:
    """Two truths the army cannot tell apart (cell-1 in A1 and cell-2 in B1, or the other way
    round) give the same deal and the same figures' places when every random deal is refused
    (tries=0): the deals are walked in the order of the markers' and units' ids."""
    a = _market_day()
    b = RULESET.clone(a)
    by_site = {m.site: m.id for m in b.markers.values()}
    BookGun._place_deal(b, {by_site["A1"]: "cell-2", by_site["B1"]: "cell-1"})
    assert _deal(a) != _deal(b)
    assert RULESET.observation(a, "army") == RULESET.observation(b, "army")
    got = [RULESET._redeal(s, random.Random(7), tries=0) for s in (a, b)]
    assert _deal(got[0]) == _deal(got[1])
    assert RULESET.state_to_dict(got[0]) == RULESET.state_to_dict(got[1])
    _same_menus(a, got[0], "army")
    # the walk starts from the lowest ids: the first marker by id holds the first unit by id
    first = min(a.markers)
    assert got[0].markers[first].unit == "cell-1"


# -- the battle report -----------------------------------------------------------------------------
def test_the_report_names_the_winner_in_a_sentence() -> None:
    """ "INSURGENTS wins" read badly: the side names are a plural and a collective noun."""
    assert BookGun.result_headline("insurgents") == "The insurgents win"
    assert BookGun.result_headline("army") == "The army wins"
    out = subprocess.run(
        [sys.executable, "-m", "umpire", "battle", "bookgun/market-day", "--seed", "1"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    head = next(line for line in out.stdout.splitlines() if "Battle report" in line)
    assert re.search(r"Battle report — (The insurgents win|The army wins|Draw) \(", head), head
