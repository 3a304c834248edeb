"""The scripted player of 7 Days to the Rhine: decides from its own observation and the
scenario's public data only.

Pact: stacks up, attacks where the odds and modifiers make the defender leave, with all the
support it may commit where it counts (cities, thin margins); advances, uses momentum and
probes toward Westburg and the west edge. NATO: holds cities and good terrain near the enemy,
defends cities with support, counter-attacks only at good odds, withdraws in column when out of
contact."""

from __future__ import annotations

import itertools
import operator
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence, Set
from fractions import Fraction
from typing import Any

from umpire.agents.base import View
from umpire.core.actions import Action
from umpire.rulesets.rhine import rules as R
from umpire.rulesets.rhine.model import World, world_for

_STATIC: dict[Any, Any] = {}  # per map, made once: objectives, road hexes, 2-hex rings
_KIND = operator.attrgetter("kind")
CS_KEEP = 0.05  # what keeping one support marker for a later combat is worth (result scale)
GOOD = {"DE": 1.0, "DR2": 0.9, "DR1": 0.8, "EX": 0.5, "NE": 0.0, "AR": -0.3, "AE": -1.0}


def _hex_static(w: World) -> dict[str, tuple[int, int]]:
    """Per map, made once: each hex's terrain value to a defender (less its combat DRM) and
    its column."""
    found = _STATIC.get(("hex", id(w)))
    if found is None or found[0] is not w:
        terrain = w.tables.tec.terrain
        table = {h: (-terrain[w.terrain[h]].drm, w.column(h)) for h in w.ids}
        found = _STATIC[("hex", id(w))] = (w, table)
    table_: dict[str, tuple[int, int]] = found[1]
    return table_


class _Board:
    """The rules' view of a position, read from an observation (its own copies: the board
    is never changed, so it reads them where they are)."""

    def __init__(self, obs: Mapping[str, Any]) -> None:
        self.pos: dict[str, str | None] = obs["pos"]
        self.ew: dict[str, int] = obs["ew"]
        self.control: dict[str, str] = obs["control"]
        self.air_holder: str | None = obs["air_holder"]
        self.air_markers: list[str] = obs["air_markers"]
        self.refugees: list[str] = obs["refugees"]
        self.heli_ma: dict[str, int] = obs.get("heli_ma", {})
        # worked out once per decision (the board is never changed)
        self.occ: dict[str, list[str]] | None = None
        self.enemy: dict[str, list[str]] | None = None

    def occupancy(self, w: World) -> dict[str, list[str]]:
        if self.occ is None:
            self.occ = R.occupancy(w, self)
        return self.occ


_END_PHASE = Action("end_phase")
_BONUS = {"normal": 0.01}  # what a mode adds to a destination's score (others: 0.0)
# a move as the player weighs it: (destination, mode), or a rules' MoveOption (which starts so)
MoveChoice = tuple[str, str] | R.MoveOption


def listed_moves(legal: Sequence[Action]) -> Iterator[tuple[str, Sequence[MoveChoice]]]:
    """The move actions of a listing as each unit's options (destination, mode), the units in
    the order they are first listed (a unit's runs merged)."""
    by_unit: dict[str, list[MoveChoice]] = {}
    for a in legal:
        if a.kind == "move":
            by_unit.setdefault(a.unit or "", []).append((a.cell or "", a.option or ""))
    yield from by_unit.items()


# a unit's moves as the player weighs them: the unit, its destinations in listed order, and
# the runs of them by one mode, in order (mode, how many)
UnitMoves = tuple[str, Sequence[str], Sequence[tuple[str, int]]]


def mode_runs(modes: Iterable[str]) -> list[tuple[str, int]]:
    """The runs of equal modes in ``modes``, in order: (mode, how many)."""
    return [(mode, sum(1 for _ in run)) for mode, run in itertools.groupby(modes)]


def _mode_at(runs: Sequence[tuple[str, int]], i: int) -> str:
    """The mode of the ``i``-th destination, from the runs of modes."""
    for mode, n in runs:
        if i < n:
            return mode
        i -= n
    raise IndexError(i)


def listed_destinations(legal: Sequence[Action]) -> Iterator[UnitMoves]:
    """:func:`listed_moves` as each unit's destinations and runs of modes."""
    for unit, options in listed_moves(legal):
        yield unit, [o[0] for o in options], mode_runs(o[1] for o in options)


def nato_near(
    w: World, pos: Mapping[str, str | None], rings: Mapping[str, frozenset[str]]
) -> Mapping[str, int]:
    """How many NATO units stand within 2 hexes of each hex (``rings``: each hex's hexes
    within 2), each unit's ring counted at once (in C); hexes near none are not listed.
    The loop it replaces is ``tests/rhine/test_agent_counts.plain_near``."""
    near: Counter[str] = Counter()
    units = w.units
    for u, p in pos.items():
        if p and units[u].side == "nato":
            near.update(rings[p])
    return near


