"""Stored session nodes → a plain description of OpenTelemetry GenAI spans (docs/telemetry.md,
"What is exported").

Pure: no Django, no SDK. The store side (`sessions_app/exporters/otlp.py`) hands in the nodes in
store order with their run, the runs and the compactions (`stored.py`); the result is span
descriptions (`spans.py`, with the derived ids and times), which `sdk.py` replays through the
official SDK, for a file or a live collector.

Traces:

- one trace per run: an `invoke_agent {agent}` root, a `chat {model}` span per assistant node, an
  `execute_tool {tool}` span per tool result, and a `compact_context` span per compaction node
  (compactions belong to the hidden compact fork's run, so they get a trace of their own);
- nodes of no run (imported sessions, nodes appended without the runtime) are grouped into
  synthetic per-turn traces: a turn starts at an input node (a user message, or any node no model
  call produced) that does not directly continue the previous input node, and takes the output
  nodes (assistant, tool result, compaction) that follow it in store order.

Every node is carried by exactly one span (`cutpoint.node.keys`, a chain whose first element hangs
under `cutpoint.node.parent`), so a reader can rebuild the tree: output nodes by their own span,
a turn's leading input nodes by its root span, input nodes in the middle of a run by a
`cutpoint.nodes` span.

A chat span's input, the context the model received for that call, is built incrementally as the
nodes are read (`contexts.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from sessions_app.compaction.messages import ASSISTANT, COMPACTION, MESSAGE, TOOL_RESULT, Entry, Usage
from sessions_app.compaction.vocabulary import EXTRACTIVE_SUMMARIZER, StopReason

from . import parts, schema
from .contexts import Contexts
from .spans import AttrValue, SpanKind, SpanSpec, TraceSpec, span_id, to_ns, trace_id
from .stored import CompactionInfo, RunInfo, SessionInfo, StoredNode

_ERROR_STOPS: Final = frozenset({StopReason.ERROR.value, StopReason.ABORTED.value})
TOOL_ERROR: Final = "tool_error"  # error.type of a tool call that returned an error


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()


# --- grouping --------------------------------------------------------------------------------

_OUTPUT_ROLES: Final = frozenset({ASSISTANT, TOOL_RESULT})


def is_output(e: Entry) -> bool:
    """Nodes a GenAI operation produced (a model call, a tool, a compaction); the rest is input."""
    return e.kind == COMPACTION or (e.kind == MESSAGE and e.role in _OUTPUT_ROLES)


def node_kind(e: Entry) -> str:
    return f"{e.kind}/{e.role}" if e.role else e.kind


@dataclass(slots=True)
class _Group:
    order: int
    run: RunInfo | None
    nodes: list[Entry] = field(default_factory=list)


# --- the writer ------------------------------------------------------------------------------


class SpanWriter:
    """Turns one session's nodes into traces. Feed every node (parents first), then call `traces`."""

    def __init__(
        self,
        session: SessionInfo,
        runs: Mapping[int, RunInfo],
        compactions: Mapping[str, CompactionInfo],
        *,
        capture_content: bool,
        system_instructions: Callable[[Entry, RunInfo | None], str | None] | None = None,
    ) -> None:
        self.session = session
        self.runs = runs
        self.compactions = compactions
        self.capture = capture_content
        self.system_instructions = system_instructions
        self.contexts = Contexts()
        self.groups: dict[tuple[str, object], _Group] = {}
        self._last: _Group | None = None  # the group of the previous emitted node
        self._timestamps: dict[str, int | None] = {}
        # Tool calls by the assistant node that made them (call ids repeat between runs of some
        # providers, so a result is matched within its own assistant node), and tool results.
        self._calls: dict[str, dict[str, dict[str, Any]]] = {}
        self._results: set[str] = set()
        self._message_json: dict[str, str] = {}

    def feed(self, nodes: Iterable[StoredNode]) -> None:
        for node in nodes:
            self.add(node)

    def add(self, node: StoredNode) -> None:
        e = node.entry
        self.contexts.add(e)
        self._timestamps[e.key] = to_ns(e.timestamp)
        if e.kind == MESSAGE and e.role == ASSISTANT:
            calls = {
                str(b.get("id", "")): b.get("arguments") or {}
                for b in e.content
                if b.get("type") == "tool_call"
            }
            if calls:
                self._calls[e.key] = calls
        elif e.kind == MESSAGE and e.role == TOOL_RESULT:
            self._results.add(e.key)
        if not node.emit:
            return
        self._group_for(e, node.run_id).nodes.append(e)

    def _group_for(self, e: Entry, run_id: int | None) -> _Group:
        if run_id is not None:
            group = self.groups.get(("run", run_id))
            if group is None:
                group = self.groups[("run", run_id)] = _Group(len(self.groups), self.runs.get(run_id))
            self._last = group
            return group
        last = self._last
        if last is not None and last.run is None and last.nodes:
            prev = last.nodes[-1]
            # A turn takes the outputs after it, and the inputs that directly continue its inputs.
            if is_output(e) or (not is_output(prev) and e.parent == prev.key):
                return last
        group = self.groups[("turn", e.key)] = _Group(len(self.groups), None)
        self._last = group
        return group

    def traces(self, *, runs_without_nodes: Iterable[int] = ()) -> Iterator[TraceSpec]:
        """The traces in store order of their first node, then the runs that wrote no node."""
        groups = sorted(self.groups.values(), key=lambda g: g.order)
        for extra in sorted(runs_without_nodes):
            if ("run", extra) not in self.groups and extra in self.runs:
                groups.append(_Group(len(groups), self.runs[extra]))
        for group in groups:
            yield self._trace(group)

    # --- one trace ---------------------------------------------------------------------------

    def _trace(self, group: _Group) -> TraceSpec:
        seed = self.session.seed
        run = group.run
        if run is not None:
            tid = trace_id(seed, "run", run.id)
            root_id = span_id(seed, "run", run.id)
        else:
            tid = trace_id(seed, "turn", group.nodes[0].key)
            root_id = span_id(seed, "turn", group.nodes[0].key)
        children: list[SpanSpec] = []
        leading: list[Entry] = []  # the input nodes the trace starts with: carried by its root
        chain: list[Entry] = []  # input nodes after that: carried by a `cutpoint.nodes` span
        previous_ns: int | None = to_ns(run.started) if run else None

        def flush_chain() -> None:
            if chain:
                children.append(self._nodes_span(tid, root_id, list(chain)))
                chain.clear()

        for e in group.nodes:
            if not is_output(e):
                if not children and not chain and (not leading or leading[-1].key == e.parent):
                    leading.append(e)
                else:
                    if chain and chain[-1].key != e.parent:
                        flush_chain()
                    chain.append(e)
                previous_ns = self._timestamps.get(e.key) or previous_ns
                continue
            flush_chain()
            if e.kind == COMPACTION:
                span = self._compaction_span(tid, root_id, e, run, previous_ns)
            elif e.role == ASSISTANT:
                span = self._chat_span(tid, root_id, e, run, previous_ns)
            else:
                span = self._tool_span(tid, root_id, e, previous_ns)
            children.append(span)
            previous_ns = span.end_ns
        flush_chain()
        root = self._root_span(tid, root_id, group, leading, children)
        return TraceSpec(tid, [root, *children])

    def _common(self, run: RunInfo | None) -> dict[str, AttrValue]:
        attrs: dict[str, AttrValue] = {schema.CONVERSATION_ID: str(self.session.id)}
        if run is not None:
            attrs[schema.AGENT_NAME] = run.agent_name
            if run.agent_id is not None:
                attrs[schema.AGENT_ID] = str(run.agent_id)
        else:  # an imported turn: the agent that recorded it
            attrs[schema.AGENT_NAME] = self.session.source
        return attrs

    def _node_attrs(self, nodes: Sequence[Entry], attrs: dict[str, AttrValue]) -> None:
        attrs[schema.NODE_KEYS] = [e.key for e in nodes]
        if nodes[0].parent:
            attrs[schema.NODE_PARENT] = nodes[0].parent
        attrs[schema.NODE_KINDS] = [node_kind(e) for e in nodes]
        attrs[schema.NODE_TIMESTAMPS] = [e.timestamp or "" for e in nodes]

    def _input_attrs(self, nodes: Sequence[Entry], attrs: dict[str, AttrValue]) -> None:
        """Leading or mid-run input nodes: keys, and with content their messages and data."""
        self._node_attrs(nodes, attrs)
        if self.capture:
            attrs[schema.NODE_DATA] = _json([e.data for e in nodes])
            keys = [e.key for e in nodes if e.key in self.contexts.messages]
            if keys:
                attrs[schema.INPUT_MESSAGES] = self._messages_json(keys)

    def _root_span(
        self, tid: int, sid: int, group: _Group, leading: list[Entry], children: list[SpanSpec]
    ) -> SpanSpec:
        run = group.run
        attrs: dict[str, AttrValue] = {schema.OPERATION_NAME: schema.INVOKE_AGENT}
        attrs.update(self._common(run))
        attrs[schema.SESSION_SOURCE] = self.session.source
        if self.capture and self.session.title:
            attrs[schema.SESSION_TITLE] = self.session.title
        chats = [s for s in children if s.attributes.get(schema.OPERATION_NAME) == schema.CHAT]
        named = (c.attributes[schema.PROVIDER_NAME] for c in chats if schema.PROVIDER_NAME in c.attributes)
        provider = next(named, None)
        if provider is not None:
            attrs[schema.PROVIDER_NAME] = provider
        error: str | None = None
        if run is not None:
            name = run.agent_name
            attrs[schema.AGENT_ROLE] = run.agent_role
            attrs[schema.RUN_ID] = run.id
            attrs[schema.RUN_TRIGGER] = run.trigger
            attrs[schema.RUN_STATUS] = run.status
            if run.end_reason:
                attrs[schema.RUN_END_REASON] = run.end_reason
            if run.model and run.model != EXTRACTIVE_SUMMARIZER:
                attrs[schema.REQUEST_MODEL] = run.model
            _usage_attrs(run.usage, attrs)
            if run.status not in ("running", "completed"):
                error = run.error or run.end_reason or run.status
                attrs[schema.ERROR_TYPE] = run.end_reason or run.status
        else:
            name = self.session.source
            usages = [e.usage for e in group.nodes if e.role == ASSISTANT and e.usage is not None]
            if usages:
                _usage_attrs(_sum(usages), attrs)
        if leading:
            self._input_attrs(leading, attrs)
        times = [self._timestamps.get(e.key) for e in leading]
        starts = [t for t in [to_ns(run.started) if run else None, *times] if t is not None]
        starts += [s.start_ns for s in children]
        ends = [t for t in [to_ns(run.ended) if run else None, *times] if t is not None]
        ends += [s.end_ns for s in children]
        start = min(starts) if starts else 0
        end = max(ends) if ends else start
        span_name = f"{schema.INVOKE_AGENT} {name}" if name else schema.INVOKE_AGENT
        return SpanSpec(tid, sid, None, span_name, SpanKind.INTERNAL, start, end, attrs, error)

    def _nodes_span(self, tid: int, root: int, nodes: list[Entry]) -> SpanSpec:
        attrs: dict[str, AttrValue] = {schema.CONVERSATION_ID: str(self.session.id)}
        self._input_attrs(nodes, attrs)
        times = [t for t in (self._timestamps.get(e.key) for e in nodes) if t is not None]
        start = min(times) if times else 0
        sid = span_id(self.session.seed, "node", nodes[0].key)
        end = max(times, default=start)
        return SpanSpec(tid, sid, root, schema.NODES_SPAN_NAME, SpanKind.INTERNAL, start, end, attrs)

    def _times(self, e: Entry, start: int | None, previous: int | None) -> tuple[int, int]:
        end = self._timestamps.get(e.key)
        if end is None:
            end = previous or start or 0
        if start is None or start > end:
            start = previous if previous is not None and previous <= end else end
        return start, end

    def _chat_span(
        self, tid: int, root: int, e: Entry, run: RunInfo | None, previous: int | None
    ) -> SpanSpec:
        data = e.data
        model = str(data.get("model") or (run.model if run else "") or "")
        attrs: dict[str, AttrValue] = {schema.OPERATION_NAME: schema.CHAT}
        attrs.update(self._common(run))
        if data.get("provider"):
            attrs[schema.PROVIDER_NAME] = str(data["provider"])
        if model:
            attrs[schema.REQUEST_MODEL] = model
            if data.get("model"):
                attrs[schema.RESPONSE_MODEL] = str(data["model"])
        if e.stop_reason:
            attrs[schema.RESPONSE_FINISH_REASONS] = [e.stop_reason]
        if e.usage is not None:
            _usage_attrs(e.usage, attrs)
        self._node_attrs([e], attrs)
        if e.parent and self.contexts.compacted.get(e.parent):
            attrs[schema.CONVERSATION_COMPACTED] = True
        if self.capture:
            attrs[schema.INPUT_MESSAGES] = self._messages_json(self.contexts.keys_before(e.parent))
            attrs[schema.OUTPUT_MESSAGES] = _json([parts.output_message(e.content, e.stop_reason)])
            if self.system_instructions is not None:
                system = self.system_instructions(e, run)
                if system:
                    attrs[schema.SYSTEM_INSTRUCTIONS] = _json([{"type": schema.PART_TEXT, "content": system}])
        error: str | None = None
        if e.stop_reason in _ERROR_STOPS:
            attrs[schema.ERROR_TYPE] = e.stop_reason
            error = str(data.get("error_message") or e.stop_reason)
        requested = data.get("requested_at")
        start, end = self._times(e, to_ns(requested) if isinstance(requested, str) else None, previous)
        name = f"{schema.CHAT} {model}" if model else schema.CHAT
        sid = span_id(self.session.seed, "node", e.key)
        return SpanSpec(tid, sid, root, name, SpanKind.CLIENT, start, end, attrs, error)

    def _tool_span(self, tid: int, root: int, e: Entry, previous: int | None) -> SpanSpec:
        data = e.data
        tool = str(data.get("tool_name") or "")
        call_id = str(data.get("tool_call_id") or "")
        attrs: dict[str, AttrValue] = {
            schema.OPERATION_NAME: schema.EXECUTE_TOOL,
            schema.CONVERSATION_ID: str(self.session.id),
            schema.TOOL_TYPE: "function",
        }
        if tool:
            attrs[schema.TOOL_NAME] = tool
        if call_id:
            attrs[schema.TOOL_CALL_ID] = call_id
        self._node_attrs([e], attrs)
        issuer = self._issuer(e)
        arguments = self._calls.get(issuer, {}).get(call_id) if issuer else None
        if self.capture and arguments is not None:
            attrs[schema.TOOL_CALL_ARGUMENTS] = _json(arguments)
        if self.capture:
            attrs[schema.TOOL_CALL_RESULT] = _json(parts.tool_response(e.content))
        error: str | None = None
        if data.get("is_error"):
            attrs[schema.ERROR_TYPE] = TOOL_ERROR
            error = _text(e.content) if self.capture else f"{tool or 'the tool'} returned an error"
        issued = self._timestamps.get(issuer) if issuer else None
        start, end = self._times(e, issued, previous)
        name = f"{schema.EXECUTE_TOOL} {tool}" if tool else schema.EXECUTE_TOOL
        sid = span_id(self.session.seed, "node", e.key)
        return SpanSpec(tid, sid, root, name, SpanKind.INTERNAL, start, end, attrs, error)

    def _issuer(self, e: Entry) -> str | None:
        """The assistant node whose call a tool result answers: the nearest one above it (results
        of one response hang under it one after another)."""
        key = e.parent
        parents = self.contexts.parent
        while key and key in self._results:
            key = parents.get(key)
        return key if key and key in self._calls else None

    def _compaction_span(
        self, tid: int, root: int, e: Entry, run: RunInfo | None, previous: int | None
    ) -> SpanSpec:
        info = self.compactions.get(e.key)
        data = e.data
        attrs: dict[str, AttrValue] = {schema.OPERATION_NAME: schema.COMPACT_OPERATION}
        attrs.update(self._common(run))
        attrs[schema.COMPACTION_NODE] = e.key
        first_kept = info.first_kept if info else str(data.get("first_kept") or "")
        if first_kept:
            attrs[schema.COMPACTION_FIRST_KEPT_NODE] = first_kept
        tokens_before = info.tokens_before if info else data.get("tokens_before")
        if isinstance(tokens_before, int):
            attrs[schema.COMPACTION_TOKENS_BEFORE] = tokens_before
        from_hook = info.from_hook if info else bool(data.get("from_hook"))
        attrs[schema.COMPACTION_FROM_HOOK] = from_hook
        if info is not None:
            if info.tokens_after is not None:
                attrs[schema.COMPACTION_TOKENS_AFTER] = info.tokens_after
            attrs[schema.COMPACTION_REASON] = info.reason
            if info.trigger:
                attrs[schema.COMPACTION_TRIGGER] = info.trigger
            if info.summarizer:
                attrs[schema.COMPACTION_SUMMARIZER] = info.summarizer
            if info.retention is not None:
                attrs[schema.COMPACTION_RETENTION] = info.retention
            if info.facts_total is not None:
                attrs[schema.COMPACTION_FACTS_KEPT] = info.facts_kept or 0
                attrs[schema.COMPACTION_FACTS_TOTAL] = info.facts_total
        if run is not None:
            # The fork's model calls wrote no node: its run's usage is the compaction's cost.
            if run.model and run.model != EXTRACTIVE_SUMMARIZER:
                attrs[schema.REQUEST_MODEL] = run.model
            _usage_attrs(run.usage, attrs)
        self._node_attrs([e], attrs)
        if self.capture:
            attrs[schema.COMPACTION_SUMMARY] = info.summary if info else str(data.get("summary") or "")
            details = info.details if info else data.get("details")
            if details:
                attrs[schema.COMPACTION_DETAILS] = _json(details)
        start, end = self._times(e, to_ns(run.started) if run else None, previous)
        sid = span_id(self.session.seed, "node", e.key)
        return SpanSpec(tid, sid, root, schema.COMPACT_OPERATION, SpanKind.INTERNAL, start, end, attrs)

    def _messages_json(self, keys: Sequence[str]) -> str:
        """A JSON array of the messages of `keys`; each message is serialized once per export."""
        cache = self._message_json
        out: list[str] = []
        for key in keys:
            text = cache.get(key)
            if text is None:
                text = cache[key] = _json(parts.input_message(self.contexts.messages[key]))
            out.append(text)
        return "[" + ",".join(out) + "]"


