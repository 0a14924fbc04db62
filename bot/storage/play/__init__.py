"""Matches and money sessions, their games and the games' events (the tables ``matches``,
``games`` and ``events``)."""
