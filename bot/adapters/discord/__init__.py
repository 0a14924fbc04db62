"""The Discord app (discord.py): :mod:`.app` (the bot, ``setup_hook``, the one error
handler), :mod:`.cogs` (the slash commands), :mod:`.buttons` (persistent ``DynamicItem``
buttons), :mod:`.presenter` (replies into messages, embeds and files) and
:mod:`.renderer` (board PNGs drawn in worker processes)."""
