"""The ``umpire`` command line: battles, replays, rules, scenarios, odds and forces.

Nothing here knows a ruleset: side names come from the ruleset's metadata, extra flags (game
options such as ``--cards/--no-cards``, per-side ones such as ``--nato-force FILE``) from the
options it declares, and drawing, odds, forces and house rules from its capabilities.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from umpire.core.errors import UmpireError
from umpire.core.record import check_seed
from umpire.core.ruleset import (
    Option,
    Ruleset,
    capability,
    default_game,
    get_ruleset,
    ruleset_ids,
    split_game_id,
)
from umpire.flags import PLAYER_KINDS, flag_names, game_options, parse_declared, plain_value
from umpire.terminal.words import first_sentence, need_words, plain

if TYPE_CHECKING:  # the game machinery is imported inside the commands (a cold `umpire odds`)
    from umpire.agents.base import Agent
    from umpire.core.events import Event
    from umpire.core.game import Game
    from umpire.terminal.drawing import MapShower
    from umpire.terminal.places import Places
    from umpire.terminal.session import Session

app = typer.Typer(
    help="Umpire: play tabletop wargames by their rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)
err = Console(stderr=True, highlight=False)

COLUMN_TITLES = {"points": "points lost", "bp": "BP lost", "total_bp": "total BP"}
EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}
SPECTATOR = ""  # reads only what every side may: the public stand-ins of private events


def _check_writable(path: Path) -> None:
    """A one-line error before the game for a record file that could not be saved after it
    (its folder missing or not writable, or the path a folder)."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir() or not folder.is_dir() or not os.access(folder, os.W_OK):
        raise UmpireError(f"{path}: cannot be written (no such folder, or not writable)")


def _fail(message: str, code: int = 2) -> typer.Exit:
    # the message is the user's words and file names: never read as markup ("[parquet]")
    err.print(f"[bold red]error:[/] {escape(message)}", markup=True, soft_wrap=True)
    return typer.Exit(code)


def _style(ruleset: Ruleset[Any], side: str) -> str:
    colour = ruleset.capabilities.side_colours.get(side)
    return f"bold {colour}" if colour else "bold"


def _options_help(ruleset: Ruleset[Any], options: Sequence[Option], per_side: bool) -> None:
    sides = ruleset.meta.players
    console.print(f"{ruleset.meta.id} ({ruleset.meta.title}) options:", markup=False)
    if per_side:
        for side in sides:
            console.print(f"  --{side} WHO  who plays {side}: {', '.join(PLAYER_KINDS)}")
    for option in options:
        for flag in flag_names([option], sides):
            default = "" if option.default in (None, False) else f" [default: {option.default}]"
            console.print(f"  {flag}  {option.help}{default}", markup=False)
    if not options and not per_side:
        console.print("  (none)")


def _pick(args: list[str], wanted: Any) -> str | None:
    """Take out of ``args`` the first bare word for which ``wanted(word)`` holds."""
    for index, token in enumerate(args):
        if not token.startswith("-") and wanted(token):
            del args[index]
            return token
    return None


def _is_game(token: str) -> bool:
    """A ``RULESET/SCENARIO`` word: a registered ruleset's, or one shaped like it that is not
    a file (so ``chess/opening`` is refused as an unknown ruleset, not as a stray word)."""
    head, sep, tail = token.partition("/")
    if not (sep and tail):
        return False
    if head in ruleset_ids():
        return True
    return re.fullmatch(r"[a-z][a-z0-9_-]*", head) is not None and not Path(token).exists()


