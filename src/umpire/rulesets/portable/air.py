"""Optional air rules: aircraft arrive, fly (over anything, never two in a square), must be
activated every turn or crash, go home after their endurance, and fight air-to-air and
air-to-ground (fighters' guns, bombers' bombs)."""

from __future__ import annotations

from collections.abc import Callable

from umpire.core.chance import Test
from umpire.core.events import Event, note
from umpire.geometry.squaregrid import Square, distance, in_arc, label, step
from umpire.rulesets.portable.common import Modifier, d6_test, in_cover, mods_text, standing
from umpire.rulesets.portable.config import HouseRules
from umpire.rulesets.portable.enums import Status
from umpire.rulesets.portable.hits import lose_sp, resolve_hit
from umpire.rulesets.portable.state import PortableState, Unit
from umpire.rulesets.portable.world import World

AIR_RANGE = 4  # portable.air.air_to_air: every aircraft's guns reach 4 squares


def start_of_turn(world: World, state: PortableState) -> list[Event]:
    """portable.air.arrival and portable.air.endurance."""
    events: list[Event] = []
    turn = state.flow.turn
    for plane in sorted(state.units.values(), key=lambda u: u.uid):
        if not plane.air:
            continue
        if plane.status is Status.ACTIVE:
            plane.turns_flown += 1
            endurance = world.types.aircraft[plane.type].endurance
            if plane.turns_flown > endurance:
                plane.status = Status.GONE
                events.append(
                    note(
                        "air",
                        f"{plane.name} flies home (endurance {endurance} turns)",
                        "portable.air.endurance",
                        unit=plane.uid,
                    )
                )
        elif plane.status is Status.WAITING and plane.arrives <= turn:
            if any(u.alive and u.air and u.pos == plane.pos for u in state.units.values()):
                continue  # portable.air.no_stacking: comes a turn later
            plane.status = Status.ACTIVE
            plane.turns_flown = 1
            events.append(
                note(
                    "air",
                    f"{plane.name} arrives over {label(plane.pos)}",
                    "portable.air.arrival",
                    unit=plane.uid,
                )
            )
    return events


def move_options(world: World, state: PortableState, plane: Unit) -> list[Square]:
    """portable.air.movement / fly_over / no_stacking: any square within reach not ending on
    another aircraft."""
    if plane.moved:
        return []
    reach = world.types.aircraft[plane.type].move - (1 if plane.fired else 0)
    taken = {u.pos for u in state.units.values() if u.alive and u.air and u.uid != plane.uid}
    return [sq for sq in world.grid.within(plane.pos, reach) if sq != plane.pos and sq not in taken]


def guns_bearing(world: World, plane: Unit, target: Square) -> int:
    """portable.air.arcs: forward guns cover the front 90 degrees, rearward guns the rear."""
    spec = world.types.aircraft[plane.type]
    dice = 0
    if spec.front_guns and in_arc(plane.pos, plane.facing, target, "front"):
        dice += spec.front_guns
    if spec.rear_guns and in_arc(plane.pos, plane.facing, target, "rear"):
        dice += spec.rear_guns
    return dice


def air_targets(world: World, state: PortableState, plane: Unit) -> list[Unit]:
    """Enemy aircraft the plane's guns bear on (portable.air.air_to_air)."""
    if plane.fired or plane.full_move:
        return []
    return [
        u
        for u in sorted(state.units.values(), key=lambda u: u.uid)
        if u.alive
        and u.air
        and u.side != plane.side
        and distance(u.pos, plane.pos) <= AIR_RANGE
        and guns_bearing(world, plane, u.pos)
    ]


def strafe_targets(world: World, state: PortableState, plane: Unit) -> list[Unit]:
    """portable.air.air_to_ground: a fighter's forward guns hit the square directly ahead."""
    if plane.fired or plane.full_move or world.types.aircraft[plane.type].ground_attack != "guns":
        return []
    ahead = step(plane.pos, plane.facing)
    found = [u for u in standing(state) if u.side != plane.side and u.pos == ahead]
    return sorted(found, key=lambda u: u.uid)[:1]


def can_bomb(world: World, state: PortableState, plane: Unit) -> bool:
    """portable.air.bombs: a bomber over enemy ground units with bombs left."""
    if plane.fired or plane.full_move or world.types.aircraft[plane.type].ground_attack != "bombs":
        return False
    return plane.bombs > 0 and any(
        u.side != plane.side and u.pos == plane.pos for u in standing(state)
    )


Mods = list[Modifier]


def air_die(
    house: HouseRules,
    rule: str,
    mods: tuple[Modifier, ...] | list[Modifier] = (),
    text: Callable[[tuple[int, ...], int, bool], str] | str = "",
    unit: str | None = None,
    target: str | None = None,
) -> Test:
    """portable.air.air_to_air, portable.air.air_to_ground, portable.air.bombs: an aircraft's
    d6 (per gun bearing, or per bomb load) hits on the air score or more."""
    data = {k: v for k, v in (("unit", unit), ("target", target)) if v is not None}
    return d6_test(house.air_hit, rule, mods, text, **data)


def air_to_air(world: World, state: PortableState, plane: Unit, target: Unit) -> list[Event]:
    plane.fired = True
    dice = guns_bearing(world, plane, target.pos)
    events: list[Event] = []
    for i in range(dice):

        def words(faces: tuple[int, ...], score: int, ok: bool, i: int = i) -> str:
            return f"{plane.name} fires at {target.name} (gun {i + 1} of {dice}): d6 {faces[0]}"

        gun = air_die(world.house, "portable.air.air_to_air", (), words, plane.uid, target.uid)
        if gun.sample(state.rng, events) and target.alive:
            events += lose_sp(world, state, target, "portable.air.air_to_air", "hit")
    return events


def _ground_attack(
    world: World, state: PortableState, plane: Unit, square: Square, dice: int, bombs: bool
) -> list[Event]:
    events: list[Event] = []
    am = world.house.air_modifiers
    for i in range(dice):
        victims = [u for u in standing(state) if u.side != plane.side and u.pos == square]
        if not victims:
            break
        mods: list[Modifier] = []
        if any(in_cover(world, v) for v in victims):
            mods.append(Modifier(am["cover"], "portable.air.air_to_ground", "target in cover"))
        if bombs:
            mods.append(Modifier(am["bomber"], "portable.air.bombs", "bomber"))
        what = f"bomb load {i + 1} of {dice}" if bombs else "guns"

        def words(
            faces: tuple[int, ...], score: int, ok: bool, what: str = what, mods: Mods = mods
        ) -> str:
            return (
                f"{plane.name} attacks {label(square)} with {what}: d6 {faces[0]} "
                f"[{mods_text(mods)}] = {score}"
            )

        rule = "portable.air.bombs" if bombs else "portable.air.air_to_ground"
        if air_die(world.house, rule, mods, words, plane.uid).sample(state.rng, events):
            for victim in sorted(victims, key=lambda u: u.uid):
                # fighters hit like machine guns, bombs like artillery
                events += resolve_hit(
                    world, state, victim, "portable.air.air_to_ground", destroys_tanks=bombs
                )
    return events


def strafe(world: World, state: PortableState, plane: Unit, target: Unit) -> list[Event]:
    plane.fired = True
    return _ground_attack(world, state, plane, target.pos, 1, False)


def bomb(world: World, state: PortableState, plane: Unit, loads: int) -> list[Event]:
    plane.fired = True
    plane.bombs -= loads
    return _ground_attack(world, state, plane, plane.pos, loads, True)
