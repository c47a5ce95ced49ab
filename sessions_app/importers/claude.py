"""Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`) into the store.

Claude Code writes one JSON record per line; records with a `uuid` form a tree through
`parentUuid`. How they map (the format is undocumented; these are the choices made here):

- Every record with a `uuid` becomes a node, so the chain stays connected: user, assistant,
  system, progress, attachment and unknown types. Records without one (summary,
  file-history-snapshot, queue-operation, ...) have no place in the tree and are kept verbatim as
  Event rows of type `import_record`.
- Claude Code writes one assistant record per content block, all with the same `message.id`:
  they become ONE assistant node (key = the first record's uuid, blocks in order). Usage is
  counted once: the last record's usage (the most complete snapshot) replaces earlier ones.
  Children of any part hang under the merged node.
- `tool_result` blocks in a user record become tool_result nodes (`tool_call_id`, `tool_name`
  from the matching tool_use, `is_error`); other blocks of the record become a user node after
  them. The first node of a record has the record's uuid as key, the next ones `<uuid>#<n>`, and
  the record's children hang under its last node.
- `system` records with subtype `compact_boundary` plus the following user record with
  `isCompactSummary` become one compaction node (key = the boundary's uuid; the summary record's
  uuid is an alias) whose parent is `logicalParentUuid`, so the new chain continues the old one.
  Reason: trigger "auto" -> threshold, "manual" -> manual; `tokens_before` = `preTokens`.
  Claude Code keeps nothing from before the boundary, so `first_kept` is the compaction node
  itself: pi's rule ("first kept not found before the compaction => nothing kept") then gives
  exactly Claude Code's context, and the store's context load (which stops at `first_kept`)
  still includes the compaction. (The first node after the summary would make that load start
  below the compaction and lose the summary.)
- Sidechain records (`isSidechain: true`) belong to sub-agents: one Agent (role "sub", parent =
  the main agent) per `agentId`, or, in older transcripts without agent ids, per sidechain chain.
  Their nodes are in the same session but off the main path.
- The active node is the last node of a main-chain user/assistant/compaction record.
- Unmapped fields are kept: record-level ones under `data["extra"]["record"]`, message-level ones
  under `data["extra"]["message"]`, unknown usage fields under `data["extra"]["usage"]`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

from sessions_app.compaction.vocabulary import CompactionReason
from sessions_app.formats import claude
from sessions_app.formats.claude import Record
from sessions_app.formats.fields import Issues, rest
from sessions_app.formats.jsonl import describe
from sessions_app.models import Agent, Event, Session
from sessions_app.store import ImportCompaction, ImportNode

from .writer import FormatImporter, valid_timestamp

_MAX_UUID = 56  # node keys hold 64 characters; "#<n>" suffixes need room
# Nodes stay editable this long after release (split assistant records, a boundary's summary).
WINDOW = 4096
_EVENT_BATCH = 500


class ClaudeImporter(FormatImporter):
    source = "claude"

    def start(self, session: Session, first: tuple[int, dict[str, Any]] | None) -> None:
        super().start(session, first)
        if first is not None:
            line, record = first
            if record.get("type") == "session" and "uuid" not in record:
                self.problems.fatal(
                    line, "this is a pi session header, not a Claude Code record (use format pi)"
                )
            self.reader.push_back((line, record, None))
        self.main = Agent.objects.create(
            session=session, definition_name="claude-code", role="main", metadata={"source": "claude"}
        )
        self.agents = 1
        self._sub: dict[str, Agent] = {}  # group key -> agent
        self._side_group: dict[str, str] = {}  # sidechain uuid -> group key
        self._alias: dict[str, str] = {}  # record uuid -> key of the node its children hang under
        self._tool_names: dict[str, str] = {}
        self._window: deque[ImportNode] = deque()
        self._editable: dict[str, ImportNode] = {}  # released but not yet handed to the store
        self._messages: dict[tuple[int, str], ImportNode] = {}  # (agent, message.id) -> node
        self._message_of: dict[str, tuple[int, str]] = {}  # node key -> its message group
        self._boundary: tuple[ImportNode, int] | None = None  # compaction awaiting its summary
        self._no_summary: list[tuple[ImportNode, int]] = []
        self._events: list[Event] = []
        self._active: str | None = None
        self._last_main: str | None = None
        self._last_any: str | None = None
        self._last_ts: str | None = None
        self._session_ids: set[str] = set()
        self._versions: set[str] = set()
        self._cwd: str | None = None
        self._issues: Issues = []  # what the current record's fields got wrong (formats.fields)

    def active_key(self) -> str | None:
        return self._active or self._last_main or self._last_any

    # --- the stream -------------------------------------------------------------------------

    def nodes(self) -> Iterator[ImportNode]:
        problems = self.problems
        for n, rec in self.records():
            self._record(n, rec)
            for issue in self._issues:
                problems.repaired(n, issue.problem, issue.repair)
            self._issues.clear()
            window = self._window
            while len(window) > WINDOW and not problems.failed:
                yield self._hand_over(window.popleft())
        if self._boundary is not None:
            self._no_summary.append(self._boundary)
        for _, n in self._no_summary:
            problems.warn(n, "compact boundary without an isCompactSummary record: its summary is empty")
        while self._window and not problems.failed:
            yield self._hand_over(self._window.popleft())
        yield from self.release_dangling("record")
        self._flush_events(force=True)
        problems.raise_if_failed()
        self.metadata = {
            "claude_session_ids": sorted(self._session_ids),
            "claude_versions": sorted(self._versions),
            "cwd": self._cwd,
        }

    def _hand_over(self, node: ImportNode) -> ImportNode:
        key = node.entry.key
        self._editable.pop(key, None)
        group = self._message_of.pop(key, None)
        if group is not None and self._messages.get(group) is node:
            del self._messages[group]
        return node

    def _release(self, nodes: list[ImportNode]) -> None:
        if self.problems.failed:
            return  # nothing more is written; keep reading only to report problems
        for node in nodes:
            self._window.append(node)
            self._editable[node.entry.key] = node

    def _add(self, node: ImportNode, line: int) -> None:
        self._release(self.order.add(node, line))

    def _editable_node(self, key: str) -> bool:
        return key in self._editable or key in self.order.waiting_keys

    def _alias_to(self, uuid: str, key: str) -> None:
        self._alias[uuid] = key
        self._release(self.order.redirect(uuid, key))

    def _event(self, rec: dict[str, Any]) -> None:
        if self.problems.failed:
            return
        self._events.append(Event(session=self.session, type="import_record", payload=rec))
        self.events += 1
        self._flush_events()

    def _flush_events(self, *, force: bool = False) -> None:
        if self._events and (force or len(self._events) >= _EVENT_BATCH):
            Event.objects.bulk_create(self._events)
            self._events.clear()

    # --- one record -------------------------------------------------------------------------

    def _record(self, n: int, rec: dict[str, Any]) -> None:
        problems = self.problems
        t = rec.get("type")
        uuid = rec.get("uuid")
        if not isinstance(uuid, str) or not uuid:
            if t in ("user", "assistant"):
                problems.bad(n, f"a {t} record without a uuid")
            else:
                self._event(rec)
            return
        if uuid in self.lines:
            problems.bad(n, f"duplicate uuid {uuid!r} (first used on line {self.lines[uuid]})")
            return
        if len(uuid) > _MAX_UUID:
            problems.bad(n, f"uuid {uuid[:20]!r}… is longer than {_MAX_UUID} characters")
            return
        self.lines[uuid] = n
        sid = rec.get("sessionId")
        if isinstance(sid, str):
            self._session_ids.add(sid)
        version = rec.get("version")
        if isinstance(version, str):
            self._versions.add(version)
        if self._cwd is None and isinstance(rec.get("cwd"), str):
            self._cwd = rec["cwd"]
        ts = rec.get("timestamp")
        if valid_timestamp(ts):
            self._last_ts = ts
        else:
            if ts is not None:
                problems.warn(n, f"bad timestamp {ts!r}; the previous one is used")
            ts = self._last_ts
        raw_parent = rec.get("parentUuid")
        parent = self._alias.get(raw_parent, raw_parent) if isinstance(raw_parent, str) else None
        if raw_parent is not None and parent is None:
            problems.repaired(
                n, f"parentUuid is {describe(raw_parent)}, not a string or null", "the record is a root"
            )
        sidechain = rec.get("isSidechain") is True
        agent = self._agent_for(n, rec, uuid, raw_parent, sidechain)
        r = Record(uuid, parent, ts, rest(rec, claude.BASE))
        msg = rec.get("message")
        if t == "system" and rec.get("subtype") == "compact_boundary":
            key = self._compaction(n, rec, r, agent)
            conversational = True
        elif t == "user" and rec.get("isCompactSummary") is True and isinstance(msg, dict):
            key = self._summary(n, rec, r, raw_parent, agent)
            conversational = True
        elif t == "assistant" and isinstance(msg, dict):
            key = self._assistant(n, msg, r, agent)
            conversational = True
        elif t == "user" and isinstance(msg, dict):
            key = self._user(n, msg, r, agent)
            conversational = True
        else:
            if t in ("user", "assistant"):
                problems.warn(n, f"{t} record without a message object: kept as a custom node")
            self._add(ImportNode(claude.custom_entry(r, rec), agent_id=agent), n)
            key = uuid
            conversational = False
        self._last_any = key
        if not sidechain:
            self._last_main = key
            if conversational:
                self._active = key

    def _agent_for(self, n: int, rec: dict[str, Any], uuid: str, raw_parent: Any, sidechain: bool) -> int:
        if not sidechain:
            return int(self.main.pk)
        agent_id = rec.get("agentId")
        if isinstance(agent_id, str) and agent_id:
            group = f"agent:{agent_id}"
        else:  # older transcripts: a sidechain is its own chain, named by its first record
            known = self._side_group.get(raw_parent) if isinstance(raw_parent, str) else None
            group = known or f"chain:{uuid}"
        self._side_group[uuid] = group
        agent = self._sub.get(group)
        if agent is None:
            agent = Agent.objects.create(
                session=self.session,
                parent=self.main,
                definition_name="claude-code:subagent",
                role="sub",
                metadata={
                    "source": "claude",
                    "agent_id": agent_id if isinstance(agent_id, str) else None,
                    "first_uuid": uuid,
                    "first_line": n,
                },
            )
            self._sub[group] = agent
            self.agents += 1
        return int(agent.pk)

    def _compaction(self, n: int, rec: dict[str, Any], r: Record, agent: int) -> str:
        tokens, reason = claude.boundary(rec, self._issues)
        logical = rec.get("logicalParentUuid")
        if isinstance(logical, str) and logical:
            if logical in self.lines:
                r.parent = self._alias.get(logical, logical)
            else:
                self.problems.warn(n, f"compact boundary's logical parent {logical!r} is not in the file")
        node = self._compaction_node(r, "", tokens, {"record": r.extra}, agent, reason)
        if self._boundary is not None:
            self._no_summary.append(self._boundary)
        self._boundary = (node, n)
        self._add(node, n)
        return r.uuid

    def _compaction_node(
        self, r: Record, summary: str, tokens: int, extra: dict[str, Any], agent: int, reason: str
    ) -> ImportNode:
        entry = claude.compaction_entry(r, summary, tokens, extra)
        compaction = ImportCompaction(
            first_kept=r.uuid, summary=summary, tokens_before=tokens, details={}, reason=reason
        )
        return ImportNode(entry, agent_id=agent, compaction=compaction)

    def _summary(self, n: int, rec: dict[str, Any], r: Record, raw_parent: Any, agent: int) -> str:
        msg = rec["message"]
        text = claude.text_of(msg.get("content"))
        pending = self._boundary
        if pending is not None and (raw_parent is None or raw_parent == pending[0].entry.key):
            node = pending[0]
            self._boundary = None
            if self._editable_node(node.entry.key):
                node.entry.data["summary"] = text
                node.entry.data["extra"]["summary_record"] = claude.summary_record(r, rec, msg)
                assert node.compaction is not None
                node.compaction.summary = text
                self._alias_to(r.uuid, node.entry.key)
                return node.entry.key
            self.problems.warn(n, "compact summary too far from its boundary: kept as a user message")
            self._no_summary.append(pending)
            return self._user(n, msg, r, agent)
        # No boundary record (older Claude Code): the summary record is the compaction itself.
        extra = {"record": r.extra, "message": rest(msg, frozenset({"content"}))}
        self._add(self._compaction_node(r, text, 0, extra, agent, CompactionReason.IMPORTED), n)
        return r.uuid

    def _assistant(self, n: int, msg: dict[str, Any], r: Record, agent: int) -> str:
        blocks = claude.blocks(msg.get("content"), self._issues)
        for b in blocks:
            if b.get("type") == "tool_call" and isinstance(b.get("id"), str):
                self._tool_names[b["id"]] = str(b.get("name") or "")
        mid = msg.get("id")
        group = (agent, mid) if isinstance(mid, str) and mid else None
        first = self._messages.get(group) if group is not None else None
        if first is not None:
            if self._editable_node(first.entry.key):
                claude.merge_assistant(first.entry, msg, blocks, r.uuid, self._issues)
                self._alias_to(r.uuid, first.entry.key)
                return first.entry.key
            self.problems.warn(
                n, f"part of message {mid!r} comes too late to merge: imported as its own node, no usage"
            )
            group = None
        entry = claude.assistant_entry(r, msg, blocks, with_usage=first is None, issues=self._issues)
        node = ImportNode(entry, agent_id=agent)
        if group is not None:
            self._messages[group] = node
            self._message_of[r.uuid] = group
        self._add(node, n)
        return r.uuid

    def _user(self, n: int, msg: dict[str, Any], r: Record, agent: int) -> str:
        entries = claude.user_entries(r, msg, self._tool_names, self._issues)
        last = entries[-1].key
        if last != r.uuid:
            self._alias_to(r.uuid, last)
        for e in entries:
            self._add(ImportNode(e, agent_id=agent), n)
        return last
