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

One run per session at a time: the loop runs a run claimed by `runs.claim_run`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.db.models import F
from django.utils import timezone

from sessions_app import conf, store
from sessions_app.compaction.budget import context_tokens, resolve_threshold, sent_tokens
from sessions_app.compaction.context import build_context
from sessions_app.compaction.messages import ASSISTANT, COMPACTION, MESSAGE, TOOL_RESULT, Entry
from sessions_app.compaction.vocabulary import AgentRole, EndReason, LiveKind
from sessions_app.llm.base import (
    AssistantMessage,
    CompletionRequest,
    ContextOverflowError,
    Provider,
    ProviderError,
    StreamEvent,
)
from sessions_app.llm.offline.estimate import estimate_request_tokens
from sessions_app.models import Agent, Node, Run, Session
from sessions_app.runtime import live
from sessions_app.runtime.agents import AgentDefinition, resolve_definition
from sessions_app.runtime.artifacts import attach_artifact
from sessions_app.runtime.compact_fork.settings import compaction_settings
from sessions_app.runtime.policy import Policy, effective_tools, load_policy
from sessions_app.runtime.runs import ClaimedRun, beat, claim_run, write_run_end
from sessions_app.runtime.tools.base import ToolContext
from sessions_app.runtime.tools.registry import canonical_name, run_tool_call, tool_specs
from sessions_app.runtime.tools.workspace import workspace_for

log = logging.getLogger(__name__)

StreamCallback = Callable[[StreamEvent], Awaitable[None] | None]
MIN_REPLY_TOKENS = 1024  # a call that leaves less room than this for the reply does not "fit"


