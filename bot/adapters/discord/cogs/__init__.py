"""Cogs of the Discord bot: each module with a ``setup(bot)`` is loaded at start-up.

Modules whose name starts with ``_`` are helpers.  A new feature (the
chouette, for example) adds a module here with a
:class:`~bot.adapters.discord.cogs._base.ServiceCog`
subclass: its commands call the game service and hand the replies to the
presenter, like :mod:`bot.adapters.discord.cogs.game`.
"""
