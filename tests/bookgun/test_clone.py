"""The Book and The Gun: ``clone`` (a structural copy for the search player, issue 17) and
``resample`` along whole games of every scenario.

* The clone reads exactly as the original (``to_dict``, and a dump of every field of every
  record, including the set-up events and the dice to come), and a game played on from the
  clone makes the same events as the game itself.
* The clone shares no mutable object with the original (the scenario's world excepted: built
  once from the scenario and read only), and changing every field of the clone, one by one
  through the whole tree of records, changes nothing in the original. The fields are read
  from the dataclasses at run time, so a field added later is checked too: if ``clone``
  shares it, or the mutator below cannot change it, a test fails.
* A re-sample leaves the game untouched, shares nothing mutable with it, and differs from the
  truth only in what the side may not know (spec §4 hidden information: the contents of
  concealment markers and everything about the concealed units, the cache room, the IED site,
  the Commander-in-Chief, riders unseen inside closed vehicles, the order of the deck, the dice
  to come); the side's observation is the same.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import umpire.rulesets.bookgun.scenario as scenario_mod
from umpire.core.events import Event, to_dicts
from umpire.core.game import Game
from umpire.core.rng import RandomStream
from umpire.rulesets.bookgun import RULESET
from umpire.rulesets.bookgun.agent import BookGunScripted
from umpire.rulesets.bookgun.state import SLOW_COPIES, BookGunState, _record_copier

HERE = Path(__file__).parent
SHIPPED = scenario_mod.scenario_ids()
TEST_ONLY = sorted(p.stem for p in (HERE / "scenarios").glob("*.yaml"))  # vehicles, horses, snow
SHARED = ("world_memo",)  # fields clone shares on purpose (the scenario's read-only world)
MAX_ACTIONS = 3000


@pytest.fixture
def test_scenarios(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(scenario_mod, "SCENARIOS", HERE / "scenarios")
    scenario_mod.load_scenario.cache_clear()
    yield
    scenario_mod.load_scenario.cache_clear()


def _game(scenario: str, seed: int) -> tuple[Game, list[BookGunState], list[int]]:
    """A scripted game of ``scenario`` (to its end, or ``MAX_ACTIONS``): the game, a copy of
    the state before each action (made by ``from_dict``, independent of ``clone``) and the
    number of events before each action."""
    game = Game(RULESET, scenario, seed)
    agents = {side: BookGunScripted(side, seed) for side in RULESET.meta.players}
    states: list[BookGunState] = []
    marks: list[int] = []
    while not game.is_over and len(game.record.actions) < MAX_ACTIONS:
        side = game.to_act
        assert side is not None
        states.append(_copy_by_dict(game.state))
        marks.append(len(game.events))
        game.apply(agents[side].choose(game.view(side), game.legal_actions()))
    states.append(_copy_by_dict(game.state))
    marks.append(len(game.events))
    return game, states, marks


def _copy_by_dict(state: BookGunState) -> BookGunState:
    twin = BookGunState.from_dict(state.to_dict())
    twin.world_memo = state.world_memo
    twin.setup_events = list(state.setup_events)
    return twin


# -- a dump of everything, and a walk over every mutable object ---------------------------------
def dump(value: Any) -> Any:
    """Every field of every record, as plain data (not ``to_dict``: a field it leaves out is
    dumped too). The world is named, not dumped (shared on purpose)."""
    if isinstance(value, RandomStream):
        return ("stream", value.seed, value._rng.getstate())
    if isinstance(value, Event):
        return ("event", to_dicts([value]))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            out[f.name] = ("shared", id(item)) if f.name in SHARED else dump(item)
        return (type(value).__name__, out)
    if isinstance(value, dict):
        return {k: dump(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [dump(v) for v in value]
    assert value is None or isinstance(value, str | int | float | bool), type(value)
    return value


def mutable_ids(value: Any, seen: dict[int, str], where: str = "state") -> dict[int, str]:
    """The ids of every mutable object reachable from ``value`` (records, lists, dicts, the
    dice stream), with where each was found."""
    if isinstance(value, str | int | float | bool | Event) or value is None:
        return seen
    if id(value) in seen:
        return seen
    if isinstance(value, RandomStream):
        seen[id(value)] = where
        seen[id(value._rng)] = where + "._rng"
        return seen
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        seen[id(value)] = where
        for f in dataclasses.fields(value):
            if f.name not in SHARED:
                mutable_ids(getattr(value, f.name), seen, f"{where}.{f.name}")
        return seen
    if isinstance(value, dict):
        seen[id(value)] = where
        for k, v in value.items():
            mutable_ids(v, seen, f"{where}[{k!r}]")
        return seen
    if isinstance(value, list):
        seen[id(value)] = where
        for i, v in enumerate(value):
            mutable_ids(v, seen, f"{where}[{i}]")
        return seen
    if isinstance(value, tuple):
        for i, v in enumerate(value):
            mutable_ids(v, seen, f"{where}[{i}]")
        return seen
    raise AssertionError(f"{where}: {type(value).__name__} - teach this test to walk it")


def assert_nothing_shared(a: BookGunState, b: BookGunState) -> None:
    mine = mutable_ids(a, {})
    theirs = mutable_ids(b, {})
    both = sorted(mine[i] for i in mine.keys() & theirs.keys())
    assert not both, f"shared mutable objects: {both[:5]}"


# -- changing everything ----------------------------------------------------------------------
def _other(value: Any) -> Any:
    """A different scalar of a kind a field may hold."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        return value + "~"
    assert value is None
    return "changed"


