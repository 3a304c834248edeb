"""OpenSpiel games for every registered ruleset (``umpire_<ruleset>``, e.g. ``umpire_portable``).

Registered with ``pyspiel.register_game`` by :func:`register_games`; load one with
``pyspiel.load_game("umpire_tiny", {"scenario": "skirmish"})``. Parameters: ``scenario``
(default: the ruleset's default scenario), ``seed`` (set-up only, see below) and ``slots``
(the number of distinct actions).

Players' moves are the sub-decision digits of :mod:`umpire.rl.encoding` (one OpenSpiel action
per digit; the same player moves again until the game action is complete).

Chance: every random number a ruleset draws while applying an action goes through the state's
random stream (``state.rng``, :mod:`umpire.core.rng`), which this adapter replaces with a
:class:`ChanceStream`. When the rules ask it for a die of ``n`` faces, a card index among ``n``
or a shuffle step, the game stops at a chance node with ``n`` equally likely outcomes, so each
core chance primitive (``Roll``, ``Test``, ``CountAtLeast``, ``TableLookup``, ``Draw``...)
gets exactly its own distribution as the product of its dice; a shuffle is a Fisher-Yates
sequence of uniform choices. Random draws made while the scenario is *set up*
(``new_state``) come from the ``seed`` parameter, not from chance nodes.

Information: information-state and observation strings/tensors are built from the player's
``observation`` (plus that player's own digits chosen so far), never from the state. They are
not a full history (imperfect recall beyond what the ruleset's observation keeps).
``resample_from_infostate`` uses the ruleset's ``resample`` so OpenSpiel's ISMCTS bot
(:class:`open_spiel.python.algorithms.ismcts.ISMCTSBot`) can play.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from umpire.core.actions import Action
from umpire.core.rng import RandomStream
from umpire.core.ruleset import Ruleset, get_ruleset, ruleset_ids
from umpire.rl.encoding import DROPPED_KEYS, Menu, ObservationEncoder
from umpire.rl.session import side_name

MAX_CHANCE_OUTCOMES = 1024
DEFAULT_SLOTS = 32


class NeedChance(BaseException):  # noqa: N818 - a control-flow signal, not an error
    """Raised by :class:`ChanceStream` when the rules want a random number not yet chosen.
    A ``BaseException`` so a ruleset's ``except Exception`` cannot swallow it."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


class ChanceStream:
    """A random stream that serves outcomes chosen at chance nodes, in order."""

    __slots__ = ("outcomes", "pos")

    def __init__(self, outcomes: list[int] | None = None, pos: int = 0) -> None:
        self.outcomes = list(outcomes or [])
        self.pos = pos

    def _next(self, n: int) -> int:
        if n < 1:
            raise ValueError("a random choice among no outcomes")
        if n == 1:
            return 0  # no chance node for a certain outcome
        if self.pos < len(self.outcomes):
            value = self.outcomes[self.pos]
            if not 0 <= value < n:
                raise ValueError(f"chance outcome {value} outside 0..{n - 1}")
            self.pos += 1
            return value
        raise NeedChance(n)

    def d(self, sides: int) -> int:
        return self._next(sides) + 1

    def dice(self, count: int, sides: int) -> list[int]:
        return [self.d(sides) for _ in range(count)]

    def choice_index(self, n: int) -> int:
        return self._next(n)

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self._next(i + 1)
            items[i], items[j] = items[j], items[i]

    def clone(self) -> ChanceStream:
        return ChanceStream(self.outcomes, self.pos)

    def to_dict(self) -> dict[str, Any]:
        return {"chance_stream": list(self.outcomes), "pos": self.pos}


def _clone(ruleset: Ruleset[Any], state: Any) -> Any:
    """``ruleset.clone`` with the chance stream carried across (clones go through plain data,
    which holds a real stream)."""
    stream = state.rng
    state.rng = RandomStream(0)
    try:
        twin = ruleset.clone(state)
    finally:
        state.rng = stream
    twin.rng = stream.clone() if isinstance(stream, ChanceStream) else ChanceStream()
    return twin


