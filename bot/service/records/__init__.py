"""The records of a channel's games by the numbers players see: /verify, /export, /history,
and FIBS ratings."""