def mutate(value: Any, where: str, touched: set[str]) -> Any:
    """Change ``value`` in place wherever it can be changed, every field of every record
    through the tree; returns the value to put back where it was read (a scalar or a tuple
    is replaced, not changed). ``touched`` gets each record field that was changed."""
    if isinstance(value, RandomStream):
        value.dice(3, 6)
        return value
    if isinstance(value, Event):
        return value  # immutable
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.name in SHARED:
                continue
            name = f"{type(value).__name__}.{f.name}"
            setattr(value, f.name, mutate(getattr(value, f.name), name, touched))
            touched.add(name)
        return value
    if isinstance(value, dict):
        for k in list(value):
            value[k] = mutate(value[k], where, touched)
        value["~added"] = 1
        return value
    if isinstance(value, list):
        for i, v in enumerate(value):
            value[i] = mutate(v, where, touched)
        value.append("~added")
        return value
    if isinstance(value, tuple):
        return (*value, "~added")
    return _other(value)


def check_clone(state: BookGunState, where: str) -> None:
    before = dump(state)
    data = state.to_dict()
    twin = RULESET.clone(state)
    assert type(twin) is BookGunState
    assert twin.to_dict() == data, where
    assert dump(twin) == before, where
    assert twin.world_memo is state.world_memo
    assert_nothing_shared(state, twin)
    touched: set[str] = set()
    mutate(twin, "state", touched)
    expected = {f"BookGunState.{f.name}" for f in dataclasses.fields(BookGunState)}
    assert expected - {f"BookGunState.{n}" for n in SHARED} <= touched
    changed = dump(twin)[1]
    for name, value in before[1].items():
        if name not in SHARED:
            assert changed[name] != value, f"{where}: the mutator left {name} as it was"
    assert dump(state) == before, f"{where}: changing the clone changed the original"
    assert state.to_dict() == data, where


def _scripted_points(n: int, count: int) -> list[int]:
    return sorted({round(i * (n - 1) / max(1, count - 1)) for i in range(count)})


def check_game(scenario: str, seed: int) -> None:
    game, states, marks = _game(scenario, seed)
    assert len(states) > 10, "too short a game to say much"
    for k, state in enumerate(states):
        check_clone(state, f"{scenario} seed {seed}, after {k} actions")
    # played on from a clone, the game goes as it went (the same dice, the same events)
    actions = game.record.actions
    for k in _scripted_points(len(actions), 4):
        twin = RULESET.clone(states[k])
        events: list[Event] = []
        for action in actions[k:]:
            events += RULESET.apply(twin, action)
        assert to_dicts(events) == to_dicts(game.events[marks[k] :]), f"{scenario} after {k}"
        assert twin.to_dict() == game.state.to_dict()


@pytest.mark.parametrize("scenario", SHIPPED)
def test_clone_reads_as_the_original_and_shares_nothing_along_a_whole_game(scenario: str) -> None:
    check_game(scenario, 1)


@pytest.mark.usefixtures("test_scenarios")
@pytest.mark.parametrize("scenario", TEST_ONLY)
def test_clone_of_the_vehicle_horse_and_snow_scenarios(scenario: str) -> None:
    check_game(scenario, 1)


def test_the_mutator_reaches_every_field_of_every_record() -> None:
    """The check above is only as strict as ``mutate``: on a deployed game it must change every
    field of every record kind the state holds (figures, units, markers, the flow, the decks)."""
    state = _game("market-day", 2)[1][30]
    touched: set[str] = set()
    mutate(RULESET.clone(state), "state", touched)
    for record in (BookGunState, type(next(iter(state.units.values())))):
        for f in dataclasses.fields(record):
            if f.name not in SHARED:
                assert f"{record.__name__}.{f.name}" in touched
    for name in ("Figure", "Marker", "FlowState", "Deck"):
        assert any(t.startswith(name + ".") for t in touched), name


