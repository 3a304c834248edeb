"""Line of sight and the "more than 50% obscured" test (rules sevendays.los.*).

Sight is traced centre to centre. Terrain blocks as the table says; enemy vehicles (of the
firer) and all wrecks block too. For the obscured test, ``obscured_rays`` lines are traced from
the firer's centre to points spread across the target's width, perpendicular to the line of
sight; a line counts as obscured if it crosses terrain (other than the areas the firer or the
target stands in), a vehicle, a wreck or, for sights without thermal imaging, a smoke screen
(smoke obscures, it never blocks: book p15 modifier list). The target is obscured when more
than half of the lines are.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from umpire.geometry.table import segment_point_distance
from umpire.rulesets.sevendays.state import SevenDaysState, Unit
from umpire.rulesets.sevendays.world import World

Vec = tuple[float, float]


class Sight(NamedTuple):
    """Whether a target can be seen, and whether it is more than 50% obscured."""

    visible: bool
    obscured: bool = False


SIGHT_BATCH = 16  # terrain sight lines fetched together (one spatial query), see prefetch_between

BLOCKED = Sight(False)
CLEAR = Sight(True, False)
OBSCURED = Sight(True, True)


def _bodies(
    world: World, state: SevenDaysState, firer: Unit, target: Unit, a: Vec, b: Vec, reach: float
) -> tuple[list[Vec], list[Vec]]:
    """Positions of units near the segment a-b that block (enemy vehicles of the firer and all
    wrecks) and that only obscure (friendly vehicles). A hidden marker does neither (rule
    sevendays.los.hidden_markers, house): what it stands for must not show in who sees whom."""
    x0, x1 = (a[0], b[0]) if a[0] <= b[0] else (b[0], a[0])
    y0, y1 = (a[1], b[1]) if a[1] <= b[1] else (b[1], a[1])
    x0 -= reach
    y0 -= reach
    x1 += reach
    y1 += reach
    blocking: list[Vec] = []
    obscuring: list[Vec] = []
    if world.holds(state, firer) and world.holds(state, target):
        # only the units in the box around the line, from the unit index (same units, same
        # order as the scan below)
        skip = (firer.uid, target.uid)
        side = firer.side
        for _, x, y, p in world.unit_index(state).bodies.box(x0, y0, x1, y1):
            if p.uid in skip:
                continue
            if p.wreck:
                blocking.append((x, y))
            elif p.alive and p.ground_vehicle:
                (obscuring if p.side == side else blocking).append((x, y))
        return blocking, obscuring
    units = state.units
    if units.get(firer.uid) is firer and units.get(target.uid) is target:
        # the state's own units: the bodies of this arrangement, listed once (same units,
        # same order as the scan below, told apart by uid; the box, the cheaper test, first)
        firer_uid, target_uid = firer.uid, target.uid
        side = firer.side
        for uid, x, y, wreck, body_side in _body_list(world, state):
            if x0 <= x <= x1 and y0 <= y <= y1 and uid != firer_uid and uid != target_uid:
                if wreck or body_side != side:
                    blocking.append((x, y))
                else:
                    obscuring.append((x, y))
        return blocking, obscuring
    return _bodies_scan(world, state, firer, target, (x0, y0, x1, y1))


def _bodies_near(
    world: World, state: SevenDaysState, firer: Unit, target: Unit, a: Vec, b: Vec, reach: float
) -> tuple[list[Vec], list[Vec]]:
    """:func:`_bodies`, less the bodies ``reach`` or more from the segment a-b: what
    :func:`_sight` reads of them, since such a body neither cuts the centre line nor touches
    a ray (it asks for bodies nearer than ``reach`` only); the bodies kept are those of
    :func:`_bodies` nearer than ``reach``, in the same order.

    The bodies of the arrangement are listed once (:func:`_body_list`) and each is tested
    against the line's box, then by a cross product, then by its exact distance: measured
    cheaper than visiting the unit index's cells along the line (``GridIndex.along``) on
    tables of 52 and 104 units as well as small ones, a long line across a wide table
    crossing many cells (issue 19). A firer or target that is not the state's own unit of
    its uid (a copy standing in for it) is answered by :func:`_bodies`."""
    units = state.units
    if units.get(firer.uid) is not firer or units.get(target.uid) is not target:
        return _bodies(world, state, firer, target, a, b, reach)
    x0, x1 = (a[0], b[0]) if a[0] <= b[0] else (b[0], a[0])
    y0, y1 = (a[1], b[1]) if a[1] <= b[1] else (b[1], a[1])
    x0 -= reach
    y0 -= reach
    x1 += reach
    y1 += reach
    blocking: list[Vec] = []
    obscuring: list[Vec] = []
    skip = (firer.uid, target.uid)
    side = firer.side
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    # a body as far as ``reach`` from the line through a and b (widened by a rounding margin)
    # is as far from the segment: ruled out by a cross product before the exact distance
    wide = reach * (1.0 + 1e-9) + 1e-9
    far = wide * wide * (dx * dx + dy * dy)
    for uid, x, y, wreck, body_side in _body_list(world, state):
        if not (x0 <= x <= x1 and y0 <= y <= y1) or uid in skip:
            continue
        cross = dx * (y - ay) - dy * (x - ax)
        if cross * cross > far or segment_point_distance(a, b, (x, y)) >= reach:
            continue
        if wreck or body_side != side:
            blocking.append((x, y))
        else:
            obscuring.append((x, y))
    return blocking, obscuring


def _body_list(world: World, state: SevenDaysState) -> list[tuple[str, float, float, bool, str]]:
    """The units of ``state`` that may block or obscure a sight line, in table order: wrecks
    and active ground vehicles, not hidden markers (uid, x, y, wreck, side); kept for the
    arrangement asked for last (``state.geometry``)."""
    key = state.geometry
    memo = world.body_memo
    if memo is not None and memo[0] == key:
        return memo[1]
    found: list[tuple[str, float, float, bool, str]] = [
        (u.uid, u.x, u.y, u.wreck, u.side)
        for u in state.units.values()
        if not u.hidden and (u.wreck or (u.status == "active" and world.is_ground_vehicle(u)))
    ]
    world.body_memo = (key, found)
    return found


def _bodies_scan(
    world: World,
    state: SevenDaysState,
    firer: Unit,
    target: Unit,
    box: tuple[float, float, float, float],
) -> tuple[list[Vec], list[Vec]]:
    """``_bodies`` by a scan of every unit (what the unit index must answer alike)."""
    x0, y0, x1, y1 = box
    blocking: list[Vec] = []
    obscuring: list[Vec] = []
    for u in state.units.values():
        if u is firer or u is target or u.hidden or not (x0 <= u.x <= x1 and y0 <= u.y <= y1):
            continue
        if u.wreck:
            blocking.append((u.x, u.y))
        elif u.status == "active" and world.is_ground_vehicle(u):
            (obscuring if u.side == firer.side else blocking).append((u.x, u.y))
    return blocking, obscuring


def _cuts(a: Vec, b: Vec, points: list[Vec], radius: float) -> bool:
    return any(segment_point_distance(a, b, p) < radius for p in points)


def _terrain(
    world: World, a: Vec, target: Unit, rays: bool
) -> tuple[bool, tuple[bool, ...] | None]:
    """Terrain part of a sight line (static, so cached per pair of positions): does terrain
    block the centre line, and (if ``rays``) which of the obscured-test rays cross terrain.
    ``None`` for the rays means they have not been traced."""
    key = (a[0], a[1], target.x, target.y, world.radius(target))
    cache = world.sight_cache
    found = cache.get(key)
    if found is None and world.sight_queue:
        # lines asked for by prefetch_between and not fetched yet: the next batch of them
        # with this one, in one spatial query (callers ask in the order they listed)
        queue = world.sight_queue
        batch = queue[:SIGHT_BATCH]
        del queue[:SIGHT_BATCH]
        batch.append((a, target, rays))
        prefetch(world, batch)
        found = cache.get(key)
    if found is None or (rays and found[1] is None and not found[0]):
        b = (target.x, target.y)
        blocked = found is not None and found[0]
        if found is None:
            blocked = world.table.terrain_blocks(a, b)
        crossings: tuple[bool, ...] | None = None
        if blocked:
            crossings = ()
        elif rays:
            picture = (a, b, target_rays(world, a, target))
            crossings = tuple(world.table.ray_crossings_many([picture])[0])
        found = (blocked, crossings)
        if len(cache) > 200_000:
            cache.clear()
        cache[key] = found
    return found


def terrain_blocked(world: World, firer: Unit, target: Unit) -> bool:
    """Whether terrain surely blocks ``firer``'s sight of ``target`` (rule
    sevendays.los.blockers): the answer :func:`sight` starts from, when it is already known
    (:func:`prefetch`); False when it is not known yet, or when either unit is a helicopter
    (nothing on the ground hides one)."""
    found = world.sight_cache.get((firer.x, firer.y, target.x, target.y, world.radius(target)))
    return (
        found is not None
        and found[0]
        and not world.is_helicopter(firer)
        and not world.is_helicopter(target)
    )


def prefetch(world: World, pairs: list[tuple[Vec, Unit, bool]]) -> None:
    """Fill the terrain-sight cache for many (origin, target, rays wanted) in one batch."""
    cache = world.sight_cache
    wanted: dict[tuple[float, ...], tuple[Vec, Unit, bool]] = {}
    for a, target, rays in pairs:
        key = (a[0], a[1], target.x, target.y, world.radius(target))
        found = cache.get(key)
        if found is None or (rays and found[1] is None and not found[0]):
            wanted[key] = (a, target, rays)
    if not wanted:
        return
    if len(cache) > 200_000:
        cache.clear()
    keys = list(wanted)
    todo = [wanted[k] for k in keys]
    blocked = world.table.terrain_blocks_many([(a, (t.x, t.y)) for a, t, _ in todo])
    traced = [i for i, b in enumerate(blocked) if not b and todo[i][2]]
    crossings = world.table.ray_crossings_many(
        [
            (todo[i][0], (todo[i][1].x, todo[i][1].y), target_rays(world, todo[i][0], todo[i][1]))
            for i in traced
        ]
    )
    for i, b in enumerate(blocked):
        cache[keys[i]] = (True, ()) if b else (False, None)
    for i, crossed in zip(traced, crossings, strict=True):
        cache[keys[i]] = (False, tuple(crossed))


def needs_obscured(world: World, firer: Unit, target: Unit) -> bool:
    """Whether a shot's odds depend on the obscured test: not for thermal sights, nor for a
    target already in terrain (the same -1 applies either way)."""
    return "thermal" not in world.profile(firer).traits and not world.in_cover(target)


def prefetch_between(
    world: World,
    firers: list[Unit],
    targets: list[Unit],
    reaction: bool = False,
    *,
    lazy: bool = True,
    rays: bool = True,
) -> None:
    """Prefetch terrain sight from every firer to every target of the other side (tracing the
    obscured-test rays only where the answer can matter; a reaction roll needs them whenever
    the activating unit is not in terrain). Lazily: the first ``SIGHT_BATCH`` lines now, the
    others in batches as they are asked for (a search that stops at the first unit able to
    react asks for few), until the next call; every line at once without ``lazy``. Without
    ``rays``, the centre lines only (the rays are traced when sight asks for them)."""
    # only the lines not known well enough yet are listed (as :func:`prefetch` would pick
    # them): a unit that has not moved finds most of its lines in the cache, and the answers
    # do not depend on which batch a line was fetched in. Whether a target is in terrain is
    # asked only for a line that needs the rays decided (index into ``in_open``)
    cache = world.sight_cache
    live = [(t, t.side, t.x, t.y, world.radius(t)) for t in targets if t.status == "active"]
    in_open: list[bool | None] = [None] * len(live)
    pairs = []
    for f in firers:
        plain_sights = reaction or "thermal" not in world.profile(f).traits
        ox, oy, side = f.x, f.y, f.side
        origin = (ox, oy)
        for n, (t, t_side, tx, ty, r) in enumerate(live):
            if t_side == side:
                continue
            found = cache.get((ox, oy, tx, ty, r))
            if found is not None and (found[0] or found[1] is not None):
                continue  # blocked, or its rays traced: nothing more to fetch
            want = False
            if rays and plain_sights:
                open_ = in_open[n]
                if open_ is None:
                    open_ = in_open[n] = not world.in_cover(t)
                want = open_
            if found is None or want:
                pairs.append((origin, t, want))
    if not lazy:
        world.sight_queue = []
        prefetch(world, pairs)
        return
    world.sight_queue = pairs[SIGHT_BATCH:]
    prefetch(world, pairs[:SIGHT_BATCH])


def terrain_blocked_all(world: World, firer: Unit, targets: list[Unit]) -> list[bool]:
    """:func:`terrain_blocked` from ``firer`` to each of ``targets`` (units on the table of
    the other side), with the centre lines not known yet fetched first in one batch: what
    ``prefetch_between(world, [firer], targets, lazy=False, rays=False)`` then one
    :func:`terrain_blocked` per target give, in one sweep over the targets (the scripted
    player's sight check to every enemy, issue 19).

    Terrain is static, so a line's answer does not depend on when it was fetched; like
    ``prefetch_between`` this drops the lines queued by an earlier lazy sweep."""
    cache = world.sight_cache
    ox, oy = firer.x, firer.y
    radius = world._radius  # world.radius, written out (a per-enemy loop)
    keys = [(ox, oy, t.x, t.y, radius[t.profile]) for t in targets]
    found = list(map(cache.get, keys))
    world.sight_queue = []
    if None in found:
        missing = [i for i, f in enumerate(found) if f is None]
        wanted: dict[tuple[float, ...], int] = {}
        for i in missing:
            wanted.setdefault(keys[i], i)
        if len(cache) > 200_000:
            cache.clear()
        origin = (ox, oy)
        lines = [(origin, (targets[i].x, targets[i].y)) for i in wanted.values()]
        for key, b in zip(wanted, world.table.terrain_blocks_many(lines), strict=True):
            cache[key] = (True, ()) if b else (False, None)
        for i in missing:
            found[i] = cache[keys[i]]
    air = world._air
    if air[firer.profile]:
        return [False] * len(targets)
    return [
        f[0] and not air[t.profile]  # type: ignore[index]
        for f, t in zip(found, targets, strict=True)
    ]


def sight(
    world: World, state: SevenDaysState, firer: Unit, target: Unit, obscured: bool = True
) -> Sight:
    """Rule sevendays.los.blockers: can ``firer`` see ``target``? Plus, if ``obscured``, the
    obscured test (rule sevendays.los.obscured); without it ``obscured`` is always false.
    Cached per arrangement of units."""
    key = (state.geometry, firer.uid, target.uid, obscured)
    found = world.sight_pairs.get(key)
    if found is None:
        if len(world.sight_pairs) > 50_000:
            world.sight_pairs.clear()
        found = world.sight_pairs[key] = _sight(world, state, firer, target, obscured)
    return found


def smoke_crosses(smoke: list[tuple[float, float, float]], a: Vec, b: Vec) -> bool:
    """Whether the line a-b passes through (or into) one of the smoke screens."""
    return any(segment_point_distance(a, b, (x, y)) < r for x, y, r in smoke)


def _smoke_near(
    world: World, state: SevenDaysState, firer: Unit, a: Vec, b: Vec, reach: float
) -> list[tuple[float, float, float]]:
    """Rule sevendays.los.smoke: the screens that may obscure the sight line a-b (those
    within ``reach`` of it); none for a firer with thermal sights, which ignore smoke."""
    if not state.smoke or "thermal" in world.profile(firer).traits:
        return []
    return [
        (x, y, r) for x, y, r in state.smoke if segment_point_distance(a, b, (x, y)) < r + reach
    ]


def _sight(world: World, state: SevenDaysState, firer: Unit, target: Unit, obscured: bool) -> Sight:
    a = (firer.x, firer.y)
    b = (target.x, target.y)
    if world.is_helicopter(firer) or world.is_helicopter(target):
        return CLEAR  # sevendays.air.helicopter: nothing on the ground hides a helicopter
    blocked, crossings = _terrain(world, a, target, obscured)
    if blocked:
        return BLOCKED
    radius = world.house.footprint["vehicle"]
    half = world.radius(target)
    blocking, obscuring = _bodies_near(world, state, firer, target, a, b, radius + half)
    if blocking and _cuts(a, b, blocking, radius):
        return BLOCKED
    if not obscured or crossings is None:
        return CLEAR
    # only bodies close to the centre line can touch a ray spread across the target's width
    near = radius + half
    bodies = [p for p in blocking + obscuring if segment_point_distance(a, b, p) < near]
    # sevendays.los.smoke: smoke does not block sight; a ray through a screen is obscured
    smoke = _smoke_near(world, state, firer, a, b, half)
    count = 0
    if bodies or smoke:
        for (start, end), through_terrain in zip(
            target_rays(world, a, target), crossings, strict=True
        ):
            if (
                through_terrain
                or _cuts(start, end, bodies, radius)
                or smoke_crosses(smoke, start, end)
            ):
                count += 1
    else:
        count = sum(crossings)
    return OBSCURED if count * 2 > len(crossings) else CLEAR


def target_rays(world: World, origin: Vec, target: Unit) -> list[tuple[Vec, Vec]]:
    """Sight lines from ``origin`` to points spread across the target's width."""
    n = world.house.obscured_rays
    half = world.radius(target)
    dx, dy = target.x - origin[0], target.y - origin[1]
    length = math.hypot(dx, dy) or 1.0
    px, py = -dy / length, dx / length  # unit vector across the line of sight
    offsets = [0.0] if n == 1 else [-half + 2 * half * i / (n - 1) for i in range(n)]
    return [(origin, (target.x + px * o, target.y + py * o)) for o in offsets]
