"""Importers: read other programs' files into Umpire data (BattleScribe rosters and catalogues)."""
