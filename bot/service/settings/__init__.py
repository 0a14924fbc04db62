"""Per-server settings (``/settings``): each server's own defaults over the operator's
``config.toml`` -- the typed settings and the table of keys (:mod:`.table`), the kinds of
value (:mod:`.kinds`), and the service that reads (cached), shows, sets and resets them
(:mod:`.service`)."""
