"""The agent loop (docs/architecture.md, "Runtime").

build the context with the engine → check it fits → stream the model → append the assistant node
with usage and stop reason → execute tool calls → append results (large ones as artifacts) →
repeat until the model stops or a limit is hit.

Compaction plugs in through `CompactionHooks` (the seam the compact fork uses): `ensure_fits`
before every model call (recovery compaction) and `after_assistant` after every response
(threshold check → background compaction). The default hooks never compact.

The loop is async (it streams); database work runs in Django's sync thread via `sync_to_async`,
grouped so a turn costs a handful of hops. The loop keeps the active path it is writing in memory
and re-reads it only when someone else moved the session's active node (a compaction landed, an
operator switched nodes).

One run per session at a time: a run is *claimed* before it is acknowledged (`claim_run`): its
`Run` row takes the session's one agent slot (a partial unique constraint, so it holds across
server processes) and the user's message is appended, in one transaction. A second prompt while
the slot is taken is refused with `SessionBusy` and writes nothing. A claimed run keeps a
heartbeat; the sweeper fails a run whose process died (`fail_orphaned_runs`), which frees the slot.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings as django_settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone

from sessions_app import store
from sessions_app.compaction.budget import context_tokens
from sessions_app.compaction.context import build_context
from sessions_app.compaction.messages import ASSISTANT, COMPACTION, MESSAGE, TOOL_RESULT, USER, Entry
from sessions_app.compaction.vocabulary import AgentRole, EndReason, RunStatus
from sessions_app.llm.base import (
    AssistantMessage,
    CompletionRequest,
    ContextOverflowError,
    Provider,
    ProviderError,
    StreamEvent,
)
from sessions_app.models import Agent, Event, Node, Run, Session
from sessions_app.runtime import live
from sessions_app.runtime.agents import AgentDefinition, resolve_definition
from sessions_app.runtime.artifacts import attach_artifact
from sessions_app.runtime.policy import Policy, effective_tools, load_policy
from sessions_app.runtime.process import orphaned, owner_id
from sessions_app.runtime.tools.base import ToolContext
from sessions_app.runtime.tools.registry import canonical_name, run_tool_call, tool_specs
from sessions_app.runtime.tools.workspace import workspace_for

log = logging.getLogger(__name__)

StreamCallback = Callable[[StreamEvent], Awaitable[None] | None]
MIN_REPLY_TOKENS = 1024  # a call that leaves less room than this for the reply does not "fit"
RUN_HEARTBEAT_SECONDS = 30.0  # a running agent run refreshes `Run.heartbeat_at` this often
RUN_ORPHAN_AFTER = timedelta(seconds=120)  # a running run without a heartbeat this long is orphaned


# How a run's status follows from why it ended; any other end is a failure.
_RUN_STATUS: dict[str, RunStatus] = {
    EndReason.COMPLETED: RunStatus.COMPLETED,
    EndReason.MAX_TURNS: RunStatus.COMPLETED,
    EndReason.ABORTED: RunStatus.CANCELLED,
}


class CompactionHooks:
    """The loop's compaction seam. The compact-fork orchestrator subclasses this."""

    async def ensure_fits(self, loop: AgentLoop, tokens: int, *, overflow: bool) -> bool:
        """Called when the context does not fit (or the provider said so): return True if the
        context was compacted and should be rebuilt and retried once."""
        return False

    async def after_assistant(self, loop: AgentLoop, node: Node) -> None:
        """Called after every assistant node is stored (threshold check goes here)."""
        return None


@dataclass(slots=True)
class RunOutcome:
    run_id: int
    end_reason: str
    turns: int
    text: str = ""
    error: str = ""


@dataclass(slots=True)
class _Head:
    """The leaf this loop writes under, and the path down to it (from the latest first kept node)."""

    node_id: int | None
    key: str | None
    entries: list[Entry] = field(default_factory=list)


class PromptTooLong(Exception):
    """The context still does not fit after compaction."""