# How a run's status follows from why it ended; any other end is a failure.
class CompactionHooks:
    """The loop's compaction seam. The compact-fork orchestrator subclasses this."""

    async def ensure_fits(self, loop: AgentLoop, tokens: int, *, overflow: bool) -> bool:
        """Called when the context does not fit (or the provider said so): return True if the
        context was compacted and should be rebuilt and retried once."""
        return False

    async def after_assistant(self, loop: AgentLoop, node: Node) -> None:
        """Called after every assistant node is stored (threshold check goes here)."""
        return None

    def halt_reason(self, loop: AgentLoop) -> str | None:
        """Why the run must stop before its next model call (the thrash guard stopped automatic
        compaction during it, docs/compaction.md G6), or None."""
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
        # Tokens of the system prompt and the tool definitions every call sends (rule T5).
        self.overhead = 0
        # The last model call: when its request went out and how long the answer took (ms),
        # kept on its assistant node.
        self._call_timing: dict[str, Any] = {}

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
            provider=self.provider.name,
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
                halt = self.hooks.halt_reason(self)
                if halt is not None:  # the thrash guard stopped (docs/compaction.md, G6)
                    return await self._finish(EndReason.COMPACTION_STOPPED, turns, last_text, halt)
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
        seconds = float(conf.get("CUTPOINT_RUN_HEARTBEAT_SECONDS"))
        if seconds <= 0:
            return
        while True:
            await asyncio.sleep(seconds)  # a timer, not synchronization
            try:
                await sync_to_async(beat, thread_sensitive=False)(run_id)
            except Exception:
                log.warning("heartbeat of run %s not written", run_id, exc_info=True)

    # --- model call -----------------------------------------------------------------------

    async def _request(self) -> CompletionRequest:
        """Build the request; if it does not fit, give the compaction seam one chance."""
        entries = await sync_to_async(self._current_entries)()
        tokens = self.request_tokens(entries)
        if tokens > self.window:
            if not await self.hooks.ensure_fits(self, tokens, overflow=False):
                raise PromptTooLong(f"context needs {tokens} tokens; the window is {self.window}")
            entries = await sync_to_async(self._current_entries)(reload=True)
            tokens = self.request_tokens(entries)
            if tokens > self.window:
                raise PromptTooLong(
                    f"context still needs {tokens} tokens after compaction; the window is {self.window}"
                )
        return self._build_request(entries)

    def sent_tokens(self, entries: list[Entry]) -> int:
        """What a request built from `entries` sends: the context with the system prompt and the
        tool definitions (docs/compaction.md, rule T5)."""
        return sent_tokens(context_tokens(entries), self.overhead)

    def request_tokens(self, entries: list[Entry]) -> int:
        """What is sent plus the least reply room a call needs: the request fits when this is
        within the window."""
        return self.sent_tokens(entries) + self.min_reply

    def current_entries(self, reload: bool = False) -> list[Entry]:
        """The path the next request is built from (sync; re-read when the active node moved)."""
        return self._current_entries(reload)

    @property
    def run_id(self) -> int | None:
        """The run this loop answers, once claimed."""
        return self._run_id

    @property
    def min_reply(self) -> int:
        return min(MIN_REPLY_TOKENS, self.provider.max_output, max(self.window // 8, 1))

    def _build_request(self, entries: list[Entry]) -> CompletionRequest:
        assert self.definition is not None
        used = self.sent_tokens(entries)
        return CompletionRequest(
            system=self._system_prompt(),
            messages=build_context(entries),
            tools=tool_specs(self.tools),
            # Never ask for more output than the window has room for.
            max_tokens=max(self.min_reply, min(self.provider.max_output, self.window - used)),
            metadata={"session_id": self.session.pk, "run_id": self.run.pk if self.run else None},
        )

    async def _call_model(self, request: CompletionRequest) -> tuple[float, AssistantMessage]:
        t0 = time.perf_counter()
        sent, sent_at = t0, timezone.now()  # the request that got the answer (per-call latency)
        try:
            message = await self.provider.complete(request, self.on_stream)
        except ContextOverflowError as exc:
            # The provider counted differently from our estimate: recover once, then give up.
            if not await self.hooks.ensure_fits(self, exc.tokens or 0, overflow=True):
                raise PromptTooLong(f"the provider reported context overflow: {exc.message}") from exc
            entries = await sync_to_async(self._current_entries)(reload=True)
            retry = self._build_request(entries)
            sent, sent_at = time.perf_counter(), timezone.now()
            try:
                message = await self.provider.complete(retry, self.on_stream)
            except ContextOverflowError as again:
                raise PromptTooLong(f"still too long after compaction: {again.message}") from again
        done = time.perf_counter()
        self._call_timing = {
            "requested_at": sent_at.isoformat(),
            "latency_ms": round((done - sent) * 1000, 1),
        }
        return done - t0, message

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
        self.overhead = estimate_request_tokens(
            CompletionRequest(system=self._system_prompt(), messages=[], tools=tool_specs(self.tools))
        )
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
            live.publish(self.session.pk, LiveKind.NODE_APPENDED, live.node_appended(node, self.head.key))
            self.head.entries.append(store.to_entry(node, self.head.key))
            self.head.node_id, self.head.key = node.pk, node.key
            return node
        raise store.ConflictError("the session's active node keeps moving; giving up")

    def append_node(self, **fields: Any) -> Node:
        """Append a node of the runtime's own under the head (sync): a context edit of the pruning
        tier (runtime/pruning.py)."""
        return self._append(**fields)

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
            data={**message.data(), "request": self._request_record(), **self._call_timing},
            usage=message.usage,
            stop_reason=message.stop_reason,
        )
        u = message.usage
        Run.objects.filter(pk=self.run.pk).update(
            model=self._answered_by(message),
            input_tokens=F("input_tokens") + u.input,
            output_tokens=F("output_tokens") + u.output,
            cache_read_tokens=F("cache_read_tokens") + u.cache_read,
            cache_write_tokens=F("cache_write_tokens") + u.cache_write,
        )
        return node

    def _answered_by(self, message: AssistantMessage) -> str:
        """The model that answered, as the run records it: what the provider reported, or the
        provider's name when it is no model (the offline one), never the profile's model name."""
        if not self.provider.writes_summaries:
            return self.provider.name
        return message.model or self.provider.model

    def _request_record(self) -> dict[str, Any]:
        """What was in force for this call, kept on its assistant node: the threshold and window
        (the session's settings may change later; charts draw them as they were), whether automatic
        compaction was on, and the agent definition whose instructions and tools were sent."""
        record: dict[str, Any] = {"window": self.window, "overhead": self.overhead}
        if self.definition is not None:
            record["definition"] = self.definition.name
        try:
            settings = compaction_settings(self.session)
        except (TypeError, ValueError):  # broken per-session settings: the call is still recorded
            return record
        record["threshold"] = resolve_threshold(self.window, settings)
        record["auto_compaction"] = settings.enabled
        return record

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
        await sync_to_async(write_run_end)(
            self.session.pk, run_id, agent_id, self.trigger, end_reason, turns, error
        )
        return RunOutcome(run_id=run_id, end_reason=end_reason, turns=turns, text=text, error=error)

    # --- helpers --------------------------------------------------------------------------

    @property
    def workspace(self) -> Path:
        return workspace_for(self.session.pk, self.session.workspace)

    def _system_prompt(self) -> str:
        assert self.definition is not None
        return self.definition.system_prompt(self.workspace)
