"""What ``umpire odds RULESET ...`` answers: the ruleset's odds capability, asked with the
values of the options it declares (:class:`umpire.core.ruleset.OddsCapability`).

It also holds the command's fast path (issue 19): ``python -m umpire odds RULESET ...`` for a
ruleset that ships with the package reads its flags here and imports only that ruleset's odds
module — not typer, rich, the entry-point registry or the ruleset object with its game
machinery. It answers exactly what ``umpire.cli.odds`` answers (the same values, the same
printed bytes, the same one-line errors and exit codes) and hands anything it does not handle
itself back to the typer command: ``--help``, ``--help-options``, ``--``, a ruleset that is not
built in, an unusual terminal.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from umpire.rulesets import BUILT_IN_ODDS  # the built-in rulesets' odds, by import path

if TYPE_CHECKING:
    from umpire.core.ruleset import OddsCapability, Option


def odds_answer(ruleset_id: str, values: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """(JSON summary with float probabilities, lines for a person); ``values`` holds every
    declared option by key (its default where the user gave none)."""
    from umpire.core.ruleset import capability, get_ruleset

    cap: OddsCapability = capability(get_ruleset(ruleset_id), "odds")
    return answer_of(cap, values)


def answer_of(cap: OddsCapability, values: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``cap.answer(values)``, with a ValueError a ruleset raises for values it cannot answer
    (a strength below the table, a count it cannot parse) turned into the one-line
    :class:`~umpire.core.errors.UmpireError` the command prints (exit 2), not a traceback."""
    from umpire.core.errors import UmpireError

    try:
        return cap.answer(values)
    except UmpireError:
        raise
    except (ValueError, OverflowError, RecursionError) as exc:
        raise UmpireError(str(exc) or type(exc).__name__) from exc


def built_in_odds(ruleset_id: str) -> OddsCapability:
    """The odds capability of a built-in ruleset, without loading the ruleset."""
    import importlib

    module_name, _, attr = BUILT_IN_ODDS[ruleset_id].partition(":")
    found: OddsCapability = getattr(importlib.import_module(module_name), attr)
    return found


# -- the flags ----------------------------------------------------------------------------------
def read_flags(args: Sequence[str], options: Sequence[Option], ruleset_id: str) -> dict[str, Any]:
    """``args`` (the words after the ruleset id) read against the odds options: every option's
    value by key, its default where not given; the same reader as the typer commands'
    (``umpire.flags.parse_declared``), so the two paths cannot drift."""
    from umpire.flags import parse_declared

    return parse_declared(args, options, ruleset_id, defaults=True)[0]


# -- printing as the typer command's rich consoles print ---------------------------------------
_EMOJI_LIKE = re.compile(r":\S*?:")  # rich replaces :name: codes even without markup
_PLAIN = re.compile(r"[ -~]*")  # printable ASCII: one cell a character, nothing to strip


def _rich_width() -> int | None:
    """The width rich's console would wrap at here (a COLUMNS setting, else the first of
    stdin, stdout and stderr that is a terminal, else 80), or None where rich may decide
    otherwise (a dumb terminal, an odd COLUMNS): then rich itself prints."""
    if os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
        return None
    columns = os.environ.get("COLUMNS")
    if columns is not None:
        return int(columns) if columns.isdigit() and int(columns) > 0 else None
    width = None
    for descriptor in (0, 1, 2):  # rich's order: stdin, stdout, stderr
        try:
            width = os.get_terminal_size(descriptor).columns
        except (AttributeError, ValueError, OSError):
            continue
        break
    return width or 80


def print_lines(lines: Sequence[str]) -> None:
    """Print ``lines`` byte for byte as ``Console(highlight=False).print(line, markup=False)``
    does: directly when no line is one rich would change (wrap, crop, an emoji code, a
    control or wide character), else through rich."""
    width = _rich_width()
    if width is not None and all(
        len(line) <= width and _PLAIN.fullmatch(line) and not _EMOJI_LIKE.search(line)
        for line in lines
    ):
        sys.stdout.write("".join(f"{line}\n" for line in lines))
        return
    from rich.console import Console

    console = Console(highlight=False)
    for line in lines:
        console.print(line, markup=False)


def print_error(message: str) -> None:
    """The typer command's one-line error (``umpire.cli._fail``), through rich as there."""
    from rich.console import Console

    Console(stderr=True, highlight=False).print(
        f"[bold red]error:[/] {message}", markup=True, soft_wrap=True
    )


# -- the fast path -----------------------------------------------------------------------------
def fast_odds(argv: Sequence[str]) -> int | None:
    """Answer ``umpire odds ARGV...`` without typer and return the exit code, or return None
    (nothing printed) for the typer command to answer instead.

    The words are read as click reads them for the command (``--json`` taken out wherever it
    stands, everything else kept in order for the ruleset's flags); the ruleset is the first
    word not starting with ``-`` (as ``umpire.cli._pick`` takes the first registered id, which
    a built-in id is)."""
    args = list(argv)
    for token in args:
        if token == "--" or token.startswith("--help") or token.startswith("--json="):
            return None  # help, or click's own reading of a separator or a flag's value
    bare = [t for t in args if not t.startswith("-")]
    if not bare or bare[0] not in BUILT_IN_ODDS:
        return None  # no ruleset, or one from the registry: the typer command knows them
    as_json = "--json" in args
    args = [t for t in args if t != "--json"]
    ruleset_id = bare[0]
    args.remove(ruleset_id)
    from umpire.core.errors import UmpireError

    try:
        cap = built_in_odds(ruleset_id)
        values = read_flags(args, cap.options, ruleset_id)
        data, lines = answer_of(cap, values)
    except UmpireError as exc:
        print_error(str(exc))
        return 2
    if as_json:
        import json

        print(json.dumps(data, indent=1))
    else:
        print_lines(lines)
    return 0
