"""Pausing the cyclic garbage collector around bulk work that makes no cycles.

Loading a long path, serializing it for the summarizer and reading its facts each make tens of
thousands of small containers (row tuples, entries, blocks, strings, facts) while the path's
entries stay alive. With the collector running, every 700 new containers start a pass over the
young ones, and the growing survivor count soon triggers full passes over the whole heap: in a
server process that holds other paths too, those passes cost several times the work itself
(bench/compaction.py). Nothing built in these steps forms a cycle that needs the collector, so it
is paused and restored afterwards whatever happens; what it would have examined is examined once,
at its next regular pass.
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
            gc.enable()
