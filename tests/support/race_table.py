"""The players, the scripted dice and the service of the race and refusal tests."""

from __future__ import annotations

from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage

PLACE = Place(1, 77)
WHITE = Actor(1, "alice")
BLACK = Actor(2, "bob")
SPECTATOR = Actor(3, "carol")

# The opening: white 3, black 1 (white plays 3-1); then black rolls 6-5, white 4-2, ...
DICE = (3, 1, 6, 5, 4, 2, 5, 3, 6, 4, 2, 1, 5, 5, 6, 2)
MOVED_ON = ("moved on",)
NOT_NOW = ("moved on", "not your turn", "already rolled", "no double", "must roll")


class ScriptedDice:
    """A dice stream cycling through :data:`DICE` (the same for every game)."""

    def __init__(self, seed: str, start: int = 0) -> None:
        self.drawn = start

    def die(self) -> int:
        value = DICE[self.drawn % len(DICE)]
        self.drawn += 1
        return value


def make_service(storage: SqliteStorage) -> GameService:
    return GameService(storage, Config(), dice=ScriptedDice)
