"""Offline provider: deterministic, network-free (the default when ANTHROPIC_API_KEY is unset).

Two behaviours, chosen per request:

* **Summaries**: a request without tools whose last user message contains a
  `<conversation>…</conversation>` block is a compaction prompt and gets an extractive summary
  under the headings its instructions list (`summary`, built from `facts` by `sections`).
* **Agent turns**: everything else plays a scripted `Scenario` (`scenario`), or echoes the
  latest user text when there is none.

Token estimates (`estimate`) use `sessions_app.compaction.tokens.count_text` when importable,
else chars/4. `provider` holds `OfflineProvider` itself.
"""

from sessions_app.llm.offline.estimate import IMAGE_TOKENS, count_text, estimate_request_tokens
from sessions_app.llm.offline.facts import extract_facts, parse_parts, parse_tool_calls
from sessions_app.llm.offline.provider import PROVIDER, OfflineProvider
from sessions_app.llm.offline.scenario import Scenario
from sessions_app.llm.offline.summary import (
    DEFAULT_HEADINGS,
    build_offline_summary,
    parse_headings,
    split_summary_prompt,
)

__all__ = [
    "DEFAULT_HEADINGS",
    "IMAGE_TOKENS",
    "PROVIDER",
    "OfflineProvider",
    "Scenario",
    "build_offline_summary",
    "count_text",
    "estimate_request_tokens",
    "extract_facts",
    "parse_headings",
    "parse_parts",
    "parse_tool_calls",
    "split_summary_prompt",
]
