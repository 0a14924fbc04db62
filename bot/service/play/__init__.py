"""Two players at a table: challenges and their answers, the turn's commands, resignations
and claims, automatic play, game endings, money sessions, /board, reminders."""
