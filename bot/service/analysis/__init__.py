"""The AI's view of a game: hints and /analyze."""