def _usage_attrs(usage: Usage, attrs: dict[str, AttrValue]) -> None:
    # The conventions' input count includes cached tokens; ours (Anthropic's, pi's) does not.
    attrs[schema.USAGE_INPUT_TOKENS] = usage.input + usage.cache_read + usage.cache_write
    attrs[schema.USAGE_OUTPUT_TOKENS] = usage.output
    attrs[schema.USAGE_CACHE_READ_INPUT_TOKENS] = usage.cache_read
    attrs[schema.USAGE_CACHE_CREATION_INPUT_TOKENS] = usage.cache_write
    if usage.total:
        attrs[schema.USAGE_TOTAL] = usage.total


def _sum(usages: Iterable[Usage]) -> Usage:
    total = Usage()
    for u in usages:
        total.input += u.input
        total.output += u.output
        total.cache_read += u.cache_read
        total.cache_write += u.cache_write
    return total


def _text(blocks: Sequence[dict[str, Any]]) -> str:
    return "\n".join(str(b.get("text", "")) for b in blocks if b.get("type") == "text")


def write_traces(
    session: SessionInfo,
    nodes: Iterable[StoredNode],
    runs: Mapping[int, RunInfo],
    compactions: Mapping[str, CompactionInfo],
    *,
    capture_content: bool,
    runs_without_nodes: Iterable[int] = (),
    system_instructions: Callable[[Entry, RunInfo | None], str | None] | None = None,
) -> Iterator[TraceSpec]:
    """All traces of `nodes` (store order, parents first): the writer in one call."""
    writer = SpanWriter(
        session, runs, compactions, capture_content=capture_content, system_instructions=system_instructions
    )
    writer.feed(nodes)
    return writer.traces(runs_without_nodes=runs_without_nodes)
