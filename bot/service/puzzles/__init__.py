"""Puzzles made from the server's own blunders: /puzzle, answers, the daily puzzle."""