# -- showing a game -----------------------------------------------------------------------------
class EventPrinter:
    """Prints events as they happen: every roll with what it needed and the rule behind it.
    With a ``side``, only what that side reads (its public stand-in for what it may not), and
    the map as that side sees it at each turn."""

    def __init__(
        self,
        console: Console,
        game: Game | None = None,
        side: str | None = None,
        maps: MapShower | None = None,
    ) -> None:
        from umpire.terminal.drawing import MapShower

        self.console = console
        self.game = game
        self.side = side  # show only what this side may know (one human against the AI)
        self.maps = maps if maps is not None or game is None else MapShower(console, game)
        self._places: Places | Literal[False] | None = None

    def _placed(self, text: str) -> str:
        """Table points in ``text`` named by the nearest landmark (terrain and objectives are
        public, so any side's board names them alike)."""
        if self.game is None or "(" not in text:
            return text
        if self._places is None:  # any side's board has the same (public) landmarks
            from umpire.terminal.drawing import places_for

            viewer = self.game.ruleset.meta.players[0]
            self._places = places_for(self.game, viewer) or False
        return self._places.rewrite(text) if self._places else text

    def __call__(self, event: Event) -> None:
        seen = event.seen_by(self.side)
        if seen is None:
            return
        kind = seen.kind
        sides = self.game.ruleset.meta.players if self.game is not None else ()
        text = need_words(plain(self._placed(str(seen.text)), sides)).replace("[", "\\[")
        tag = f" [dim]({seen.rule})[/]" if seen.rule else ""
        if kind == "turn":
            self.console.rule(f"[bold]{text.strip('- ')}")
            if self.maps is not None and self.side != SPECTATOR:
                self.maps.refresh(self.side)
        elif kind == "roll":
            mark = "[green]✓[/]" if seen.get("success") else "[red]✗[/]"
            self.console.print(f"   🎲 {text} {mark}{tag}")
        elif kind in ("destroyed", "removed"):
            self.console.print(f"   [bold red]💥 {text}[/]{tag}")
        elif kind == "game_over":
            self.console.print(f"[bold yellow]🏁 {text}[/]{tag}")
        elif kind in ("activate", "initiative", "seize", "pass"):
            self.console.print(f"[bold]▶ {text}[/]{tag}")
        else:
            self.console.print(f"   {text}{tag}")


def _players(
    ruleset_id: str,
    sides: dict[str, str],
    seed: int,
    console: Console,
    session: Session,
    think: float | None = None,
) -> dict[str, Agent]:
    from umpire.agents.base import make_agent
    from umpire.terminal.session import TerminalPlayer

    out: dict[str, Agent] = {}
    for side, kind in sides.items():
        if kind == "human":
            out[side] = TerminalPlayer(side, console, session)
        else:
            kind = "scripted" if kind == "ai" else kind
            out[side] = make_agent(kind, ruleset_id, side, seed, think=think)
    return out


def _print_report(game: Game, data: dict[str, Any]) -> None:
    console.print()
    winner = data["winner"]
    headline = (
        "Draw"
        if winner == "draw"
        else "Unfinished"
        if winner == "unfinished"
        else f"{str(winner).upper()} wins"
    )
    worded = getattr(game.ruleset, "result_headline", None)  # a ruleset may word its winner
    if callable(worded) and winner not in ("draw", "unfinished"):
        headline = str(worded(winner))
    console.rule(f"[bold]Battle report — {headline} ({data['how']})")
    console.print(
        f"{data['ruleset']}/{data['scenario']}  seed {data['seed']}  turns played {data['turns']}"
        f"  actions {data['actions']}  events {data['events']}"
    )
    losses: dict[str, dict[str, Any]] = data.get("losses") or {}
    first = next(iter(losses.values()), {})
    scalar = [
        k for k, v in first.items() if k not in ("units", "of_units") and not isinstance(v, list)
    ]
    if losses and "units" in first:
        table = RichTable(title="Losses")
        for col in ("side", "units lost", *scalar):
            table.add_column(COLUMN_TITLES.get(col, col.replace("_", " ")))
        for side, loss in losses.items():
            table.add_row(
                side.upper(),
                f"{loss.get('units')}"
                + (f"/{loss['of_units']}" if loss.get("of_units") is not None else ""),
                *(str(loss.get(k)) for k in scalar),
            )
        console.print(table)
    for side, loss in losses.items():
        named = [
            f"{k.replace('_', ' ')}: {', '.join(map(str, v)) or 'none'}"
            for k, v in loss.items()
            if isinstance(v, list)
        ]
        if named:
            console.print(f"{side.upper()} " + "; ".join(named))
    fired = data.get("house_rules_fired") or {}
    if fired:
        console.print("House rules that fired: " + ", ".join(f"{k} ×{v}" for k, v in fired.items()))
    else:
        console.print("No house rule fired.")


