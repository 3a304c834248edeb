"""The rules of 7 Days to the Rhine as functions over a board (the state, or a player's copy of
it built from an observation) and the :class:`~umpire.rulesets.rhine.model.World`.

Chance is defined once with :mod:`umpire.core.chance`: the air and EW contests, the helicopter
loss roll and the combat results table are sampled in play and enumerated exactly for odds."""

from __future__ import annotations

import heapq
import itertools
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from umpire.core.chance import Chance, Modifier, Opposed, Roll, Stream, TableLookup, Test
from umpire.core.events import Event
from umpire.core.switches import ENFORCE_ALL, RuleSwitches
from umpire.rulesets.rhine.reach import _SEARCHES as _SEARCHES  # the tests empty it
from umpire.rulesets.rhine.reach import OFF as OFF  # the virtual entry hex, for callers
from umpire.rulesets.rhine.reach import (  # the movement search
    Cell,
    cell_hexes,
    hex_numbers,
    search,
    static_edges,
    walk,
)

if TYPE_CHECKING:
    from umpire.rulesets.rhine.model import UnitInfo, World


def other(side: str) -> str:
    return "nato" if side == "pact" else "pact"


class Board(Protocol):
    """What the rules read of a position (the state has it; so does a player's copy)."""

    pos: dict[str, str | None]
    ew: dict[str, int]
    control: dict[str, str]
    air_holder: str | None
    air_markers: list[str]
    refugees: list[str]


# -- occupancy, stacking, zones -----------------------------------------------------------------
def occupancy(world: World, board: Board) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for u, h in board.pos.items():
        if h is not None:
            out.setdefault(h, []).append(u)
    return out


def side_of_hex(world: World, units: Sequence[str]) -> str | None:
    return world.units[units[0]].side if units else None


def stack_ok(world: World, infos: Sequence[UnitInfo]) -> bool:
    """rhine.stack.pact / .nato / .independent: may these units share a hex?"""
    if not infos:
        return True
    side = infos[0].side
    if side == "pact":
        counted = list(infos)
        limit = 2
    else:
        # West German static garrisons do not count and stack with anyone
        counted = [i for i in infos if not (i.static and i.nation == "FRG")]
        limit = 3
    if len(counted) > limit:
        return False
    if len({i.nation for i in counted}) > 1:
        return False
    divisions = {i.division for i in counted if i.division is not None}
    return len(divisions) <= 1


def can_join(world: World, occ: Mapping[str, list[str]], h: str, units: Iterable[str]) -> bool:
    """Whether ``units`` may be in ``h`` together with what is there (friendly only)."""
    here = [u for u in occ.get(h, []) if u not in set(units)]
    infos = [world.units[u] for u in here] + [world.units[u] for u in units]
    return stack_ok(world, infos)


def ezoc(world: World, occ: Mapping[str, list[str]], side: str) -> set[str]:
    """rhine.zoc.exert: hexes adjacent to any unit of the other side."""
    out: set[str] = set()
    enemy = other(side)
    for h, units in occ.items():
        if units and world.units[units[0]].side == enemy:
            out.update(world.neighbours[h])
    return out


def air_range(world: World, board: Board, holder: str) -> set[str]:
    """Hexes within range of ``holder``'s air markers (empty if it holds none)."""
    if board.air_holder != holder:
        return set()
    out: set[str] = set()
    for m in board.air_markers:
        out |= world.in_range[m]
    return out


def air_markers_covering(world: World, board: Board, h: str) -> int:
    return sum(1 for m in board.air_markers if h in world.in_range[m])


# -- movement -----------------------------------------------------------------------------------
def movable_units(
    world: World, status: Mapping[str, str], moved: Iterable[str], side: str, turn: int
) -> list[str]:
    """The units of ``side`` that may still move this movement phase, in the scenario's order:
    on the map, or reinforcements due by ``turn`` (rhine.reinf.entry); not those that moved
    already, nor static garrisons (rhine.move.static)."""
    gone = set(moved)
    entry = world.entry
    out = []
    for u, info in world.units.items():
        if info.side != side or u in gone or info.static:
            continue
        here = status[u]
        if here == "on":
            out.append(u)
        elif here == "waiting":
            spec = entry.get(u)
            if spec is not None and spec.turn <= turn:
                out.append(u)
    return out


def entry_hexes(
    world: World, occ: Mapping[str, list[str]], status: Mapping[str, str], unit: str
) -> list[str] | None:
    """A waiting reinforcement's entry hexes not held by the enemy (rhine.reinf.entry);
    ``None`` for a unit already on the map."""
    if status[unit] != "waiting":
        return None
    spec = world.entry[unit]
    side = world.units[unit].side
    units = world.units
    return [h for h in spec.hexes if not (occ.get(h) and units[occ[h][0]].side != side)]


def heli_ma_units(
    world: World, movable: Iterable[str], ew: Mapping[str, int], heli_ma: Mapping[str, int]
) -> list[str]:
    """The movable helicopters with one EW marker whose MA is not rolled yet
    (rhine.ew.effect.one)."""
    units = world.units
    return [u for u in movable if units[u].heliborne and ew.get(u, 0) == 1 and u not in heli_ma]


