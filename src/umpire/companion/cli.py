"""``umpire companion``: Umpire beside a physical table, in the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from umpire.companion.errors import QuitCompanion
from umpire.core.errors import UmpireError
from umpire.core.record import check_seed
from umpire.core.ruleset import get_ruleset, split_game_id
from umpire.flags import game_options

if TYPE_CHECKING:  # imported when the command runs: `umpire` itself starts without them
    from umpire.companion.session import Companion
    from umpire.core.switches import RuleSwitches

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
err = Console(stderr=True, highlight=False)


def _fail(message: str) -> typer.Exit:
    err.print(f"[bold red]error:[/] {message}", markup=True, soft_wrap=True)
    return typer.Exit(2)


def _read(prompt: str) -> str:
    return input(prompt)


def _write(line: str) -> None:
    print(line, flush=True)


def _sides(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        side, sep, kind = pair.partition("=")
        if not sep or not side or not kind:
            raise UmpireError(f"--side {pair!r}: write SIDE=me, SIDE=scripted or SIDE=search")
        out[side.strip().lower()] = kind.strip().lower()
    return out


def companion_switches(ruleset: Any, rules: Path | None = None) -> RuleSwitches:
    """A companion game's rule switches: every switchable rule ``advise`` (the players at the
    table are the final judges; digital play's default is ``enforce``), with what a ``--rules``
    FILE sets over it (its keys win; its ``*`` replaces the default)."""
    from umpire.core.switches import Mode, RuleSwitches, load_for

    default = RuleSwitches.default_for(Mode.ADVISE)
    if rules is None:
        return default
    return RuleSwitches({**default.table, **load_for(ruleset, rules).table})


EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}


@app.command(context_settings=EXTRA)
def companion(
    ctx: typer.Context,
    game: Annotated[
        str | None, typer.Argument(help="RULESET/SCENARIO, e.g. sevendays/capture.")
    ] = None,
    side: Annotated[
        list[str] | None,
        typer.Option("--side", help="SIDE=me (you, at the table) or SIDE=scripted|search."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed for Umpire's own random choices.")] = 1,
    record: Annotated[
        Path | None, typer.Option("--record", help="The game file (saved after every entry).")
    ] = None,
    ai_dice: Annotated[
        str, typer.Option("--ai-dice", help="Who rolls the AI's dice: table or umpire.")
    ] = "table",
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Continue a saved companion game.")
    ] = None,
    house_rules: Annotated[
        Path | None, typer.Option("--house-rules", help="A house-rules YAML file.")
    ] = None,
    rules: Annotated[
        Path | None,
        typer.Option(
            "--rules",
            help="Rule switches YAML (rule-id: enforce|advise|off, wildcards allowed) over the "
            "companion's default: every switchable rule advise.",
        ),
    ] = None,
) -> None:
    """Play at a physical table: enter positions and dice; the AI's side is given as steps.

    Every die the rules roll is asked for ("roll 2d10 ... needs 8+"), checked, and stored in
    the record, so `umpire replay FILE` gives the same game. Type `help` at a prompt. The
    ruleset's own game flags (e.g. --no-cards, --nato-force FILE) work as in `umpire battle`.
    Rules default to advise (the players are the final judges: an action a rule forbids is
    offered with a warning; the AI's side keeps to the book); --rules FILE sets others."""
    from umpire.companion.session import AI_DICE, Companion
    from umpire.core.switches import with_switches

    if ai_dice not in AI_DICE:
        raise _fail(f"--ai-dice must be one of {', '.join(AI_DICE)}")
    session: Companion | None = None
    try:
        if resume is not None:
            session = Companion.resume(resume, _read, _write)
        else:
            if game is None:
                raise UmpireError("name the game (RULESET/SCENARIO) or --resume FILE")
            ruleset_id, scenario = split_game_id(game)
            ruleset = get_ruleset(ruleset_id)
            if scenario not in ruleset.scenario_ids():
                raise UmpireError(
                    f"no scenario {scenario!r} in {ruleset_id} "
                    f"({', '.join(ruleset.scenario_ids())})"
                )
            options, _ = game_options(ruleset, scenario, list(ctx.args), house_rules)
            options = with_switches(options, companion_switches(ruleset, rules))
            from umpire.terminal.session import free_path

            check_seed(seed)
            path = record or free_path(Path(f"companion-{ruleset_id}-{scenario}-seed{seed}"))
            if record is not None and record.exists():
                # a companion game is saved after every entry: starting afresh over a file
                # would wipe the game it holds at the first save
                raise UmpireError(
                    f"{record}: already exists; carry that game on with --resume {record}, "
                    "or give another --record file"
                )
            session = Companion.start(
                game, seed, _sides(side or []), path, _read, _write, ai_dice, options
            )
        session.run()
    except (QuitCompanion, KeyboardInterrupt):
        # every entry was saved as it was typed: a Ctrl-C between prompts loses nothing
        if session is not None:
            _write(f"Saved; continue with: umpire companion --resume {session.path}")
        raise typer.Exit(0) from None
    except UmpireError as exc:
        raise _fail(str(exc)) from None