def _side_kinds(
    players: Sequence[str], assignments: Sequence[str], named: Mapping[str, str]
) -> dict[str, str]:
    """Who plays each side: every side is the AI unless ``--side SIDE=KIND`` (or the alias
    ``--SIDE KIND``) says otherwise."""
    sides = dict.fromkeys(players, "ai")
    given = list(named.items())
    for text in assignments:
        name, sep, kind = text.partition("=")
        if not sep:
            raise UmpireError(f"--side {text!r}: write SIDE=KIND, e.g. --side {players[0]}=human")
        given.append((name.strip(), kind.strip()))
    chosen: dict[str, str] = {}
    for name, kind in given:
        if name not in sides:
            raise UmpireError(f"no side {name!r} in this ruleset; sides: {', '.join(players)}")
        if chosen.setdefault(name, kind) != kind:
            raise UmpireError(f"side {name} is given twice ({chosen[name]}, {kind}): say it once")
        if kind.startswith("search"):
            from umpire.agents.search import parse_spec

            parse_spec(kind)  # a one-line error for a bad preset or think time
        elif kind not in PLAYER_KINDS:
            raise UmpireError(f"side {name} {kind!r}: choose {', '.join(PLAYER_KINDS)}")
        sides[name] = kind
    return sides


def _resumed(
    path: Path, args: Sequence[str], assignments: Sequence[str]
) -> tuple[Session, dict[str, str]]:
    """The saved game at ``path`` replayed to where it stopped, and who plays each side: as
    saved, unless ``--SIDE WHO`` / ``--side SIDE=WHO`` says otherwise. Game options are the
    saved game's own (a flag that would change them is refused)."""
    from umpire.core.game import load_record
    from umpire.terminal.session import Session

    saved = load_record(path)
    if saved.entered is not None:  # outcomes typed in at a physical table
        raise UmpireError(
            f"{path}: a companion game (dice rolled at the table); carry it on with "
            f"umpire companion --resume {path}"
        )
    ruleset = get_ruleset(saved.ruleset)
    players = ruleset.meta.players
    named_game = next((a for a in args if _is_game(a)), None)
    if named_game is not None:
        raise UmpireError(
            f"{named_game}: --resume carries on {saved.ruleset}/{saved.scenario} as saved in "
            f"{path}; name no game with it"
        )
    values, named = parse_declared(
        args, ruleset.capabilities.options, saved.ruleset, players, players
    )
    if values:
        flags = ", ".join(f"--{k.replace('_', '-')}" for k in values)
        raise UmpireError(f"{flags}: a resumed game keeps the options it was started with")
    given = _side_kinds(players, assignments, named)
    chosen = {t.partition("=")[0].strip() for t in assignments} | set(named)
    sides = {s: (given[s] if s in chosen else str(saved.players.get(s, "ai"))) for s in players}
    _side_kinds(players, [f"{s}={k}" for s, k in sides.items()], {})  # a bad saved kind: one line
    try:
        return Session.resume(saved, console, sides), sides
    except UmpireError as exc:
        raise _naming(path, exc) from None


def _naming(path: Path, exc: UmpireError) -> UmpireError:
    """``exc`` about the saved game at ``path``, with the file named if it was not."""
    text = str(exc)
    return exc if str(path) in text else UmpireError(f"{path}: {text}")


GAME_HELP = (
    "Give the game as RULESET/SCENARIO (e.g. sevendays/meeting-engagement; `umpire scenarios` "
    "lists them). A ruleset adds its own flags (`--SIDE WHO`, game options, per-side options "
    "such as `--SIDE-force FILE`): list them with `--help-options`."
)


