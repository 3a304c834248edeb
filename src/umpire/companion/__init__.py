"""Companion mode: Umpire beside a physical table (issue 21).

The miniatures on the kitchen table are the truth. Players enter positions and the faces of the
dice they roll; Umpire keeps the state, applies the rules, plays the AI's side as instructions
for the table and records every entered outcome so the game replays identically.
"""
