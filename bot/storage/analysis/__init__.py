"""Analyses kept per game and per player, the background grading queue, and puzzles."""