def test_every_field_has_a_quick_copy_and_container_fields_are_copied() -> None:
    """How a field is copied follows its declared type: scalars shared, JSON containers copied;
    a field of any other type (an object the copier does not know, a set) is deep-copied and
    listed as slow - none of the state's fields may be."""
    assert SLOW_COPIES == [], f"give these fields a copier in state.py: {SLOW_COPIES}"

    @dataclasses.dataclass
    class Plain:
        name: str
        seen: list[str]
        where: dict[str, list[float]] | None = None

    copy = _record_copier(Plain)
    one = Plain("a", ["x"], {"p": [1.0]})
    two = copy(one)
    assert two == one and two.seen is not one.seen
    assert two.where is not None and one.where is not None
    assert two.where["p"] is not one.where["p"]
    two.seen.append("y")
    two.where["p"].append(2.0)
    assert one == Plain("a", ["x"], {"p": [1.0]})

    @dataclasses.dataclass
    class Holder:
        thing: set[str]

    try:
        holder = _record_copier(Holder)
        assert SLOW_COPIES == ["Holder.thing"]
    finally:
        SLOW_COPIES.clear()
    first = Holder({"a"})
    second = holder(first)
    second.thing.add("b")
    assert first.thing == {"a"}


# -- re-sampling ------------------------------------------------------------------------------
def _hidden_units(state: BookGunState, side: str) -> set[str]:
    return {
        u.id
        for u in state.units.values()
        if (u.concealed and u.side != side) or state.unseen_inside(u, side)
    }


REDRAWN = {  # what resample may draw anew for a side, besides the hidden units' records
    "army": {"rng", "deck.pile", "markers.unit", "cache_room", "ied", "commanders"},
    "insurgents": {"rng", "deck.pile", "commanders"},
}


def _differences(truth: dict[str, Any], drawn: dict[str, Any], hidden: set[str]) -> set[str]:
    """The places where a re-sampled state differs from the truth, by field; a hidden unit's
    or its figures' fields are not counted (they are what the side may not know)."""
    out: set[str] = set()
    for key in truth.keys() | drawn.keys():
        a: Any = truth.get(key)
        b: Any = drawn.get(key)
        if a == b:
            continue
        if key in ("figures", "units"):
            for rid in a.keys() | b.keys():
                ra, rb = a.get(rid), b.get(rid)
                unit = rid if key == "units" else (ra or rb)["unit"]
                if ra != rb and unit not in hidden:
                    changed = sorted(f for f in ra if ra[f] != rb[f])
                    out.add(f"{key}.{rid}.{','.join(changed)}")
        elif key == "markers":
            for mid in a.keys() | b.keys():
                names = {f for f in a[mid] if a[mid][f] != b[mid][f]}
                out |= {f"markers.{f}" for f in names}
        elif key == "deck":
            out |= {f"deck.{f}" for f in a if a[f] != b[f]}
        else:
            out.add(key)
    return out


def check_resample(scenario: str, seed: int) -> None:
    game, states, _ = _game(scenario, seed)
    redrew: set[str] = set()
    for k, state in enumerate(states[:: max(1, len(states) // 40)]):
        truth = dump(state)
        data = state.to_dict()
        for side in RULESET.meta.players:
            seen = RULESET.observation(state, side)
            twin = RULESET.resample(state, side, random.Random(f"{scenario}/{k}/{side}"))
            where = f"{scenario} seed {seed}, state {k}, for {side}"
            assert dump(state) == truth, f"{where}: resample changed the game"
            assert_nothing_shared(state, twin)
            assert RULESET.observation(twin, side) == seen, where
            if RULESET.to_act(state) == side:  # its own menu does not hang on what it cannot see
                assert RULESET.legal_actions(twin) == RULESET.legal_actions(state), where
            hidden = _hidden_units(state, side) | _hidden_units(twin, side)
            found = _differences(data, twin.to_dict(), hidden)
            assert found <= REDRAWN[side], f"{where}: {sorted(found - REDRAWN[side])}"
            redrew |= {f"{side}:{f}" for f in found}
    assert "army:markers.unit" in redrew or not states[0].markers  # it does draw something
    assert "army:rng" in redrew and "insurgents:rng" in redrew


@pytest.mark.parametrize("scenario", SHIPPED)
def test_resample_redraws_only_what_the_side_may_not_know(scenario: str) -> None:
    check_resample(scenario, 1)


@pytest.mark.usefixtures("test_scenarios")
@pytest.mark.parametrize("scenario", TEST_ONLY)
def test_resample_in_the_vehicle_horse_and_snow_scenarios(scenario: str) -> None:
    check_resample(scenario, 1)