class SessionBusy(Exception):
    """The session already has a running agent run: a session runs one at a time. Nothing was
    written; the prompt may be sent again once that run has ended."""

    def __init__(self, session_id: int, run_id: int | None) -> None:
        self.session_id = session_id
        self.run_id = run_id
        which = f"run #{run_id}" if run_id is not None else "another run"
        super().__init__(
            f"session {session_id} is busy: {which} is still running. "
            "Wait for it to finish, then send the prompt again."
        )


@dataclass(frozen=True, slots=True)
class ClaimedRun:
    """A run that holds its session's agent slot, with the user's message already appended."""

    run_id: int
    session_id: int
    agent_id: int
    user_node_id: int
    trigger: str


def running_run_id(session_id: int) -> int | None:
    """The session's running agent run, if any (the one holding the slot)."""
    return (
        Run.objects.filter(session_id=session_id, status=RunStatus.RUNNING, exclusive=True)
        .values_list("pk", flat=True)
        .first()
    )


def claim_run(
    session: Session,
    prompt: str,
    *,
    model: str,
    definition: AgentDefinition,
    agent: Agent | None = None,
    trigger: str = "user",
) -> ClaimedRun:
    """Take the session's agent slot and append the user's message, in one transaction.

    Raises SessionBusy when another run of the session is running; then nothing is written. Once
    this returns, the prompt is recorded: the caller may acknowledge it, and must run the claimed
    run (`AgentLoop.run_claimed`), which ends it whatever happens.
    """
    now = timezone.now()
    with transaction.atomic():
        # The session row first (as every append does), so claims queue instead of deadlocking.
        active_id = (
            Session.objects.select_for_update()
            .filter(pk=session.pk)
            .values_list("active_node_id", flat=True)
            .get()
        )
        if agent is None:
            agent = _main_agent(session, definition)
        try:
            with transaction.atomic():  # a savepoint: PostgreSQL needs one to go on after the error
                run = Run.objects.create(
                    agent=agent,
                    session=session,
                    trigger=trigger,
                    model=model,
                    exclusive=True,
                    owner=owner_id(),
                    heartbeat_at=now,
                )
        except IntegrityError as exc:  # the partial unique constraint: the slot is taken
            raise SessionBusy(session.pk, running_run_id(session.pk)) from exc
        Event.objects.create(
            session=session,
            run=run,
            agent=agent,
            type="run_started",
            payload={"trigger": trigger, "prompt": prompt[:2000], "model": model},
        )
        node = store.append(
            session,
            active_id,
            kind=MESSAGE,
            role=USER,
            content=[{"type": "text", "text": prompt}],
            run_id=run.pk,
            agent_id=agent.pk,
        )
        parent_key = (
            Node.objects.filter(pk=node.parent_id).values_list("key", flat=True).first()
            if node.parent_id
            else None
        )
        # The new node refreshes the tree and the panels (the runs panel among them).
        live.publish_on_commit(session.pk, "node_appended", live.node_appended(node, parent_key))
    return ClaimedRun(run.pk, session.pk, agent.pk, node.pk, trigger)


def _main_agent(session: Session, definition: AgentDefinition) -> Agent:
    return Agent.objects.filter(session=session, parent=None, role=AgentRole.MAIN).order_by(
        "id"
    ).first() or Agent.objects.create(
        session=session,
        definition_name=definition.name,
        role=definition.role,
        mode=definition.mode,
        model_profile=definition.model_profile or "main",
    )


def end_claimed_run(claimed: ClaimedRun, error: str) -> None:
    """End a claimed run that could not be started (its provider, its session…): failed, with
    why, so it never keeps the session's slot."""
    _write_run_end(claimed.session_id, claimed.run_id, claimed.agent_id, claimed.trigger, "error", 0, error)


