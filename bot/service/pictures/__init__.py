"""Pictures beyond the board: replays, analysis graphs, player cards and match summaries, as
values the adapters draw."""
