"""The web table: a FastAPI app and an SQLite store of games (``umpire serve``)."""
