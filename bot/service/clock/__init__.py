"""Time controls (issue 44): the service that keeps the clocks of matches (:mod:`.service`)
and its arithmetic (:mod:`.ledger`); the ``clock`` option itself is a value every feature
reads (:mod:`bot.service.core.timecontrol`)."""
