"""One conversation's GenAI spans → nodes of the session tree (docs/telemetry.md, "How the
tree is rebuilt"). No Django: the importer (`sessions_app/importers/otlp.py`) writes what this
builds.

Spans are first grouped into conversations (`conversations.py`). Beside this module:
`values.py` (attribute readings), `span_nodes.py` (what one span gives a node), `own_spans.py`
(the nodes Cutpoint's own spans name) and `results.py` (the plain-data results and state).

A conversation's spans are taken in start order:

- A **chat** span (`chat`, `text_completion`, `generate_content`, or any span with messages)
  sent its whole history as input. That input normally repeats the previous call's input and
  output and adds a tail (the user's turn, tool results): the tail becomes new nodes and the
  output an assistant node with the span's usage, model, provider and finish reason. When the
  input does not repeat the previous history (rewritten, or a retry from an earlier point), the
  tail hangs under the last node of the longest common prefix: a new branch. Without captured
  input the assistant node is appended to the last node.
- An **execute_tool** span is matched by `gen_ai.tool.call.id` to the tool result in the next
  call's input, which gets its tool name, error state (`error.type`, an error status) and
  arguments; a tool span no later input carries becomes the tool result node itself.
- A **compaction** span (`gen_ai.operation.name == "compact_context"`, `cutpoint.compaction.*`)
  becomes a compaction node under the last node. It keeps from `first_kept_node` on when that
  names a node on the current path, else nothing (docs/compaction.md, rule C1: the node itself
  is its first kept node). The next call's input is compared with what the compaction kept, and a
  leading message repeating the summary is not made a node again.
- Cutpoint's own spans carry `cutpoint.node.keys` (the keys of the nodes a span's new messages
  become: the input tail, then the output) and `cutpoint.node.parent` (the node the first of
  them hangs under); with them the tree is rebuilt exactly, branches included.

Node keys of foreign spans derive from span ids (`<span id>` for the output or the tool result,
`<span id>.<n>` for the input tail), so a span received twice (an exporter's retry) is noticed
and skipped. The state a rebuild ends in (`State`) is plain data: the receiver stores it with the
session and continues from it when the same conversation sends more spans.
"""

from __future__ import annotations

from typing import Any, Final

from sessions_app.compaction.messages import ASSISTANT, COMPACTION, MESSAGE, TOOL_RESULT, USER, Entry

from ..fields import valid_timestamp as valid_time
from . import schema
from .messages import (
    BadMessages,
    Unit,
    legacy_messages,
    output_unit,
    semconv_messages,
    tool_result_fingerprint,
    units,
)
from .own_spans import chat_entry, input_entries, parents_first, tool_entry
from .reader import SpanRecord
from .results import Built, Problem, State
from .span_nodes import applied_edits, compaction_entry, context_edit_entry, lend, tool_content
from .values import MAX_KEY, iso_time, key_list, response_finish_reason, usage_of

CHAT_OPERATIONS: Final = frozenset({schema.CHAT, "text_completion", "generate_content"})
_TITLE_CHARS: Final = 100