@app.command(
    context_settings=EXTRA, epilog=GAME_HELP, options_metavar="[RULESET/SCENARIO] [OPTIONS]"
)
def battle(
    ctx: typer.Context,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the game's dice (reproducible; default 1).")
    ] = None,
    side: Annotated[
        list[str] | None,
        typer.Option(
            help="Who plays a side: SIDE=ai|scripted|random|human|search[:PRESET][+MODE][@SECONDS] "
            "(repeatable; presets balanced, aggressive, cautious, objective; modes tree, "
            "improve)."
        ),
    ] = None,
    think: Annotated[
        float | None,
        typer.Option(help="Seconds the search player thinks per decision (default 1)."),
    ] = None,
    ai_why: Annotated[
        str | None,
        typer.Option(
            help="Who reads the search AI's why (kept in the record): public (every side) or "
            "own (its side only); default: every side in a perfect-information game only."
        ),
    ] = None,
    record: Annotated[Path | None, typer.Option(help="Save the game record to this file.")] = None,
    resume: Annotated[
        Path | None,
        typer.Option(help="Carry on a saved game (a file written by quit, Ctrl-C or --record)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary only.")] = False,
    quiet: Annotated[bool, typer.Option(help="Do not show events as they happen.")] = False,
    house_rules: Annotated[
        Path | None, typer.Option(help="YAML file overriding house-rule numbers.")
    ] = None,
    help_options: Annotated[
        bool, typer.Option("--help-options", help="List the ruleset's own flags and stop.")
    ] = False,
    rules_file: Annotated[
        Path | None,
        typer.Option("--rules", help="YAML of rule-id: enforce|advise|off (wildcards allowed)."),
    ] = None,
) -> None:
    """Play a battle [RULESET/SCENARIO], AI vs AI by default, showing every activation and die
    roll. At a person's prompt: a number, 'help', 'map', 'why N', 'undo' or 'quit' (saves)."""
    from umpire.core.collector import quiet_collector
    from umpire.core.game import new_game
    from umpire.core.switches import load_for as load_switches
    from umpire.core.switches import with_switches
    from umpire.play import summary
    from umpire.terminal.session import QuitGame, Session, save_path

    try:
        args = list(ctx.args)
        if resume is not None:
            given = [
                f
                for f, v in (
                    ("--seed", seed),
                    ("--house-rules", house_rules),
                    ("--rules", rules_file),
                )
                if v is not None
            ]
            if given:
                raise UmpireError(
                    f"{', '.join(given)}: a resumed game keeps the seed, house rules and rule "
                    f"switches saved in {resume}"
                )
            session, sides = _resumed(resume, args, side or [])
            game = session.game
            ruleset_id = game.record.ruleset
            record = record or resume
        else:
            game_id = _pick(args, _is_game) or default_game()
            ruleset_id, scenario = split_game_id(game_id)
            ruleset = get_ruleset(ruleset_id)
            if help_options:
                _options_help(ruleset, ruleset.capabilities.options, per_side=True)
                return
            options, named = game_options(ruleset, scenario, args, house_rules)
            if rules_file is not None:  # rule switches, kept in the record (umpire.core.switches)
                options = with_switches(options, load_switches(ruleset, rules_file))
            sides = _side_kinds(ruleset.meta.players, side or [], named)
            seed = 1 if seed is None else seed
            check_seed(seed)
            if record is not None:
                _check_writable(record)
            game = new_game(game_id, seed=seed, options=options)
            session = Session(game, console, sides)
        game.record.players = dict(sides)
        if ai_why is not None:  # a game setting, kept in the record (umpire.core.record)
            if ai_why not in ("public", "own"):
                raise UmpireError(f"--ai-why {ai_why[:20]!r}: say public or own")
            game.record.why_public = ai_why == "public"
        players = _players(ruleset_id, sides, game.record.seed, console, session, think)
        show = not (quiet or as_json)
        try:
            humans = [s for s, kind in sides.items() if kind == "human"]
            # one person reads their side's log; people sharing a screen read only what every
            # side may (each sees their own units on the map at their prompt); no person: all
            viewer = humans[0] if len(humans) == 1 else SPECTATOR if humans else None
            printer = EventPrinter(console, game, viewer, session.maps) if show else None
            with quiet_collector():  # as play_out plays (issue 19: Rhine ~12 % less CPU)
                session.play(players, printer)
        except (KeyboardInterrupt, QuitGame):
            where = record if record is not None else save_path(game.record)
            game.record.save(where)
            err.print(
                f"stopped; the game so far is saved in {where} "
                f"(carry on with: umpire battle --resume {where})",
                markup=False,
                soft_wrap=True,
            )
            raise typer.Exit(130) from None
        data = summary(game)
        if record is not None:
            game.record.result = {k: data[k] for k in ("winner", "how", "turns", "events")}
            game.record.save(record)
    except UmpireError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        print(json.dumps(data, indent=1))
    else:
        _print_report(game, data)
        if record is not None:
            console.print(f"Record saved to {record}; replay it with: umpire replay {record}")
    if data["winner"] == "unfinished":  # stopped by the action cap: not a result
        err.print(
            f"unfinished: the game stopped at {data['how']} after {data['actions']} actions "
            "without a winner",
            soft_wrap=True,
            markup=False,
        )
        raise typer.Exit(3)