class _Shared:
    """A reference copied as itself (the game, a cache): OpenSpiel deep-copies state
    attributes when it clones a Python state."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Cache:
    """The menu and observations of one ruleset state; a clone starts empty."""

    __slots__ = ("state", "menu", "observations")

    def __init__(self) -> None:
        self.state: Any = None
        self.menu: Menu | None = None
        self.observations: dict[int, dict[str, Any]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cache:
        return _Cache()


class _Holder:
    """The ruleset state inside an OpenSpiel state. It is never changed in place (an action
    is applied to a clone), so OpenSpiel's copies of a state share it."""

    __slots__ = ("ruleset", "state")

    def __init__(self, ruleset: Ruleset[Any], state: Any) -> None:
        self.ruleset = ruleset
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return self


def _canonical(observation: Mapping[str, Any]) -> str:
    kept = {k: v for k, v in observation.items() if k not in DROPPED_KEYS}
    return json.dumps(kept, sort_keys=True, default=str, separators=(",", ":"))


def game_type(ruleset: Ruleset[Any]) -> pyspiel.GameType:
    meta = ruleset.meta
    perfect = meta.information == "perfect"
    return pyspiel.GameType(
        short_name=f"umpire_{meta.id}",
        long_name=f"Umpire: {meta.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if perfect
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=len(meta.players),
        min_num_players=len(meta.players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "scenario": meta.default_scenario or ruleset.scenario_ids()[0],
            "seed": 0,
            "slots": DEFAULT_SLOTS,
        },
    )


class UmpireGame(pyspiel.Game):  # type: ignore[misc]
    """One ruleset and scenario as an OpenSpiel game."""

    def __init__(self, ruleset_id: str, params: Mapping[str, Any] | None = None) -> None:
        self.ruleset = get_ruleset(ruleset_id)
        gtype = game_type(self.ruleset)
        full = {**gtype.parameter_specification, **dict(params or {})}
        self.scenario = str(full["scenario"])
        self.seed = int(full["seed"])
        self.slots = int(full["slots"])
        meta = self.ruleset.meta
        info = pyspiel.GameInfo(
            num_distinct_actions=self.slots,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=len(meta.players),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=meta.max_actions * 64,
        )
        super().__init__(gtype, info, full)
        self.encoder = ObservationEncoder(self.slots)
        self.players = list(meta.players)
        initial = self.ruleset.new_state(self.scenario, self.seed, {})
        initial.rng = ChanceStream()
        self._initial = _Holder(self.ruleset, initial)

    def new_initial_state(self) -> UmpireState:
        return UmpireState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> UmpireObserver:
        return UmpireObserver(self)