def movement_allowance(world: World, board: Board, unit: str) -> int:
    """rhine.unit.ma with rhine.ew.effect.one / .two."""
    info = world.units[unit]
    markers = board.ew.get(unit, 0)
    if markers >= 2:
        return 0
    if markers == 1:
        return -(-info.ma // 2)
    return info.ma


class MoveOption(NamedTuple):
    """One destination by one mode (an immutable value, made by the thousand: a named tuple
    is quicker to make than a frozen dataclass)."""

    dest: str  # hex id or "exit"
    mode: str  # normal | column | heli
    cost: float
    path: tuple[str, ...]


def step_cost(
    world: World,
    a: str,
    b: str,
    *,
    zone: set[str],
    enemy_air: set[str],
    refugees: set[str],
    recon: bool,
    night: bool,
) -> float | None:
    """The MP to step from ``a`` into ``b`` (rhine.move.costs, TEC, roads, river, EZOC,
    refugees, air range); ``None`` if forbidden (non-recon leaving an EZOC by day)."""
    tec = world.tables.tec
    if a == OFF:
        cost = tec.terrain[world.terrain[b]].cost
    else:
        edge = frozenset((a, b))
        if edge in world.autobahn_edges:
            cost = tec.autobahn_cost
        elif edge in world.road_edges:
            cost = tec.road_cost
        else:
            cost = tec.terrain[world.terrain[b]].cost
            river = world.rivers.get(edge)
            if river is not None:
                cost += tec.hexsides[river].cost
        if a in zone:
            if not recon and not night:
                return None
            cost += tec.ezoc_cost
    if b in zone:
        cost += tec.ezoc_cost
    if b in refugees:
        cost += tec.refugee_cost
    if b in enemy_air:
        cost += tec.air_range_cost
    return cost


def move_options(
    world: World,
    board: Board,
    unit: str,
    turn: int,
    entry: Sequence[str] | None = None,
    paths: bool = False,
    shared: dict[Any, Any] | None = None,
    route_to: str | None = None,
    modes: tuple[str, ...] = ("normal", "column"),
) -> list[MoveOption]:
    """Every destination of ``unit`` this movement phase, by each allowed mode (of the
    ground ``modes`` asked for: both unless told). ``shared`` is
    a scratch dict valid while the position does not change (the state's memo): what every
    unit's search reads of the position (occupancy, zones of control) is worked out once.
    With ``paths`` the routes are walked, for every destination or, given ``route_to``, only
    for that one (the others' paths are left empty); the options are the same either way."""
    info = world.units[unit]
    if info.static:
        return []
    if shared is None:
        shared = {}
    occ = shared.get("occ")
    if occ is None:
        occ = shared["occ"] = occupancy(world, board)
    out: list[MoveOption] = []
    for answer in move_answers(world, board, unit, turn, entry, paths, shared, route_to, modes):
        out.extend(answer)
    return out


def move_answers(
    world: World,
    board: Board,
    unit: str,
    turn: int,
    entry: Sequence[str] | None = None,
    paths: bool = False,
    shared: dict[Any, Any] | None = None,
    route_to: str | None = None,
    modes: tuple[str, ...] = ("normal", "column"),
) -> tuple[tuple[MoveOption, ...], ...]:
    """:func:`move_options` as the remembered answers it is made of, one per mode (each
    lists a destination once, and the modes differ, so together they hold no duplicate).
    The same tuples come back while their inputs do not change: callers may remember what
    they derive from them by identity, and must not mutate them."""
    info = world.units[unit]
    if info.static:
        return ()
    if shared is None:
        shared = {}
    occ = shared.get("occ")
    if occ is None:
        occ = shared["occ"] = occupancy(world, board)
    if info.heliborne:
        return (_heli_answer(world, board, unit, turn, occ, entry, shared),)
    return tuple(
        [
            _ground_answer(world, board, unit, turn, occ, mode, entry, paths, shared, route_to)
            for mode in modes
        ]
    )


def ground_options(
    world: World,
    board: Board,
    unit: str,
    turn: int,
    occ: Mapping[str, list[str]],
    mode: str,
    entry: Sequence[str] | None,
    paths: bool = False,
    shared: dict[Any, Any] | None = None,
    route_to: str | None = None,
) -> list[MoveOption]:
    return list(_ground_answer(world, board, unit, turn, occ, mode, entry, paths, shared, route_to))


def _position_sets(
    world: World, board: Board, occ: Mapping[str, list[str]], side: str, shared: dict[Any, Any]
) -> tuple[frozenset[str], frozenset[str], frozenset[str], list[tuple[str, str]]]:
    """What every unit's listing of ``side`` reads of the position: the enemy's zones of
    control, the enemy's air range, the refugee hexes and where EW-marked units stand (once
    per position: ``shared`` is its scratch dict)."""
    found = shared.get(("zone", side))
    if found is None:
        # the same sets serve every position where the enemy stands in the same hexes and
        # the markers, refugees and EW-marked stacks are the same (most of a movement phase):
        # found by those, so that searches and answers keyed by them compare by identity
        units = world.units
        enemy = other(side)
        ew = board.ew
        enemy_at = []
        ew_at = []
        for u, h in board.pos.items():
            if h is None:
                continue
            if units[u].side == enemy:
                enemy_at.append(h)
            if ew.get(u):
                ew_at.append((u, h))
        key = (
            world,
            side,
            tuple(enemy_at),
            board.air_holder,
            tuple(board.air_markers),
            tuple(board.refugees),
            tuple(ew_at),
        )
        found = _POSITION_SETS.get(key)
        if found is None:
            if len(_POSITION_SETS) > 4096:
                _POSITION_SETS.clear()
            found = _POSITION_SETS[key] = (
                frozenset(ezoc(world, occ, side)),
                frozenset(air_range(world, board, enemy)),
                frozenset(board.refugees),
                ew_at,
            )
        shared[("zone", side)] = found
    return found


_POSITION_SETS: dict[tuple[Any, ...], Any] = {}


class GroundListing:
    """A ground listing's destinations as its search found them, before they are made into
    options: each destination (in listed order) with its cost and the cell it is reached by,
    what its routes are walked from, and what the search read (see :func:`searched`); its
    options (:attr:`answer`) are made only when first asked for (the scripted player reads
    the destinations alone)."""

    __slots__ = ("dests", "costs", "cells", "walks", "searched_by", "answer")

    def __init__(
        self,
        dests: list[str],
        costs: list[float],
        cells: list[Cell],
        walks: tuple[Any, ...],
        searched_by: tuple[dict[Cell, float], str],
    ) -> None:
        self.dests = dests
        self.costs = costs
        self.cells = cells
        self.walks = walks  # (parents, routes, origin hex, origin cell, hex of each number)
        self.searched_by = searched_by
        self.answer: tuple[MoveOption, ...] | None = None

    def option(self, dest: str, mode: str) -> MoveOption | None:
        """The option to ``dest`` (listed once at most), by this listing's ``mode``, as
        :func:`_ground_answer` makes it; ``None`` if it is not listed."""
        try:
            i = self.dests.index(dest)
        except ValueError:
            return None
        return _OPTIONS[(dest, mode, self.costs[i])]

    def route(self, dest: str) -> tuple[str, ...] | None:
        """The route to ``dest`` (as :func:`answer_route` walks it); ``None`` if unlisted."""
        try:
            i = self.dests.index(dest)
        except ValueError:
            return None
        return walk(self.cells[i], *self.walks)


def _ground_answer(
    world: World,
    board: Board,
    unit: str,
    turn: int,
    occ: Mapping[str, list[str]],
    mode: str,
    entry: Sequence[str] | None,
    paths: bool = False,
    shared: dict[Any, Any] | None = None,
    route_to: str | None = None,
) -> tuple[MoveOption, ...]:
    """A ground unit's options by one ``mode`` (see :func:`move_answers`): the options of
    its :func:`_ground_found`, made once per listing and kept with it."""
    found = _ground_found(world, board, unit, turn, occ, mode, entry, paths, shared, route_to)
    if found is None:
        return ()
    answer = found.answer
    if answer is None:
        dests, costs = found.dests, found.costs
        if paths:
            parents, routes, origin_hex, origin, ids = found.walks
            answer = tuple(
                [
                    MoveOption(
                        dest,
                        mode,
                        spent,
                        walk(cell, parents, routes, origin_hex, origin, ids)
                        if route_to in (None, dest)
                        else (),
                    )
                    for dest, cell, spent in zip(dests, found.cells, costs, strict=True)
                ]
            )
        else:
            # (dest, mode, spent, ()) for each, looked up in C (each made once: see _OPTIONS)
            if len(_OPTIONS) > 1 << 17:
                _OPTIONS.clear()
            answer = tuple(map(_OPTIONS.__getitem__, zip(dests, itertools.repeat(mode), costs)))
        found.answer = answer
        # what a move's route is walked from later (answer_route), and what the search read,
        # for a caller that asks (footprint: walked only then), kept with the answer
        _WINNERS[id(answer)] = (answer, (found.cells, *found.walks), found.searched_by)
    return answer


def ground_listing(
    world: World,
    board: Board,
    unit: str,
    turn: int,
    occ: Mapping[str, list[str]],
    mode: str,
    entry: Sequence[str] | None,
    shared: dict[Any, Any] | None = None,
) -> GroundListing | None:
    """:func:`_ground_answer`'s listing before its options are made (``None``: no move by
    ``mode``); the remembered record, not to be changed."""
    return _ground_found(world, board, unit, turn, occ, mode, entry, False, shared, None)


def ground_destinations(
    world: World,
    board: Board,
    unit: str,
    turn: int,
    occ: Mapping[str, list[str]],
    mode: str,
    entry: Sequence[str] | None,
    shared: dict[Any, Any] | None = None,
) -> list[str]:
    """The destinations of :func:`_ground_answer`'s options (the same listing, in the same
    order), without making the options (the remembered list: not to be changed)."""
    found = _ground_found(world, board, unit, turn, occ, mode, entry, False, shared, None)
    return [] if found is None else found.dests


def _ground_found(
    world: World,
    board: Board,
    unit: str,
    turn: int,
    occ: Mapping[str, list[str]],
    mode: str,
    entry: Sequence[str] | None,
    paths: bool = False,
    shared: dict[Any, Any] | None = None,
    route_to: str | None = None,
) -> GroundListing | None:
    info = world.units[unit]
    side = info.side
    start = board.pos.get(unit)
    if shared is None:
        shared = {}
    zone, enemy_air, refugees, ew_at = _position_sets(world, board, occ, side, shared)
    night = world.night(turn)
    budget = float(movement_allowance(world, board, unit))
    if mode == "column":
        # rhine.move.column: not EW-marked, not starting in air range or an EZOC
        if board.ew.get(unit, 0) or budget <= 0:
            return None
        if start is not None and (start in enemy_air or start in zone):
            return None
        budget *= 2
    if budget <= 0:
        return None

    # hexes this unit may not enter (only occupied hexes can refuse it) and friendly hexes it
    # may not end in: worked out once per position for units alike in stacking
    enemy_held, refuse, base = _stack_refusals(world, occ, info, shared)
    blocked: frozenset[str] = base  # rhine.move.enemy (and rhine.stack.pact, at all times)
    if side == "pact" and start is not None and start in occ:
        # its own hex: blocked only if it could not stand there with the others
        if can_join(world, occ, start, [unit]):
            blocked = blocked - {start} if start in blocked else blocked
        elif start not in blocked:
            blocked = blocked | {start}
    if mode == "column":
        # rhine.move.column, rhine.ew.effect.entry (a unit in column mode has no EW marker
        # itself: every EW-marked unit's hex is another's)
        blocked = blocked | _column_blocked(world, board, occ, side, shared)

    recon = info.recon
    origin_hex = start if start is not None else OFF
    if start is not None:
        # hexes beyond budget / cheapest step cannot be reached: leaving them out of the
        # search's inputs changes no answer and lets far-off changes keep it remembered
        disc = _disc(world, start, budget / static_edges(world).cheapest)
        blocked = blocked & disc
        if side == "nato":
            refuse = refuse & disc
    entry_key = None if entry is None else tuple(entry)
    blocked_key = blocked
    # rhine.stack.nato: friendly hexes this unit may cross but not end in
    nojoin: frozenset[str] = frozenset()
    if side == "nato":
        nojoin = refuse - {start} if start in refuse else refuse
    answer_key = (
        world,
        origin_hex,
        entry_key,
        budget,
        blocked_key,
        zone,
        recon,
        night,
        refugees,
        enemy_air,
        mode,
        side,
        nojoin,
        paths,
        route_to,
    )
    known = _ANSWERS.get(answer_key)
    if known is not None:
        shared[("searched", unit, mode)] = known.searched_by
        return known  # type: ignore[no-any-return]
    settled, parents, routes, firsts = search(
        world,
        origin_hex,
        entry_key,
        budget,
        blocked_key,
        zone,
        recon,
        night,
        refugees,
        enemy_air,
    )
    index, ids = hex_numbers(world)
    origin = index[origin_hex] * 2
    # the cheapest cell reaching each destination, in the order the search settled them (the
    # first cell of a hex is its cheapest, the first of equals winning); routes are walked
    # only for the winners
    dests: list[str] = []
    cells: list[Cell] = []
    costs: list[float] = []
    exit_col = world.exit_column if side == "pact" else None
    exit_open = exit_col is not None
    exit_hexes = _exit_hexes(world) if exit_open else frozenset()
    # leaving the map is leaving the hex (rhine.zoc.nonrecon, rhine.zoc.recon): from an enemy
    # zone only at night or by recon, for the zone's extra MP
    leave_cost = world.tables.tec.ezoc_cost
    may_leave_zone = night or recon
    if exit_open and start is not None and world.column(start) == exit_col:
        # rhine.scenario.exit: 1 MP from where it stands
        if start not in zone:
            if budget >= 1:
                dests.append("exit")
                cells.append(origin)
                costs.append(1.0)
                exit_open = False
        elif may_leave_zone and 1 + leave_cost <= budget:
            dests.append("exit")
            cells.append(origin)
            costs.append(1 + leave_cost)
            exit_open = False
    # not the hexes it stands in or enters from, nor (rhine.stack.nato) those it may not end
    # the phase in
    left_out = nojoin | {OFF, start} if start is not None else nojoin | {OFF}
    found = destinations(
        world,
        firsts,
        settled,
        left_out,
        exit_hexes if exit_open else None,
        budget,
        zone,
        leave_cost if may_leave_zone else None,
    )
    dests += found[0]
    cells += found[1]
    costs += found[2]
    if len(_ANSWERS) > 2048:
        _ANSWERS.clear()
        _WINNERS.clear()
    searched_by = shared[("searched", unit, mode)] = (settled, origin_hex)
    made = _ANSWERS[answer_key] = GroundListing(
        dests, costs, cells, (parents, routes, origin_hex, origin, ids), searched_by
    )
    return made


def destinations(
    world: World,
    firsts: Sequence[Cell],
    settled: Mapping[Cell, float],
    left_out: frozenset[str],
    exit_hexes: frozenset[str] | None,
    budget: float,
    zone: frozenset[str] = frozenset(),
    zone_exit: float | None = None,
) -> tuple[list[str], list[Cell], list[float]]:
    """The destinations of a ground search, in the order settled: the hexes of its ``firsts``
    (the cheapest cell of each hex) but those ``left_out``, the cell each is reached by and
    its cost; with ``exit_hexes`` (the exit column's, rhine.scenario.exit) the exit right
    after the first of them within 1 MP of ``budget``, at 1 MP more: never from a cell where
    the unit must stop (rhine.zoc.nonrecon), and from a hex of the enemy's ``zone`` only
    when ``zone_exit`` (the extra MP to leave it, rhine.zoc.*) is given. Each step is taken over
    all cells at once (in C); the loop it replaces is ``tests/rhine/test_answer_shortcuts``'s
    ``plain_destinations``."""
    hexes = list(map(cell_hexes(world).__getitem__, firsts))
    out = list(map(left_out.__contains__, hexes))
    if out.count(True) == 1 and out[0]:
        # as a rule only the hex it starts from, settled first, is left out
        dests, cells = hexes[1:], list(firsts[1:])
    else:
        kept = list(map(operator.not_, out))
        dests = list(itertools.compress(hexes, kept))
        cells = list(itertools.compress(firsts, kept))
    costs = list(map(settled.__getitem__, cells))
    if exit_hexes is not None:
        in_column = map(exit_hexes.__contains__, dests)
        for i in itertools.compress(range(len(dests)), in_column):
            if cells[i] & 1:
                continue  # it must stop there
            spent = costs[i] + 1
            if dests[i] in zone:
                if zone_exit is None:
                    continue
                spent += zone_exit
            if spent <= budget:
                dests.insert(i + 1, "exit")
                cells.insert(i + 1, cells[i])
                costs.insert(i + 1, spent)
                break
    return dests, cells, costs


_EXIT_HEXES: dict[int, tuple[Any, frozenset[str]]] = {}


def _exit_hexes(world: World) -> frozenset[str]:
    """The hexes of the map's exit column (per map, made once)."""
    found = _EXIT_HEXES.get(id(world))
    if found is None or found[0] is not world:
        col = world.exit_column
        hexes = frozenset(h for h in world.ids if world.column(h) == col)
        found = _EXIT_HEXES[id(world)] = (world, hexes)
    return found[1]


class _OptionTable(dict[tuple[str, str, float], MoveOption]):
    """Every route-less option made so far, by (destination, mode, cost): an option is an
    immutable value, and the same ones come back in answer after answer (the same hexes at
    the same costs), so each is made once and shared; one not yet made is made when first
    looked up."""

    def __missing__(self, key: tuple[str, str, float]) -> MoveOption:
        made = self[key] = tuple.__new__(MoveOption, (*key, ()))
        return made


_OPTIONS = _OptionTable()


# each remembered ground answer (by its identity, the answer kept alongside): the cell each
# option was reached by, with its search's parents and routes (a move's route is walked from
# them: answer_route), and the search it came from (see searched)
_WINNERS: dict[int, tuple[Any, tuple[Any, ...], tuple[dict[Cell, float], str]]] = {}


def answer_route(
    answer: tuple[MoveOption, ...] | GroundListing, dest: str
) -> tuple[str, ...] | None:
    """The route of the option to ``dest`` in a ground ``answer`` of :func:`move_answers`
    or in a :func:`ground_listing` (the route the same listing walks with ``paths``); ``None``
    if it is no longer known."""
    if isinstance(answer, GroundListing):
        return answer.route(dest)
    found = _WINNERS.get(id(answer))
    if found is None or found[0] is not answer:
        return None
    cells, parents, routes, origin_hex, origin, ids = found[1]
    for option, cell in zip(answer, cells, strict=True):
        if option.dest == dest:
            return walk(cell, parents, routes, origin_hex, origin, ids)
    return None


# each search's footprint, by the identity of its settled cells (see _footprint)
_SEARCH_FOOTPRINTS: dict[int, tuple[dict[Cell, float], frozenset[str]]] = {}


def searched(shared: dict[Any, Any], unit: str, mode: str) -> tuple[Any, ...] | None:
    """The ground search behind ``unit``'s latest ``mode`` answer in this position
    (``shared``, its scratch dict), for :func:`footprint`; None if that mode listed nothing
    before searching."""
    found = shared.get(("searched", unit, mode))
    assert found is None or isinstance(found, tuple)
    return found


def footprint(world: World, search: tuple[Any, ...] | None) -> frozenset[str]:
    """Every hex a ground search (from :func:`searched`) read (see :func:`_footprint`);
    empty for none."""
    if search is None:
        return frozenset()
    settled, origin_hex = search
    return _footprint(world, settled, origin_hex, hex_numbers(world)[1])


def _footprint(
    world: World, settled: dict[Cell, float], origin_hex: str, ids: Sequence[str]
) -> frozenset[str]:
    """Every hex whose inputs a search and its listing read: the cells settled and the
    neighbours of those expanded (a superset: some are never looked at). Made once per
    search."""
    found = _SEARCH_FOOTPRINTS.get(id(settled))
    if found is not None and found[0] is settled:
        return found[1]
    footprint = {origin_hex}
    neighbours = world.neighbours
    for cell in settled:
        h = ids[cell >> 1]
        if h != OFF:
            footprint.add(h)
            if not cell & 1:  # expanded: it did not have to stop there
                footprint.update(neighbours[h])
    if len(_SEARCH_FOOTPRINTS) > 2048:
        _SEARCH_FOOTPRINTS.clear()
    frozen = frozenset(footprint)
    _SEARCH_FOOTPRINTS[id(settled)] = (settled, frozen)
    return frozen


_DISCS: dict[tuple[Any, ...], frozenset[str]] = {}


def _disc(world: World, start: str, reach: float) -> frozenset[str]:
    """The hexes within ``reach`` of ``start`` (per map, made once for each pair)."""
    key = (id(world), start, reach)
    found = _DISCS.get(key)
    if found is None:
        if len(_DISCS) > 65536:
            _DISCS.clear()
        away = world.distances_from(start)
        found = _DISCS[key] = frozenset(h for h in world.ids if away[h] <= reach)
    return found


def _stack_refusals(
    world: World, occ: Mapping[str, list[str]], info: UnitInfo, shared: dict[Any, Any]
) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The hexes held by the enemy of ``info``'s side, the friendly hexes a unit like
    ``info`` could not join (rhine.stack.*), and the hexes such a unit may not enter (the
    enemy's, and for the Pact those refusals too: rhine.move.enemy, rhine.stack.pact), for one
    position (``shared`` is its scratch dict). Exact for every hex the unit is not itself in;
    callers check its own hex apart."""
    kind = (info.side, info.nation, info.division, info.static)
    key = ("refusals", kind)
    found = shared.get(key)
    if found is None:
        enemy_held = []
        refuse = []
        units = world.units
        # whether a unit of this kind may join a stack depends on the stack and the kind
        # only: remembered per map
        joins = world.joins
        for h, here in occ.items():
            if units[here[0]].side != info.side:
                enemy_held.append(h)
                continue
            stack = (tuple(here), kind)
            ok = joins.get(stack)
            if ok is None:
                ok = joins[stack] = stack_ok(world, [units[u] for u in here] + [info])
            if not ok:
                refuse.append(h)
        held, refused = frozenset(enemy_held), frozenset(refuse)
        found = shared[key] = (held, refused, held | refused if info.side == "pact" else held)
    return found


def _column_blocked(
    world: World, board: Board, occ: Mapping[str, list[str]], side: str, shared: dict[Any, Any]
) -> frozenset[str]:
    """The hexes no unit of ``side`` may enter in column mode (rhine.move.column): in the
    enemy's air range or zones of control, holding an EW-marked unit (rhine.ew.effect.entry),
    enemy-held cities and, under the switch, refugees (once per position)."""
    key = ("column", side)
    found = shared.get(key)
    if found is None:
        zone, enemy_air, refugees, ew_at = _position_sets(world, board, occ, side, shared)
        enemy = other(side)
        out = set(enemy_air | zone | {h for _, h in ew_at})
        out.update(h for h in world.city_of if board.control.get(h) == enemy)
        if world.switches.get("column_refugees", True):
            out |= refugees
        found = shared[key] = frozenset(out)
    return found


# a unit's ground options by everything they depend on (the search's inputs, the mode, the
# side and the hexes it may not end in): units alike in those share them, and most units'
# options outlive another unit's move
_ANSWERS: dict[tuple[Any, ...], Any] = {}  # a ground listing's GroundListing, a flight's options


def heli_options(
    world: World,
    board: Board,
    unit: str,
    turn: int,
    occ: Mapping[str, list[str]],
    entry: Sequence[str] | None,
) -> list[MoveOption]:
    return list(_heli_answer(world, board, unit, turn, occ, entry))


def _heli_answer(
    world: World,
    board: Board,
    unit: str,
    turn: int,
    occ: Mapping[str, list[str]],
    entry: Sequence[str] | None,
    shared: dict[Any, Any] | None = None,
) -> tuple[MoveOption, ...]:
    """rhine.heli.*: flights avoid enemy air range entirely; the route crossing the fewest
    enemy-held or EZOC hexes is flown (rhine.heli.path, house). With ``shared`` (the
    position's scratch dict) the zones, air range and stacking refusals are read from what
    the ground listing worked out for the position (the same sets)."""
    info = world.units[unit]
    side = info.side
    start = board.pos.get(unit)
    markers = board.ew.get(unit, 0)
    if markers >= 2:
        return ()
    limit = len(world.ids)
    if markers == 1:
        if unit not in getattr(board, "heli_ma", {}):
            return ()
        limit = board.heli_ma[unit]  # type: ignore[attr-defined]
    origin = start if start is not None else OFF
    if shared is not None:
        zone, enemy_air, _, ew_at = _position_sets(world, board, occ, side, shared)
        if start is not None and start in enemy_air:
            return ()
        # rhine.ew.effect.entry: the hexes of its own side's EW-marked units (an enemy stack
        # its side jammed may be flown over like any enemy hex)
        units = world.units
        friendly_ew = {h for u, h in ew_at if u != unit and units[u].side == side}
        # the enemy's hexes, and the friendly ones this unit could not join (its own hex
        # apart: it is never an option)
        enemy_occ, refuse, _ = _stack_refusals(world, occ, info, shared)
        nojoin = refuse - {origin} if origin in refuse else refuse
    else:
        enemy_air = frozenset(air_range(world, board, other(side)))
        if start is not None and start in enemy_air:
            return ()
        zone = frozenset(ezoc(world, occ, side))
        friendly_ew = {
            h
            for u, h in board.pos.items()
            if h and board.ew.get(u) and u != unit and world.units[u].side == side
        }
        # the flights depend only on these; units alike share them (remembered like ground
        # moves)
        enemy_occ = frozenset(h for h, here in occ.items() if world.units[here[0]].side != side)
        nojoin = frozenset(
            h
            for h in occ
            if h not in enemy_occ and h != origin and not can_join(world, occ, h, [unit])
        )
    answer_key = (
        "heli",
        side,
        world,
        origin,
        tuple(entry or ()),
        limit,
        enemy_air,
        frozenset(friendly_ew),
        zone,
        enemy_occ,
        nojoin,
    )
    answer: tuple[MoveOption, ...] | None = _ANSWERS.get(answer_key)
    if answer is not None:
        return answer

    hostile = enemy_occ | zone  # a hex entered in either counts one (rhine.heli.path)
    avoid = enemy_air | friendly_ew
    exit_hexes = None
    if side == "pact":
        # rhine.stack.pact: at all times, during movement too: never through a stack it
        # could not join
        avoid = avoid | nojoin
        if world.exit_column is not None:
            exit_hexes = _exit_hexes(world)
    out = flights(
        world, origin, tuple(entry or ()), limit, hostile, avoid, enemy_occ, nojoin, exit_hexes
    )
    if len(_ANSWERS) > 2048:
        _ANSWERS.clear()
    _ANSWERS[answer_key] = out
    return out


def flights(
    world: World,
    origin: str,
    entry: tuple[str, ...],
    limit: int,
    hostile: frozenset[str],
    avoid: frozenset[str],
    enemy_occ: frozenset[str],
    nojoin: frozenset[str],
    exit_hexes: frozenset[str] | None = None,
) -> tuple[MoveOption, ...]:
    """rhine.heli.*: the flights from ``origin`` (or from off the map through ``entry``) of at
    most ``limit`` hexes, never into ``avoid`` (the enemy's air range, hexes holding EW-marked
    units of its own side), each by the route crossing the fewest ``hostile`` hexes (enemy-held
    or in an EZOC: rhine.heli.path, house), then the fewest hexes; ending neither in an enemy
    hex nor in one of ``nojoin``; with ``exit_hexes`` (the exit column's, rhine.scenario.exit)
    also the exit, from the one of them it may stand in reached crossing the fewest hostile
    hexes (its start included; the first hex id of equals), for 1 MP more. A Dijkstra on
    (hostile hexes crossed, hexes flown), each pair as one number (crossed * span + flown: no
    flight is longer than the limit, so numbers order as the pairs do), ties going to the hex id
    first in order; the hexes reached at each number are kept together (every step adds at least
    1, so a number's hexes are all known when it is the least left) and taken in hex-id order,
    as a heap of (number, hex) pops them (the heap's version is
    ``tests/rhine/test_flights.plain_flights``)."""
    span = limit + 1
    best: dict[str, int] = {origin: 0}
    parent: dict[str, str] = {}
    buckets: dict[int, list[str]] = {0: [origin]}
    codes: list[int] = [0]
    done: set[str] = set()
    pop, push = heapq.heappop, heapq.heappush
    neighbours = world.neighbours
    while codes:
        code = pop(codes)
        batch = buckets.pop(code)
        batch.sort()
        flown = code % span + 1
        if flown > limit:
            done.update(batch)  # no neighbour is within the limit
            continue
        crossed = code - code % span  # the hostile hexes crossed, times span
        plain_key = crossed + flown
        hostile_key = plain_key + span
        for h in batch:
            if h in done:
                continue
            done.add(h)
            nxt = entry if h == OFF else neighbours[h]
            for n in nxt:
                if n in avoid:
                    continue
                key = hostile_key if n in hostile else plain_key
                known = best.get(n)
                if known is not None and known <= key:
                    continue
                best[n] = key
                parent[n] = h
                queued = buckets.get(key)
                if queued is None:
                    buckets[key] = [n]
                    push(codes, key)
                else:
                    queued.append(n)
    out: list[MoveOption] = []
    make = tuple.__new__  # a MoveOption made as the named tuple's own __new__ makes it
    # each hex's route (the virtual entry hex left out), walked once: a hex's parent is
    # settled before it, so its route is its parent's and itself
    routes: dict[str, tuple[str, ...]] = {origin: () if origin == OFF else (origin,)}
    for h, code in best.items():
        if h in (origin, OFF) or h in enemy_occ:
            continue  # may overfly, never end in, enemy hexes
        if h in nojoin:
            continue  # an empty hex always takes one unit; nojoin holds the friendly refusals
        chain = []
        at = h
        while at not in routes:
            chain.append(at)
            at = parent[at]
        route = routes[at]
        for c in reversed(chain):
            route = routes[c] = route + (c,)
        out.append(make(MoveOption, (h, "heli", float(code // span), route)))
    if exit_hexes is not None:
        at_edge = [
            (code, h)
            for h, code in best.items()
            if h in exit_hexes
            and h not in enemy_occ
            and (h == origin or h not in nojoin)
            and code % span + 1 <= limit
        ]
        if at_edge:
            code, h = min(at_edge)
            out.append(make(MoveOption, ("exit", "heli", float(code // span), routes[h])))
    return tuple(out)


def heli_loss_test(world: World, enemy_air: bool, crossed: bool, city: bool, unit: str) -> Test:
    """rhine.heli.loss: one d6 per move, eliminated on a modified 6+."""
    t = world.tables.heliborne
    mods: list[Modifier] = []
    if enemy_air:
        mods.append(Modifier("rhine.heli.loss", t.enemy_air, "enemy air superiority"))
    if crossed:
        mods.append(Modifier("rhine.heli.loss", t.entered_enemy, "crossed enemy hex or zone"))
    if city:
        mods.append(Modifier("rhine.heli.loss", t.city, "landed in a city"))
    return Test(
        sides=6,
        need=t.need,
        rule="rhine.heli.loss",
        modifiers=tuple(mods),
        keep="sum",
        text=lambda faces, total, ok: (
            f"{unit} helicopter loss roll d6 {list(faces)}"
            + "".join(f" {m.value:+d} ({m.why})" for m in mods)
            + f" = {total}, {t.need}+ eliminates: {'eliminated' if ok else 'lands safely'}"
        ),
    )


# -- air and EW contests --------------------------------------------------------------------------
class _Rerolled(Chance[int]):
    """A contest rolled again while it is tied (``rhine.air.roll.*``)."""

    def __init__(self, inner: Chance[int]) -> None:
        self.inner = inner

    def sample(self, stream: Stream, log: list[Event]) -> int:
        while True:
            value = self.inner.sample(stream, log)
            if value != 0:
                return value

    def _enumerate(self) -> dict[int, Fraction]:
        dist = self.inner.outcomes()
        tie = dist.get(0, Fraction(0))
        return {k: v / (1 - tie) for k, v in dist.items() if k != 0}


def _total(dice: int, bonus_div: int | None, rule: str, who: str) -> Chance[int]:
    base: Chance[int] = Roll(
        dice, 6, rule, lambda f: f"{who} rolls {dice}d6 {list(f)} = {sum(f)}"
    ).map(sum)
    if bonus_div is None:
        return base

    def add_bonus(total: int) -> Chance[int]:
        return Roll(
            1,
            6,
            rule,
            lambda f: (
                f"{who} adds the holder's bonus: d6 {f[0]} / {bonus_div} rounded up = "
                f"{-(-f[0] // bonus_div)}"
            ),
        ).map(lambda f: total + -(-f[0] // bonus_div))

    return base.then(add_bonus)


def air_contest(world: World, night: bool, holder: str | None) -> Chance[int]:
    """Pact total minus NATO total (re-rolled on a tie): positive -> the Pact holds air
    superiority with that many markers (capped by the caller)."""
    t = world.tables.air
    dice = t.night_dice if night else t.day_dice
    div = t.night_bonus_divisor if night else t.day_bonus_divisor
    rule = "rhine.air.roll.night" if night else "rhine.air.roll.day"
    return _Rerolled(
        Opposed(
            _total(dice, div if holder == "pact" else None, rule, "Pact"),
            _total(dice, div if holder == "nato" else None, rule, "NATO"),
        )
    )


def ew_contest(world: World, holder: str | None) -> Chance[int]:
    """rhine.ew.roll: Pact total minus NATO total; 0 = nobody holds EW superiority."""
    t = world.tables.ew
    return Opposed(
        _total(t.dice, t.bonus_divisor if holder == "pact" else None, "rhine.ew.roll", "Pact"),
        _total(t.dice, t.bonus_divisor if holder == "nato" else None, "rhine.ew.roll", "NATO"),
    )


def contest_markers(margin: int, cap: int) -> tuple[str | None, int]:
    if margin > 0:
        return "pact", min(cap, margin)
    if margin < 0:
        return "nato", min(cap, -margin)
    return None, 0


def contest_odds(chance: Chance[int], cap: int, holder: str | None) -> dict[str, Any]:
    """Exact odds of a contest: each side's chance to win and mean markers when it wins."""
    dist = chance.outcomes()
    out: dict[str, Any] = {}
    for side, sign in (("pact", 1), ("nato", -1)):
        p = sum((q for m, q in dist.items() if m * sign > 0), Fraction(0))
        mean = (
            sum((q * min(cap, abs(m)) for m, q in dist.items() if m * sign > 0), Fraction(0)) / p
            if p
            else Fraction(0)
        )
        out[side] = {"p": p, "mean_markers": mean}
    out["none"] = dist.get(0, Fraction(0))
    out["markers"] = {
        k: v
        for k, v in sorted(
            _sum_by(((contest_markers(m, cap)), q) for m, q in dist.items()).items(),
            key=lambda kv: (str(kv[0][0]), kv[0][1]),
        )
    }
    return out


def _sum_by(items: Iterable[tuple[Any, Fraction]]) -> dict[Any, Fraction]:
    out: dict[Any, Fraction] = {}
    for k, p in items:
        out[k] = out.get(k, Fraction(0)) + p
    return out


# -- combat -------------------------------------------------------------------------------------
def odds_column(world: World, attack: int, defence: int) -> int | None:
    """rhine.combat.odds: the column index, rounded in the defender's favour; ``None`` below
    the first column (an attack that may not be made). Remembered per map for each pair of
    strengths (every proposed attack asks; the plain reading is :func:`_odds_column`)."""
    key = (world, attack, defence)
    found = _ODDS.get(key, -1)
    if found == -1:
        if len(_ODDS) > 65536:
            _ODDS.clear()
        found = _ODDS[key] = _odds_column(world, attack, defence)
    return found


_ODDS: dict[tuple[Any, int, int], int | None] = {}


def _odds_column(world: World, attack: int, defence: int) -> int | None:
    best: int | None = None
    for index, (a, b) in enumerate(world.crt_columns):
        if attack * b >= defence * a:
            best = index
    if defence <= 0:
        return len(world.crt_columns) - 1
    return best


def crt_chance(world: World, column: int, drm: int, text: str = "") -> TableLookup[str]:
    crt = world.tables.crt
    row = {v: crt.rows[v][column] for v in range(crt.low, crt.high + 1)}
    label = world.tables.crt.columns[column]
    return TableLookup(
        sides=6,
        row=row,
        rule="rhine.crt.table",
        drm=drm,
        low=crt.low,
        high=crt.high,
        text=lambda f, v, r: f"{text}combat at {label}, d6 {f[0]} {drm:+d} = {v}: {r}",
    )


@dataclass(frozen=True)
class CombatFigures:
    attack: int
    defence: int
    column: int | None
    drms: tuple[Modifier, ...]

    @property
    def drm(self) -> int:
        return sum(m.value for m in self.drms)


def combat_figures(
    world: World,
    board: Board,
    attacker: str,
    target: str,
    units: Sequence[str],
    defenders: Sequence[str],
    cs: Mapping[str, int] | None = None,
) -> CombatFigures:
    """Odds column and every DRM of a proposed attack (rhine.drm.*)."""
    info = world.units
    attackers = [info[u] for u in units]
    defending = [info[u] for u in defenders]
    attack = sum([i.strength for i in attackers])
    defence = sum([i.strength for i in defending])
    drms: list[Modifier] = []
    # air
    if board.air_holder is not None:
        n = air_markers_covering(world, board, target)
        if n:
            cap = world.air_cap
            n_used = min(n, cap) if cap is not None else n
            value = n_used if board.air_holder == attacker else -n_used
            why = f"{n} air marker(s) in range"
            if n_used != n:
                why += f", capped at {cap}"
            drms.append(Modifier("rhine.drm.air", value, why))
    # armour superiority
    att_tanks = [i for i in attackers if i.tank]
    if att_tanks and not any([i.tank for i in defending]):
        big = any([i.nation in ("USSR", "US") for i in att_tanks])
        drms.append(
            Modifier(
                "rhine.drm.armour",
                2 if big else 1,
                "armour superiority" + (" (Soviet/US tanks)" if big else ""),
            )
        )
    # EW
    ew = board.ew
    if ew:  # (an EW marker count of 0 or none reads the same: unmarked)
        if any(map(ew.get, units)):
            drms.append(Modifier("rhine.drm.ew", -1, "EW-marked attacker"))
        if any(map(ew.get, defenders)):
            drms.append(Modifier("rhine.drm.ew", 1, "EW-marked defender"))
    # terrain: the single best of hex and river hexside
    tec = world.tables.tec
    hex_drm = tec.terrain[world.terrain[target]].drm
    river_drm = 0
    if units:
        pos, across = board.pos, world.rivers
        rivers = [across.get(frozenset((pos[u] or "", target))) for u in units]
        if None not in rivers:
            river_drm = min([tec.hexsides[str(r)].drm for r in rivers])
    terrain = min(hex_drm, river_drm)
    if terrain:
        why = world.terrain[target] if terrain == hex_drm else "river hexside"
        drms.append(Modifier("rhine.drm.terrain", terrain, f"defender in/behind {why}"))
    if cs:
        if cs.get(attacker, 0):
            drms.append(Modifier("rhine.drm.cs", cs[attacker], "attacker's support"))
        d = other(attacker)
        if cs.get(d, 0):
            drms.append(Modifier("rhine.drm.cs", -cs[d], "defender's support"))
    return CombatFigures(attack, defence, odds_column(world, attack, defence), tuple(drms))


def attackers_eligible(
    world: World,
    board: Board,
    side: str,
    target: str,
    attacked: set[str],
    only: set[str] | None,
    switches: RuleSwitches = ENFORCE_ALL,
    occ: Mapping[str, list[str]] | None = None,
) -> list[str]:
    """The units next to ``target`` that may attack it (``occ``: the position's occupancy,
    if the caller has it)."""
    if occ is None:
        occ = occupancy(world, board)
    out = []
    for n in world.neighbours[target]:
        here = occ.get(n)
        if not here:
            continue
        for u in sorted(here):
            if may_attack(world, u, side, attacked, only, switches):
                out.append(u)
    return out


def may_attack(
    world: World,
    unit: str,
    side: str,
    attacked: set[str],
    only: set[str] | None,
    switches: RuleSwitches = ENFORCE_ALL,
) -> bool:
    """Whether ``unit`` (next to the target) may join an attack: its side's, with strength,
    not defence-only (rhine.combat.defonly), and not yet attacking this phase
    (rhine.combat.once; a momentum attack is by the ``only`` units). The two rules are
    switches."""
    info = world.units[unit]
    if info.side != side or info.strength <= 0:
        return False
    if info.defence_only and not switches.allows(
        "rhine.combat.defonly", False, f"{unit} is a defence-only unit and attacks"
    ):
        return False
    if only is not None:
        return unit in only
    return unit not in attacked or switches.allows(
        "rhine.combat.once", False, f"{unit} attacks a second time this combat phase"
    )


def _units_at(board: Board, h: str) -> list[str]:
    return [u for u, p in board.pos.items() if p == h]


def attack_groups(
    world: World,
    candidates: Sequence[str],
    switches: RuleSwitches = ENFORCE_ALL,
    pos: Mapping[str, str | None] | None = None,
) -> list[tuple[str, ...]]:
    """The attacking groups offered for one defending hex (rhine.combat.one_hex: any number
    of adjacent hexes, not every unit of a hex has to join): every subset when there are up
    to ``ALL_GROUPS_UP_TO`` candidates; else the whole set, each unit alone, each hex's units
    and the whole set less each hex (``pos``: where each candidate stands; without it every
    candidate counts as its own hex). Any other valid subset is accepted when submitted."""
    if not candidates:
        return []
    if len(candidates) <= ALL_GROUPS_UP_TO:
        groups = [
            tuple(c)
            for k in range(1, len(candidates) + 1)
            for c in itertools.combinations(candidates, k)
        ]
    else:
        by_hex: dict[str | None, list[str]] = {}
        for u in candidates:
            by_hex.setdefault(pos.get(u) if pos is not None else u, []).append(u)
        whole = tuple(candidates)
        found = [whole]
        found.extend((u,) for u in candidates)
        for here in by_hex.values():
            found.append(tuple(here))
            found.append(tuple(u for u in candidates if u not in here))
        groups = list(dict.fromkeys(g for g in found if g))
    return [g for g in groups if heliborne_ok(world, g, switches)]


ALL_GROUPS_UP_TO = 6  # 63 groups at most


def heliborne_ok(world: World, units: Sequence[str], switches: RuleSwitches = ENFORCE_ALL) -> bool:
    """rhine.combat.heliborne_div (a switch)."""
    if not any(world.units[u].heliborne for u in units):
        return True
    return len({world.units[u].division for u in units}) == 1 or switches.allows(
        "rhine.combat.heliborne_div",
        False,
        f"heliborne {'+'.join(units)} attack with units of another division",
    )


def cs_limits(
    world: World,
    board: Board,
    side: str,
    attacker: str,
    target: str,
    own_units: Sequence[str],
    order: Mapping[str, str],
) -> tuple[int, int, dict[str, set[str] | None]]:
    """(artillery limit, helicopter limit, the nations allowed for each type of marker, None
    for any) for ``side``: the nations of its units in the combat (rhine.cs.nation), any Pact
    nation's artillery when the Pact attacks a city (rhine.cs.limit.artillery; its
    helicopters stay bound to its units' nations)."""
    t = world.tables.cs
    art = t.artillery_limit.get(order.get(side, "move-fight"), 1)  # type: ignore[call-overload]
    own = {world.units[u].nation for u in own_units}
    nations: dict[str, set[str] | None] = {"artillery": own, "helicopter": own}
    if side == "pact" and attacker == "pact" and world.is_city(target):
        art = t.pact_city_artillery  # rhine.cs.limit.artillery: any Pact nation's artillery
        nations["artillery"] = None
    heli = t.helicopter_limit
    if target in air_range(world, board, other(side)):
        heli = 0  # rhine.air.heli_cs
    if any(world.units[u].heliborne for u in own_units):
        art = 0  # rhine.cs.heliborne
    return art, heli, nations


def cs_choices(
    ready: Mapping[tuple[str, str], int],
    art: int,
    heli: int,
    nations: Mapping[str, set[str] | None],
) -> list[dict[tuple[str, str], int]]:
    """Every commitment within the limits: {(type, nation): count} (``nations``: those
    allowed for each type, None for any; see :func:`cs_limits`)."""
    per_type: dict[str, list[dict[tuple[str, str], int]]] = {}
    for kind, limit in (("artillery", art), ("helicopter", heli)):
        allowed = nations.get(kind)
        pools = sorted(
            (nat, n)
            for (k, nat), n in ready.items()
            if k == kind and n > 0 and (allowed is None or nat in allowed)
        )
        combos: list[dict[tuple[str, str], int]] = [{}]
        for nat, n in pools:
            combos = [
                {**c, (kind, nat): k} if k else dict(c)
                for c in combos
                for k in range(0, n + 1)
                if sum(c.values()) + k <= limit
            ]
        per_type[kind] = combos
    return [{**a, **h} for a in per_type["artillery"] for h in per_type["helicopter"]]


def cs_code(choice: Mapping[tuple[str, str], int]) -> str:
    if not choice:
        return "none"
    return ";".join(f"{k}:{nat}={n}" for (k, nat), n in sorted(choice.items()))


def parse_cs(code: str) -> dict[tuple[str, str], int]:
    if code in ("", "none"):
        return {}
    out: dict[tuple[str, str], int] = {}
    for part in code.split(";"):
        left, _, n = part.partition("=")
        kind, _, nat = left.partition(":")
        out[(kind, nat)] = int(n)
    return out


def retreat_options(
    world: World,
    board: Board,
    units: Sequence[str],
    start: str,
    away_from: Sequence[str],
    length: int,
) -> list[tuple[str, ...]]:
    """rhine.retreat.*: paths of ``length`` hexes, each farther from every hex of
    ``away_from``, never into enemy units, obeying stacking on the way and at the end (both
    sides: rhine.retreat.stacking, spec 3.12.7), each hex into an EZOC only if no other hex
    open at that step (one from which the retreat can be finished) lies outside every zone
    (rhine.retreat.ezoc). Empty when the units cannot retreat."""
    side = world.units[units[0]].side
    occ = occupancy(world, board)
    zone = ezoc(world, occ, side)

    def ok(h: str) -> bool:
        here = occ.get(h, [])
        if here and world.units[here[0]].side != side:
            return False
        return can_join(world, occ, h, units)

    paths: list[tuple[str, ...]] = [(start,)]
    for _ in range(length):
        nxt = []
        for p in paths:
            last = p[-1]
            for n in world.neighbours[last]:
                if all(world.distance(n, a) > world.distance(last, a) for a in away_from) and ok(n):
                    nxt.append(p + (n,))
        paths = nxt
    # rhine.retreat.ezoc, hex by hex: at each step a path may enter an enemy zone hex only if
    # no path with the same hexes so far goes on into a hex outside every zone (paths that
    # cannot finish the retreat are already gone, so every hex still offered is a legal one)
    chosen = paths
    for step in range(1, length + 1):
        open_here = {p[:step] for p in chosen if p[step] not in zone}
        chosen = [p for p in chosen if p[step] not in zone or p[:step] not in open_here]
    # one path per destination
    seen: dict[str, tuple[str, ...]] = {}
    for p in chosen:
        seen.setdefault(p[-1], p[1:])
    return list(seen.values())


def ex_loss_options(world: World, units: Sequence[str], need: int) -> list[tuple[str, ...]]:
    """EX: minimal sets of attackers whose printed strength totals at least ``need``."""
    total = sum(world.units[u].strength for u in units)
    if total <= need:
        return [tuple(units)]
    out: list[tuple[str, ...]] = []
    for k in range(1, len(units) + 1):
        for combo in itertools.combinations(units, k):
            s = sum(world.units[u].strength for u in combo)
            if s < need:
                continue
            if (
                any(sum(world.units[u].strength for u in combo if u != x) >= need for x in combo)
                and need > 0
            ):
                continue
            out.append(combo)
    return out or [tuple(units)]


def crt_distribution(world: World, column: int, drm: int) -> dict[str, Fraction]:
    return crt_chance(world, column, drm).outcomes()
