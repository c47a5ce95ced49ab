"""Continue a session with its agent in the background (the dashboard's "send a prompt").

`start_prompt` claims the session before it returns (sessions_app.runtime.runs.claim_run): the
run takes the session's one agent slot and the user's message is appended, or `SessionBusy` is
raised and nothing is written. Only then does the caller acknowledge the prompt, so an
acknowledged prompt is always recorded and always answered by the run started here.
"""

from __future__ import annotations

import logging

from asgiref.sync import sync_to_async

from sessions_app.models import Session
from sessions_app.runtime.agents import resolve_definition
from sessions_app.runtime.auto_compaction import ForkCompaction
from sessions_app.runtime.loop import AgentLoop, RunOutcome
from sessions_app.runtime.providers import profile, provider_for
from sessions_app.runtime.runs import ClaimedRun, claim_run, end_claimed_run
from sessions_app.runtime.spawn import spawn
from sessions_app.runtime.tools.workspace import workspace_for

log = logging.getLogger(__name__)

DEFINITION = "default"  # what the dashboard's prompt runs when the session has no main agent yet


def claim_prompt(session: Session, prompt: str) -> ClaimedRun:
    """Claim the session for `prompt` (raises SessionBusy); sync, for a view or a command."""
    definition = resolve_definition(
        DEFINITION, project_dir=workspace_for(session.pk, session.workspace), session_id=session.pk
    )
    model = provider = ""  # without a profile the run fails with the reason once it starts
    try:
        chosen = profile(session.model_profile or "main")
        model, provider = chosen.model, chosen.provider
    except LookupError:
        pass
    return claim_run(session, prompt, model=model, definition=definition, provider=provider)


async def run_claimed(claimed: ClaimedRun) -> RunOutcome:
    """Answer a claimed prompt with the session's agent; the run ends whatever happens."""
    try:
        session = await Session.objects.aget(pk=claimed.session_id)
        provider = provider_for(session.model_profile or "main")
    except Exception as exc:
        await sync_to_async(end_claimed_run)(claimed, f"the run could not start: {type(exc).__name__}: {exc}")
        raise
    hooks = ForkCompaction()
    try:
        outcome = await AgentLoop(session, provider, hooks=hooks).run_claimed(claimed)
        await hooks.drain()
    finally:
        await provider.aclose()
    return outcome


async def run_prompt(session_id: int, prompt: str) -> RunOutcome:
    """Claim and answer `prompt` now (raises SessionBusy)."""
    session = await Session.objects.aget(pk=session_id)
    claimed = await sync_to_async(claim_prompt)(session, prompt)
    return await run_claimed(claimed)


def start_prompt(session_id: int, prompt: str) -> ClaimedRun:
    """Claim the session for `prompt` now and answer it in the background. Raises SessionBusy
    (nothing written) when another run of the session is running."""
    session = Session.objects.get(pk=session_id)
    claimed = claim_prompt(session, prompt)
    spawn(run_claimed(claimed), name=f"cutpoint-run-{claimed.run_id}")
    return claimed
