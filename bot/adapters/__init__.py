"""Adapters: the thin layers between people and the service.

* :mod:`bot.adapters.console` -- the local console mode (no Discord needed);
* :mod:`bot.adapters.discord` -- the Discord app: the bot, its cogs, the persistent
  buttons, the presenter that turns replies into messages, the render pool.

An adapter translates input into :mod:`bot.service` calls and replies into output;
it never reaches the storage or the rules itself.
"""
