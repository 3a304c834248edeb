"""``python -m umpire`` runs the command line; ``odds`` for a built-in ruleset takes a fast path
that loads no command-line framework (issue 19, :func:`umpire.analysis.odds_command.fast_odds`)."""

import sys


def main() -> None:
    if sys.argv[1:2] == ["odds"]:
        from umpire.analysis.odds_command import fast_odds

        code = fast_odds(sys.argv[2:])
        if code is not None:
            sys.exit(code)
    from umpire.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
