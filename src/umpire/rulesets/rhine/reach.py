"""7 Days to the Rhine: the ground movement search (rhine.move.costs, rhine.move.enemy,
rhine.zoc.*, rhine.river.*, roads and autobahn, refugees, air range) over a map's
precomputed steps.

The step costs are :func:`umpire.rulesets.rhine.rules.step_cost`'s, summed in its order (so
every total is the same float): the parts that read only the map (neighbours, terrain, road
and autobahn hexsides, rivers) are worked out once per map; what zones of control, refugees
and the enemy's air range add is worked out per set of those markers, hex by hex as a search
first needs it, and shared by every search over the same markers. The search is a Dijkstra over
(hex, must-stop) cells that settles cells cheapest first and, among equal costs, in the order
they were first reached (the tie rule of :func:`umpire.geometry.reach.reach`): the queue is
one first-in first-out list per cost."""

from __future__ import annotations

import heapq
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from umpire.rulesets.rhine.model import World

OFF = ""  # the virtual hex reinforcements enter from

# a search's cell: hex number * 2 + 1 if the unit must stop there (see hex_numbers)
Cell = int
# a finished search: the cells settled (cheapest first) with their cost, each reached cell's
# parent (-1 for none), room for the routes walked to cells (see walk), and the first cell
# settled in each hex (its cheapest), in the order settled
Searched = tuple[dict[Cell, float], list[Cell], dict[Cell, tuple[str, ...]], list[Cell]]

# a step of a map row before zones are read: (hex, its cells going on and stopped there, cost
# out of a hex outside an EZOC, cost out of one inside, ends movement, hex in an EZOC)
Step = tuple[str, int, int, float, float, bool, bool]
# a step as a search takes it: (the cell it reaches, its cost); the steps a search may not
# take (zone to zone for non-recon units) are left out
Move = tuple[int, float]
Row = tuple[Move, ...]

INF = float("inf")
_cost = operator.itemgetter(1)  # a Move's cost


@dataclass(frozen=True)
class StaticEdges:
    """Per map, computed once: each hex's neighbours with the cost of the step before zones,
    refugees and air range (road, autobahn or terrain plus river hexside), and whether the
    hexside ends movement (a river without a road across it)."""

    out: dict[str, tuple[tuple[str, float, bool], ...]]
    terrain_cost: dict[str, float]
    cheapest: float  # the cheapest step on the map: no search reaches past budget / cheapest


def _per_map(store: dict[int, tuple[Any, Any]], world: World, make: Callable[[], Any]) -> Any:
    """What ``make`` builds for ``world``, made once per map (kept with the world itself, so a
    new world at a reused id is never taken for the old one)."""
    found = store.get(id(world))
    if found is None or found[0] is not world:
        found = store[id(world)] = (world, make())
    return found[1]


_EDGES: dict[int, tuple[Any, StaticEdges]] = {}


def static_edges(world: World) -> StaticEdges:
    def make() -> StaticEdges:
        tec = world.tables.tec
        terrain_cost = {h: tec.terrain[world.terrain[h]].cost for h in world.ids}
        out: dict[str, tuple[tuple[str, float, bool], ...]] = {}
        for h in world.ids:
            row = []
            for n in world.neighbours[h]:
                edge = frozenset((h, n))
                river = world.rivers.get(edge)
                road = edge in world.road_edges or edge in world.autobahn_edges
                if edge in world.autobahn_edges:
                    cost = tec.autobahn_cost
                elif edge in world.road_edges:
                    cost = tec.road_cost
                else:
                    cost = tec.terrain[world.terrain[n]].cost
                    if river is not None:
                        cost += tec.hexsides[river].cost
                ends = river is not None and tec.hexsides[river].ends_move and not road
                row.append((n, cost, ends))
            out[h] = tuple(row)
        steps = [c for row in out.values() for _, c, _ in row] + list(terrain_cost.values())
        return StaticEdges(out, terrain_cost, min(steps))

    found: StaticEdges = _per_map(_EDGES, world, make)
    return found


_INDEX: dict[int, tuple[Any, tuple[dict[str, int], list[str]]]] = {}


def hex_numbers(world: World) -> tuple[dict[str, int], list[str]]:
    """Each hex's number (the virtual entry hex last), and the hex of each number."""

    def make() -> tuple[dict[str, int], list[str]]:
        ids = list(world.ids) + [OFF]
        return {h: i for i, h in enumerate(ids)}, ids

    found: tuple[dict[str, int], list[str]] = _per_map(_INDEX, world, make)
    return found


_CELL_HEXES: dict[int, tuple[Any, list[str]]] = {}


