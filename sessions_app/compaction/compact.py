"""Compact a prepared plan with the model passed in: the engine's half of a compaction.

`prepare` decides what to summarize; `compact` asks `summarize` (the caller's model call) for
the summary of each request, the two of a split turn concurrently, and returns the payload the
store validates and writes. The caller does the I/O and the bookkeeping around the call
(docs/architecture.md, "A compaction's data walk").
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from .prepare import Preparation
from .summary import SummaryRequest, SummaryRequests, assemble_summary, build_requests, make_payload
from .validate import CompactionPayload

Summarize = Callable[[SummaryRequest], Awaitable[str]]


async def compact(
    preparation: Preparation,
    summarize: Summarize,
    *,
    instructions: str | None = None,
    requests: SummaryRequests | None = None,
) -> CompactionPayload:
    """The compaction payload for `preparation`, its summary written by `summarize`.

    `requests` are the ones `build_requests(preparation, instructions)` gives, for a caller that
    built them already (to record the exact prompts before the call).
    """
    requests = requests or build_requests(preparation, instructions)

    async def answer(request: SummaryRequest | None) -> str | None:
        return None if request is None else await summarize(request)

    history, prefix = await asyncio.gather(answer(requests.history), answer(requests.turn_prefix))
    return make_payload(preparation, assemble_summary(history, prefix, preparation))
