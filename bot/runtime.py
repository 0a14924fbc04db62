"""Process settings of a long-running bot (applied by ``python -m bot``).

Garbage collector.  The service keeps every active game's rebuilt state in
memory and replaces it at each action, so many objects live for a few hundred
milliseconds: long enough to be promoted to the oldest generation, where a
full collection walks everything.  Measured with 200 games at 450 actions/s
(12 s, two runs each): CPython's defaults paused the event loop for up to
90 ms, 690-775 ms in all; with :func:`tune_gc`, which moves what start-up
allocated (modules, tables, caches) out of the collector's sight with
``gc.freeze()`` and collects the young generations less often, at most
22-29 ms, 400-425 ms in all.  ``bench/bench_service.py`` runs with it, as the
bot does.  Reference cycles are still collected.
"""

from __future__ import annotations

import gc

GC_THRESHOLDS = (5_000, 20, 20)
"""Young-generation allocations before a collection, then how many collections
of one generation before the next is collected (CPython's default: 700, 10, 10)."""


def tune_gc() -> None:
    """Freeze the objects allocated so far and raise the collection thresholds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