def cell_hexes(world: World) -> list[str]:
    """The hex of each search cell (``ids[cell >> 1]``: both cells of a hex name it)."""

    def make() -> list[str]:
        return [h for h in hex_numbers(world)[1] for _ in (0, 1)]

    found: list[str] = _per_map(_CELL_HEXES, world, make)
    return found


_PLAIN: dict[int, tuple[Any, list[tuple[Step, ...]]]] = {}


def _plain_rows(world: World) -> list[tuple[Step, ...]]:
    """Each hex's steps when no zone, refugee or air range adds to them."""

    def make() -> list[tuple[Step, ...]]:
        edges = static_edges(world)
        ezoc_cost = world.tables.tec.ezoc_cost
        index, ids = hex_numbers(world)
        return [
            tuple(
                (n, 2 * index[n], 2 * index[n] + 1, base, base + ezoc_cost, ends, False)
                for n, base, ends in edges.out[h]
            )
            for h in ids[:-1]
        ]

    found: list[tuple[Step, ...]] = _per_map(_PLAIN, world, make)
    return found


@dataclass
class _Bits:
    """Per map: each hex's bit, each hex number's neighbours as bits, and the rows made so
    far, by what they read (see :func:`table`)."""

    bit: dict[str, int]
    around: list[int]
    rows: dict[tuple[int, ...], tuple[Step, ...]]
    moves: dict[tuple[int, ...], tuple[Move, ...]]
    # each hex's going-on cell and its neighbours' (what a change of its marks makes stale)
    stale: dict[str, tuple[int, ...]]
    recent: list[Table] = field(default_factory=list)  # the latest tables made, newest first


_BITS: dict[int, tuple[Any, _Bits]] = {}


def _bits(world: World) -> _Bits:
    def make() -> _Bits:
        _, ids = hex_numbers(world)
        bit = {h: 1 << i for i, h in enumerate(ids)}
        around = [sum(bit[n] for n in world.neighbours[h]) for h in ids[:-1]] + [0]
        index = hex_numbers(world)[0]
        stale = {h: tuple(2 * index[n] for n in (h, *world.neighbours[h])) for h in ids[:-1]}
        return _Bits(bit, around, {}, {}, stale)

    found: _Bits = _per_map(_BITS, world, make)
    return found


@dataclass
class Table:
    """The map's steps for one set of zones, refugees and air range: per cell, the moves out
    of it (a hex's going-on cell's made when a search first expands it; none out of a cell
    where the unit must stop, nor out of the virtual entry hex, which a search expands
    itself) for each kind of search (see :func:`variant`)."""

    moves: tuple[list[Row | None], list[Row | None], list[Row | None]]
    make: Callable[[int, int], Row]
    # the markers it was made for
    zone: frozenset[str]
    refugees: frozenset[str]
    enemy_air: frozenset[str]


_TABLES: dict[tuple[Any, ...], Table] = {}

# the kinds of search, which differ in the moves out of a hex: a non-recon unit by day (none
# out of an EZOC: rhine.zoc), a non-recon unit at night (out of an EZOC, but never into
# another) and a recon unit
DAY, NIGHT, RECON = 0, 1, 2


def variant(recon: bool, night: bool) -> int:
    return RECON if recon else NIGHT if night else DAY


def table(
    world: World, zone: frozenset[str], refugees: frozenset[str], enemy_air: frozenset[str]
) -> Table:
    """The search table for these markers (these change only when the enemy moves or markers
    change: made once for each such set and shared by every search over it)."""
    found = _TABLES.get((world, zone, refugees, enemy_air))
    if found is not None:
        return found
    return _new_table(world, zone, refugees, enemy_air)


