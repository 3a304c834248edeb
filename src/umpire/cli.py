"""The ``umpire`` command line: battles, replays, rules and scenarios."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table as RichTable

from umpire.agents.base import Agent, make_agent
from umpire.core.actions import Action
from umpire.core.errors import IllegalActionError, UmpireError
from umpire.core.events import Event
from umpire.core.game import Game, load_record, new_game, replay
from umpire.core.ruleset import get_ruleset, load_house_rules, ruleset_ids, split_game_id
from umpire.play import play_out, summary

app = typer.Typer(
    help="Umpire: play tabletop wargames by their rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)
err = Console(stderr=True, highlight=False)

SIDE_STYLE = {"nato": "bold blue", "pact": "bold red", "blue": "bold blue", "red": "bold red"}
COLUMN_TITLES = {"points": "points lost", "bp": "BP lost", "total_bp": "total BP"}
PLAYER_KINDS = ("ai", "scripted", "random", "human")


def _fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {message}", markup=True, soft_wrap=True)
    return typer.Exit(code)


class EventPrinter:
    """Prints events as they happen: every roll with what it needed and the rule behind it."""

    def __init__(self, console: Console, game: Game | None = None, side: str | None = None) -> None:
        self.console = console
        self.game = game
        self.side = side  # show only what this side may know (one human against the AI)

    def __call__(self, event: Event) -> None:
        allowed = event.get("visible_to")
        if self.side is not None and allowed is not None and self.side not in allowed:
            return
        kind = event.get("kind")
        text = str(event.get("text", "")).replace("[", "\\[")
        rule = event.get("rule")
        tag = f" [dim]({rule})[/]" if rule else ""
        if kind == "turn":
            self.console.rule(f"[bold]{event['text'].strip('- ')}")
            render = getattr(self.game.ruleset, "render", None) if self.game else None
            if render is not None and self.game is not None:
                self.console.print(render(self.game.state), markup=False, highlight=False)
        elif kind == "roll":
            mark = "[green]✓[/]" if event.get("success") else "[red]✗[/]"
            self.console.print(f"   🎲 {text} {mark}{tag}")
        elif kind in ("destroyed", "removed"):
            self.console.print(f"   [bold red]💥 {text}[/]{tag}")
        elif kind == "game_over":
            self.console.print(f"[bold yellow]🏁 {text}[/]{tag}")
        elif kind in ("activate", "initiative", "seize", "pass"):
            self.console.print(f"[bold]▶ {text}[/]{tag}")
        else:
            self.console.print(f"   {text}{tag}")


class HumanPlayer:
    """A person at the terminal: picks from the numbered legal actions (with odds), or types
    ``move X Y`` / ``rapid X Y`` to move anywhere in reach, ``undo`` or ``quit``."""

    name = "human"

    def __init__(self, side: str, console: Console) -> None:
        self.side = side
        self.console = console
        self.last_reason = "chosen by the player"

    def choose(self, game: Game, legal: Sequence[Action]) -> Action:
        status = getattr(game.ruleset, "status_line", None)
        where = f" ({status(game.state)})" if status is not None else ""
        self.console.print(
            f"[{SIDE_STYLE.get(self.side, 'bold')}]{self.side.upper()}[/] to act{where}:"
        )
        for index, action in enumerate(legal, 1):
            self.console.print(f"  {index:>3}. {game.describe(action)}".replace("[", "\\["))
        while True:
            try:
                answer = input("choose a number (or 'move X Y', 'rapid X Y', 'quit'): ").strip()
            except EOFError:
                answer = "quit"
            if answer in ("q", "quit"):
                raise KeyboardInterrupt
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            parts = answer.split()
            if len(parts) == 3 and parts[0] in ("move", "rapid", "road"):
                flow = getattr(game.state, "flow", None)
                unit = getattr(getattr(flow, "activation", None), "unit", None)
                try:
                    point = (float(parts[1]), float(parts[2]))
                except ValueError:
                    self.console.print("  coordinates must be numbers, e.g. 'move 20 14.5'")
                    continue
                candidate = Action(parts[0], unit=unit, point=point)
                try:
                    game.branch().apply(candidate)
                except IllegalActionError as exc:
                    self.console.print(f"  [red]refused:[/] {exc}".replace("[rule", "\\[rule"))
                    continue
                return candidate
            self.console.print(f"  [red]refused:[/] enter 1-{len(legal)} or a move command")


def _players(
    ruleset_id: str, sides: dict[str, str], seed: int, console: Console
) -> dict[str, Agent]:
    out: dict[str, Agent] = {}
    for side, kind in sides.items():
        if kind == "human":
            out[side] = HumanPlayer(side, console)
        else:
            kind = "scripted" if kind == "ai" else kind
            out[side] = make_agent(kind, ruleset_id, side, seed)
    return out


def _print_report(game: Game, data: dict[str, Any]) -> None:
    console.print()
    winner = data["winner"]
    headline = "Draw" if winner == "draw" else f"{str(winner).upper()} wins"
    console.rule(f"[bold]Battle report — {headline} ({data['how']})")
    console.print(
        f"{data['ruleset']}/{data['scenario']}  seed {data['seed']}  turns played {data['turns']}"
        f"  actions {data['actions']}  events {data['events']}"
    )
    losses: dict[str, dict[str, Any]] = data["losses"]
    first = next(iter(losses.values()), {})
    scalar = [
        k for k, v in first.items() if k not in ("units", "of_units") and not isinstance(v, list)
    ]
    table = RichTable(title="Losses")
    for col in ("side", "units lost", *scalar):
        table.add_column(COLUMN_TITLES.get(col, col.replace("_", " ")))
    for side, loss in losses.items():
        table.add_row(
            side.upper(), f"{loss['units']}/{loss['of_units']}", *(str(loss[k]) for k in scalar)
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
    players: Sequence[str], assignments: Sequence[str], named: dict[str, str | None]
) -> dict[str, str]:
    """Who plays each side: every side is the AI unless ``--side SIDE=KIND`` (or the ruleset's
    own ``--nato``/``--pact``) says otherwise."""
    sides = dict.fromkeys(players, "ai")
    given = [(k, v) for k, v in named.items() if v is not None]
    for text in assignments:
        name, sep, kind = text.partition("=")
        if not sep:
            raise UmpireError(f"--side {text!r}: write SIDE=KIND, e.g. --side {players[0]}=human")
        given.append((name.strip(), kind.strip()))
    for name, kind in given:
        if name not in sides:
            raise UmpireError(f"no side {name!r} in this ruleset; sides: {', '.join(players)}")
        if kind not in PLAYER_KINDS:
            raise UmpireError(f"side {name} {kind!r}: choose {', '.join(PLAYER_KINDS)}")
        sides[name] = kind
    return sides


@app.command()
def battle(
    game_id: Annotated[
        str, typer.Argument(help="RULESET/SCENARIO, e.g. sevendays/meeting-engagement")
    ] = "sevendays/meeting-engagement",
    seed: Annotated[int, typer.Option(help="Seed of the game's dice (reproducible).")] = 1,
    side: Annotated[
        list[str] | None,
        typer.Option(help="Who plays a side: SIDE=ai|scripted|random|human (repeatable)."),
    ] = None,
    nato: Annotated[
        str | None, typer.Option(help="Seven Days: ai | scripted | random | human")
    ] = None,
    pact: Annotated[
        str | None, typer.Option(help="Seven Days: ai | scripted | random | human")
    ] = None,
    record: Annotated[Path | None, typer.Option(help="Save the game record to this file.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary only.")] = False,
    quiet: Annotated[bool, typer.Option(help="Do not show events as they happen.")] = False,
    house_rules: Annotated[
        Path | None, typer.Option(help="YAML file overriding house-rule numbers.")
    ] = None,
    nato_force: Annotated[
        Path | None, typer.Option(help="Seven Days: NATO fields this force (.toml, .ros, .rosz).")
    ] = None,
    pact_force: Annotated[
        Path | None, typer.Option(help="Seven Days: the Pact fields this force.")
    ] = None,
    cards: Annotated[
        bool | None,
        typer.Option("--cards/--no-cards", help="Seven Days: Tactical Advantage cards on or off."),
    ] = None,
) -> None:
    """Play a battle, AI vs AI by default, showing every activation and die roll."""
    try:
        ruleset_id, scenario = split_game_id(game_id)
        ruleset = get_ruleset(ruleset_id)
        options: dict[str, Any] = {}
        if house_rules is not None:
            options["house_rules"] = load_house_rules(ruleset, house_rules)
        sides = _side_kinds(ruleset.meta.players, side or [], {"nato": nato, "pact": pact})
        if cards is not None:
            if ruleset_id != "sevendays":
                raise UmpireError(f"{ruleset_id} has no Tactical Advantage cards")
            options["cards"] = cards
        forces = {k: str(v) for k, v in (("nato", nato_force), ("pact", pact_force)) if v}
        if forces:
            prepare = getattr(ruleset, "prepare_options", None)
            if prepare is None:
                raise UmpireError(f"{ruleset_id} does not take force files")
            options = prepare(scenario, {**options, "forces": forces})
        game = new_game(game_id, seed=seed, options=options)
        game.record.players = dict(sides)
        players = _players(ruleset_id, sides, seed, console)
        show = not (quiet or as_json)
        try:
            humans = [s for s, kind in sides.items() if kind == "human"]
            viewer = humans[0] if len(humans) == 1 else None
            play_out(game, players, EventPrinter(console, game, viewer) if show else None)
        except KeyboardInterrupt:
            if record is not None:
                game.record.save(record)
                err.print(f"stopped; the game so far is saved in {record}")
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


@app.command("replay")
def replay_cmd(
    path: Annotated[Path, typer.Argument(help="A record saved with --record.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary only.")] = False,
    quiet: Annotated[bool, typer.Option(help="Do not show events.")] = False,
) -> None:
    """Replay a saved game and check it reaches the same result."""
    try:
        rec = load_record(path)
        game = replay(rec)
    except UmpireError as exc:
        raise _fail(str(exc)) from None
    if not (quiet or as_json):
        printer = EventPrinter(console)
        for event in game.events:
            printer(event)
    data = summary(game)
    if rec.result is not None:
        mismatch = {
            k: (rec.result[k], data[k])
            for k in rec.result
            if k in data and rec.result[k] != data[k]
        }
        if mismatch:
            raise _fail(f"{path}: replay differs from the recorded result: {mismatch}", 1)
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
    ruleset: Annotated[str, typer.Argument(help="Ruleset id")] = "sevendays",
    markdown: Annotated[bool, typer.Option(help="Print docs/rules markdown.")] = False,
) -> None:
    """List every implemented rule with its id and provenance."""
    try:
        rs = get_ruleset(ruleset)
    except UmpireError as exc:
        raise _fail(str(exc)) from None
    if markdown:
        sys.stdout.write(rs.rules_markdown())  # type: ignore[attr-defined]
        return
    table = RichTable(title=f"{rs.meta.title} — rules")
    for col in ("id", "provenance", "source"):
        table.add_column(col)
    for entry in rs.rule_catalog():  # type: ignore[attr-defined]
        table.add_row(entry["id"], entry["provenance"], entry["source"])
    console.print(table)


@app.command()
def odds(
    ruleset: Annotated[str, typer.Argument(help="Ruleset id, e.g. sevendays")] = "sevendays",
    firer: Annotated[str | None, typer.Option(help="Firing unit, by name or id.")] = None,
    target: Annotated[str | None, typer.Option(help="Target unit, by name or id.")] = None,
    range_: Annotated[
        float | None, typer.Option("--range", help="Range in inches (squares on a grid).")
    ] = None,
    facing: Annotated[str, typer.Option(help="Armour hit: front | side.")] = "front",
    firer_moved: Annotated[bool, typer.Option(help="The firer moved this activation.")] = False,
    reaction: Annotated[bool, typer.Option(help="Reaction fire.")] = False,
    target_moving: Annotated[bool, typer.Option(help="Reaction fire at a mover.")] = False,
    target_cover: Annotated[str, typer.Option(help="open | cover | fortified")] = "open",
    in_buildings: Annotated[bool, typer.Option(help="The target is in buildings.")] = False,
    obscured: Annotated[bool, typer.Option(help="The target is >50% obscured.")] = False,
    enemy_infantry_near: Annotated[
        bool, typer.Option(help='Enemy infantry within 12" of the firer.')
    ] = False,
    markers: Annotated[
        int, typer.Option(help="Morale markers on the firer (or the tested unit).")
    ] = 0,
    target_markers: Annotated[int, typer.Option(help="Morale markers already on the target.")] = 0,
    weapon: Annotated[str, typer.Option(help="atgm | main | law | rockets")] = "main",
    shots: Annotated[int, typer.Option(help="Identical shots in a row.")] = 1,
    firer_nation: Annotated[str | None, typer.Option(help="ORBAT of the firer.")] = None,
    target_nation: Annotated[str | None, typer.Option(help="ORBAT of the target.")] = None,
    activation: Annotated[bool, typer.Option(help="Odds of an activation test.")] = False,
    reaction_test: Annotated[bool, typer.Option(help="Odds of a reaction test.")] = False,
    tokens: Annotated[int, typer.Option(help="Tokens already on the tested unit.")] = 0,
    activator: Annotated[str, typer.Option(help="Reaction test: vehicle | foot.")] = "vehicle",
    covered: Annotated[bool, typer.Option(help="Reaction test: activator in cover.")] = False,
    atgm: Annotated[bool, typer.Option(help="Reaction test: the reactor fires an ATGM.")] = False,
    quality: Annotated[
        str | None, typer.Option(help="Portable: target quality elite|average|poor.")
    ] = None,
    commander: Annotated[bool, typer.Option(help="Portable: commander with the firer.")] = False,
    observed: Annotated[
        bool, typer.Option(help="Portable artillery: the gun or a spotter sees the target.")
    ] = False,
    same_target: Annotated[
        bool, typer.Option(help="Portable artillery: same target as last turn.")
    ] = False,
    artillery: Annotated[
        str | None, typer.Option(help="Portable: gun class (heavy, medium, field, ...).")
    ] = None,
    house_rules: Annotated[
        Path | None, typer.Option(help="YAML file overriding house-rule numbers.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (floats).")] = False,
) -> None:
    """Exact odds of a shot, or of an activation or reaction test, from the game's own rules."""
    from umpire.analysis.odds_command import odds_answer

    try:
        data, lines = odds_answer(
            ruleset,
            firer=firer,
            target=target,
            range=range_,
            facing=facing,
            firer_moved=firer_moved,
            reaction=reaction,
            target_moving=target_moving,
            target_cover=target_cover,
            in_buildings=in_buildings,
            obscured=obscured,
            enemy_infantry_near=enemy_infantry_near,
            markers=markers,
            target_markers=target_markers,
            weapon=weapon,
            shots=shots,
            firer_nation=firer_nation,
            target_nation=target_nation,
            activation=activation,
            reaction_test=reaction_test,
            tokens=tokens,
            activator=activator,
            covered=covered,
            atgm=atgm,
            quality=quality,
            commander=commander,
            observed=observed,
            same_target=same_target,
            artillery=artillery,
            house_rules=house_rules,
        )
    except UmpireError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        print(json.dumps(data, indent=1))
    else:
        for line in lines:
            console.print(line, markup=False)


