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
- `tokens_after` of a compaction is what the first model call after it sent (its usage: input
  plus cache reads and writes), the size Claude Code's context had once the summary replaced the
  history; without such a call it stays unknown.
- Sub-agent transcripts stored next to the file (`<session>/subagents/agent-<id>.jsonl`, with an
  optional `agent-<id>.meta.json`) are read after it when importing by path, as sidechains: one
  sub agent each, its chain off the main path; a record already read from the main file is not
  read twice. Uploads are a single file and bring none.
- The title is what the transcript calls itself: the last `custom-title` record (the user's
  `/rename`), else the last `ai-title`, else the `summary` record of the active leaf or of its
  nearest ancestor that has one, else the first line of the user's first prompt; with none of
  these, the file name.
- The session's last activity is the latest record timestamp, not the import time.
- Each user prompt opens a Run of its agent, main or sub (importers/runs.py); the records kept as
  events belong to the main agent, at their own time, and join its run in force then.
- The active node is the last node of a main-chain user/assistant/compaction record.
- Unmapped fields are kept: record-level ones under `data["extra"]["record"]`, message-level ones
  under `data["extra"]["message"]`, unknown usage fields under `data["extra"]["usage"]`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from sessions_app.compaction.messages import TOOL_RESULT
from sessions_app.compaction.vocabulary import CompactionReason, EventType
from sessions_app.formats import claude
from sessions_app.formats.claude import Record
from sessions_app.formats.fields import Issues, rest, valid_timestamp
from sessions_app.formats.jsonl import describe
from sessions_app.models import Agent, Event, Session
from sessions_app.store import ImportCompaction, ImportNode

from .lines import LineReader
from .writer import FormatImporter

_MAX_UUID = 56  # node keys hold 64 characters; "#<n>" suffixes need room
# Nodes stay editable this long after release (split assistant records, a boundary's summary).
WINDOW = 4096
SUBAGENT_DIR = "subagents"
SUBAGENT_GLOB = "agent-*.jsonl"
_META_MAX_BYTES = 64 * 1024  # an agent-<id>.meta.json sidecar is a few fields


@dataclass(slots=True)
class SubagentFile:
    """A sub-agent transcript read after the main file: its records are sidechains of the agent
    the file names (`agent-<id>.jsonl`) when they name none themselves."""

    path: Path
    agent_id: str
    meta: dict[str, Any] = field(default_factory=dict)  # the .meta.json sidecar, if readable
    duplicates: int = 0  # records already read from the main file

    @classmethod
    def at(cls, path: Path) -> SubagentFile:
        agent_id = path.name[len("agent-") : -len(".jsonl")]
        sidecar = path.with_name(f"agent-{agent_id}.meta.json")
        meta: dict[str, Any] = {}
        try:
            if sidecar.is_file() and sidecar.stat().st_size <= _META_MAX_BYTES:
                loaded = orjson.loads(sidecar.read_bytes())
                meta = loaded if isinstance(loaded, dict) else {}
        except (OSError, orjson.JSONDecodeError):
            meta = {}
        return cls(path, agent_id, meta)


def subagent_files(transcript: Path) -> list[Path]:
    """Claude Code's sub-agent transcripts of `transcript` (`<dir>/<session>.jsonl`): the files
    `<dir>/<session>/subagents/agent-*.jsonl`, in name order."""
    folder = transcript.parent / transcript.stem / SUBAGENT_DIR
    try:
        return sorted(p for p in folder.glob(SUBAGENT_GLOB) if p.is_file())
    except OSError:
        return []


_CARRIED = 200  # aliases and tool names carried to a resumed reading (`carry`)


