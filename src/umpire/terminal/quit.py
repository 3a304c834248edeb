"""The terminal's "stop the game" signal, raised by the play prompt (``session``) and the
deployment prompt (``deploy``) alike; a leaf module so that neither imports the other for it."""

from __future__ import annotations


class QuitGame(Exception):
    """The person at the terminal stopped the game (``quit`` or the end of input)."""
