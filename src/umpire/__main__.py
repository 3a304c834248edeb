"""``python -m umpire`` runs the command line."""

from umpire.cli import main

main()