def _distance_lists(w: World) -> dict[str, list[int]]:
    """Per map, made once as asked: each hex's distances to every hex, in ``w.ids`` order."""
    found = _STATIC.get(("distance_lists", id(w)))
    if found is None or found[0] is not w:
        found = _STATIC[("distance_lists", id(w))] = (w, {})
    lists: dict[str, list[int]] = found[1]
    return lists


def nearest_enemy(w: World, enemy: Iterable[str]) -> dict[str, int]:
    """How far each hex of the map is from the nearest of the ``enemy`` hexes (6 for every
    hex when there is none), all hexes at once: each hex's least distance taken over the
    enemy hexes' distance lists together (in C). The loop it replaces, hex by hex, is
    ``tests/rhine/test_agent_counts.plain_nearest``."""
    lists = _distance_lists(w)
    rows = []
    for e in enemy:
        row = lists.get(e)
        if row is None:
            away = w.distances_from(e)
            row = lists[e] = [away[h] for h in w.ids]
        rows.append(row)
    if not rows:
        return dict.fromkeys(w.ids, 6)
    if len(rows) == 1:
        return dict(zip(w.ids, rows[0], strict=True))
    return dict(zip(w.ids, map(min, *rows), strict=True))


def own_moves(
    w: World, board: _Board, obs: Mapping[str, Any], units: Sequence[str], skip: Set[str]
) -> Iterator[tuple[str, Sequence[MoveChoice]]]:
    """Each of ``units``' moves (not those in ``skip``) on the player's board as the rules
    list them (:func:`rules.move_answers`, the listing's own function), as (destination, mode)
    in listed order; worked out unit by unit as they are asked for. Units with no move are
    left out, as in the listing."""
    turn = obs["flow"]["turn"]
    status = obs["status"]
    occ = board.occupancy(w)
    shared: dict[Any, Any] = {"occ": occ}  # the rules' scratch dict for this board
    for u in units:
        if u in skip:
            continue
        entry = R.entry_hexes(w, occ, status, u)
        answers = R.move_answers(w, board, u, turn, entry, False, shared)
        # a MoveOption starts (dest, mode): the answers joined are the unit's options
        options: tuple[R.MoveOption, ...] = ()
        for answer in answers:
            options += answer
        if options:
            yield u, options


def own_destinations(
    w: World, board: _Board, obs: Mapping[str, Any], units: Sequence[str], skip: Set[str]
) -> Iterator[UnitMoves]:
    """:func:`own_moves` as each unit's destinations and runs of modes: the same units,
    destinations and modes in the same order, a ground unit's read from the rules' listing
    without making its options (:func:`rules.ground_destinations`, normal then column
    mode); a helicopter's flights are its options. Compared with :func:`own_moves` in
    ``tests/rhine/test_move_cache.py``."""
    turn = obs["flow"]["turn"]
    status = obs["status"]
    occ = board.occupancy(w)
    shared: dict[Any, Any] = {"occ": occ}  # the rules' scratch dict for this board
    infos = w.units
    for u in units:
        if u in skip:
            continue
        info = infos[u]
        if info.static:
            continue  # (it has no move)
        entry = R.entry_hexes(w, occ, status, u)
        if info.heliborne:
            options = [
                o
                for answer in R.move_answers(w, board, u, turn, entry, False, shared)
                for o in answer
            ]
            if options:
                yield u, [o.dest for o in options], mode_runs(o.mode for o in options)
            continue
        normal = R.ground_destinations(w, board, u, turn, occ, "normal", entry, shared)
        column = R.ground_destinations(w, board, u, turn, occ, "column", entry, shared)
        if normal or column:
            yield u, normal + column, (("normal", len(normal)), ("column", len(column)))


