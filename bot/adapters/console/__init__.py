"""The local console mode: the same slash commands, typed in a terminal.

``python -m bot console`` (or ``python -m bot`` with no token) starts it::

    alice: /challenge @bob length=3
    bob: /accept
    /roll                     (without "name:", a game's next step is made by the
    /move 13/7 8/7             player it waits for; other commands by the last actor)

Each reply prints the text, an ASCII board and the path of the board PNG
written to the boards folder.  ``--script FILE`` reads the commands from a
file (``-`` for standard input), echoing each one.  Users are identified by
name; a user's id is derived from the name, so a database can be reopened.

The console is an adapter like the Discord cogs: it only translates lines into
:class:`~bot.service.game.GameService` calls and replies into text.
"""

from bot.adapters.console.app import Console
from bot.adapters.console.run import run_console

__all__ = ["Console", "run_console"]
