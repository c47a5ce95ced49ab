"""Pausing the cyclic garbage collector around bulk work that makes no cycles.

Loading a long path, serializing it for the summarizer and reading its facts each make tens of
thousands of small containers (row tuples, entries, blocks, strings, facts) while the path's
entries stay alive; a bulk import holds millions until their batch is written
(store/bulk_import.py). With the collector running, every 700 new containers start a pass over the
young ones, and the growing survivor count soon triggers full passes over the whole heap: in a
server process that holds other paths too, those passes cost several times the work itself
(bench/compaction.py).

Nothing built in these steps forms a cycle that needs the collector, so it is paused and restored
afterwards whatever happens. Re-enabling it alone would only defer the cost: everything that
survived the pause is still in the youngest generation, and the first pass after it examines it
all (about 30 ms for a 20,000-node path). So the survivors are moved to the oldest generation
unexamined (`gc.freeze` then `gc.unfreeze` moves every tracked object there), where the next full
pass, a rare one, looks at them. Young garbage cycles of the rest of the process take the same
route: they are collected at that full pass instead of the next young one. When something else
has frozen objects (a server that freezes its startup heap), they are left alone: the unfreeze
would release them too.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()
