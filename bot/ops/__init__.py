"""Running the bot for real: metrics and health (:mod:`.metrics`, :mod:`.endpoint`), logs
(:mod:`.logs`), backups and their check (:mod:`.backup`).  The service knows none of this: it
reports its actions to an observer (:mod:`bot.service.core.observe`) that :mod:`.metrics`
implements with the Prometheus client library."""
