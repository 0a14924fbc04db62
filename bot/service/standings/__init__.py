"""Standings: the server's leaderboard and a player's stats and card."""