class Rebuilder:
    """Rebuilds one conversation from its spans, continuing from `state`. `known` holds the keys
    already in the session (the receiver looks up the keys a request could collide with)."""

    def __init__(self, state: State | None = None, known: set[str] | None = None) -> None:
        self.state = state or State()
        self.known: set[str] = set(known or ())
        self.built: list[Built] = []
        self.problems: list[Problem] = []
        self.parents: dict[str, str | None] = {}  # nodes built here: key -> parent
        self.pending: list[SpanRecord] = []  # tool spans not yet matched to a tool result
        self.counts = {"chat": 0, "tool": 0, "compaction": 0, "other": 0, "duplicate": 0, "branches": 0}
        self.title: str | None = None
        self.first_user: str | None = None
        self.system: str | None = None
        self.models: set[str] = set()
        self.agents: set[str] = set()
        self.exact: list[tuple[Built, SpanRecord]] = []  # Cutpoint's own nodes, ordered at the end

    # --- public ----------------------------------------------------------------------------

    def feed(self, spans: list[SpanRecord]) -> None:
        """One conversation's spans, in start order."""
        for span in spans:
            a = span.attributes
            title = a.text(schema.SESSION_TITLE)
            if isinstance(title, str) and title and self.title is None:
                self.title = title
            agent = a.text(schema.AGENT_NAME)
            if isinstance(agent, str) and agent:
                self.agents.add(agent)
            op = a.text(schema.OPERATION_NAME)
            if schema.NODE_KEYS in a:
                self._exact(span, op)
            elif op == schema.COMPACT_OPERATION:
                self._compaction(span)
            elif op == schema.EXECUTE_TOOL:
                self.counts["tool"] += 1
                self.pending.append(span)
            elif op in CHAT_OPERATIONS or (op is None and self._has_messages(span)):
                self._chat(span)
            else:
                self.counts["other"] += 1  # invoke_agent, embeddings, ...: no node
        self.flush_tools()
        self._release_exact()

    def flush_tools(self, before: int | None = None) -> None:
        """Tool spans (that ended by `before`) no call's input carried: their own tool result nodes."""
        keep: list[SpanRecord] = []
        for span in self.pending:
            if before is not None and span.end_ns > before:
                keep.append(span)
                continue
            self._tool_node(span)
        self.pending = keep

    # --- spans -----------------------------------------------------------------------------

    @staticmethod
    def _has_messages(span: SpanRecord) -> bool:
        a = span.attributes
        return schema.INPUT_MESSAGES in a or schema.OUTPUT_MESSAGES in a or "gen_ai.prompt" in a

    def _messages(self, span: SpanRecord) -> tuple[list[dict[str, Any]] | None, list[dict[str, Any]] | None]:
        a = span.attributes
        inp = out = None
        try:
            if schema.INPUT_MESSAGES in a:
                inp = semconv_messages(a.structured(schema.INPUT_MESSAGES), schema.INPUT_MESSAGES)
            if schema.OUTPUT_MESSAGES in a:
                out = semconv_messages(a.structured(schema.OUTPUT_MESSAGES), schema.OUTPUT_MESSAGES)
            if inp is None or out is None:
                old_in, old_out = legacy_messages(a, [(e.name, e.attributes) for e in span.events])
                inp = inp if inp is not None else old_in
                out = out if out is not None else old_out
        except BadMessages as exc:
            self._problem(span, str(exc), "the messages are left out")
        return inp, out

    def _chat(self, span: SpanRecord) -> None:
        a = span.attributes
        self.counts["chat"] += 1
        keys = key_list(a.texts(schema.NODE_KEYS))
        out_key = keys[-1] if keys else span.span_id
        if out_key in self.known:
            self.counts["duplicate"] += 1
            return
        inp, out = self._messages(span)
        st = self.state
        names = st.names
        tail: list[Unit] = []
        parent = st.active
        if inp is not None:
            in_units, system = units(inp, names)
            if system and self.system is None:
                self.system = "\n".join(system)
            sys_attr = a.structured(schema.SYSTEM_INSTRUCTIONS)
            if self.system is None and sys_attr is not None:
                self.system = sys_attr if isinstance(sys_attr, str) else str(sys_attr)
            if st.summary is not None and in_units and in_units[0].role != TOOL_RESULT:
                head = in_units[0].text.strip()
                if head and (st.summary.strip() in head or head in st.summary):
                    in_units = in_units[1:]  # the compaction's summary, as the model was sent it
            st.summary = None
            p = _common_prefix(st.history, in_units)
            prefix = st.history[:p]
            if p < len(st.history):
                self.counts["branches"] += 1
                parent = prefix[-1][1] if prefix else st.base
            tail = in_units[p:]
            history = list(prefix)
        else:
            history = list(st.history)
        # Tool spans: the ones this input answers lend their details to its tool results; the
        # others that ended before this call are tool results of their own, before it.
        by_call = {u.call_id: u for u in tail if u.call_id is not None}
        unmatched: list[SpanRecord] = []
        for tool in self.pending:
            call_id = tool.attributes.text(schema.TOOL_CALL_ID)
            unit = by_call.get(call_id) if call_id is not None else None
            if unit is None:
                unmatched.append(tool)
            else:
                lend(unit, tool)
        self.pending = unmatched
        if unmatched:
            old_active, written = st.active, len(self.built)
            self.flush_tools(before=span.start_ns)
            if len(self.built) > written and parent == old_active:
                parent = st.active  # the new messages follow the tool results just written
            if inp is None:
                history = list(st.history)
        out_unit, stop = output_unit(out or [], names)
        new = [*tail, out_unit]
        exact_parent = a.text(schema.NODE_PARENT)
        if keys is not None and len(keys) == len(new):
            new_keys = keys
            if isinstance(exact_parent, str) and (exact_parent == "" or self._known(exact_parent)):
                parent = exact_parent or None
        elif keys is not None and len(keys) == 1:
            new_keys = [f"{span.span_id}.{i}" for i in range(len(tail))] + keys
            if isinstance(exact_parent, str) and self._known(exact_parent) and not tail:
                parent = exact_parent
        else:
            new_keys = [f"{span.span_id}.{i}" for i in range(len(tail))] + [span.span_id]
        if self.first_user is None:
            self.first_user = next((u.text for u in tail if u.role != TOOL_RESULT and u.text.strip()), None)
        start, end = iso_time(span.start_ns), iso_time(span.end_ns)
        for unit, key in zip(tail, new_keys, strict=False):
            key = self._fresh(key, span)
            self._add(Entry(key, parent, MESSAGE, unit.role, unit.content, unit.data, timestamp=start), span)
            history.append((unit.fingerprint, key))
            parent = key
        edits = applied_edits(span)
        if edits:  # applied to this call's request: the edit node comes before its answer (E7)
            edit_key = self._fresh(f"{span.span_id}.edit", span)
            self._add(context_edit_entry(span, edit_key, parent, edits), span)
            parent = edit_key
        key = self._fresh(new_keys[-1], span)
        data = out_unit.data
        model = a.text(schema.RESPONSE_MODEL) or a.text(schema.REQUEST_MODEL)
        provider = a.text(schema.PROVIDER_NAME) or a.text(schema.LEGACY_SYSTEM)
        data["provider"] = provider
        data["model"] = model
        if model is not None:
            self.models.add(model)
        stop = response_finish_reason(a) or stop
        error_type = a.text(schema.ERROR_TYPE)
        if span.status_code == 2 or error_type:
            data["error_message"] = span.status_message or error_type or "error"
            stop = stop or "error"
        extra = data.setdefault("extra", {})
        extra["otlp"] = {"trace_id": span.trace_id, "span_id": span.span_id}
        response_id = a.text(schema.RESPONSE_ID)
        if response_id is not None:
            extra["otlp"]["response_id"] = response_id
        entry = Entry(
            key, parent, MESSAGE, ASSISTANT, out_unit.content, data, usage_of(a), stop, timestamp=end
        )
        self._add(entry, span)
        history.append((out_unit.fingerprint, key))
        st.history = history
        st.active = key

    def _tool_node(self, span: SpanRecord) -> None:
        a = span.attributes
        keys = key_list(a.texts(schema.NODE_KEYS))
        key = keys[0] if keys else span.span_id
        if key in self.known:
            self.counts["duplicate"] += 1
            return
        st = self.state
        call_id = a.text(schema.TOOL_CALL_ID) or None
        if call_id is not None and any(fp == tool_result_fingerprint(call_id) for fp, _ in st.history):
            return  # an earlier input already carried this result
        content = tool_content(span)
        text = "\n".join(b["text"] for b in content if b["type"] == "text")
        name = a.text(schema.TOOL_NAME)
        unit = Unit(
            TOOL_RESULT,
            content,
            {
                "tool_call_id": call_id or span.span_id,
                "tool_name": name if name is not None else st.names.get(call_id or "", ""),
                "is_error": False,
            },
            tool_result_fingerprint(call_id or span.span_id),
            call_id,
            text,
        )
        lend(unit, span)
        parent = a.text(schema.NODE_PARENT)
        if not (parent is not None and self._known(parent)):
            parent = st.active
        key = self._fresh(key, span)
        self._add(
            Entry(
                key, parent, MESSAGE, TOOL_RESULT, unit.content, unit.data, timestamp=iso_time(span.end_ns)
            ),
            span,
        )
        st.history.append((unit.fingerprint, key))
        st.active = key

    def _compaction(self, span: SpanRecord, exact: tuple[str, str | None] | None = None) -> None:
        a = span.attributes
        wanted = a.text(schema.COMPACTION_FIRST_KEPT_NODE) or None
        if exact is not None:  # checked against the path once the tree is in order
            key, parent = exact
            entry, comp = compaction_entry(span, key, parent, wanted or key)
            self.exact.append((Built(entry, span.line, span.where, comp), span))
            self.known.add(key)
            return
        self.counts["compaction"] += 1
        named = a.text(schema.COMPACTION_NODE)
        key = named if named is not None and 0 < len(named) <= MAX_KEY else span.span_id
        if key in self.known:
            self.counts["duplicate"] += 1
            return
        self.flush_tools(before=span.start_ns)
        st = self.state
        parent = a.text(schema.NODE_PARENT)
        if not (parent is not None and self._known(parent)):
            parent = st.active
        first_kept = key
        kept: list[tuple[str, str]] = []
        if wanted is not None:
            if self._on_path(wanted, parent):
                first_kept = wanted
                at = next((i for i, (_, k) in enumerate(st.history) if k == wanted), None)
                kept = st.history[at:] if at is not None else []
            else:
                self._problem(
                    span,
                    f"{schema.COMPACTION_FIRST_KEPT_NODE} {wanted[:40]!r} is not a node on the path",
                    "the compaction keeps nothing from before it",
                )
        entry, comp = compaction_entry(span, key, parent, first_kept)
        self._add(entry, span)
        self.built[-1].compaction = comp
        st.history = kept
        st.base = key
        st.active = key
        st.summary = comp.summary or None

    # --- Cutpoint's own spans: the nodes they name -----------------------------------------

    def _exact(self, span: SpanRecord, op: str | None) -> None:
        """A span that names its nodes (`cutpoint.node.keys`, a chain under `cutpoint.node.parent`):
        they are rebuilt as they were; the tree is put in order once every span is read."""
        a = span.attributes
        keys = key_list(a.texts(schema.NODE_KEYS))
        if not keys:
            self._problem(span, f"{schema.NODE_KEYS} is not a list of node keys", "the span is skipped")
            return
        if op == schema.COMPACT_OPERATION:
            self.counts["compaction"] += 1
        elif op == schema.EXECUTE_TOOL:
            self.counts["tool"] += 1
        elif op in CHAT_OPERATIONS:
            self.counts["chat"] += 1
        if any(k in self.known for k in keys):
            self.counts["duplicate"] += 1
            return
        parent = a.text(schema.NODE_PARENT) or None
        stamps = a.texts(schema.NODE_TIMESTAMPS)
        stamps = stamps if stamps is not None and len(stamps) == len(keys) else None
        entries: list[Entry]
        if op == schema.COMPACT_OPERATION:
            self._compaction(span, exact=(keys[0], parent))
            return
        if op == schema.EXECUTE_TOOL:
            entries = [tool_entry(span, keys[0], parent)]
        elif op in CHAT_OPERATIONS:
            _, out = self._messages(span)
            entries = [chat_entry(span, keys[0], parent, out, self.state.names)]
            model = entries[0].data["model"]
            if isinstance(model, str):
                self.models.add(model)
        else:
            entries = self._exact_inputs(span, keys, parent)
        for i, e in enumerate(entries):
            if stamps is not None and stamps[i]:
                if valid_time(stamps[i]):
                    e.timestamp = stamps[i]
                else:
                    self._problem(
                        span,
                        f"{schema.NODE_TIMESTAMPS}[{i}] {str(stamps[i])[:40]!r} is no time",
                        "the span's time is used",
                    )
            self.exact.append((Built(e, span.line, span.where), span))
            self.known.add(e.key)

    def _exact_inputs(self, span: SpanRecord, keys: list[str], parent: str | None) -> list[Entry]:
        """A root or `cutpoint.nodes` span's input nodes (`own_spans.input_entries`)."""
        inp, _ = self._messages(span)
        entries, problems = input_entries(span, keys, parent, inp)
        for problem, repair in problems:
            self._problem(span, problem, repair)
        if self.first_user is None:
            user = next((e for e in entries if e.kind == MESSAGE and e.role == USER), None)
            if user is not None:
                self.first_user = "\n".join(
                    b.get("text", "") for b in user.content if b.get("type") == "text"
                )
        return entries

    def _release_exact(self) -> None:
        """Cutpoint's nodes, parents first (spans end, and so arrive, children first). A node
        whose parent is nowhere becomes a root, with a problem noted."""
        if not self.exact:
            return
        written = {b.entry.key for b in self.built}
        exact_keys = {b.entry.key for b, _ in self.exact}
        order, orphans = parents_first(
            self.exact, lambda p: p in written or (p in self.known and p not in exact_keys)
        )
        for (_, span), named in orphans:
            self._problem(span, f"parent {named!r} is not known", "the node is made a root")
        self.exact = []
        for built, span in order:
            e = built.entry
            self.parents[e.key] = e.parent
            if e.kind == COMPACTION and built.compaction is not None:
                kept = built.compaction.first_kept
                if kept != e.key and not self._on_path(kept, e.parent):
                    self._problem(
                        span,
                        f"first kept node {kept[:40]!r} is not on the compaction's path",
                        "it keeps nothing from before it",
                    )
                    built.compaction.first_kept = e.key
                    e.data["first_kept"] = e.key
            self.built.append(built)
            self.state.active = e.key
        self.state.history = []
        self.state.base = self.state.active

    # --- helpers ---------------------------------------------------------------------------

    def _known(self, key: str) -> bool:
        return key in self.known

    def _on_path(self, key: str, leaf: str | None) -> bool:
        """Whether `key` is `leaf` or above it: the nodes built here are walked; past them (the
        session's earlier nodes) the history and the known keys tell."""
        if any(k == key for _, k in self.state.history):
            return True
        node = leaf
        while node is not None:
            if node == key:
                return True
            if node not in self.parents:
                return key in self.known
            node = self.parents[node]
        return False

    def _fresh(self, key: str, span: SpanRecord) -> str:
        """`key`, or a derived one when it is taken (a span id reused, a writer's duplicate)."""
        if key not in self.known:
            return key
        n = 1
        while f"{key[: MAX_KEY - 4]}~{n}" in self.known:
            n += 1
        self._problem(span, f"node key {key[:40]!r} is already used", "the node gets another key")
        return f"{key[: MAX_KEY - 4]}~{n}"

    def _add(self, entry: Entry, span: SpanRecord) -> None:
        if entry.parent is not None and entry.parent not in self.known:
            entry.parent = self.state.active if self.state.active in self.known else None
        self.known.add(entry.key)
        self.parents[entry.key] = entry.parent
        self.built.append(Built(entry, span.line, span.where))

    def _problem(self, span: SpanRecord, problem: str, repair: str) -> None:
        self.problems.append(Problem(span.line, f"{span.where} (span {span.span_id})", problem, repair))

    def title_or(self, default: str) -> str:
        """The session title: one a span names, else the first user message's first line, else
        the agent's name, else `default`."""
        if self.title:
            return self.title
        first = (self.first_user or "").strip()
        if first:
            return first.splitlines()[0][:_TITLE_CHARS]
        return sorted(self.agents)[0] if self.agents else default


def _common_prefix(history: list[tuple[str, str]], new: list[Unit]) -> int:
    n = min(len(history), len(new))
    i = 0
    while i < n and history[i][0] == new[i].fingerprint:
        i += 1
    return i
