"""`Rollout`: a rollout read record by record. Records are dispatched here (session_meta,
turn_context, event_msg, compacted, older rollouts' shapes); token counts give the waiting call
its usage, and a compaction becomes a compaction node followed by its replacement history."""

from __future__ import annotations

from typing import Any, Final

from sessions_app.compaction.messages import (
    COMPACTION,
    CUSTOM,
    MODEL_CHANGE,
    THINKING_LEVEL_CHANGE,
    USER,
    Usage,
)
from sessions_app.compaction.vocabulary import StopReason

from ..fields import Issues, note, rest, string, token_count, usage_counts
from ..jsonl import describe
from .content import TURN_ABORTED, blocks, text_of
from .items import Items
from .records import ITEM_TYPES, RECORD_TYPES, is_legacy_header
from .stream import Compaction, Node, extra_of

_USAGE_NAMES: Final = (
    "input_tokens",
    "cached_input_tokens",
    "output_tokens",
    "reasoning_output_tokens",
    "total_tokens",
)
_EFFORT: Final = {"none": "off"}  # Codex's reasoning effort in pi's thinking levels (others agree)
NO_SUMMARY: Final = (
    "(Codex recorded no summary text for this compaction; the items that replaced the earlier "
    "conversation follow it.)"
)
NO_SUMMARY_NO_ITEMS: Final = "(Codex recorded no summary text for this compaction.)"
_RECORD_KEYS: Final = frozenset({"timestamp", "type", "payload"})
_COMPACTED_KEYS: Final = frozenset({"message", "replacement_history"})

# Events that repeat a response item, and the field holding the repeated text.
_REPEATS: Final = {"user_message": "message", "agent_message": "message", "agent_reasoning": "text"}
_EMPTY: Final[tuple[Any, ...]] = (None, "", [], {})


def _repeats(p: dict[str, Any], name: str, said: str | None) -> bool:
    """True when the event says nothing but `said` (its other fields empty)."""
    return (
        said is not None
        and p.get(name) == said
        and all(v in _EMPTY for k, v in p.items() if k not in ("type", name))
    )


def _count(value: Any, where: str, issues: Issues | None) -> int | None:
    """A positive token count (a context window), or None (an issue when it is not one)."""
    if value is None:
        return None
    n, why = token_count(value)
    if why is None and n == 0:
        why = "is 0"
    if why is not None:
        note(issues, f"{where} {why}", "it is left out")
        return None
    return n


