"""Standings: the leaderboard and a player's stats, read across the other families' tables."""