@app.command("replay")
def replay_cmd(
    path: Annotated[Path, typer.Argument(help="A record saved with --record.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary only.")] = False,
    quiet: Annotated[bool, typer.Option(help="Do not show events.")] = False,
    side: Annotated[
        str | None, typer.Option(help="Show only what this side saw (and the whys it may read).")
    ] = None,
    why: Annotated[
        bool, typer.Option("--why/--no-why", help="Show the search AI's why of each move.")
    ] = True,
) -> None:
    """Replay a saved game and check it reaches the same result."""
    from umpire.core.game import load_record, replay
    from umpire.play import summary
    from umpire.terminal.replay import show_replay

    try:
        rec = load_record(path)
        try:
            game = replay(rec)
        except UmpireError as exc:
            raise _naming(path, exc) from None
        if side is not None and side not in game.ruleset.meta.players:
            sides = ", ".join(game.ruleset.meta.players)
            raise UmpireError(f"--side {side}: not a side of {rec.ruleset} ({sides})")
    except UmpireError as exc:
        raise _fail(str(exc)) from None
    if not (quiet or as_json):
        show_replay(game, EventPrinter(console, side=side), side, why)
    data = summary(game)
    if rec.result is not None:
        mismatch = {
            k: (rec.result[k], data[k])
            for k in rec.result
            if k in data and rec.result[k] != data[k]
        }
        if mismatch:
            words = "; ".join(
                f"{k} recorded {saved!s}, replayed {now!s}" for k, (saved, now) in mismatch.items()
            )
            raise _fail(f"{path}: replay differs from the recorded result: {words}", 1)
    if as_json:
        print(json.dumps(data, indent=1))
    else:
        if game.is_over:
            _print_report(game, data)
        else:
            console.print(f"Replayed {len(rec.actions)} actions; the game is not finished.")
        if rec.result is not None:
            console.print("[green]Replay matches the recorded result.[/]")


@app.command()
def rules(
    ruleset: Annotated[str, typer.Argument(help="Ruleset id (`umpire scenarios` lists them).")],
    markdown: Annotated[bool, typer.Option(help="Print docs/rules markdown.")] = False,
    rules_file: Annotated[
        Path | None,
        typer.Option("--rules", help="Show each rule's mode under this rule-switches file."),
    ] = None,
) -> None:
    """List every implemented rule with its id and provenance (and its mode with --rules)."""
    from umpire.core.switches import effective_mode
    from umpire.core.switches import load_for as load_switches

    try:
        rs = get_ruleset(ruleset)
        if markdown:
            sys.stdout.write(capability(rs, "rules_markdown")())
            return
        entries = capability(rs, "catalog")()
        switches = load_switches(rs, rules_file) if rules_file is not None else None
    except UmpireError as exc:
        raise _fail(str(exc)) from None
    table = RichTable(title=f"{rs.meta.title} — rules")
    # the ids whole (they are what `why`, --rules and the docs take); the source wraps
    widest = max((len(e.id) for e in entries.values()), default=2)
    table.add_column("id", no_wrap=True, min_width=widest)
    for col in ("provenance", "source", *(("mode",) if switches is not None else ())):
        table.add_column(col, overflow="fold")
    for entry in entries.values():
        mode = (effective_mode(switches, entry),) if switches is not None else ()
        table.add_row(entry.id, entry.provenance, entry.ref, *mode)
    console.print(table)