class Rollout(Items):
    """Reads a rollout record by record. After each `add`, `ready` holds the nodes that are final
    (parents first), `kept` the records to keep verbatim, `issues` the current record's repaired
    fields and `notes` warnings (line, text); the caller empties all four. `finish()` at the end.

    An assistant node is held back (with everything after it) until its usage arrives, a later
    call supersedes it, or `WINDOW` nodes pile up behind it."""

    # --- records --------------------------------------------------------------------------

    def add(self, line: int, record: dict[str, Any], timestamp: str | None) -> str | None:
        """One record (`timestamp` is the record's valid time, or the previous one). Returns why
        the line cannot be imported, or None."""
        self._line = line
        self._ts = timestamp
        first, self._first = self._first, False
        t = record.get("type")
        if (
            t != "event_msg"
            or not isinstance(record.get("payload"), dict)
            or record["payload"].get("type") != "token_count"
        ):
            held_usage, self._unclaimed = self._unclaimed, None
            if t == "compacted":  # a count no call claimed, right before: the compaction's own call
                self._unclaimed = held_usage
        if isinstance(t, str) and t in RECORD_TYPES:
            payload = record.get("payload")
            if not isinstance(payload, dict):
                return f"a {t} record whose payload is {describe(payload)}, not an object"
            if t == "response_item":
                self._item(f"{self.key_prefix}L{line}", payload, rest(record, _RECORD_KEYS))
            elif t == "event_msg":
                self._event_msg(record, payload)
            elif t == "turn_context":
                self._turn_context(record, payload)
            elif t == "compacted":
                self._compacted(f"{self.key_prefix}L{line}", payload, rest(record, _RECORD_KEYS))
            else:
                self._session_meta(payload)
                self.kept.append(record)
            return None
        if t is None:
            if first and is_legacy_header(record):
                self.meta.legacy = True
                self._session_meta(record)
                self.kept.append(record)
                return None
            if "record_type" in record:  # older rollouts' state markers
                self.kept.append(record)
                return None
            return 'a record without a "type"'
        if not isinstance(t, str):
            return f'a record whose "type" is {describe(t)}, not a string'
        if t in ITEM_TYPES and "payload" not in record:  # older rollouts: bare response items
            self.meta.legacy = True
            self._item(f"{self.key_prefix}L{line}", rest(record, frozenset({"timestamp"})), {})
            return None
        self.notes.append((line, f"unknown record type {t[:40]!r}: kept as a custom node"))
        self._close()
        data = {"custom_type": f"codex.record.{t[:40]}", "data": rest(record, frozenset({"timestamp"}))}
        self._emit(Node(self._entry(f"{self.key_prefix}L{line}", CUSTOM, data=data), line))
        return None

    def _session_meta(self, p: dict[str, Any]) -> None:
        m = self.meta
        sid = p.get("id")
        if isinstance(sid, str) and sid not in m.session_ids:
            m.session_ids.append(sid)
        version = p.get("cli_version")
        if isinstance(version, str) and version not in m.cli_versions:
            m.cli_versions.append(version)
        for name in ("originator", "model_provider", "cwd"):
            value = p.get(name)
            if isinstance(value, str) and getattr(m, name) is None:
                setattr(m, name, value)
        if m.git is None and isinstance(p.get("git"), dict):
            m.git = p["git"]
        if m.source is None and p.get("source") is not None:
            m.source = p["source"]
        if isinstance(p.get("model_provider"), str):
            self._provider = p["model_provider"]

    def _turn_context(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        self.kept.append(record)
        m = self.meta
        if m.cwd is None and isinstance(p.get("cwd"), str):
            m.cwd = p["cwd"]
        m.approval_policy = p.get("approval_policy", m.approval_policy)
        m.sandbox_policy = p.get("sandbox_policy", m.sandbox_policy)
        model = string(p.get("model"), "payload.model", self.issues)
        effort = p.get("effort")
        if effort is not None and not isinstance(effort, str):
            note(self.issues, f"payload.effort is {describe(effort)}, not a string", "it is left out")
            effort = None
        key = f"{self.key_prefix}L{self._line}"
        if model and model != self._model:
            self._close()
            self._model = model
            if model not in m.models:
                m.models.append(model)
            data = {"provider": self._provider, "model_id": model}
            self._emit(Node(self._entry(key, MODEL_CHANGE, data=data), self._line))
            key += ".1"
        if effort and effort != self._effort:
            self._close()
            self._effort = effort
            data = {"thinking_level": _EFFORT.get(effort, effort)}
            self._emit(Node(self._entry(key, THINKING_LEVEL_CHANGE, data=data), self._line))

    def _event_msg(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        kind = p.get("type")
        if kind == "token_count":
            if not self._token_count(p):
                self.kept.append(record)
            return
        if kind == "turn_aborted":
            self._close()
            waiting = self._waiting
            if waiting is not None and waiting.usage is None:
                waiting.stop_reason = StopReason.ABORTED.value
            data = {"custom_type": TURN_ABORTED, "data": rest(p, frozenset({"type"}))}
            self._emit(Node(self._entry(f"{self.key_prefix}L{self._line}", CUSTOM, data=data), self._line))
            return
        if isinstance(kind, str) and kind in _REPEATS and _repeats(p, _REPEATS[kind], self._said.get(kind)):
            self.meta.repeated_events += 1
            return
        if kind == "thread_name_updated":
            name = p.get("thread_name", p.get("name"))
            if isinstance(name, str) and name.strip():
                self.thread_name = name.strip()
        elif kind in ("task_started", "turn_started"):
            window = _count(p.get("model_context_window"), "payload.model_context_window", self.issues)
            if window is not None:
                self.context_window = window
        self.kept.append(record)

    def _token_count(self, p: dict[str, Any]) -> bool:
        """Apply a token_count to the call waiting for it; False if it is to be kept instead."""
        info = p.get("info")
        if info is None:
            return False
        if not isinstance(info, dict):
            note(
                self.issues,
                f"payload.info is {describe(info)}, not an object",
                "the token count is kept as an event",
            )
            return False
        window = _count(info.get("model_context_window"), "payload.info.model_context_window", self.issues)
        if window is not None:
            self.context_window = window
        extra: dict[str, Any] = {}
        counts = usage_counts(
            info.get("last_token_usage"), _USAGE_NAMES, extra, "payload.info.last_token_usage", self.issues
        )
        if counts is None:
            return False
        given, cached, output, reasoning, total = counts
        self._last_total = total or given + output
        waiting = self._waiting
        if waiting is None:
            # Kept for a compaction that may follow at once: its summary call's usage.
            self._unclaimed = {"input": max(given - cached, 0), "cache_read": cached, "output": output}
            return False
        self._unclaimed = None
        if cached > given:
            note(
                self.issues,
                f"payload.info.last_token_usage.cached_input_tokens ({cached}) is more than "
                f"input_tokens ({given})",
                "the uncached input is recorded as 0",
            )
        waiting.usage = Usage(max(given - cached, 0), output, cached, 0, total)
        usage_extra = {"reasoning_output_tokens": reasoning, **extra.get("usage", {})}
        kept = {k: v for k, v in info.items() if k not in ("last_token_usage", "model_context_window")}
        kept.update(rest(p, frozenset({"type", "info"})))
        x = extra_of(waiting)
        x["usage"] = usage_extra
        x["token_count"] = {"line": self._line, "timestamp": self._ts, **kept}
        if self._after is not None:
            self._after.tokens_after = given
            self._after = None
        self._release()
        return True

    # --- compaction -----------------------------------------------------------------------

    def _compacted(self, key: str, p: dict[str, Any], record_rest: dict[str, Any]) -> None:
        self._release()  # nothing before a compaction gets usage from a later token_count
        message = p.get("message")
        if message is not None and not isinstance(message, str):
            note(
                self.issues,
                f"payload.message is {describe(message)}, not a string",
                "an empty summary is recorded",
            )
        message = message if isinstance(message, str) else ""
        history = p.get("replacement_history")
        if history is not None and not isinstance(history, list):
            note(
                self.issues,
                f"payload.replacement_history is {describe(history)}, not an array",
                "the compaction is read without it",
            )
            history = None
        extra: dict[str, Any] = {}
        unnamed = rest(p, _COMPACTED_KEYS)
        if unnamed:
            extra["compacted"] = unnamed
        if record_rest:
            extra["record"] = record_rest
        summary = message
        if not message.strip():
            extra["message"] = message
            summary = NO_SUMMARY if history else NO_SUMMARY_NO_ITEMS
        comp = Compaction(self._last_total)
        data: dict[str, Any] = {
            "summary": summary,
            "first_kept": key,
            "tokens_before": comp.tokens_before,
            "details": {},
            "from_hook": False,
        }
        if extra:
            data["extra"] = extra
        if self._unclaimed is not None:
            # The summary call's usage (the token count right before the record, no call's own),
            # priced as the compaction's own cost (docs/costs.md).
            data["summary_call"] = {**self._unclaimed, "model": self._model or "", "provider": self._provider}
            self._unclaimed = None
        self._emit(Node(self._entry(key, COMPACTION, data=data), self._line, comp))
        self._after = comp
        if history:
            skipped = self._replacement(key, history, message)
            if skipped is not None:
                extra["summary_item"] = skipped
                data["extra"] = extra
        self._close()
        self._waiting = None

    def _replacement(self, key: str, history: list[Any], message: str) -> int | None:
        """The replacement items as nodes after the compaction; returns the index of the item
        that repeats the summary (left out), if one does."""
        skipped: int | None = None
        for i, item in enumerate(history):
            where = f"payload.replacement_history[{i}]"
            if not isinstance(item, dict):
                note(self.issues, f"{where} is {describe(item)}, not an object", "it is left out")
                continue
            if (
                skipped is None
                and message.strip()
                and item.get("type") == "message"
                and item.get("role") == USER
                and text_of(blocks(item.get("content"))) == message
            ):
                skipped = i
                continue
            before = len(self.issues)
            self._item(f"{key}.{i + 1}", item, {}, replay=key)
            for j in range(before, len(self.issues)):  # name the item the problem is in
                issue = self.issues[j]
                self.issues[j] = type(issue)(issue.problem.replace("payload.", f"{where}.", 1), issue.repair)
        return skipped

    # --- the end --------------------------------------------------------------------------

    def finish(self) -> None:
        self._release()
        for call_id, call in sorted(self._calls.items(), key=lambda kv: kv[1].line):
            self.notes.append((call.line, f"call {call_id!r} ({call.name}) has no output in the file"))
        self._calls.clear()

    @property
    def title(self) -> str | None:
        return self.thread_name or self.first_prompt
