"""The game service: the rules of the host, platform-neutral (no discord, no SQL).

Adapters (the console, the Discord app, the AI driver) call it with values --
who acts (:class:`Actor`), where (:class:`Place`) -- and get a
:class:`~bot.service.replies.Reply` back.  It reaches the database only through
the :mod:`bot.storage` interface.
"""