class ClaudeImporter(FormatImporter):
    source = "claude"
    compactions_list_files = False

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
        self._results: dict[str, tuple[str, str]] = {}  # tool call id -> (result node key, tool)
        self._arrived_cleared: list[str] = []  # results stored as Claude Code's placeholder (E7)
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
        self._parent_of: dict[str, str | None] = {}  # node key -> parent key as added
        self._titles: dict[str, str] = {}  # "custom" / "ai" -> the last such title
        self._leaf_titles: dict[str, str] = {}  # summary records: leaf uuid -> summary
        self._first_prompt: str | None = None
        self._after: dict[int, ImportCompaction] = {}  # agent -> compaction awaiting tokens_after
        self._sub_file: SubagentFile | None = None  # the sub-agent transcript being read
        self._sub_files: list[str] = []

    def active_key(self) -> str | None:
        return self._active or self._last_main or self._last_any

    def carry(self) -> dict[str, Any]:
        # A resumed reading re-reads only the last few lines (sessions_app/watch/resume.py): the
        # latest aliases (a message's later lines' uuids, which its children name as parent) and
        # tool names are carried; an older one missing sends the watcher back to the whole file.
        return {
            "alias": dict(list(self._alias.items())[-_CARRIED:]),
            "tool_names": dict(list(self._tool_names.items())[-_CARRIED:]),
        }

    def carry_on(self, state: dict[str, Any]) -> None:
        self._alias.update(state.get("alias") or {})
        self._tool_names.update(state.get("tool_names") or {})

    # --- the stream -------------------------------------------------------------------------

    def nodes(self) -> Iterator[ImportNode]:
        problems = self.problems
        for n, rec in self.records():
            yield from self._step(n, rec)
        main_active = self.active_key()
        self._end_of_file()
        if self.path is not None:
            yield from self._subagents()
        while self._window and not problems.failed:
            yield self._hand_over(self._window.popleft())
        yield from self.release_dangling("record")
        if self._arrived_cleared and not problems.failed:
            # The file holds only the placeholder: nothing can be read back, but it is said (E7).
            self._events.append(
                Event(
                    session=self.session,
                    type=EventType.CONTEXT_EDITED,
                    payload={
                        "source": claude.CLAUDE_CODE,
                        "note": (
                            f"{len(self._arrived_cleared)} tool result"
                            f"{'s' if len(self._arrived_cleared) != 1 else ''} stored already cleared "
                            f"by Claude Code ({claude.CLEARED_TEXT}): the original output is not in the file"
                        ),
                        "node_keys": self._arrived_cleared[:200],
                    },
                )
            )
        self._flush_events(force=True)
        problems.raise_if_failed()
        self.metadata = {
            "claude_session_ids": sorted(self._session_ids),
            "claude_versions": sorted(self._versions),
            "cwd": self._cwd,
        }
        if self._sub_files:
            self.metadata["subagent_files"] = self._sub_files
        self.title = self._title(main_active)

    # --- what the transcript says about itself ----------------------------------------------

    def _title(self, leaf: str | None) -> str | None:
        """See the module docstring: custom title, AI title, the leaf's summary, first prompt."""
        for kind in ("custom", "ai"):
            if kind in self._titles:
                return self._titles[kind]
        if self._leaf_titles:
            by_key = {self._alias.get(u, u): t for u, t in self._leaf_titles.items()}
            key, steps = leaf, len(self._parent_of) + 1  # a parent cycle must not loop forever
            while key is not None and steps:
                if key in by_key:
                    return by_key[key]
                key = self._parent_of.get(key)
                key = self._alias.get(key, key) if key is not None else None
                steps -= 1
        return self._first_prompt

    def _meta_record(self, rec: dict[str, Any]) -> None:
        """A record without a uuid: titles are noted (main file only), then it is an event."""
        ts = rec.get("timestamp")
        if valid_timestamp(ts):
            self.saw_time(ts)
        if self._sub_file is None:
            found = claude.title_record(rec)
            if found is not None:
                kind, title, leaf = found
                if kind == "summary":
                    if leaf is not None:
                        self._leaf_titles[leaf] = title
                else:
                    self._titles[kind] = title
        self._event(rec)

    # --- sub-agent transcripts next to the file ---------------------------------------------

    def _subagents(self) -> Iterator[ImportNode]:
        assert self.path is not None
        problems = self.problems
        main_file = problems.file
        for path in subagent_files(self.path):
            if problems.full:
                break
            sub = self._sub_file = SubagentFile.at(path)
            name = f"{main_file} › {SUBAGENT_DIR}/{path.name}"
            problems.file = name
            last = 1  # the line file-level notes are reported on: the last one read
            try:
                with path.open("rb") as fh:
                    reader = LineReader(
                        fh, name, max_line_bytes=self.reader.max_line_bytes, warn=problems.warn
                    )
                    for n, obj, problem in reader:
                        last = n
                        if problems.full:
                            break
                        if obj is None:
                            problems.bad(n, problem or "unreadable line")
                            continue
                        yield from self._step(n, obj)
            except OSError as exc:
                problems.warn(last, f"cannot read the sub-agent transcript: {exc.strerror or exc}")
            self._end_of_file()
            if sub.duplicates:
                problems.warn(
                    last, f"{sub.duplicates} record(s) also in the main transcript were read from there"
                )
            self._sub_files.append(f"{SUBAGENT_DIR}/{path.name}")
            problems.file = main_file
        self._sub_file = None

    def _step(self, n: int, rec: dict[str, Any]) -> Iterator[ImportNode]:
        """One record, then whatever has left the editing window."""
        problems = self.problems
        self._record(n, rec)
        for issue in self._issues:
            problems.repaired(n, issue.problem, issue.repair)
        self._issues.clear()
        window = self._window
        while len(window) > WINDOW and not problems.failed:
            yield self._hand_over(window.popleft())

    def _end_of_file(self) -> None:
        """A boundary still waiting for its summary gets none (reported with its file's name)."""
        if self._boundary is not None:
            self._no_summary.append(self._boundary)
            self._boundary = None
        for _, n in self._no_summary:
            self.problems.warn(n, "compact boundary without an isCompactSummary record: its summary is empty")
        self._no_summary.clear()

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
        self._parent_of[node.entry.key] = node.entry.parent
        self._release(self.order.add(node, line))

    def _editable_node(self, key: str) -> bool:
        return key in self._editable or key in self.order.waiting_keys

    def _alias_to(self, uuid: str, key: str) -> None:
        self._alias[uuid] = key
        self._release(self.order.redirect(uuid, key))

    def _event(self, rec: dict[str, Any]) -> None:
        if self.problems.failed:
            return
        # The main agent's: such records (titles, file snapshots, queue operations) belong to
        # the session's own turns, so they join the run in force at their time (runs.py).
        self._events.append(
            Event(
                session=self.session,
                agent=self.main,
                type=EventType.IMPORT_RECORD,
                payload=rec,
                timestamp=self.record_time(rec, self._last_ts),
            )
        )
        self.events += 1
        self._flush_events()

    # --- one record -------------------------------------------------------------------------

    def _record(self, n: int, rec: dict[str, Any]) -> None:
        problems = self.problems
        t = rec.get("type")
        uuid = rec.get("uuid")
        if not isinstance(uuid, str) or not uuid:
            if t in ("user", "assistant"):
                problems.bad(n, f"a {t} record without a uuid")
            else:
                self._meta_record(rec)
            return
        if uuid in self.lines:
            if self._sub_file is not None:  # also written inline in the main transcript
                self._sub_file.duplicates += 1
                return
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
            self.saw_time(ts)
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
        sidechain = rec.get("isSidechain") is True or self._sub_file is not None
        agent = self._agent_for(n, rec, uuid, raw_parent, sidechain)
        if self._first_prompt is None and not sidechain:
            self._first_prompt = claude.prompt_title(rec)
        r = Record(uuid, parent, ts, rest(rec, claude.BASE))
        msg = rec.get("message")
        if t == "system" and rec.get("subtype") == "compact_boundary":
            key = self._compaction(n, rec, r, agent)
            conversational = True
        elif t == "system" and rec.get("subtype") == claude.MICROCOMPACT:
            self._add(ImportNode(claude.microcompact_entry(r, rec, self._results), agent_id=agent), n)
            key = uuid
            conversational = False
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
        sub = self._sub_file
        if sub is not None and not (isinstance(agent_id, str) and agent_id):
            agent_id = sub.agent_id  # the file's name says whose transcript it is
        if isinstance(agent_id, str) and agent_id:
            group = f"agent:{agent_id}"
        else:  # older transcripts: a sidechain is its own chain, named by its first record
            known = self._side_group.get(raw_parent) if isinstance(raw_parent, str) else None
            group = known or f"chain:{uuid}"
        self._side_group[uuid] = group
        agent = self._sub.get(group)
        if agent is None:
            metadata: dict[str, Any] = {
                "source": "claude",
                "agent_id": agent_id if isinstance(agent_id, str) else None,
                "first_uuid": uuid,
                "first_line": n,
            }
            if sub is not None:
                metadata["file"] = f"{SUBAGENT_DIR}/{sub.path.name}"
                if sub.meta:
                    metadata["meta"] = sub.meta
            agent = Agent.objects.create(
                session=self.session,
                parent=self.main,
                definition_name="claude-code:subagent",
                role="sub",
                metadata=metadata,
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
        self._after[agent] = compaction  # the next call of this agent measures what it left
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
        waiting = self._after.get(agent)
        if waiting is not None:
            sent = claude.prompt_tokens(entry.usage)
            if sent is not None:
                waiting.tokens_after = sent
                del self._after[agent]
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
            if e.role == TOOL_RESULT:
                call_id = e.data.get("tool_call_id")
                if isinstance(call_id, str):
                    self._results[call_id] = (e.key, str(e.data.get("tool_name") or "tool"))
                if [b.get("text") for b in e.content] == [claude.CLEARED_TEXT]:
                    self._arrived_cleared.append(e.key)
            self._add(ImportNode(e, agent_id=agent), n)
        return last