def _write_run_end(
    session_id: int, run_id: int, agent_id: int | None, trigger: str, end_reason: str, turns: int, error: str
) -> None:
    status = _RUN_STATUS.get(end_reason, RunStatus.FAILED)
    with transaction.atomic():
        Run.objects.filter(pk=run_id).update(
            status=status, end_reason=end_reason, error=error, ended_at=timezone.now()
        )
        Event.objects.create(
            session_id=session_id,
            run_id=run_id,
            agent_id=agent_id,
            type="run_ended",
            payload={"end_reason": end_reason, "turns": turns, "error": error},
        )
        # Open pages refresh their runs panel (and the run's own page).
        live.publish_on_commit(
            session_id,
            "run",
            {"run_id": run_id, "status": status, "end_reason": end_reason, "trigger": trigger},
        )


@dataclass(frozen=True, slots=True)
class OrphanedRun:
    run_id: int
    session_id: int
    owner: str
    error: str


def fail_orphaned_runs(*, older_than: timedelta = RUN_ORPHAN_AFTER) -> list[OrphanedRun]:
    """Fail the running agent runs whose process died (or whose heartbeat is older than
    `older_than`), so their sessions take prompts again. Compare-and-set on `running`: a run that
    ended meanwhile is left as it ended."""
    cutoff = timezone.now() - older_than
    failed: list[OrphanedRun] = []
    rows = Run.objects.filter(status=RunStatus.RUNNING, exclusive=True).values_list(
        "pk", "session_id", "agent_id", "trigger", "owner", "heartbeat_at", "started_at"
    )
    for run_id, session_id, agent_id, trigger, owner, heartbeat, started in rows:
        if not orphaned(owner, heartbeat or started, cutoff):
            continue
        error = f"owner {owner or '(unknown)'} stopped while the run was running"
        with transaction.atomic():
            ended = Run.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(
                status=RunStatus.FAILED, end_reason=EndReason.ERROR, error=error, ended_at=timezone.now()
            )
            if not ended:
                continue
            Event.objects.create(
                session_id=session_id,
                run_id=run_id,
                agent_id=agent_id,
                type="run_ended",
                payload={"end_reason": EndReason.ERROR, "turns": None, "error": error, "orphaned": True},
            )
            live.publish_on_commit(
                session_id,
                "run",
                {
                    "run_id": run_id,
                    "status": RunStatus.FAILED,
                    "end_reason": EndReason.ERROR,
                    "trigger": trigger,
                },
            )
        failed.append(OrphanedRun(run_id, session_id, owner, error))
    return failed


def _beat(run_id: int) -> None:
    """One heartbeat, on a worker thread of its own (the sync thread may be busy with a tool)."""
    try:
        Run.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(heartbeat_at=timezone.now())
    finally:
        connection.close()  # this worker thread's connection: never left open


