"""What a compaction cost once the prompt cache is counted (docs/costs.md, "Per compaction").

A compaction has two prices. Its summary call is an ordinary model call. Its effect on the calls
that follow is the other: the first call after it sends a prompt whose beginning changed (the
summary and the kept tail), so the provider writes that prefix to the cache again (or, for
providers without cache writes, bills it as uncached input) where it would otherwise have read
the old prefix from the cache; and from then on every call carries fewer tokens, which it no
longer pays to read.

Both are worked out against a counterfactual: the same calls, had the compaction not happened.
For each call after the compaction (up to the next one, or the end of the session):

- it would have carried `dropped = tokens_before - tokens_after` more tokens, read from the cache;
- the first one would have read from the cache, not written, the tokens it re-cached:
  `recached = min(input + cache_write, tokens_after)` (its uncached prompt, at most the compacted
  context: what goes beyond is the new turn, which it would have sent either way).

The net cost is the summary call plus, over those calls, what they cost minus what they would have
cost, each priced by the same list at the same date (`prices.price_call`). Negative: the
compaction saved money over the calls that followed it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sessions_app.llm.prices import CallUsage, price_call


@dataclass(frozen=True, slots=True)
class FollowingCall:
    provider: str
    model: str
    usage: CallUsage | None  # None: the call reported no usage (it has no price)
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class CompactionCost:
    summary: int | None  # the summary call's own price (nano-dollars); None: unknown / not recorded
    calls: int  # calls after the compaction that were counted
    recached: int  # tokens the first of them sent uncached again
    dropped: int  # tokens each of them no longer carried
    actual: int | None  # what those calls cost
    counterfactual: int | None  # what they would have cost without the compaction
    unpriced: int = 0  # calls among them without a price (then the two sums above are None)

    @property
    def effect(self) -> int | None:
        """The calls' cost change (actual - counterfactual); positive: they cost more."""
        if self.actual is None or self.counterfactual is None:
            return None
        return self.actual - self.counterfactual

    @property
    def net(self) -> int | None:
        """Summary call plus effect; None unless both are known."""
        effect = self.effect
        return None if effect is None or self.summary is None else self.summary + effect

    @property
    def dropped_total(self) -> int:
        return self.dropped * self.calls


def without_compaction(usage: CallUsage, *, first: bool, dropped: int, tokens_after: int) -> CallUsage:
    """The call as it would have been without the compaction (the module's counterfactual)."""
    recached = min(usage.input + usage.cache_write, tokens_after) if first else 0
    from_write = min(recached, usage.cache_write)
    from_input = recached - from_write
    return CallUsage(
        input=usage.input - from_input,
        output=usage.output,
        cache_read=usage.cache_read + recached + dropped,
        cache_write=usage.cache_write - from_write,
    )


def compaction_cost(
    summary: int | None,
    tokens_before: int,
    tokens_after: int | None,
    following: Sequence[FollowingCall],
) -> CompactionCost:
    """The compaction's cost over `following` (the calls after it, oldest first).

    `tokens_after` None (not recorded): the first following call's whole prompt stands for it."""
    if tokens_after is None:
        first = (following[0].usage if following else None) or CallUsage()
        tokens_after = first.input + first.cache_read + first.cache_write
    dropped = max(0, tokens_before - tokens_after)
    actual = counterfactual = 0
    unpriced = 0
    recached = 0
    for i, call in enumerate(following):
        if call.usage is None:
            unpriced += 1
            continue
        cf_usage = without_compaction(call.usage, first=i == 0, dropped=dropped, tokens_after=tokens_after)
        if i == 0:
            recached = cf_usage.cache_read - call.usage.cache_read - dropped
        real = price_call(call.provider, call.model, call.usage, call.at)
        cf = price_call(call.provider, call.model, cf_usage, call.at)
        if real.nanos is None or cf.nanos is None:
            unpriced += 1
            continue
        actual += real.nanos
        counterfactual += cf.nanos
    return CompactionCost(
        summary=summary,
        calls=len(following),
        recached=recached,
        dropped=dropped,
        actual=None if unpriced else actual,
        counterfactual=None if unpriced else counterfactual,
        unpriced=unpriced,
    )
