"""Continue a session with its agent in the background (the dashboard's "send a prompt")."""

from __future__ import annotations

from sessions_app.models import Session
from sessions_app.runtime.auto_compaction import ForkCompaction
from sessions_app.runtime.loop import AgentLoop, RunOutcome
from sessions_app.runtime.providers import provider_for
from sessions_app.runtime.spawn import spawn


async def run_prompt(session_id: int, prompt: str) -> RunOutcome:
    session = await Session.objects.aget(pk=session_id)
    hooks = ForkCompaction()
    provider = provider_for(session.model_profile or "main")
    try:
        outcome = await AgentLoop(session, provider, hooks=hooks).run_prompt(prompt)
        await hooks.drain()
    finally:
        await provider.aclose()
    return outcome


def start_prompt(session_id: int, prompt: str) -> None:
    spawn(run_prompt(session_id, prompt), name=f"cutpoint-run-{session_id}")