class AgentLoop:
    """Runs one user turn (and the tool turns it leads to) for an agent of a session."""

    def __init__(
        self,
        session: Session,
        provider: Provider,
        *,
        agent: Agent | None = None,
        definition_name: str = "default",
        trigger: str = "user",
        max_turns: int = 50,
        on_stream: StreamCallback | None = None,
        hooks: CompactionHooks | None = None,
        window: int | None = None,
    ) -> None:
        self.session = session
        self.provider = provider
        self.agent = agent
        self.definition_name = agent.definition_name if agent else definition_name
        self.trigger = trigger
        self.max_turns = max_turns
        self.on_stream = on_stream
        self.hooks = hooks or CompactionHooks()
        self.window = window or session.context_window or provider.context_window
        self.run: Run | None = None
        self._run_id: int | None = None
        self.definition: AgentDefinition | None = None
        self.policy: Policy | None = None
        self.tools: tuple[str, ...] = ()
        self.head = _Head(None, None)
        self.abort = asyncio.Event()
        self.turn_overhead_s: list[float] = []  # per turn: wall time minus provider time

    # --- public ---------------------------------------------------------------------------

    async def run_prompt(self, prompt: str) -> RunOutcome:
        """Claim the session (raises SessionBusy when another run holds it), then run."""
        return await self.run_claimed(await sync_to_async(self.claim)(prompt))

    def claim(self, prompt: str) -> ClaimedRun:
        """Take the session's agent slot for `prompt` (sync; see `claim_run`)."""
        definition = self._definition()
        return claim_run(
            self.session,
            prompt,
            model=self.provider.model,
            definition=definition,
            agent=self.agent,
            trigger=self.trigger,
        )

    async def run_claimed(self, claimed: ClaimedRun) -> RunOutcome:
        """Answer a claimed run's prompt; the run always ends (completed, failed, cancelled)."""
        self.trigger = claimed.trigger
        self._run_id = claimed.run_id
        turns = 0
        last_text = ""
        heartbeat = asyncio.create_task(
            self._heartbeat(claimed.run_id), name=f"cutpoint-run-{claimed.run_id}-beat"
        )
        try:
            await sync_to_async(self._attach)(claimed)
            while True:
                if self.abort.is_set():
                    return await self._finish("aborted", turns, last_text)
                if turns >= self.max_turns:
                    return await self._finish(EndReason.MAX_TURNS, turns, last_text)
                t0 = time.perf_counter()
                request = await self._request()
                provider_s, message = await self._call_model(request)
                turns += 1
                node = await sync_to_async(self._record_assistant)(message)
                last_text = message.text or last_text
                await self.hooks.after_assistant(self, node)
                calls = message.tool_calls
                if calls:
                    await sync_to_async(self._run_tools)(calls)
                self.turn_overhead_s.append(time.perf_counter() - t0 - provider_s)
                if message.stop_reason in ("error", "aborted"):
                    return await self._finish("error", turns, last_text, message.error_message or "")
                if not calls:
                    return await self._finish(EndReason.COMPLETED, turns, last_text)
        except PromptTooLong as exc:
            return await self._finish(EndReason.PROMPT_TOO_LONG, turns, last_text, str(exc))
        except ProviderError as exc:
            return await self._finish("error", turns, last_text, f"{type(exc).__name__}: {exc.message}")
        except asyncio.CancelledError:
            await self._finish(EndReason.ABORTED, turns, last_text, "cancelled")
            raise
        except Exception as exc:
            log.exception("agent run %s failed", claimed.run_id)
            return await self._finish("error", turns, last_text, f"{type(exc).__name__}: {exc}")
        finally:
            heartbeat.cancel()

    async def _heartbeat(self, run_id: int) -> None:
        seconds = float(getattr(django_settings, "CUTPOINT_RUN_HEARTBEAT_SECONDS", RUN_HEARTBEAT_SECONDS))
        if seconds <= 0:
            return
        while True:
            await asyncio.sleep(seconds)  # a timer, not synchronization
            try:
                await sync_to_async(_beat, thread_sensitive=False)(run_id)
            except Exception:
                log.warning("heartbeat of run %s not written", run_id, exc_info=True)

    # --- model call -----------------------------------------------------------------------

    async def _request(self) -> CompletionRequest:
        """Build the request; if it does not fit, give the compaction seam one chance."""
        entries = await sync_to_async(self._current_entries)()
        tokens = self._tokens(entries)
        if tokens > self.window:
            if not await self.hooks.ensure_fits(self, tokens, overflow=False):
                raise PromptTooLong(f"context needs {tokens} tokens; the window is {self.window}")
            entries = await sync_to_async(self._current_entries)(reload=True)
            tokens = self._tokens(entries)
            if tokens > self.window:
                raise PromptTooLong(
                    f"context still needs {tokens} tokens after compaction; the window is {self.window}"
                )
        return self._build_request(entries)

    def _tokens(self, entries: list[Entry]) -> int:
        """Context tokens plus the least reply room a call needs: the request fits when this is
        within the window."""
        return context_tokens(entries).tokens + self._min_reply

    @property
    def _min_reply(self) -> int:
        return min(MIN_REPLY_TOKENS, self.provider.max_output, max(self.window // 8, 1))

    def _build_request(self, entries: list[Entry]) -> CompletionRequest:
        assert self.definition is not None
        used = context_tokens(entries).tokens
        return CompletionRequest(
            system=self._system_prompt(),
            messages=build_context(entries),
            tools=tool_specs(self.tools),
            # Never ask for more output than the window has room for.
            max_tokens=max(self._min_reply, min(self.provider.max_output, self.window - used)),
            metadata={"session_id": self.session.pk, "run_id": self.run.pk if self.run else None},
        )

    async def _call_model(self, request: CompletionRequest) -> tuple[float, AssistantMessage]:
        t0 = time.perf_counter()
        try:
            message = await self.provider.complete(request, self.on_stream)
        except ContextOverflowError as exc:
            # The provider counted differently from our estimate: recover once, then give up.
            if not await self.hooks.ensure_fits(self, exc.tokens or 0, overflow=True):
                raise PromptTooLong(f"the provider reported context overflow: {exc.message}") from exc
            entries = await sync_to_async(self._current_entries)(reload=True)
            try:
                message = await self.provider.complete(self._build_request(entries), self.on_stream)
            except ContextOverflowError as again:
                raise PromptTooLong(f"still too long after compaction: {again.message}") from again
        return time.perf_counter() - t0, message

    # --- database work (sync thread) ------------------------------------------------------

    @property
    def agent_role(self) -> str:
        return self.agent.role if self.agent else AgentRole.MAIN

    def _definition(self) -> AgentDefinition:
        if self.definition is None:
            self.definition = resolve_definition(
                self.definition_name, project_dir=self.workspace, session_id=self.session.pk
            )
        return self.definition

    def _attach(self, claimed: ClaimedRun) -> None:
        """Take up a claimed run: its agent, definition, tools, and the path down to the user's
        message (which `claim_run` appended)."""
        self.run = Run.objects.select_related("agent").get(pk=claimed.run_id)
        self.agent = self.run.agent
        definition = self._definition()
        self.policy = load_policy(definition.permission_rules)
        mode = self.agent.mode or definition.mode
        self.tools = effective_tools(definition.tools, self.agent.role, mode, self.policy)
        self.session.refresh_from_db(fields=["active_node", "next_seq", "context_window"])
        self._load_head(claimed.user_node_id)

    def _load_head(self, leaf_id: int | None = None) -> None:
        leaf = leaf_id if leaf_id is not None else self.session.active_node_id
        entries = store.context_path_entries(self.session, leaf) if leaf is not None else []
        self.head = _Head(leaf, entries[-1].key if entries else None, entries)

    def _current_entries(self, reload: bool = False) -> list[Entry]:
        """The path to build the context from; re-read only if the active node moved under us."""
        active = Session.objects.filter(pk=self.session.pk).values_list("active_node_id", flat=True).get()
        if reload or active != self.head.node_id:
            self.session.active_node_id = active
            self._load_head()
        return self.head.entries

    def _append(self, **fields: Any) -> Node:
        """Append under our head. If a compaction landed on top of it meanwhile, continue below
        the compaction; if the active node moved anywhere else, the run cannot continue."""
        for _ in range(3):
            try:
                node = store.append(
                    self.session,
                    self.head.key,
                    run_id=self.run.pk if self.run else None,
                    agent_id=self.agent.pk if self.agent else None,
                    **fields,
                )
            except store.ConflictError:
                if not self._follow_compaction():
                    raise
                continue
            live.publish(self.session.pk, "node_appended", live.node_appended(node, self.head.key))
            self.head.entries.append(store.to_entry(node, self.head.key))
            self.head.node_id, self.head.key = node.pk, node.key
            return node
        raise store.ConflictError("the session's active node keeps moving; giving up")

    def _follow_compaction(self) -> bool:
        active_id = Session.objects.filter(pk=self.session.pk).values_list("active_node_id", flat=True).get()
        node = Node.objects.filter(pk=active_id).values_list("kind", "parent_id").first()
        if node is None or node[0] != COMPACTION or node[1] != self.head.node_id:
            return False
        self.session.active_node_id = active_id
        self._load_head()
        return True

    def _record_assistant(self, message: AssistantMessage) -> Node:
        assert self.run is not None
        node = self._append(
            kind=MESSAGE,
            role=ASSISTANT,
            content=message.content,
            data=message.data(),
            usage=message.usage,
            stop_reason=message.stop_reason,
        )
        u = message.usage
        Run.objects.filter(pk=self.run.pk).update(
            input_tokens=F("input_tokens") + u.input,
            output_tokens=F("output_tokens") + u.output,
            cache_read_tokens=F("cache_read_tokens") + u.cache_read,
            cache_write_tokens=F("cache_write_tokens") + u.cache_write,
        )
        return node

    def _run_tools(self, calls: list[dict[str, Any]]) -> None:
        assert self.run is not None and self.agent is not None and self.policy is not None
        ctx = ToolContext(
            session_id=self.session.pk,
            agent_id=self.agent.pk,
            run_id=self.run.pk,
            workspace=self.workspace,
            role=self.agent.role,
            project_dir=self.workspace,
            spawn_agent=self._spawn_agent,
        )
        for call in calls:
            self._run_tool(call, ctx)

    def _run_tool(self, call: dict[str, Any], ctx: ToolContext) -> None:
        assert self.policy is not None
        name = canonical_name(str(call.get("name", "")))
        # Policy check → tool → large output to an artifact; never raises for model mistakes.
        result = run_tool_call(name, call.get("arguments") or {}, ctx, self.tools, self.policy)
        node = self._append(
            kind=MESSAGE,
            role=TOOL_RESULT,
            content=result.content,
            data=result.node_data(str(call.get("id", "")), name),
        )
        if result.artifact_id is not None:
            attach_artifact(result.artifact_id, node.pk)

    def _spawn_agent(self, definition_name: str, prompt: str) -> str:
        """`agent.fork_agent`: run a sub-agent in its own session branch-free transcript.

        The child gets its own session (its nodes never enter this context); its agent row is a
        child of ours so the dashboard shows the hierarchy. async_to_sync runs the child on the
        outer event loop and routes its database calls back to this (blocked) sync thread, so
        nested agents cannot deadlock on asgiref's single sync thread.
        """
        assert self.agent is not None
        child_def = resolve_definition(
            definition_name, project_dir=self.workspace, session_id=self.session.pk
        )
        child_session = Session.objects.create(
            title=f"{self.session.title or self.session.pk} › {child_def.name}",
            workspace=str(self.workspace),
            metadata={"parent_session": self.session.pk, "parent_agent": self.agent.pk},
        )
        child = Agent.objects.create(
            session=child_session,
            parent=self.agent,
            definition_name=child_def.name,
            role=child_def.role if child_def.role != AgentRole.MAIN else AgentRole.SUB,
            mode=child_def.mode,
            model_profile=child_def.model_profile or "main",
        )
        sub = AgentLoop(child_session, self.provider, agent=child, trigger="user", max_turns=self.max_turns)
        outcome = async_to_sync(sub.run_prompt)(prompt)
        return (
            f"[sub-agent {child_def.name}, session {child_session.pk}: {outcome.end_reason}]\n{outcome.text}"
        )

    async def _finish(self, end_reason: str, turns: int, text: str, error: str = "") -> RunOutcome:
        run_id = self._run_id
        assert run_id is not None
        agent_id = self.agent.pk if self.agent else None
        await sync_to_async(_write_run_end)(
            self.session.pk, run_id, agent_id, self.trigger, end_reason, turns, error
        )
        return RunOutcome(run_id=run_id, end_reason=end_reason, turns=turns, text=text, error=error)

    # --- helpers --------------------------------------------------------------------------

    @property
    def workspace(self) -> Path:
        return workspace_for(self.session.pk, self.session.workspace)

    def _system_prompt(self) -> str:
        assert self.definition is not None
        return (
            f"{self.definition.instructions.strip()}\n\n"
            f"Your workspace directory is {self.workspace}. File tools take paths relative to it."
        )
