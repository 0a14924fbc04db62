"""Process settings of a long-running bot (applied by ``python -m bot``).

Garbage collector.  The service keeps every active game's rebuilt state in
memory and replaces it at each action, so many objects live for a few hundred
milliseconds: long enough to be promoted to the oldest generation, where a
full collection walks everything (measured: 40 ms pauses with 200 active
games, and a p99 action time to match).  :func:`tune_gc` moves what start-up
allocated (modules, tables, caches) out of the collector's sight with
``gc.freeze()`` and collects the young generations less often, which makes
the pauses rarer and shorter (``bench/bench_service.py`` runs with it, as the
bot does).  Reference cycles are still collected.
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