def _new_table(
    world: World, zone: frozenset[str], refugees: frozenset[str], enemy_air: frozenset[str]
) -> Table:
    """:func:`table`'s table when none is kept for these markers (apart: the closures made
    here would otherwise be set up at every call, found or not)."""
    key = (world, zone, refugees, enemy_air)
    if len(_TABLES) > 256:
        _TABLES.clear()
    edges = static_edges(world)
    tec = world.tables.tec
    ezoc_cost = tec.ezoc_cost
    refugee_cost = tec.refugee_cost
    air_cost = tec.air_range_cost
    index, ids = hex_numbers(world)
    marked = zone | refugees | enemy_air
    plain = _plain_rows(world)
    shared = _bits(world)

    def row(i: int) -> tuple[Step, ...]:
        """Hex ``i``'s steps with what zones, refugees and air range add to each, in the
        order :func:`rules.step_cost` adds them."""
        h = ids[i]
        if marked.isdisjoint(world.neighbours[h]):
            return plain[i]  # nothing added entering any neighbour
        out = []
        for (n, base, ends), made in zip(edges.out[h], plain[i], strict=True):
            if n not in marked:  # nothing added entering it
                out.append(made)
                continue
            # the step out of a hex outside a zone and out of one in a zone, each summed in
            # step_cost's order (the zone left, the zone entered, refugees, air range)
            n_zone = n in zone
            out_cost, zone_cost = base, base + ezoc_cost
            if n_zone:
                out_cost += ezoc_cost
                zone_cost += ezoc_cost
            if n in refugees:
                out_cost += refugee_cost
                zone_cost += refugee_cost
            if n in enemy_air:
                out_cost += air_cost
                zone_cost += air_cost
            out.append((n, made[1], made[2], out_cost, zone_cost, ends, n_zone))
        return tuple(out)

    # a row reads only which of its hex's neighbours are in a zone, hold refugees or lie in
    # the enemy's air range, and the moves out of it also whether the hex is in a zone and
    # the unit is recon: rows are shared by every table that marks them alike (most hexes'
    # surroundings do not change when a unit moves), found by those marks as bits
    bit = shared.bit.__getitem__
    zone_bits = sum(map(bit, zone))
    refugee_bits = sum(map(bit, refugees))
    air_bits = sum(map(bit, enemy_air))
    around = shared.around
    rows = shared.rows
    moves = shared.moves
    in_zone = list(map(zone.__contains__, ids))

    def make(cell: int, kind: int) -> Row:
        """The moves out of a hex's going-on ``cell`` for a search of ``kind``."""
        i = cell >> 1
        if kind == DAY and in_zone[i]:
            return ()  # every step out of an EZOC is forbidden by day to non-recon units
        recon = kind == RECON
        near = around[i]
        marks = (i, zone_bits & near, refugee_bits & near, air_bits & near)
        h_zone = in_zone[i]
        key = (*marks, h_zone, recon)
        made = moves.get(key)
        if made is not None:
            return made
        steps = rows.get(marks)
        if steps is None:
            if len(rows) > 65536:
                rows.clear()
            steps = rows[marks] = row(i)
        out: list[Move] = []
        for _, go, stop, out_cost, zone_cost, ends, n_zone in steps:
            if n_zone:
                if h_zone:
                    if not recon:
                        continue  # no ZOC-to-ZOC
                    nxt = stop  # recon stops after ZOC-to-ZOC
                elif not recon or ends:
                    nxt = stop  # rhine.zoc.nonrecon: must stop
                else:
                    nxt = go
            elif ends:
                nxt = stop  # rhine.river.*: a river without a road across ends movement
            else:
                nxt = go
            out.append((nxt, zone_cost if h_zone else out_cost))
        # cheapest first (a stable sort: steps of equal cost keep the map's order), so that
        # a search stops reading a row at the first step past its budget; the steps of one
        # hex reach distinct cells, so their order matters only among equal costs (the
        # order they join the queue at one cost)
        out.sort(key=_cost)
        if len(moves) > 65536:
            moves.clear()
        made = moves[key] = tuple(out)
        return made

    # the moves made for a recent table of this map stay right for every hex whose
    # surroundings (itself and its neighbours) have the same marks: they are taken from the
    # recent table whose marks differ least (the same side's, before an enemy unit moved)
    # and only the others are made again
    last = min(
        shared.recent,
        key=lambda t: (
            len(zone ^ t.zone) + len(refugees ^ t.refugees) + len(enemy_air ^ t.enemy_air)
        ),
        default=None,
    )
    if last is None:
        unmade: list[Row | None] = [None, ()]  # a hex's going-on cell to make, its stop cell
        nothing: list[Row | None] = [(), ()]  # the virtual entry hex (last)
        fresh = unmade * (len(ids) - 1) + nothing
        kept = (fresh, list(fresh), list(fresh))
    else:
        kept = (list(last.moves[0]), list(last.moves[1]), list(last.moves[2]))
        changed = (zone ^ last.zone) | (refugees ^ last.refugees) | (enemy_air ^ last.enemy_air)
        # the going-on cells of the changed hexes and their neighbours, each once
        stale = set().union(*map(shared.stale.__getitem__, changed))
        day, night, recon = kept
        for cell in stale:
            day[cell] = night[cell] = recon[cell] = None
    found = _TABLES[key] = Table(kept, make, zone, refugees, enemy_air)
    shared.recent = [found, *shared.recent[:3]]
    return found


_SEARCHES: dict[tuple[Any, ...], Searched] = {}