class RhineScripted:
    name = "scripted"

    def __init__(self, side: str, seed: int = 0) -> None:
        self.side = side
        self.rng = random.Random(seed * 7919 + (1 if side == "pact" else 2))
        self.last_reason = ""
        self._stay: set[str] = set()
        self._phase: tuple[Any, ...] = ()
        self._goal: dict[str, float] = {}
        # NATO: distance to the nearest enemy, and the spearhead's column, for the enemy's
        # stacks _adj_enemy (kept while the enemy stands still)
        self._near: dict[str, int] = {}
        self._goal_key: tuple[Any, ...] = ()
        self._goal_all: dict[str, float] = {}
        self._hexes: dict[str, tuple[tuple[str, ...], int, int, float, float, float]] = {}
        self._held: frozenset[str] | None = None
        # what _hexes was worked out for: the enemy's stacks and who holds each city (it is
        # kept while they stay; a hex is forgotten when a friendly unit enters or leaves it)
        self._hexes_key: tuple[Any, ...] = ()
        # the enemy strength next to each hex, and the map and enemy stacks it was counted for
        self._adj: dict[str, int] = {}
        self._adj_world: World | None = None
        self._adj_enemy: dict[str, list[str]] = {}
        self._friends: dict[str, str] = {}
        # what each hex in _hexes is worth to a unit of each strength joining it (the only
        # thing of the unit a destination's score reads), kept and forgotten with _hexes
        self._scored: dict[int, dict[str, float]] = {}
        # the map's static values per hex (see _hex_static), and the map they are for
        self._static_for: World | None = None
        self._static: dict[str, tuple[int, int]] = {}

    # -- entry point -----------------------------------------------------------------------
    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        obs = view.observation
        w = world_for(obs["scenario"], obs["options"].get("house_rules"))
        board = _Board(obs)
        self._goal = {}  # goal distances for this decision's board
        self._held = None  # the objectives the Pact holds on this decision's board
        flow = obs["flow"]
        key = (flow["turn"], flow["phase"])
        if key != self._phase:
            self._phase, self._stay = key, set()
        if obs["segment"] == "move" and not flow["stack"]:
            # a movement phase: its actions are the moves, the jammed helicopters' MA rolls and
            # ending the phase; the player works its moves out from its own board, unit by
            # unit, and never needs the whole listing
            return self._movement(w, board, obs)
        kinds = set(map(_KIND, legal))
        if "order" in kinds:
            return self._order(w, board, obs, legal)
        if "setup_suggested" in kinds:
            # the scenario's suggested set-up, on which the victory thresholds are tuned
            self.last_reason = "the scenario's suggested set-up"
            return next(a for a in legal if a.kind == "setup_suggested")
        if "attrition" in kinds:
            return self._attrition(w, obs, legal)
        if "cs" in kinds:
            return self._cs(w, board, obs, legal)
        if "place_air" in kinds:
            return self._air(w, board, legal)
        if "ew_mark" in kinds or "ew_strip" in kinds:
            return self._ew(w, board, legal)
        if "retreat" in kinds:
            return self._retreat(w, board, legal)
        if "ex_loss" in kinds:
            return min(legal, key=lambda a: sum(w.units[u].strength for u in a.units))
        if "advance" in kinds:
            return self._advance(w, board, obs, legal)
        if "refugee" in kinds:
            return self._refugee(w, board, legal)
        if "heli_ma" in kinds:
            return next(a for a in legal if a.kind == "heli_ma")
        if "attack" in kinds or "probe" in kinds or "decline" in kinds:
            found = self._combat(w, board, obs, legal)
            if found is not None:
                return found
        if "move" in kinds:
            found = self._move(w, board, listed_destinations(legal))
            if found is not None:
                return found
        for fallback in ("decline", "end_phase", "stop_ew", "stop_air"):
            for a in legal:
                if a.kind == fallback:
                    self.last_reason = "nothing worth doing"
                    return a
        return legal[0]

    def _attrition(self, w: World, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """The artillery marker lost to attrition: the house rule of thumb (the nation with
        most markers left, one in the pool first; admin.house_attrition_pick)."""
        from umpire.rulesets.rhine.admin import house_attrition_pick

        ammunition = bool(w.switches.get("ammunition"))
        pick = house_attrition_pick(obs["cs"], self.side, ammunition)
        self.last_reason = "artillery lost from the nation with most markers left"
        return next((a for a in legal if a.option == pick), legal[0])

    # -- helpers ---------------------------------------------------------------------------
    def _enemy_hexes(self, w: World, board: _Board) -> dict[str, list[str]]:
        if board.enemy is None:
            occ = board.occupancy(w)
            board.enemy = {h: us for h, us in occ.items() if w.units[us[0]].side != self.side}
        return board.enemy

    def _objectives(self, w: World, board: _Board) -> list[tuple[str, float]]:
        """Hexes the Pact wants (weighted), or NATO must hold (static: made once per map)."""
        found = _STATIC.get(("objectives", id(w)))
        if found is None or found[0] is not w:
            vp = w.spec.victory.city_vp
            out = [(h, float(vp.get(name, 1))) for h, name in w.city_of.items()]
            found = _STATIC[("objectives", id(w))] = (w, out)
        return found[1]

    def _goal_distance(self, w: World, board: _Board, h: str) -> float:
        known = self._goal.get(h)
        if known is not None:
            return known
        return self._goal_distance_of(w, board, h)

    def _goal_distance_of(self, w: World, board: _Board, h: str) -> float:
        """The Pact's distance to its goals; it changes only when the cities it holds do, so it
        is remembered by them across decisions."""
        if self.side != "pact":
            return 0.0
        held = self._held
        if held is None:
            control = board.control
            held = self._held = frozenset(
                c for c, _ in self._objectives(w, board) if control.get(c) == "pact"
            )
        if self._goal_key != (id(w), held):
            # the distances for these held objectives, per map (every game and player shares
            # them: they read only the map and the objectives held)
            shared = _STATIC.get(("goal", id(w), held))
            if shared is None or shared[0] is not w:
                shared = _STATIC[("goal", id(w), held)] = (w, {})
            self._goal_key, self._goal_all = (id(w), held), shared[1]
        self._goal = self._goal_all  # this decision's distances: read there from now on
        found = self._goal_all.get(h)
        if found is None:
            found = self._goal_all[h] = self._goal_distance_fresh(w, board, h)
        return found

    def _goal_distance_fresh(self, w: World, board: _Board, h: str) -> float:
        if self.side == "pact":
            best = 99.0
            for city, weight in self._objectives(w, board):
                if board.control.get(city) == "pact":
                    continue
                best = min(best, w.distance(h, city) - weight * 0.7)
            if w.exit_column is not None:
                best = min(best, float(w.column(h) - w.exit_column) + 1.0)
            return best
        return 0.0

    # -- decisions -------------------------------------------------------------------------
    def _order(
        self, w: World, board: _Board, obs: Mapping[str, Any], legal: Sequence[Action]
    ) -> Action:
        ready = sum(
            1
            for m in obs["cs"]
            if m["side"] == self.side and m["status"] == "ready" and m["type"] == "artillery"
        )
        choice = "fight-move" if ready >= 3 else "move-fight"
        if self.side == "pact":
            enemy = self._enemy_hexes(w, board)
            contact = any(
                n in enemy
                for u, h in board.pos.items()
                if h and w.units[u].side == "pact"
                for n in w.neighbours[h]
            )
            choice = "fight-move" if contact and ready >= 2 else "move-fight"
        self.last_reason = f"{choice}: {ready} artillery ready"
        return next(a for a in legal if a.option == choice)

    def _front(self, w: World, board: _Board) -> list[str]:
        enemy = self._enemy_hexes(w, board)
        out = set()
        for h in enemy:
            out.add(h)
            out.update(w.neighbours[h])
        return sorted(out)

    def _air(self, w: World, board: _Board, legal: Sequence[Action]) -> Action:
        front = self._front(w, board)
        cap = w.air_cap or 3
        # a marker's score is the sum of the front hexes' shortfalls of markers covering them
        # (cap less the markers in range, at least 0) in its range; range is symmetric, so
        # each front hex short of cover adds its shortfall to every hex in range of it.
        # Counted with bit sets: level k holds the front hexes short of more than k markers,
        # and a hex gains, for each level, the number of its hexes in range
        bit, in_range = self._range_bits(w)
        front_bits = 0
        for f in front:
            front_bits |= bit[f]
        # covered[j]: the hexes in range of j markers or more (up to cap), marker by marker
        covered = [0] * (cap + 1)
        for m in board.air_markers:
            reach = in_range[m]
            for j in range(cap, 1, -1):
                covered[j] |= covered[j - 1] & reach
            covered[1] |= reach
        # short of more than k markers: covered by fewer than cap - k
        levels = [front_bits & ~covered[cap - k] for k in range(cap)]
        # the first placement of the highest score: a hex out of range of every front hex
        # short of cover scores 0 (the first placement, unless another scores more)
        best, score = None, -1.0
        first = levels[0] if levels else 0
        for a in legal:
            if a.kind != "place_air" or a.cell is None:
                continue
            reach = in_range.get(a.cell, 0) & first  # every level lies within the first
            if reach:
                s = 0
                for level in levels:
                    s += (reach & level).bit_count()
                if s > score:
                    best, score = a, s
            elif score < 0:
                best, score = a, 0
        if best is None or score <= 0:
            stop = [a for a in legal if a.kind == "stop_air"]
            if stop and score == 0 and best is None:
                return stop[0]
        self.last_reason = f"air marker covering {score:g} front hex shortfalls"
        return best or legal[0]

    def _range_bits(self, w: World) -> tuple[dict[str, int], dict[str, int]]:
        """Per map, made once: each hex's bit, and each hex's air range as a bit set."""
        found = _STATIC.get(("range_bits", id(w)))
        if found is None or found[0] is not w:
            bit = {h: 1 << i for i, h in enumerate(w.ids)}
            in_range = {h: sum(bit[c] for c in w.in_range[h]) for h in w.ids}
            found = _STATIC[("range_bits", id(w))] = (w, bit, in_range)
        return found[1], found[2]

    def _ew(self, w: World, board: _Board, legal: Sequence[Action]) -> Action:
        strips = [a for a in legal if a.kind == "ew_strip"]
        own = {h for u, h in board.pos.items() if h and w.units[u].side == self.side}
        if strips and len(board.air_markers) >= 2:
            best = max(strips, key=lambda a: len(w.in_range[a.cell or ""] & own))
            self.last_reason = "jam the enemy air marker over most of my units"
            return best
        marks = [a for a in legal if a.kind == "ew_mark"]
        if marks:

            def value(a: Action) -> float:
                h = a.cell or ""
                units = [u for u, p in board.pos.items() if p == h]
                contact = any(n in own for n in w.neighbours[h])
                already = max((board.ew.get(u, 0) for u in units), default=0)
                return sum(w.units[u].strength for u in units) * (2 if contact else 1) - 5 * already

            best = max(marks, key=value)
            self.last_reason = f"jam the stack in {best.cell}"
            return best
        return next(a for a in legal if a.kind == "stop_ew")

    def _crt_value(self, w: World, column: int, drm: int) -> tuple[float, Fraction]:
        """The worth and the chance the defender leaves of one column and DRM (exact and
        fixed per map's tables: remembered by them)."""
        key = ("crt", id(w), column, drm)
        found = _STATIC.get(key)
        if found is None or found[0] is not w:
            dist = R.crt_distribution(w, column, drm)
            value = sum(float(p) * GOOD[r] for r, p in dist.items())
            vacate = sum(
                (p for r, p in dist.items() if r in ("DR1", "DR2", "DE", "EX")), Fraction(0)
            )
            found = _STATIC[key] = (w, value, vacate)
        return found[1], found[2]

    def _attack_score(self, w: World, board: _Board, a: Action, cs_guess: int) -> float:
        target = a.cell or ""
        defenders = [u for u, p in board.pos.items() if p == target]
        fig = R.combat_figures(w, board, self.side, target, a.units, defenders)
        if fig.column is None:
            return -9.0
        value, vacate = self._crt_value(w, fig.column, fig.drm + cs_guess)
        bonus = 0.0
        if target in w.city_of:
            bonus += 0.4
        if self.side == "pact":
            bonus += 0.1 * max(0.0, 4 - self._goal_distance(w, board, target))
        return value + bonus * float(vacate) - 0.03 * len(a.units)

    def _combat(
        self, w: World, board: _Board, obs: Mapping[str, Any], legal: Sequence[Action]
    ) -> Action | None:
        ready = sum(1 for m in obs["cs"] if m["side"] == self.side and m["status"] == "ready")
        attacks = [a for a in legal if a.kind == "attack"]
        threshold = 0.35 if self.side == "pact" else 0.55
        if attacks:
            scored = [
                (self._attack_score(w, board, a, min(ready, 1)), i, a)
                for i, a in enumerate(attacks)
            ]
            s, _, best = max(scored)
            if s >= threshold:
                self.last_reason = f"attack {best.cell} (score {s:.2f})"
                return best
        probes = [a for a in legal if a.kind == "probe"]
        if probes and self.side == "pact":

            def pv(a: Action) -> float:
                h = a.cell or ""
                enemy = self._enemy_hexes(w, board)
                danger = sum(
                    sum(w.units[u].strength for u in enemy.get(n, [])) for n in w.neighbours[h]
                )
                here = board.pos.get(a.unit or "") or h
                gain = self._goal_distance(w, board, here) - self._goal_distance(w, board, h)
                return gain - danger / max(1, w.units[a.unit or ""].strength) * 0.5

            best = max(probes, key=pv)
            if pv(best) > 0:
                self.last_reason = f"probe into {best.cell}"
                return best
        return None

    def _cs(
        self, w: World, board: _Board, obs: Mapping[str, Any], legal: Sequence[Action]
    ) -> Action:
        """Support where it counts: each marker is one DRM point (rhine.drm.cs), so the player
        weighs what the commitment changes in the result's distribution against keeping the
        markers for later combats this turn. Cities count double (they are what the game is
        won with). The other side's commitment is unknown (rhine.cs.secret): it is guessed as
        one marker if that side has any ready."""
        stack = obs["flow"]["stack"]
        data = stack[-1]["data"] if stack else {}
        target = data.get("target", "")
        units = list(data.get("units", []))
        attacking = any(board.pos.get(u) and w.units[u].side == self.side for u in units)
        attacker = self.side if attacking else R.other(self.side)
        defenders = [u for u, p in board.pos.items() if p == target]
        fig = R.combat_figures(w, board, attacker, target, units, defenders)
        other_ready = any(
            m["side"] != self.side and m["status"] == "ready" for m in obs.get("cs", [])
        )
        guess = 1 if other_ready else 0
        weight = 2.0 if target in w.city_of else 1.0

        def size(a: Action) -> int:
            return sum(R.parse_cs(a.option or "none").values())

        def worth(k: int) -> float:
            if fig.column is None:
                return 0.0
            drm = fig.drm + (k - guess if attacking else guess - k)
            value, _ = self._crt_value(w, fig.column, drm)
            return (value if attacking else -value) * weight - CS_KEEP * k

        scores = {k: worth(k) for k in sorted({size(a) for a in legal})}
        best_k = max(scores, key=lambda k: (scores[k], -k))
        choice = next(a for a in legal if size(a) == best_k)
        gain = scores[best_k] - scores.get(0, scores[best_k])
        self.last_reason = (
            f"commit {best_k} support (worth {gain:+.2f})" if best_k else "keep support"
        )
        return choice

    def _retreat(self, w: World, board: _Board, legal: Sequence[Action]) -> Action:
        enemy = self._enemy_hexes(w, board)

        def v(a: Action) -> float:
            h = a.cell or ""
            danger = sum(1 for n in w.neighbours[h] if n in enemy)
            east = w.column(h) if self.side == "pact" else -w.column(h)
            return -danger * 2 - w.tables.tec.terrain[w.terrain[h]].drm + 0.1 * east

        return max(legal, key=v)

    def _advance(
        self, w: World, board: _Board, obs: Mapping[str, Any], legal: Sequence[Action]
    ) -> Action:
        opts = [a for a in legal if a.units]
        empty = [a for a in legal if not a.units]
        if not opts:
            return legal[0]
        best = max(opts, key=lambda a: sum(w.units[u].strength for u in a.units))
        if self.side == "pact":
            self.last_reason = "advance in strength"
            return best
        stack = obs["flow"]["stack"]
        target = stack[-1]["data"].get("target", "") if stack else ""
        singles = [a for a in opts if len(a.units) == 1]
        if target in w.city_of and singles:
            self.last_reason = "retake the city"
            return max(singles, key=lambda a: w.units[a.units[0]].strength)
        self.last_reason = "hold the line rather than advance"
        return empty[0] if empty else best

    def _refugee(self, w: World, board: _Board, legal: Sequence[Action]) -> Action:
        static = _STATIC.get(("refugee", id(w)))
        if static is None or static[0] is not w:
            road_hexes = {
                h
                for h in w.ids
                if any(
                    frozenset((h, n)) in w.road_edges or frozenset((h, n)) in w.autobahn_edges
                    for n in w.neighbours[h]
                )
            }
            rings = {h: frozenset(n for n in w.ids if w.distance(h, n) <= 2) for h in w.ids}
            static = _STATIC[("refugee", id(w))] = (w, road_hexes, rings)
        _, road_hexes, rings = static
        near = nato_near(w, board.pos, rings).get
        random = self.rng.random
        # each hex's worth, in listed order (one draw each, as many as listed), and the first
        # of the highest, as max(legal, key=...) takes it
        values = [
            near(h, 0) + (1.5 if h in road_hexes else 0) + random() * 0.1
            for h in (a.cell or "" for a in legal)
        ]
        return legal[values.index(max(values))]

    def _movement(self, w: World, board: _Board, obs: Mapping[str, Any]) -> Action:
        """A decision of its own movement phase, from its observation: what the rules list
        (rhine.move.*, rhine.heli.*, rhine.reinf.entry), worked out only for the units the
        player looks at."""
        turn = obs["flow"]["turn"]
        status = obs["status"]
        movable = R.movable_units(w, status, obs["moved"], self.side, turn)
        jammed = R.heli_ma_units(w, movable, board.ew, board.heli_ma)
        if jammed:
            return Action("heli_ma", unit=jammed[0])
        # the units looked at already this phase are not asked again
        found = self._move(w, board, own_destinations(w, board, obs, movable, self._stay))
        if found is not None:
            return found
        self.last_reason = "nothing worth doing"
        return _END_PHASE

    def _move(self, w: World, board: _Board, units: Iterable[UnitMoves]) -> Action | None:
        """The first unit (in listed order) with a destination worth going to, and its best
        one; each unit that has none stays put for the rest of the phase. ``units`` gives each
        unit's destinations in listed order and their modes (see :data:`UnitMoves`)."""
        staying = self._stay
        ready = False
        enemy: dict[str, list[str]] = {}
        occ: dict[str, list[str]] = {}
        enemy_adj: dict[str, int] = {}
        for unit, dests, runs in units:
            if unit in staying:
                continue
            if not ready:
                ready = True
                enemy = self._enemy_hexes(w, board)
                occ = board.occupancy(w)
                # the enemy strength next to each hex and the distances to the enemy read
                # only the enemy's stacks: kept while they stand as they stood (the whole
                # phase, as a rule; the board's stacks are never changed, so they are kept
                # as they are to compare with)
                still = w is self._adj_world and enemy == self._adj_enemy
                if still:
                    enemy_adj = self._adj
                else:
                    self._near = {}
                    for h, us in enemy.items():
                        s = sum(w.units[u].strength for u in us)
                        for n in w.neighbours[h]:
                            enemy_adj[n] = enemy_adj.get(n, 0) + s
                    self._adj_world, self._adj_enemy, self._adj = w, enemy, enemy_adj
                self._keep_hexes(w, board, still)
            here = board.pos.get(unit)
            stay = self._score(w, board, unit, here, enemy, enemy_adj, occ) if here else -99.0
            # a destination scores the same by every mode and for every unit of the same
            # strength (a unit's options never include its own hex, the one hex where the
            # unit itself counts: it is scored apart if ever listed)
            strength = w.units[unit].strength
            pact = self.side == "pact"
            scored = self._scored.get(strength)
            if scored is None:
                scored = self._scored[strength] = {}
            if here is not None and here in dests:
                scored = dict(scored)  # this unit's own copy, its own hex scored for it
                scored[here] = self._score(w, board, unit, here, enemy, enemy_adj, occ)
            # (the new ones in any order: a score reads the position, never another score)
            hexes = self._hexes
            for cell in set(dests).difference(scored):
                worth = hexes.get(cell)
                if worth is None:
                    scored[cell] = self._score_joining(
                        w, board, strength, cell, enemy, enemy_adj, occ
                    )
                    continue
                # _score_joining of a hex already worked out, written out
                _, mine_strength, threat, calm, held, swamped = worth
                if not threat:
                    scored[cell] = calm
                elif pact:
                    scored[cell] = held if (strength + mine_strength) * 2 >= threat else swamped
                else:
                    scored[cell] = swamped if (strength + mine_strength) * 3 < threat else held
            # each option's score, normal mode by a hair (+0.01; the others +0.0, the same
            # float), run by run of one mode, and the first option of the highest, as max()
            # picks
            score = scored.__getitem__
            this: list[float] = []
            start = 0
            for run_mode, count in runs:
                bonus = itertools.repeat(_BONUS.get(run_mode, 0.0), count)
                this += map(operator.add, map(score, dests[start : start + count]), bonus)
                start += count
            i = this.index(max(this))
            cell = dests[i]
            value = scored[cell]
            if value > stay + 0.25:
                self.last_reason = f"{unit} to {cell} ({value:.1f} over {stay:.1f})"
                return Action("move", unit=unit, cell=cell, option=_mode_at(runs, i))
            staying.add(unit)
        return None

    def _keep_hexes(self, w: World, board: _Board, still: bool) -> None:
        """Keep what each hex offers (:meth:`_hex_worth`) from earlier decisions while the
        enemy's stacks (``still``: they stand as at the last decision) and the cities'
        holders are the same, less the hexes a friendly unit entered or left since (what a
        hex offers reads only those, the turn's static data and the goals, which follow the
        cities)."""
        key = tuple(board.control.get(c) for c in w.city_of)
        units = w.units
        side = self.side
        friends = {u: h for u, h in board.pos.items() if h and units[u].side == side}
        if not still or key != self._hexes_key:
            self._hexes_key, self._hexes, self._scored = key, {}, {}
        else:
            old = self._friends
            hexes = self._hexes
            scored = self._scored.values()
            for u in old.keys() | friends.keys():
                was, now = old.get(u), friends.get(u)
                if was != now:
                    for h in (was, now):
                        if h is not None:
                            hexes.pop(h, None)
                            for by_hex in scored:
                                by_hex.pop(h, None)
        self._friends = friends

    def _score(
        self,
        w: World,
        board: _Board,
        unit: str,
        h: str | None,
        enemy: Mapping[str, list[str]],
        enemy_adj: Mapping[str, int],
        occ: Mapping[str, list[str]],
    ) -> float:
        """What standing in ``h`` is worth to ``unit``. What a hex offers does not depend on
        the unit but for the stack it would join: worked out once per decision
        (:meth:`_hex_worth`), and the unit's own strength decides only whether the hex is
        swamped. The unit's own hex is worked out in full (:meth:`_score_in`)."""
        if h is None:
            return -99.0
        if h == "exit":
            info = w.units[unit]
            return 6.0 if info.strength >= w.spec.victory.exit_min_strength else -5.0
        cell = self._hexes.get(h)
        if cell is None:
            cell = self._hex_worth(w, board, h, enemy, enemy_adj, occ)
        mine, mine_strength, threat, calm, held, swamped = cell
        if unit in mine:
            return self._score_in(w, board, unit, h, cell)
        if not threat:
            return calm
        own = w.units[unit].strength + mine_strength
        if self.side == "pact":
            return held if own * 2 >= threat else swamped
        return swamped if own * 3 < threat else held

    def _score_joining(
        self,
        w: World,
        board: _Board,
        strength: int,
        h: str,
        enemy: Mapping[str, list[str]],
        enemy_adj: Mapping[str, int],
        occ: Mapping[str, list[str]],
    ) -> float:
        """:meth:`_score` of ``h`` for a unit of ``strength`` not standing there."""
        if h == "exit":
            return 6.0 if strength >= w.spec.victory.exit_min_strength else -5.0
        cell = self._hexes.get(h)
        if cell is None:
            cell = self._hex_worth(w, board, h, enemy, enemy_adj, occ)
        _, mine_strength, threat, calm, held, swamped = cell
        if not threat:
            return calm
        own = strength + mine_strength
        if self.side == "pact":
            return held if own * 2 >= threat else swamped
        return swamped if own * 3 < threat else held

    def _hex_worth(
        self,
        w: World,
        board: _Board,
        h: str,
        enemy: Mapping[str, list[str]],
        enemy_adj: Mapping[str, int],
        occ: Mapping[str, list[str]],
    ) -> tuple[tuple[str, ...], int, int, float, float, float]:
        """A hex's friendly stack, its strength, the enemy strength next to it, and what the
        hex is worth to a unit joining it: with no threat, threatened and holding, threatened
        and swamped (the terms added in :meth:`_score_in`'s order, so the sums are the same
        floats)."""
        here = occ.get(h)
        if here:
            units = w.units
            side = self.side
            mine = tuple(u for u in here if units[u].side == side)
            mine_strength = sum(units[u].strength for u in mine)
        else:
            mine, mine_strength = (), 0
        threat = enemy_adj.get(h, 0)
        if self._static_for is not w:
            self._static_for, self._static = w, _hex_static(w)
        terrain, col = self._static[h]
        n_friends = len(mine)
        if self.side == "pact":
            # _pact_base, written out
            goal = self._goal.get(h)
            if goal is None:
                goal = self._goal_distance(w, board, h)
            s = -1.2 * goal
            s += 0.4 * terrain + 0.6 * n_friends
            found = (mine, mine_strength, threat, s, s + 0.8, s + -1.5)
        else:
            s, west = self._nato_base(w, board, h, terrain, n_friends, enemy, col)
            calm = s + 0.05 * west
            found = (mine, mine_strength, threat, calm, calm, (s - 3.0) + 0.05 * west)
        self._hexes[h] = found
        return found

    def _pact_base(self, w: World, board: _Board, h: str, terrain: int, n_friends: int) -> float:
        goal = self._goal.get(h)
        if goal is None:
            goal = self._goal_distance(w, board, h)
        s = -1.2 * goal
        s += 0.4 * terrain + 0.6 * n_friends
        return s

    def _nato_base(
        self,
        w: World,
        board: _Board,
        h: str,
        terrain: int,
        n_friends: int,
        enemy: Mapping[str, list[str]],
        col: int | None = None,
    ) -> tuple[float, int]:
        """NATO: stand on good ground in cities and near the enemy (before the threat), and
        how far west the hex is (``col``: the hex's column, if the caller has it)."""
        # the enemy stands still for the phase: distances to it are worked out for every hex
        # at once when first asked, and kept until it moves
        near = self._near.get(h)
        if near is None:
            self._near.update(nearest_enemy(w, enemy))
            near = self._near[h]
        s = 1.0 * terrain - 0.5 * abs(near - 2)
        spearhead = self._near.get("spearhead")
        if spearhead is None:
            spearhead = self._near["spearhead"] = min(map(w.column, enemy), default=99)
        if col is None:
            col = w.column(h)
        if col > spearhead:
            s -= 1.5 * (col - spearhead)  # cut off behind the enemy: fall back
        if h in w.city_of and board.control.get(h) != "pact":
            garrison = n_friends
            s += 3.0 if garrison < 2 else 0.5
        return s, 12 - col

    def _score_in(
        self,
        w: World,
        board: _Board,
        unit: str,
        h: str,
        cell: tuple[tuple[str, ...], int, int, float, float, float],
    ) -> float:
        """What staying in its own hex ``h`` is worth to ``unit`` (its stack without it)."""
        mine, mine_strength, threat = cell[0], cell[1], cell[2]
        terrain = -w.tables.tec.terrain[w.terrain[h]].drm
        n_friends = len(mine) - 1
        own = mine_strength  # the unit's own strength and its stack's less itself
        if self.side == "pact":
            s = self._pact_base(w, board, h, terrain, n_friends)
            if threat:
                s += 0.8 if own * 2 >= threat else -1.5
            return s
        s, west = self._nato_base(w, board, h, terrain, n_friends, self._enemy_hexes(w, board))
        if threat and own * 3 < threat:
            s -= 3.0
        return s + 0.05 * west
