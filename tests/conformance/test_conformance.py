"""The contract every registered ruleset keeps, checked on every scenario it lists.

A ruleset added through the ``umpire.rulesets`` entry points is picked up here with no edit:
random games end, replays are exact, undo/branch/round trips rebuild the same position, hidden
information stays hidden (re-sampling what a side cannot see changes nothing it sees), every
rule id an event names is catalogued, every event respects its visibility, every legal action
can be described and illegal actions are refused without touching the state.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.conformance.helpers import (
    canon,
    cases,
    event_words,
    mentions,
    norm,
    played,
    ruleset_for,
    secrets,
    spread,
    unit_ids,
    walk,
    with_seeds,
)
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError
from umpire.core.events import Event, seen_by
from umpire.core.game import Game, replay
from umpire.core.record import Record
from umpire.core.ruleset import capability, get_ruleset, ruleset_ids

CASES = cases()
RULESETS = ruleset_ids()
SEEDED = with_seeds()
SEEDED_AND_SLOW = with_seeds(slow=True)


def _setup(rid: str, scenario: str | None, seed: int) -> Any:
    ruleset_for(rid, scenario)
    assert scenario is not None
    return played(rid, scenario, seed)


# -- the game ends --------------------------------------------------------------------------
@pytest.mark.parametrize(("rid", "scenario", "seed"), SEEDED_AND_SLOW)
def test_random_playout_reaches_an_outcome(rid: str, scenario: str | None, seed: int) -> None:
    play = _setup(rid, scenario, seed)
    game, meta = play.game, play.game.ruleset.meta
    assert game.outcome is not None, (
        f"no outcome after {len(play.actions)} random actions (max_actions {meta.max_actions})"
    )
    assert game.to_act is None and game.legal_actions() == [], "a finished game still asks"
    assert game.outcome.winner in (*meta.players, "draw")
    summary = game.ruleset.summary(game.state)
    assert "turns" in summary
    json.dumps(summary)


# -- replay, undo, branch, round trip -------------------------------------------------------
@pytest.mark.parametrize(("rid", "scenario", "seed"), SEEDED)
def test_replay_gives_identical_events(rid: str, scenario: str | None, seed: int) -> None:
    play = _setup(rid, scenario, seed)
    game = play.game
    record = Record.from_dict(json.loads(json.dumps(game.record.to_dict())))
    again = replay(record)
    assert [canon(e) for e in again.events] == [canon(e) for e in game.events]
    assert norm(again.to_dict()) == play.states[-1]
    assert again.outcome == game.outcome
    for side in game.ruleset.meta.players:
        assert [canon(e) for e in again.log(side)] == [canon(e) for e in game.log(side)]


@pytest.mark.parametrize(("rid", "scenario", "seed"), SEEDED)
def test_undo_and_branch_equal_replay(rid: str, scenario: str | None, seed: int) -> None:
    play = _setup(rid, scenario, seed)
    game, n = play.game, len(play.actions)
    for k in spread(n, 5):
        branch = game.branch(k)
        assert norm(branch.to_dict()) == play.states[k], f"branch({k}) differs from play"
        assert [canon(e) for e in branch.events] == [canon(e) for e in game.events[: play.marks[k]]]
        undone = game.branch()
        undone.undo(n - k)
        assert norm(undone.to_dict()) == play.states[k], f"undo to {k} differs from play"
        assert [canon(e) for e in undone.events] == [canon(e) for e in branch.events]
        assert undone.record.actions == play.actions[:k]
        if k < n:
            undone.apply(play.actions[k])
            assert norm(undone.to_dict()) == play.states[k + 1], "redo after undo differs"


@pytest.mark.parametrize(("rid", "scenario", "seed"), SEEDED)
def test_state_round_trips_and_continues_identically(
    rid: str, scenario: str | None, seed: int
) -> None:
    play = _setup(rid, scenario, seed)
    ruleset, n = play.game.ruleset, len(play.actions)
    continue_from = set(spread(n, 3))
    for k, game in walk(play, spread(n, 12)):
        data = json.loads(json.dumps(ruleset.state_to_dict(game.state)))
        restored = ruleset.state_from_dict(data)
        assert norm(ruleset.state_to_dict(restored)) == data, f"round trip differs at {k}"
        assert ruleset.to_act(restored) == game.to_act
        assert ruleset.legal_actions(restored) == game.legal_actions()
        if k not in continue_from:
            continue
        events: list[Event] = []
        for action in play.actions[k:]:
            events += ruleset.apply(restored, action)
        assert [canon(e) for e in events] == [canon(e) for e in play.game.events[play.marks[k] :]]
        assert norm(ruleset.state_to_dict(restored)) == play.states[-1]


# -- hidden information ---------------------------------------------------------------------
@pytest.mark.parametrize(("rid", "scenario", "seed"), SEEDED_AND_SLOW)
def test_resampling_what_a_side_cannot_see_changes_nothing_it_sees(
    rid: str, scenario: str | None, seed: int
) -> None:
    play = _setup(rid, scenario, seed)
    ruleset = play.game.ruleset
    for k, game in walk(play, spread(len(play.actions))):
        state, to_act = game.state, game.to_act
        truth = norm(ruleset.state_to_dict(state))
        for side in ruleset.meta.players:
            rng = random.Random(f"{rid}/{scenario}/{seed}/{k}/{side}")
            twin = ruleset.resample(state, side, rng)
            where = f"after {k} actions, re-sampled for {side}"
            assert norm(ruleset.state_to_dict(state)) == truth, (
                f"{where}: resample changed the game"
            )
            assert ruleset.observation(twin, side) == ruleset.observation(state, side), where
            assert ruleset.to_act(twin) == to_act, where
            if to_act == side:
                legal = ruleset.legal_actions(state)
                assert ruleset.legal_actions(twin) == legal, f"{where}: legal actions differ"
                for action in legal:
                    words = ruleset.describe(state, action)
                    assert ruleset.describe(twin, action) == words, f"{where}: {action}"
            drawn = norm(ruleset.state_to_dict(twin))
            # what this action let the side read must not name what it cannot know now
            hidden = {key: v for key, v in truth.items() if key not in _STREAM}
            pattern = mentions(secrets(hidden, drawn, ruleset.observation(state, side)))
            start = play.marks[k - 1] if k else 0
            if pattern is not None:
                for event in seen_by(game.events[start : play.marks[k]], side):
                    found = pattern.search(event_words(event))
                    assert found is None, f"{where}: {side} reads {found.group()!r} in {event!r}"
            if to_act is not None:  # a determinised state can be played on (search needs it)
                ruleset.apply(twin, ruleset.legal_actions(twin)[0])


@pytest.mark.parametrize("rid", RULESETS)
def test_resample_draws_something_hidden_in_an_imperfect_information_game(rid: str) -> None:
    ruleset = get_ruleset(rid)
    if ruleset.meta.information == "perfect":
        pytest.skip(f"{rid} declares perfect information")
    for scenario in ruleset.scenario_ids():
        play = played(rid, scenario, 1)
        for k, game in walk(play, spread(len(play.actions))):
            truth = norm(ruleset.state_to_dict(game.state))
            for side in ruleset.meta.players:
                drawn = norm(
                    ruleset.state_to_dict(ruleset.resample(game.state, side, random.Random(k)))
                )
                if any(drawn.get(key) != v for key, v in truth.items() if key not in _STREAM):
                    return
    pytest.fail(f"{rid} declares imperfect information, but resample never changed anything hidden")


@pytest.mark.parametrize(("rid", "scenario", "seed"), SEEDED)
def test_clone_and_resample_keep_the_set_up_a_side_has_read(
    rid: str, scenario: str | None, seed: int
) -> None:
    play = _setup(rid, scenario, seed)
    ruleset = play.game.ruleset
    for k, game in walk(play, spread(len(play.actions), 4)):
        for side in ruleset.meta.players:
            read = [canon(e) for e in seen_by(ruleset.setup_events(game.state), side)]
            twin = ruleset.clone(game.state)
            assert [canon(e) for e in seen_by(ruleset.setup_events(twin), side)] == read, k
            twin = ruleset.resample(game.state, side, random.Random(k))
            assert [canon(e) for e in seen_by(ruleset.setup_events(twin), side)] == read, k


_STREAM = ("rng", "seed")  # future dice: hidden from everyone, not counted as a re-sampled secret


@pytest.mark.parametrize(("rid", "scenario", "seed"), SEEDED)
def test_every_event_respects_its_visibility(rid: str, scenario: str | None, seed: int) -> None:
    play = _setup(rid, scenario, seed)
    game = play.game
    players = set(game.ruleset.meta.players)
    for event in game.events:
        inner: Event | None = event
        while inner is not None:
            if inner.visible_to is not None:
                assert inner.visible_to <= players, f"unknown sides in {inner!r}"
            inner = inner.public
    for side in players:
        log = game.log(side)
        assert all(e.visible(side) for e in log), "a side's log holds an event it may not read"
        unreadable = {id(e) for e in game.events if not e.visible(side)}
        assert not any(id(e) in unreadable for e in log)
        expected = [e.seen_by(side) for e in game.events]
        assert [canon(e) for e in log] == [canon(e) for e in expected if e is not None]


SECRET_SEED = 86_753_094_217  # digits that appear nowhere else


@pytest.mark.parametrize(("rid", "scenario"), CASES)
def test_no_side_reads_the_seed(rid: str, scenario: str | None) -> None:
    """The seed fixes every die to come: a side that read it in its observation, its log or its
    menu could foresee the dice (and undo would then tell it nothing new). Only the umpire and
    the record hold it."""
    ruleset_for(rid, scenario)
    assert scenario is not None
    game = Game(get_ruleset(rid), scenario, SECRET_SEED)
    chooser = random.Random(5)
    for _ in range(30):
        if game.outcome is not None:
            break
        for side in game.ruleset.meta.players:
            seen = json.dumps(
                [game.observation(side), [e.to_dict() for e in game.log(side)]], default=str
            )
            assert str(SECRET_SEED) not in seen, f"{side} can read the seed"
        legal = game.legal_actions()
        if not legal:
            break
        words = " ".join(game.ruleset.describe(game.state, a) for a in legal[:50])
        assert str(SECRET_SEED) not in words
        game.apply(chooser.choice(legal))


@pytest.mark.parametrize(("rid", "scenario", "seed"), SEEDED)
def test_no_log_names_a_unit_its_side_has_not_seen(
    rid: str, scenario: str | None, seed: int
) -> None:
    play = _setup(rid, scenario, seed)
    ruleset = play.game.ruleset
    sides = ruleset.meta.players
    seen: dict[str, set[str]] = {side: set() for side in sides}
    every: set[str] = set()
    for k, game in walk(play):
        every |= unit_ids(ruleset.state_to_dict(game.state))
        start, end = (0, play.marks[0]) if k == 0 else (play.marks[k - 1], play.marks[k])
        for side in sides:
            seen[side] |= unit_ids(ruleset.observation(game.state, side))
            pattern = mentions(every - seen[side])
            if pattern is None:
                continue
            for event in seen_by(game.events[start:end], side):
                found = pattern.search(event_words(event))
                assert found is None, (
                    f"{side}'s log names {found.group()!r}, a unit it has not seen, "
                    f"after {k} actions: {event!r}"
                )


# -- rules and actions ----------------------------------------------------------------------
@pytest.mark.parametrize(("rid", "scenario"), CASES)
def test_every_rule_id_is_catalogued(rid: str, scenario: str | None) -> None:
    ruleset = ruleset_for(rid, scenario)
    assert scenario is not None
    catalogue = capability(ruleset, "catalog")()
    missing: dict[str, str] = {}
    for seed in (1, 2, 3):
        for event in played(rid, scenario, seed).game.events:
            inner: Event | None = event
            while inner is not None:
                if inner.rule is not None and inner.rule not in catalogue:
                    missing.setdefault(inner.rule, inner.text)
                inner = inner.public
    assert not missing, f"rule ids not in the catalogue: {missing}"


@pytest.mark.parametrize(("rid", "scenario", "seed"), SEEDED)
def test_every_legal_action_can_be_described(rid: str, scenario: str | None, seed: int) -> None:
    play = _setup(rid, scenario, seed)
    ruleset = play.game.ruleset
    for k, game in walk(play, spread(len(play.actions), 25)):
        before = norm(game.to_dict())
        for action in game.legal_actions():
            words = game.describe(action)
            assert isinstance(words, str) and words.strip(), f"no words for {action} at {k}"
        assert norm(game.to_dict()) == before, f"describe changed the state at {k}"
        assert ruleset.to_act(game.state) == game.to_act


def _refused(game: Game, action: Action, where: str) -> None:
    before = norm(game.to_dict())
    events = len(game.events)
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert norm(game.to_dict()) == before, f"{where}: a refused {action} changed the state"
    assert len(game.events) == events


@pytest.mark.parametrize(("rid", "scenario", "seed"), SEEDED)
def test_illegal_actions_are_refused_and_change_nothing(
    rid: str, scenario: str | None, seed: int
) -> None:
    play = _setup(rid, scenario, seed)
    last_of: dict[str, list[Action]] = {}
    tried_other_side = 0
    for k, game in walk(play, spread(len(play.actions), 25)):
        side = game.to_act
        legal = game.legal_actions()
        where = f"after {k} actions"
        _refused(game, Action("no-such-kind-of-action"), where)
        if side is None:
            continue
        ghost = Action(legal[0].kind, unit="no-such-unit", target="no-such-unit", cell="ZZ99")
        _refused(game, ghost, where)
        for other, actions in last_of.items():
            if other != side:
                allowed = set(legal)
                candidates = [a for a in actions if a not in allowed]
                if candidates:
                    _refused(game, random.Random(k).choice(candidates), where)
                    tried_other_side += 1
        last_of[side] = legal
    if len(play.game.ruleset.meta.players) > 1 and len(last_of) > 1:
        assert tried_other_side, "never found another side's action to submit"