@app.command(context_settings=EXTRA)
def odds(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (floats).")] = False,
    help_options: Annotated[
        bool, typer.Option("--help-options", help="List the ruleset's odds flags and stop.")
    ] = False,
) -> None:
    """Exact odds from a ruleset's own rules: umpire odds RULESET --flag VALUE ... (the
    ruleset's flags: umpire odds RULESET --help-options)."""
    from umpire.analysis.odds_command import odds_answer

    try:
        args = list(ctx.args)
        ruleset_id = _pick(args, lambda t: t in ruleset_ids())
        if ruleset_id is None:
            raise UmpireError(f"name the ruleset first: umpire odds {{{','.join(ruleset_ids())}}}")
        ruleset = get_ruleset(ruleset_id)
        cap = capability(ruleset, "odds")
        if help_options:
            _options_help(ruleset, cap.options, per_side=False)
            return
        values, _ = parse_declared(args, cap.options, ruleset_id, defaults=True)
        data, lines = odds_answer(ruleset_id, values)
    except UmpireError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        print(json.dumps(data, indent=1))
    else:
        for line in lines:
            console.print(line, markup=False)


@app.command(context_settings=EXTRA, epilog=GAME_HELP, options_metavar="RULESET/SCENARIO [OPTIONS]")
def simulate(
    ctx: typer.Context,
    n: Annotated[int, typer.Option("-n", "--games", help="Games to play.")] = 1000,
    seed: Annotated[int, typer.Option(help="Master seed (same seed, same games).")] = 1,
    workers: Annotated[
        int, typer.Option(help="Local worker processes (default: one per core).")
    ] = 0,
    ray: Annotated[
        str | None, typer.Option(help="Run on a Ray cluster: its address, or 'local'.")
    ] = None,
    side: Annotated[
        list[str] | None, typer.Option(help="SIDE=scripted|random (repeatable).")
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(help="Sweep: KEY=A,B with KEY SIDE.force, SIDE.agent, house.FIELD, scenario."),
    ] = None,
    house_rules: Annotated[
        Path | None, typer.Option(help="YAML file overriding house-rule numbers.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="Folder for games.csv, summary.json and PNG plots.")
    ] = None,
    table_format: Annotated[str, typer.Option("--format", help="csv | parquet")] = "csv",
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary only.")] = False,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
    help_options: Annotated[
        bool, typer.Option("--help-options", help="List the ruleset's own flags and stop.")
    ] = False,
    rules_file: Annotated[
        Path | None,
        typer.Option("--rules", help="YAML of rule-id: enforce|advise|off for every game."),
    ] = None,
) -> None:
    """Monte Carlo [RULESET/SCENARIO]: play many AI-vs-AI games and report win rates with 95%
    intervals."""
    from umpire.analysis.simulate_command import simulate_command
    from umpire.core.switches import load_for as load_switches
    from umpire.core.switches import with_switches

    try:
        args = list(ctx.args)
        game_id = _pick(args, _is_game) or default_game()
        ruleset_id, scenario = split_game_id(game_id)
        ruleset = get_ruleset(ruleset_id)
        if help_options:
            _options_help(ruleset, ruleset.capabilities.options, per_side=True)
            return
        values, named = parse_declared(
            args,
            ruleset.capabilities.options,
            ruleset_id,
            ruleset.meta.players,
            ruleset.meta.players,
        )
        switches = load_switches(ruleset, rules_file) if rules_file is not None else None
        simulate_command(
            game_id,
            n=n,
            seed=seed,
            workers=workers,
            ray_address=ray,
            sides=[*(side or []), *(f"{k}={v}" for k, v in named.items())],
            vary=vary or [],
            house_rules=house_rules,
            out=out,
            table_format=table_format,
            as_json=as_json,
            show_progress=not (quiet or as_json),
            console=console,
            options=with_switches({k: plain_value(v) for k, v in values.items()}, switches),
        )
    except UmpireError as exc:
        raise _fail(str(exc)) from None


@app.command("balance")
def balance_cmd(
    ruleset: Annotated[str, typer.Argument(help="Ruleset id with duels to price units by.")],
    unit: Annotated[
        str | None, typer.Option(help="The unit to price, by name or id (default: the ruleset's).")
    ] = None,
    against: Annotated[str | None, typer.Option(help="The unit it fights.")] = None,
    games: Annotated[int, typer.Option(help="Games per force ratio.")] = 60,
    range_: Annotated[float, typer.Option("--range", help="Starting distance, inches.")] = 24.0,
    seed: Annotated[int, typer.Option(help="Master seed.")] = 1,
    workers: Annotated[int, typer.Option(help="Worker processes (0: one per core).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON only.")] = False,
) -> None:
    """Estimate the points value at which a unit is an even match for another (simulated)."""
    from rich.progress import Progress

    from umpire.analysis.balance import RATIOS, balance

    try:
        duels = capability(get_ruleset(ruleset), "balance")
        with Progress(console=console, disable=as_json, transient=True) as bar:
            task = bar.add_task("duels", total=games * len(RATIOS))
            result = balance(
                ruleset,
                unit or duels.default_unit,
                against or duels.default_against,
                games=games,
                seed=seed,
                workers=workers or os.cpu_count() or 1,
                range_=range_,
                progress=lambda k: bar.advance(task, k),
            )
    except UmpireError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        print(json.dumps(result.to_json(), indent=1))
        return
    table = RichTable(title=f"{result.unit} vs {result.against}: score of the {result.unit} side")
    for col in ("ratio", "score (draw = 1/2)", "95% interval"):
        table.add_column(col)
    for ratio, row in result.score_by_ratio.items():
        table.add_row(ratio, f"{row['score']:.1%}", f"{row['ci_low']:.1%}–{row['ci_high']:.1%}")
    console.print(table)
    if result.fair_points is None:
        console.print(f"No estimate: {result.note}")
        return
    interval = f" (95% interval {result.ci95[0]:.0f}–{result.ci95[1]:.0f})" if result.ci95 else ""
    console.print(
        f"Even at {result.even_ratio:.2f} {result.unit} per {result.against}: "
        f"{result.unit} is worth about {result.fair_points:.0f} points{interval} against "
        f"{result.against} at {result.against_points} (list price {result.unit_points})."
    )
    if result.note:
        console.print(f"Note: {result.note}")


force_app = typer.Typer(
    help="Build, check and import forces (rulesets with force files).", no_args_is_help=True
)
app.add_typer(force_app, name="force")


def _companion() -> Any:
    from umpire.companion.cli import companion

    return companion


app.command("companion", context_settings=EXTRA)(_companion())  # umpire.companion.cli


def _forces(ruleset_id: str | None) -> tuple[str, Any]:
    """The forces capability of ``ruleset_id``, or of the one ruleset that has one."""
    if ruleset_id is not None:
        return ruleset_id, capability(get_ruleset(ruleset_id), "forces")
    having = []
    for candidate in ruleset_ids():
        try:
            if get_ruleset(candidate).capabilities.forces is not None:
                having.append(candidate)
        except UmpireError:  # a ruleset that fails to load has no forces to offer
            continue
    if len(having) != 1:
        raise UmpireError(
            f"say which ruleset with --ruleset: {', '.join(having) or 'none has force files'}"
        )
    return having[0], get_ruleset(having[0]).capabilities.forces


RULESET_OPTION = typer.Option(
    "--ruleset", help="Ruleset id (default: the one ruleset with force files)."
)


@force_app.command("new")
def force_new(
    ruleset: Annotated[str, typer.Argument(help="Ruleset id with force files.")],
    nation: Annotated[str, typer.Option(help="The army list (nation) to build from.")],
    points: Annotated[int, typer.Option(help="Points limit.")] = 500,
    out: Annotated[Path | None, typer.Option(help="Force file to write (TOML).")] = None,
    name: Annotated[str, typer.Option(help="A name for the force.")] = "",
) -> None:
    """Build a force interactively, within the points and the list's rules."""
    try:
        _, forces = _forces(ruleset)
        path = forces.new_force(nation, points, out, name)
        flag = _force_flag(get_ruleset(ruleset), path) if path is not None else ""
    except UmpireError as exc:
        raise _fail(str(exc)) from None
    if path is None:
        raise typer.Exit(1)
    console.print(f"Force written to {path}; play it with: umpire battle {flag} {path}")


def _force_flag(ruleset: Ruleset[Any], path: Path) -> str:
    """The ``--SIDE-OPTION`` flag that fields the force file ``path``: the per-side file
    option of the side whose deployment accepts it (tried on the default scenario), or the
    flag's pattern when no single side does."""
    caps = ruleset.capabilities
    option = next((o for o in caps.options if o.per_side and o.type == "path"), None)
    if option is None or caps.forces is None:
        return "--SIDE-force"
    scenario = ruleset.meta.default_scenario or ruleset.scenario_ids()[0]
    fits = []
    for side in ruleset.meta.players:
        try:
            caps.forces.prepare_options(scenario, {option.option_key: {side: str(path)}})
        except UmpireError:
            continue
        fits.append(side)
    if len(fits) == 1:
        return f"--{fits[0]}-{option.name}"
    return "|".join(f"--{side}-{option.name}" for side in ruleset.meta.players)


@force_app.command("check")
def force_check(
    path: Annotated[Path, typer.Argument(help="A force file (.toml) or roster (.ros, .rosz).")],
    points: Annotated[int | None, typer.Option(help="Points limit to check against.")] = None,
    ruleset: Annotated[str | None, RULESET_OPTION] = None,
) -> None:
    """Check a force's points and legality and list it."""
    try:
        _, forces = _forces(ruleset)
        lines = forces.check_file(path, points)
    except UmpireError as exc:
        raise _fail(str(exc)) from None
    for line in lines:
        console.print(line, markup=False)


@force_app.command("import")
def force_import(
    roster: Annotated[Path, typer.Argument(help="A BattleScribe roster (.ros or .rosz).")],
    out: Annotated[Path, typer.Option(help="Force file to write (TOML).")],
    data: Annotated[
        Path | None, typer.Option(help="BattleScribe data folder (.gst/.cat) to read with it.")
    ] = None,
    mapping: Annotated[
        Path | None,
        typer.Option(help="Mapping file (YAML) for what --data's catalogues name otherwise."),
    ] = None,
    ruleset: Annotated[str | None, RULESET_OPTION] = None,
) -> None:
    """Convert a BattleScribe / New Recruit roster into a force file, reporting what it could
    not map."""
    try:
        _, forces = _forces(ruleset)
        count, lines = forces.import_roster(roster, out, data, mapping)
    except UmpireError as exc:
        raise _fail(str(exc)) from None
    for line in lines:
        console.print(line, markup=False, soft_wrap=True)
    console.print(f"{count} entries written to {out}")


def _check_port(host: str, port: int) -> None:
    """A one-line error when ``host:port`` cannot be listened on (busy, or not this host's),
    before the server starts and prints anything."""
    import errno
    import socket

    if not 1 <= port <= 65535:
        raise UmpireError(f"--port {port}: a port is a number from 1 to 65535")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        raise UmpireError(f"cannot listen on {host}: {exc}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        try:
            probe.bind(address)
        except OSError as exc:
            busy = exc.errno == errno.EADDRINUSE
            why = "is busy (another server is listening there)" if busy else f"fails: {exc}"
            raise UmpireError(f"port {port} on {host} {why}; choose another with --port") from None


@app.command()
def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (loopback unless you say otherwise).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    db: Annotated[
        Path | None, typer.Option(help="SQLite file (default: in your user data directory).")
    ] = None,
) -> None:
    """Play in the browser: the web table, every game kept in SQLite."""
    from umpire.server.main import serve as run_server

    try:
        _check_port(host, port)
        run_server(host=host, port=port, db=db)
    except UmpireError as exc:
        raise _fail(str(exc)) from None


@app.command()
def scenarios() -> None:
    """List rulesets and their scenarios, each with a one-line briefing (the first sentence of
    the scenario's own; a ruleset that fails to load is named on stderr, the others listed)."""
    failed = False
    for ruleset_id in ruleset_ids():
        try:
            ruleset = get_ruleset(ruleset_id)
            infos = [ruleset.scenario_info(s) for s in ruleset.scenario_ids()]
        except UmpireError as exc:
            err.print(f"error: {exc}", markup=False, soft_wrap=True)
            failed = True
            continue
        for info in infos:
            line = f"{ruleset_id}/{info.id}"
            if info.briefing:
                line += f"  — {first_sentence(info.briefing)}"
            console.print(line, markup=False, no_wrap=True, overflow="ellipsis", crop=True)
    if failed:
        raise typer.Exit(2)


def main() -> None:
    """Entry point: user errors print one line and exit non-zero, never a traceback."""
    try:
        app()
    except UmpireError as exc:  # pragma: no cover - commands catch their own
        err.print(f"error: {exc}", markup=False)
        sys.exit(2)


if __name__ == "__main__":
    main()
