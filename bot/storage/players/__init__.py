"""Players: users and their names, FIBS ratings per server, and the money ledger (the tables
``users``, ``ratings``, ``rating_history`` and ``ledger``)."""
