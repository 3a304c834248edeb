"""The Portable Wargame, squared version (Bob Cordery's Big Board Portable Wargame: Modern)."""
