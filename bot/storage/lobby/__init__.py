"""Finding a game (issue 44): open challenges, the matchmaking queue."""