class UmpireState(pyspiel.State):  # type: ignore[misc]
    """A position: the ruleset state, the digits chosen so far, and for an action being
    resolved, the action and the chance outcomes drawn for it so far."""

    def __init__(self, game: UmpireGame) -> None:
        super().__init__(game)
        self._shared = _Shared(game)
        self._holder = game._initial
        self._prefix: list[int] = []
        self._pending: dict[str, Any] | None = None  # the action being resolved (as data)
        self._chance: list[int] = []
        self._chance_n = 0
        self._cache = _Cache()

    @property
    def _game(self) -> UmpireGame:
        return self._shared.value  # type: ignore[no-any-return]

    # -- reading ---------------------------------------------------------------------------
    @property
    def ruleset_state(self) -> Any:
        return self._holder.state

    def _menu(self) -> Menu:
        cache = self._cache
        if cache.menu is None or cache.state is not self._holder.state:
            legal = self._game.ruleset.legal_actions(self._holder.state)
            cache.state, cache.menu = self._holder.state, Menu(legal, self._game.slots)
            cache.observations = {}
        return cache.menu

    def _stopped(self) -> bool:
        state = self._holder.state
        rs = self._game.ruleset
        return rs.outcome(state) is not None or rs.to_act(state) is None

    def current_player(self) -> int:
        if self._pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._stopped():
            return int(pyspiel.PlayerId.TERMINAL)
        mover: Any = self._game.ruleset.to_act(self._holder.state)
        return self._game.players.index(mover)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._menu().options(self._prefix))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self._chance_n
        return [(i, p) for i in range(self._chance_n)]

    def is_terminal(self) -> bool:
        return self._pending is None and self._stopped()

    def returns(self) -> list[float]:
        outcome = self._game.ruleset.outcome(self._holder.state)
        if outcome is None or outcome.winner == "draw":
            return [0.0] * len(self._game.players)
        return [1.0 if p == outcome.winner else -1.0 for p in self._game.players]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance:{action + 1}/{self._chance_n}"
        label = self._menu().options(self._prefix).get(action, "?")
        return f"{side_name(self._game.players[player])}:{action}={label}"

    def __str__(self) -> str:
        return json.dumps(
            self._game.ruleset.summary(self._holder.state), sort_keys=True, default=str
        )

    # -- changes ---------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        if self._pending is not None:
            self._chance.append(int(action))
            self._resolve()
            return
        self._prefix.append(int(action))
        chosen = self._menu().decode(self._prefix)
        if chosen is None:
            return
        self._prefix = []
        self._pending = chosen.to_dict()
        self._chance = []
        self._resolve()

    def _resolve(self) -> None:
        assert self._pending is not None
        rs = self._game.ruleset
        twin = _clone(rs, self._holder.state)
        twin.rng = ChanceStream(self._chance)
        try:
            rs.apply(twin, Action.from_dict(self._pending))
        except NeedChance as need:
            if need.n > MAX_CHANCE_OUTCOMES:
                raise ValueError(f"a chance node with {need.n} outcomes") from None
            self._chance_n = need.n
            return
        twin.rng = ChanceStream()
        self._holder = _Holder(rs, twin)
        self._pending = None
        self._chance = []
        self._chance_n = 0

    # -- information -------------------------------------------------------------------------
    def _observation(self, player: int) -> dict[str, Any]:
        cache = self._cache
        if cache.state is not self._holder.state:
            self._menu()
        found = cache.observations.get(player)
        if found is None:
            side = self._game.players[player]
            found = self._game.ruleset.observation(self._holder.state, side)
            cache.observations[player] = found
        return found

    def _own_prefix(self, player: int) -> list[int]:
        if self._pending is None and not self._stopped() and self.current_player() == player:
            return list(self._prefix)
        return []

    def info_string(self, player: int) -> str:
        return f"{_canonical(self._observation(player))}|{self._own_prefix(player)}"

    def info_tensor(self, player: int) -> np.ndarray:
        prefix = self._own_prefix(player)
        options = (
            self._menu().options(prefix) if prefix or self.current_player() == player else None
        )
        if self._pending is not None or self._stopped():
            options = None
        return self._game.encoder.encode(self._observation(player), len(prefix), options)

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> UmpireState:
        """A state ``player`` cannot tell from this one, the hidden rest re-drawn by the
        ruleset's ``resample`` (seeded from the sampler)."""
        seed = int(float(probability_sampler()) * 2**31) if callable(probability_sampler) else 0
        rs = self._game.ruleset
        side = self._game.players[player]
        stream = self._holder.state.rng
        self._holder.state.rng = RandomStream(0)
        try:
            sampled = rs.resample(self._holder.state, side, random.Random(seed))
        finally:
            self._holder.state.rng = stream
        sampled.rng = ChanceStream()
        twin: UmpireState = self.clone()
        twin._holder = _Holder(rs, sampled)
        twin._cache = _Cache()
        return twin


class UmpireObserver:
    """Observation strings and tensors from the player's observation only."""

    def __init__(self, game: UmpireGame) -> None:
        self.tensor = np.zeros(game.encoder.length, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: UmpireState, player: int) -> None:
        self.tensor[:] = state.info_tensor(player)

    def string_from(self, state: UmpireState, player: int) -> str:
        return state.info_string(player)


_REGISTERED: set[str] = set()


def _subclass_init(self: UmpireGame, params: Mapping[str, Any] | None = None) -> None:
    UmpireGame.__init__(self, type(self).ruleset_id, params)


def register_games() -> list[str]:
    """Register ``umpire_<id>`` for every installed ruleset (idempotent); returns the names."""
    names = []
    for ruleset_id in ruleset_ids():
        ruleset = get_ruleset(ruleset_id)
        name = f"umpire_{ruleset_id}"
        names.append(name)
        if name in _REGISTERED:
            continue

        # a class, not a closure: pyspiel keeps the factory until the interpreter has gone,
        # and releasing a closure then aborts the process
        cls = type(
            f"Umpire_{ruleset_id}_Game",
            (UmpireGame,),
            {"ruleset_id": ruleset_id, "__init__": _subclass_init, "__module__": __name__},
        )
        globals()[cls.__name__] = cls
        pyspiel.register_game(game_type(ruleset), cls)
        _REGISTERED.add(name)
    return names


def load_game(ruleset_id: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game("umpire_<ruleset_id>", params)`` after registering the games."""
    register_games()
    return pyspiel.load_game(f"umpire_{ruleset_id}", params)
