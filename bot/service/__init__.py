"""The game service: the rules of the host, platform-neutral (no discord, no SQL).

Adapters (the console, the Discord app) hold a :class:`~bot.service.game.GameService`
and call it with values -- who acts (:class:`~bot.service.values.Actor`), where
(:class:`~bot.service.values.Place`), which state a button saw
(:class:`~bot.service.values.Expect`) -- and get a :class:`~bot.service.replies.Reply`
back.  How an action commits: :mod:`bot.service.runner`.  The one table of actions:
:mod:`bot.service.actions`.  The database is reached only through :mod:`bot.storage`.
"""
