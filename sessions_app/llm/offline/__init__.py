"""Offline provider: deterministic, network-free (the default when ANTHROPIC_API_KEY is unset).

It plays a scripted `Scenario` (`scenario`), or echoes the latest user text when there is none.
It writes no summaries: compactions without a model use the engine's extractive summarizer
(`sessions_app.retention.extractive`). Token estimates (`estimate`) use the engine's counter.
`provider` holds `OfflineProvider` itself.
"""

from sessions_app.llm.offline.estimate import IMAGE_TOKENS, count_text, estimate_request_tokens
from sessions_app.llm.offline.provider import PROVIDER, OfflineProvider
from sessions_app.llm.offline.scenario import Scenario

__all__ = [
    "IMAGE_TOKENS",
    "PROVIDER",
    "OfflineProvider",
    "Scenario",
    "count_text",
    "estimate_request_tokens",
]
