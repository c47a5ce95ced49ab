"""The probe check of a compaction: after its lexical audit is written, a model answers one
question per fact from the context after the compaction alone, and the graded answers are
stored beside the audit (retention/probes.py; docs/compaction.md, rule R7).

It costs a model call per compaction: it runs when the compact profile's provider is a model,
unless `CUTPOINT_PROBE_AUDIT` is off (the offline provider writes nothing and is never asked).
Like the audit it is derived data: whatever goes wrong is stored as a failed check with its
reason, and nothing is raised to the compaction or to the user.
"""

from __future__ import annotations

import logging
from typing import Any, Final

from asgiref.sync import sync_to_async

from sessions_app import conf
from sessions_app.compaction.messages import LlmMessage
from sessions_app.compaction.vocabulary import StopReason
from sessions_app.llm.base import CompletionRequest, Provider, ProviderError
from sessions_app.retention import probes
from sessions_app.runtime.providers import provider_for
from sessions_app.store.audits import probe_inputs, save_probe

log = logging.getLogger(__name__)

MAX_ANSWER_TOKENS: Final = 4096  # 40 short answers with their quotes


def enabled() -> bool:
    return bool(conf.get("CUTPOINT_PROBE_AUDIT"))


async def probe_compaction(compaction_id: int, provider: Provider | None = None) -> dict[str, Any] | None:
    """Ask, grade and store the probe check of a compaction whose audit is written; returns what
    was stored, or None when nothing was asked (no model, no audit, no facts)."""
    provider = provider or provider_for("compact")
    if not provider.writes_summaries:
        return None
    model = provider.model
    try:
        inputs = await sync_to_async(probe_inputs)(compaction_id)
        if inputs is None:
            return None
        asked = probes.probes(inputs.facts)
        request = CompletionRequest(
            system=probes.SYSTEM,
            messages=[
                LlmMessage(
                    role="user", content=[{"type": "text", "text": probes.prompt(asked, inputs.context)}]
                )
            ],
            max_tokens=MAX_ANSWER_TOKENS,
            metadata={"purpose": "probe_audit", "compaction_id": compaction_id},
        )
        try:
            message = await provider.complete(request)
            if message.stop_reason in (StopReason.ERROR, StopReason.ABORTED):
                raise ProviderError(message.error_message or f"the answer ended with {message.stop_reason}")
            answers = probes.parse(message.text, asked)
        except ProviderError as exc:
            result = probes.failed(f"the model call failed: {exc.message}", model)
        except probes.ProbeFormatError as exc:
            result = probes.failed(f"the model's answer is not in the format asked for: {exc}", model)
        else:
            graded = probes.graded(asked, answers, inputs.context)
            result = probes.summary(graded, inputs.lexical, model)
        await sync_to_async(save_probe)(compaction_id, result)
        return result
    except Exception:  # derived data: never fails what asked for it (docs/compaction.md, R5)
        log.exception("probe check of compaction %s failed", compaction_id)
        return None
