"""The game service: the rules of the host, platform-neutral (no discord, no SQL).

Adapters (the console, the Discord app) hold a :class:`~bot.service.game.GameService`
and call it with values -- who acts (:class:`~bot.service.core.values.Actor`), where
(:class:`~bot.service.core.values.Place`), which state a button saw
(:class:`~bot.service.core.values.Expect`) -- and get a
:class:`~bot.service.core.replies.Reply` back.  The database is reached only through
:mod:`bot.storage`.

One folder per feature, in layers (the import contracts in ``pyproject.toml`` keep them):
``core`` (how an action commits and answers; imports no feature) < ``records``, ``rules``
< ``pictures`` < ``analysis``, ``standings`` < ``grading``, ``puzzles`` < ``play`` <
``chouette``, ``tournaments``
(never each other) < ``posted``; then the action table (:mod:`.actions`), the AI's turns
(:mod:`.ai_turns`) and :mod:`.game`, the one place that composes them.
"""
