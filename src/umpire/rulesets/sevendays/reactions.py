"""Reactions and seizing the initiative (sevendays.reaction.*).

When an enemy unit declares the first action of an activation, the other side may try one
reaction with one unit (house timing: after the activating unit's move, or before its shot).
The reaction spends a token from the reacting side's pool, placed on the reactor; its roll needs
the published number by the activating unit's type, and under the house rule one more per token
already on the reactor and per morale marker. A natural 6 always succeeds and seizes the
initiative when the activation ends. A successful reaction is a shot at the activating unit.

Recce spotting (published): while a friendly recce unit sees the activating enemy, any friendly
unit may react, even one that cannot see it. A unit that has no shot at the activator can then
react with a normal move instead (house: the engine's reactions are otherwise shots).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from umpire.core.actions import Action
from umpire.core.events import Event, note
from umpire.core.switches import switches_in, verdict_events
from umpire.rulesets.sevendays.dice import d6_test
from umpire.rulesets.sevendays.firing import (
    IMPOSSIBLE,
    POSSIBLE,
    REFUSED,
    plan_shot,
    shot_outlook,
)
from umpire.rulesets.sevendays.los import (
    needs_obscured,
    prefetch_between,
    sight,
    terrain_blocked,
)
from umpire.rulesets.sevendays.morale import house_fired
from umpire.rulesets.sevendays.movement import check_move, move_candidates
from umpire.rulesets.sevendays.shots import Refusal, ShotPlan
from umpire.rulesets.sevendays.state import SevenDaysState, Unit, other
from umpire.rulesets.sevendays.tally import with_status
from umpire.rulesets.sevendays.world import World

if TYPE_CHECKING:
    from umpire.core.catalog import RuleEntry


WINDOW = "sevendays.reaction.window"  # a rule switch (umpire.core.switches)


def _catalog() -> Mapping[str, RuleEntry]:
    from umpire.rulesets.sevendays.config import rule_catalog

    return rule_catalog()


@dataclass(frozen=True)
class ReactionOption:
    unit: str
    need: int
    plan: ShotPlan | None  # None: a reaction move (recce spotting) to ``point``
    point: tuple[float, float] | None = None

    def action(self) -> Action:
        return Action("react", unit=self.unit, point=self.point)


def best_plan(
    world: World,
    state: SevenDaysState,
    firer: Unit,
    target: Unit,
    *,
    reaction: bool,
    target_moving: bool = False,
    moved: bool = False,
    actions_left: int = 2,
    known_only: bool = False,
) -> ShotPlan | Refusal:
    """The firer's best legal shot at ``target`` (ATGM, gun or rockets; an AA shot at a
    helicopter), by fewest score needed."""
    best: ShotPlan | Refusal | None = None
    kinds = world.shot_kinds(firer) or ("gun",)
    for kind in kinds:
        plan = plan_shot(
            world,
            state,
            firer,
            target,
            kind,
            reaction=reaction,
            target_moving=target_moving,
            moved=moved,
            actions_left=actions_left,
            known_only=known_only,
        )
        if isinstance(plan, ShotPlan):
            if not isinstance(best, ShotPlan) or _score(plan) > _score(best):
                best = plan
        elif best is None:
            best = plan
    assert best is not None
    return best


def _score(plan: ShotPlan) -> float:
    return (11 - plan.need) * plan.dice + plan.weapon.value * 0.1


def reaction_need(
    world: World, state: SevenDaysState, reactor: Unit, activator: Unit, plan: ShotPlan | None
) -> int:
    """Rules sevendays.reaction.target and sevendays.reaction.tokens_markers (``plan`` None:
    a reaction move, by a unit that need not see the activator)."""
    pending = state.flow.pending
    concealed = int(
        pending is not None
        and pending.kind == "atgm"
        and "cherry_picker" in world.profile(activator).traits
    )  # rule sevendays.reaction.cherry_picker
    if "recce" in world.profile(reactor).traits:
        return recce_score(reactor.markers) + concealed
    covered = (
        world.in_cover(activator)
        or activator.dug_in  # sevendays.scenario.dug_in: fortified, so in cover
        or (plan is not None and sight(world, state, reactor, activator).obscured)
    )
    extra = reactor.tokens + reactor.markers if world.house.reaction_tokens_and_markers else 0
    extra += concealed
    atgm = plan is not None and plan.weapon_kind == "atgm"
    return reaction_score(world.is_foot(activator), covered, atgm, extra)


def recce_score(markers: int) -> int:
    """Rule sevendays.reaction.recce: a recce unit reacts on 3+ whatever it reacts to, worse
    only by its morale markers (never by its tokens)."""
    return 3 + markers


def reaction_score(activator_foot: bool, covered: bool, atgm: bool, extra: int = 0) -> int:
    """The d6 score a reaction needs: by the activating unit's type and cover, one less with an
    ATGM, ``extra`` more (house: the reactor's tokens and markers); never below 2."""
    need = (5 if covered else 4) if activator_foot else 4 if covered else 3
    if atgm:
        need -= 1
    return max(2, need + extra)


def reactors(state: SevenDaysState, activator: Unit) -> list[Unit]:
    """Units that may try to react to ``activator``: the other side's, if it has tokens (a
    rule switch: under advise or off a side without tokens may react too)."""
    side = "pact" if activator.side == "nato" else "nato"
    if not activator.alive:
        return []
    if state.flow.pools[side] <= 0 and not switches_in(state.options).allows(
        WINDOW, False, f"{side.upper()} reacts without a token left"
    ):
        return []
    return with_status(state, "active", side)  # table order, as a scan finds them


def nearest_first(units: list[Unit], activator: Unit) -> list[Unit]:
    """``units`` sorted by distance to ``activator`` (the likeliest reactors first)."""
    # the distances worked out once, the units sorted by index (stable: among equals in the
    # order given), a key the sort reads without a Python call per unit
    ax, ay = activator.x, activator.y
    keys = [(u.x - ax) ** 2 + (u.y - ay) ** 2 for u in units]
    return [units[i] for i in sorted(range(len(units)), key=keys.__getitem__)]


def reaction_option(
    world: World, state: SevenDaysState, activator: Unit, reactor: Unit, moving: bool
) -> ReactionOption | None:
    """``reactor``'s reaction to ``activator`` (its best shot and the roll it needs), if any,
    as the reacting side knows the table (the enemy's hidden markers do not count)."""
    if terrain_blocked(world, reactor, activator) and "mortar" not in world.profile(reactor).traits:
        # terrain surely blocks the line (known already, see los.prefetch_between): every
        # shot but a mortar's (fired on any friendly unit's sight, sevendays.mortar.fire) is
        # refused whatever else (sevendays.los.blockers), so no plan is made to find that out
        return None
    plan = best_plan(
        world, state, reactor, activator, reaction=True, target_moving=moving, known_only=True
    )
    if isinstance(plan, ShotPlan) and plan.possible:
        return ReactionOption(
            reactor.uid, reaction_need(world, state, reactor, activator, plan), plan
        )
    return None


def recce_spots(world: World, state: SevenDaysState, activator: Unit) -> bool:
    """Rule sevendays.reaction.recce_spotting: a recce unit of the other side sees ``activator``."""
    return any(
        "recce" in world.profile(u).traits
        and sight(world, state, u, activator, obscured=False).visible
        for u in state.alive(other(activator.side))
    )


def move_reactions(
    world: World, state: SevenDaysState, activator: Unit, reactor: Unit, limit: int = 2
) -> list[ReactionOption]:
    """Reaction moves for ``reactor`` (house, under recce spotting): up to two normal moves,
    towards the activator and to the nearest objective or cover."""
    need = reaction_need(world, state, reactor, activator, None)
    out: list[ReactionOption] = []
    for point in move_candidates(world, state, reactor, "normal", compass=False):
        if check_move(world, state, reactor, "normal", point) is None:
            out.append(ReactionOption(reactor.uid, need, None, point))
            if len(out) == limit:
                break
    return out


NEAREST_BATCH = 4  # reactors whose lines of sight any_reaction traces together


def reaction_outlook(
    world: World, state: SevenDaysState, activator: Unit, reactor: Unit, moving: bool
) -> bool | None:
    """Whether ``reactor`` has a reaction shot (``reaction_option`` is not None), when the
    facts read before the sight line settle it: False (no shot of any kind could be possible),
    or ``None`` when the sight line must be read. ``SIGHT``: a possible shot exactly when the
    reactor sees the activator (no obscured test needed; see ``firing.shot_outlook``)."""
    if terrain_blocked(world, reactor, activator) and "mortar" not in world.profile(reactor).traits:
        return False  # (as reaction_option)
    outlooks = [
        shot_outlook(world, reactor, activator, kind, reaction=True, target_moving=moving)
        for kind in world.shot_kinds(reactor) or ("gun",)
    ]
    open_ = [o for o in outlooks if o != REFUSED]
    if not open_:
        return False  # every kind refused: best_plan's answer is a Refusal
    if len(open_) == 1:
        # the other kinds are refused whatever the sight line, so best_plan's answer is this
        # kind's plan when it is a ShotPlan, a Refusal otherwise
        if open_[0] == IMPOSSIBLE:
            return False
        if open_[0] == POSSIBLE:
            return SIGHT
    return None  # the full plan decides


SIGHT = True  # reaction_outlook: a shot exactly when the reactor sees the activator


def has_reaction_shot(
    world: World, state: SevenDaysState, activator: Unit, reactor: Unit, moving: bool
) -> bool:
    """``reaction_option(...) is not None``, reading the sight line only as far as the
    answer needs (tests/sevendays/test_reaction_outlook.py holds them equal)."""
    outlook = reaction_outlook(world, state, activator, reactor, moving)
    if outlook is None:
        return reaction_option(world, state, activator, reactor, moving) is not None
    if outlook is SIGHT:
        return sight(world, state, reactor, activator, obscured=False).visible
    return False


def any_reaction(world: World, state: SevenDaysState, activator: Unit, moving: bool) -> bool:
    """Whether the other side has any possible reaction (nearest units are tried first, and
    the search stops at the first one found)."""
    candidates = nearest_first(reactors(state, activator), activator)
    # the lines of sight in batches, nearest first: the search usually stops among the
    # nearest, and the lines to the rest are traced only if it goes on (the batches only
    # fill the sight cache: the answer is the same). A reactor whose answer the facts before
    # the sight line settle (reaction_outlook) gets no line; one whose shot is possible
    # whenever it sees the activator gets the sight its plan would read (the same cached
    # answer a player planning that reaction reads next, rather than a second tracing
    # without the obscured test: measured the better trade for scripted play), no plan
    for start in range(0, len(candidates), NEAREST_BATCH):
        batch = candidates[start : start + NEAREST_BATCH]
        outlooks = [reaction_outlook(world, state, activator, u, moving) for u in batch]
        live = [u for u, o in zip(batch, outlooks, strict=True) if o is not False]
        if live:
            prefetch_between(world, live, [activator], reaction=True)
        for reactor, outlook in zip(batch, outlooks, strict=True):
            if outlook is None:
                if reaction_option(world, state, activator, reactor, moving) is not None:
                    return True
            elif outlook is SIGHT:
                wanted = needs_obscured(world, reactor, activator)
                if sight(world, state, reactor, activator, wanted).visible:
                    return True
    return (
        bool(candidates)
        and recce_spots(world, state, activator)
        and any(move_reactions(world, state, activator, u, limit=1) for u in candidates)
    )


def window_key(state: SevenDaysState, activator: Unit, moving: bool) -> tuple[object, ...]:
    """What a reaction window's answers are remembered by: the decision (``actions_played``
    counts every action applied, so nothing on the table changes under one key), the activator
    and where it stands, whether it moved, and the rule switches (under ``book_only`` an agent
    kept to the book lists other actions from the same position)."""
    return (
        state.actions_played,
        activator.uid,
        activator.x,
        activator.y,
        moving,
        switches_in(state.options),
    )


def _window_memo(
    state: SevenDaysState, key: tuple[object, ...]
) -> dict[str | None, ReactionOption | None | bool]:
    """This window's per-reactor answers on ``state`` (a fresh one for a new window): each
    reactor's shot option by uid, and under ``None`` whether a recce unit spots the activator."""
    memo = state.reactor_memo
    if memo is None or memo[0] != key:
        memo = state.reactor_memo = (key, {})
    return memo[1]


def shot_option(
    world: World,
    state: SevenDaysState,
    activator: Unit,
    reactor: Unit,
    moving: bool,
    memo: dict[str | None, ReactionOption | None | bool],
) -> ReactionOption | None:
    """``reaction_option`` remembered for the window ``memo`` belongs to."""
    found = memo.get(reactor.uid, False)
    if found is False:
        found = memo[reactor.uid] = reaction_option(world, state, activator, reactor, moving)
    assert found is None or isinstance(found, ReactionOption)
    return found


def _recce_spots(
    world: World,
    state: SevenDaysState,
    activator: Unit,
    memo: dict[str | None, ReactionOption | None | bool],
) -> bool:
    found = memo.get(None)
    if found is None:
        found = memo[None] = recce_spots(world, state, activator)
    return bool(found)


def reaction_options(
    world: World, state: SevenDaysState, activator: Unit, moving: bool
) -> list[ReactionOption]:
    """Every possible reaction to ``activator``: one shot per unit that has one, and (under
    recce spotting) reaction moves for the units that have none."""
    # asked more than once per window on an unchanged state: remember the last answer
    key = window_key(state, activator, moving)
    cached = state.reaction_memo
    if cached is not None and cached[0] == key:
        return list(cached[1])
    memo: dict[str | None, ReactionOption | None | bool] = {}  # a listing starts afresh
    state.reactor_memo = (key, memo)
    units = reactors(state, activator)
    prefetch_between(world, units, [activator], reaction=True)
    out: list[ReactionOption] = []
    shooters = set()
    for unit in units:
        option = shot_option(world, state, activator, unit, moving, memo)
        if option is not None:
            out.append(option)
            shooters.add(unit.uid)
    if len(shooters) < len(units) and _recce_spots(world, state, activator, memo):
        for unit in units:
            if unit.uid not in shooters:
                out += move_reactions(world, state, activator, unit)
    state.reaction_memo = (key, tuple(out))
    return out


def reaction_actions(
    world: World, state: SevenDaysState, activator: Unit, moving: bool
) -> list[Action]:
    """The actions of :func:`reaction_options` (``option.action()`` of each, in its order):
    an action names the reactor (and a reaction move's point), never the roll it needs, so
    whether a reactor has a shot is all the menu reads of it (:func:`has_reaction_shot`: the
    obscured test's rays only where they may decide it; tests/sevendays/test_reaction_outlook
    holds the two listings equal)."""
    key = window_key(state, activator, moving)
    cached = state.reaction_memo
    if cached is not None and cached[0] == key:
        return [o.action() for o in cached[1]]
    memo = _window_memo(state, key)
    units = reactors(state, activator)
    outlooks = [reaction_outlook(world, state, activator, u, moving) for u in units]
    full = [u for u, o in zip(units, outlooks, strict=True) if o is None]
    seen = [u for u, o in zip(units, outlooks, strict=True) if o is SIGHT]
    if seen:  # (first: a lazy prefetch's queue lasts until the next prefetch_between)
        prefetch_between(world, seen, [activator], reaction=True, lazy=False, rays=False)
    if full:
        prefetch_between(world, full, [activator], reaction=True)
    out: list[Action] = []
    shooters = set()
    for unit, outlook in zip(units, outlooks, strict=True):
        if outlook is None:
            shot = shot_option(world, state, activator, unit, moving, memo) is not None
        else:
            shot = outlook is SIGHT and sight(world, state, unit, activator, False).visible
        if shot:
            out.append(Action("react", unit=unit.uid))
            shooters.add(unit.uid)
    if len(shooters) < len(units) and _recce_spots(world, state, activator, memo):
        for unit in units:
            if unit.uid not in shooters:
                out += [o.action() for o in move_reactions(world, state, activator, unit)]
    return out


def reaction_for(
    world: World,
    state: SevenDaysState,
    activator: Unit,
    uid: str | None,
    point: tuple[float, float] | None,
    moving: bool,
) -> ReactionOption | None:
    """The one option of :func:`reaction_options` that reactor ``uid`` has with ``point``
    (``None``: its shot), or ``None`` if the listing has no such option, worked out for that
    reactor alone (the legality check and the resolution of a chosen reaction do not list
    every reactor's shot): it must be one of the :func:`reactors`; a shot is its
    :func:`reaction_option`; a move needs it to have no shot, a recce unit to spot the
    activator and ``point`` among its :func:`move_reactions`."""
    # reactors() first, always: under ``advise`` it notes the broken token rule for the menu
    # line and the log (umpire.core.switches), whether or not the window was listed already
    reactor = next((u for u in reactors(state, activator) if u.uid == uid), None)
    if reactor is None:
        return None
    key = window_key(state, activator, moving)
    cached = state.reaction_memo
    if cached is not None and cached[0] == key:  # the window was listed already
        return next((o for o in cached[1] if o.unit == uid and o.point == point), None)
    memo = _window_memo(state, key)
    shot = shot_option(world, state, activator, reactor, moving, memo)
    if point is None or shot is not None:
        return shot if point is None else None
    if not _recce_spots(world, state, activator, memo):
        return None
    return next(
        (o for o in move_reactions(world, state, activator, reactor) if o.point == point), None
    )


def roll_reaction(
    world: World, state: SevenDaysState, reactor: Unit, option: ReactionOption
) -> tuple[bool, list[Event]]:
    """Spend the token, roll, and note a seized initiative on a natural 6 (a side reacting
    without tokens, a rule switched to advise or off, stays at none)."""
    pools = state.flow.pools
    verdict = switches_in(state.options).check(
        WINDOW, pools[reactor.side] > 0, f"{reactor.name} reacts without a token left"
    )
    warned = verdict_events(verdict, _catalog(), reactor.side)
    pools[reactor.side] = max(0, pools[reactor.side] - 1)
    reactor.tokens += 1
    ok, die, event = d6_test(
        state,
        "sevendays.reaction.target",
        option.need,
        f"{reactor.name} tries to react",
        ("reacts", "fails"),
        six_passes=True,
        unit=reactor.uid,
    )
    if world.house.reaction_tokens_and_markers and (reactor.tokens - 1 + reactor.markers):
        house_fired(state, "sevendays.reaction.tokens_markers")
    house_fired(state, "sevendays.reaction.window")
    events: list[Event] = [*warned, event]
    if die == 6:
        state.flow.seized_by = reactor.side
        events.append(
            note(
                "seize",
                f"a natural 6: {reactor.side.upper()} will seize the initiative",
                "sevendays.reaction.seize",
            )
        )
    return ok, events