def search(
    world: World,
    origin_hex: str,
    entry: tuple[str, ...] | None,
    budget: float,
    blocked: frozenset[str],
    zone: frozenset[str],
    recon: bool,
    night: bool,
    refugees: frozenset[str],
    enemy_air: frozenset[str],
) -> Searched:
    """One Dijkstra over (hex, must-stop) cells from ``origin_hex`` (or from off the map
    through the ``entry`` hexes): the cells settled, cheapest first and among equals in the
    order first reached, with their cost; each cell's parent; room for routes; and the first
    cell settled in each hex. Remembered by its inputs: within a phase most units' searches
    do not change when another unit moves (callers must not mutate the result)."""
    key = (world, origin_hex, entry, budget, blocked, zone, recon, night, refugees, enemy_air)
    found = _SEARCHES.get(key)
    if found is not None:
        return found
    if len(_SEARCHES) > 1024:  # bounded: each holds a whole search
        _SEARCHES.clear()
    made = table(world, zone, refugees, enemy_air)
    kind = variant(recon, night)
    rows = made.moves[kind]
    make = made.make
    index, ids = hex_numbers(world)
    entry_row: list[Move] = []
    if entry is not None:
        # stepping in from off the map: the entry hex's terrain cost, no zone to leave
        terrain_cost = static_edges(world).terrain_cost
        tec = world.tables.tec
        for n in entry:
            step = terrain_cost[n]
            n_zone = n in zone
            if n_zone:
                step += tec.ezoc_cost
            if n in refugees:
                step += tec.refugee_cost
            if n in enemy_air:
                step += tec.air_range_cost
            cell = 2 * index[n] + (1 if n_zone and not recon else 0)
            entry_row.append((cell, step))
        entry_row.sort(key=_cost)  # cheapest first, as the map's rows
    origin = index[origin_hex] * 2
    cells = 2 * len(ids)
    best = [INF] * cells
    # a blocked hex's cells count as reached already at less than nothing, so that the test
    # of a step against the cell's best cost refuses them too (no step costs less than
    # nothing; the origin's own cell keeps 0.0: a step back into it is refused either way)
    for h in blocked:
        i = index[h] * 2
        best[i] = best[i + 1] = -1.0
    best[origin] = 0.0
    parents = [-1] * cells
    done = bytearray(cells)
    settled: dict[Cell, float] = {}
    firsts: list[Cell] = []
    # the queue: the cells reached at each cost, in the order reached, and the costs queued
    buckets: dict[float, list[Cell]] = {0.0: [origin]}
    costs = [0.0]
    pop, push = heapq.heappop, heapq.heappush
    if origin_hex == OFF:
        # the virtual entry hex is settled first (the only cell at no cost) and expanded
        # here, through the entry hexes; no step leads back to it
        buckets, costs = {}, []
        done[origin] = 1
        settled[origin] = 0.0
        firsts.append(origin)
        for nxt, step in entry_row:
            total = 0.0 + step
            if total > budget:
                break
            if best[nxt] <= total:  # (a blocked hex's cells are never taken)
                continue
            best[nxt] = total
            parents[nxt] = origin
            queued = buckets.get(total)
            if queued is None:
                buckets[total] = [nxt]
                push(costs, total)
            else:
                queued.append(nxt)
    while costs:
        spent0 = pop(costs)
        # no step costs less than nothing: a step from this bucket never joins it (one of
        # zero cost would open a new bucket at the same cost, taken next, in order)
        for cell in buckets.pop(spent0):
            if done[cell]:
                continue
            done[cell] = 1
            settled[cell] = spent0
            if not done[cell ^ 1]:  # the hex's other cell is not settled: its first
                firsts.append(cell)
            # (none out of a cell where the unit must stop)
            steps = rows[cell]
            if steps is None:
                steps = rows[cell] = make(cell, kind)
            for nxt, step in steps:
                total = spent0 + step
                if total > budget:
                    break  # and so are the other steps of the row (cheapest first)
                # a settled cell is passed over here too: its cost is at most spent0; so is
                # a blocked hex's (see above)
                if best[nxt] <= total:
                    continue
                best[nxt] = total
                parents[nxt] = cell
                queued = buckets.get(total)
                if queued is None:
                    buckets[total] = [nxt]
                    push(costs, total)
                else:
                    queued.append(nxt)

    found = _SEARCHES[key] = (settled, parents, {}, firsts)
    return found


def walk(
    cell: Cell,
    parents: Sequence[Cell],
    routes: dict[Cell, tuple[str, ...]],
    origin_hex: str,
    origin: Cell,
    ids: Sequence[str],
) -> tuple[str, ...]:
    """The hexes from the start (``origin_hex``, cell ``origin``) to ``cell`` (the virtual
    entry hex left out), remembered with the search in ``routes`` so each is walked once
    (``ids``: the hex of each number)."""
    known = routes.get(cell)
    if known is not None:
        return known
    chain = [cell]
    while chain[-1] != origin and chain[-1] not in routes:
        chain.append(parents[chain[-1]])
    base = routes.get(chain[-1], ())
    if chain[-1] == origin:
        base = () if origin_hex == OFF else (origin_hex,)
        routes[origin] = base
    for c in reversed(chain[:-1]):
        base = base + (ids[c >> 1],)
        routes[c] = base
    return base
