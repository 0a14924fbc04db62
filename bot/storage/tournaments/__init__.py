"""Tournaments (the tables ``tournaments`` and ``tournament_openings``, and the pairing a
match is played for)."""