@app.command()
def simulate(
    game_id: Annotated[
        str, typer.Argument(help="RULESET/SCENARIO, e.g. sevendays/meeting-engagement")
    ] = "sevendays/meeting-engagement",
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
) -> None:
    """Monte Carlo: play many AI-vs-AI games and report win rates with 95% intervals."""
    from umpire.analysis.simulate_command import simulate_command

    try:
        simulate_command(
            game_id,
            n=n,
            seed=seed,
            workers=workers,
            ray_address=ray,
            sides=side or [],
            vary=vary or [],
            house_rules=house_rules,
            out=out,
            table_format=table_format,
            as_json=as_json,
            show_progress=not (quiet or as_json),
            console=console,
        )
    except UmpireError as exc:
        raise _fail(str(exc)) from None


@app.command("balance")
def balance_cmd(
    ruleset: Annotated[str, typer.Argument(help="Ruleset id (sevendays).")] = "sevendays",
    unit: Annotated[str, typer.Option(help="The unit to price, by name or id.")] = "T-72A",
    against: Annotated[str, typer.Option(help="The unit it fights.")] = "Chieftain Mk9",
    games: Annotated[int, typer.Option(help="Games per force ratio.")] = 60,
    range_: Annotated[float, typer.Option("--range", help="Starting distance, inches.")] = 24.0,
    seed: Annotated[int, typer.Option(help="Master seed.")] = 1,
    workers: Annotated[int, typer.Option(help="Worker processes (0: one per core).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON only.")] = False,
) -> None:
    """Estimate the points value at which a unit is an even match for another (simulated)."""
    import os

    from rich.progress import Progress

    from umpire.analysis.balance import RATIOS, balance

    if ruleset != "sevendays":
        raise _fail(f"balance knows only sevendays units so far, not {ruleset!r}")
    try:
        with Progress(console=console, disable=as_json, transient=True) as bar:
            task = bar.add_task("duels", total=games * len(RATIOS))
            result = balance(
                unit,
                against,
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


force_app = typer.Typer(help="Build, check and import forces (Seven Days).", no_args_is_help=True)
app.add_typer(force_app, name="force")


@force_app.command("new")
def force_new(
    ruleset: Annotated[str, typer.Argument(help="Ruleset id (sevendays).")] = "sevendays",
    nation: Annotated[str, typer.Option(help="uk, ussr, us or wg.")] = "ussr",
    points: Annotated[int, typer.Option(help="Points limit.")] = 500,
    out: Annotated[Path | None, typer.Option(help="Force file to write (TOML).")] = None,
    name: Annotated[str, typer.Option(help="A name for the force.")] = "",
) -> None:
    """Build a force interactively, within the points and the list's rules."""
    if ruleset != "sevendays":
        raise _fail(f"force building knows only sevendays, not {ruleset!r}")
    from umpire.rulesets.sevendays.force_builder import new_force

    try:
        path = new_force(nation, points, out, name=name)
    except UmpireError as exc:
        raise _fail(str(exc)) from None
    if path is None:
        raise typer.Exit(1)
    console.print(f"Force written to {path}; play it with: umpire battle --nato-force {path}")


@force_app.command("check")
def force_check(
    path: Annotated[Path, typer.Argument(help="A force file (.toml) or roster (.ros, .rosz).")],
    points: Annotated[int | None, typer.Option(help="Points limit to check against.")] = None,
) -> None:
    """Check a force's points and legality and list it."""
    from umpire.rulesets.sevendays.forces import check_force_file

    try:
        lines = check_force_file(path, points)
    except UmpireError as exc:
        raise _fail(str(exc)) from None
    for line in lines:
        console.print(line, markup=False)


@force_app.command("import")
def force_import(
    roster: Annotated[Path, typer.Argument(help="A BattleScribe roster (.ros or .rosz).")],
    out: Annotated[Path, typer.Option(help="Force file to write (TOML).")],
) -> None:
    """Convert a BattleScribe / New Recruit roster into a force file, reporting what it could
    not map."""
    from umpire.importers.battlescribe import import_roster

    try:
        force, report = import_roster(roster, out)
    except UmpireError as exc:
        raise _fail(str(exc)) from None
    for line in report.lines():
        console.print(line, markup=False)
    console.print(f"{len(force.units)} entries written to {out}")


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
        run_server(host=host, port=port, db=db)
    except UmpireError as exc:
        raise _fail(str(exc)) from None


@app.command()
def scenarios() -> None:
    """List rulesets and their scenarios."""
    for ruleset_id in ruleset_ids():
        try:
            ids = get_ruleset(ruleset_id).scenario_ids()
        except UmpireError as exc:
            raise _fail(str(exc)) from None
        for scenario in ids:
            console.print(f"{ruleset_id}/{scenario}")


def main() -> None:
    """Entry point: user errors print one line and exit non-zero, never a traceback."""
    try:
        app()
    except UmpireError as exc:  # pragma: no cover - commands catch their own
        err.print(f"error: {exc}")
        sys.exit(2)


if __name__ == "__main__":
    main()
