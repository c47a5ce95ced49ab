"""Response items as nodes: consecutive model output items (reasoning, assistant text, calls) are
one assistant node per model call, user and context messages and call outputs nodes of their own,
unknown items custom nodes. Used for `response_item` records and a compaction's replacement
history alike."""

from __future__ import annotations

from typing import Any, Final

from sessions_app.compaction.messages import (
    ASSISTANT,
    CUSTOM,
    CUSTOM_MESSAGE,
    MESSAGE,
    TOOL_RESULT,
    USER,
    Entry,
)

from ..fields import note, rest, string
from ..jsonl import describe
from .calls import call_block
from .content import blocks, context_type, prompt_title, text_of
from .outputs import ExecFacts, exec_facts, output_content
from .records import HOSTED, MODEL_ITEMS, OPAQUE_ITEMS, OUTPUT_ITEMS
from .stream import API, Call, Node, Stream, extra_of

_MESSAGE_KEYS: Final = frozenset({"type", "role", "content"})
_REASONING_KEYS: Final = frozenset({"type", "summary"})
_OUTPUT_KEYS: Final = frozenset({"type", "call_id", "output"})


class Items(Stream):
    """Turns response items into nodes (the record level is `rollout.Rollout`)."""

    def _item(
        self, key: str, item: dict[str, Any], record_rest: dict[str, Any], *, replay: str | None = None
    ) -> None:
        raw = item.get("type")
        t = raw if isinstance(raw, str) else ""
        if t == "message":
            self._message(key, item, record_rest, replay)
        elif t in MODEL_ITEMS:
            self._model_item(key, item, record_rest, replay)
        elif t in OUTPUT_ITEMS:
            self._output(key, item, record_rest, replay)
        else:
            if t not in OPAQUE_ITEMS:
                what = repr(t[:40]) if isinstance(raw, str) else f"({describe(raw)})"
                self.notes.append((self._line, f"unknown response item type {what}: kept as a custom node"))
            self._close()
            label = t[:40] or "unknown"
            data: dict[str, Any] = {"custom_type": f"codex.item.{label}", "data": item}
            if record_rest or replay:
                data["extra"] = self._extra(record_rest, replay)
            self._emit(Node(self._entry(key, CUSTOM, data=data), self._line))

    @staticmethod
    def _extra(record_rest: dict[str, Any], replay: str | None) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if record_rest:
            extra["record"] = record_rest
        if replay:
            extra["replacement_of"] = replay
        return extra

    def _message(
        self, key: str, item: dict[str, Any], record_rest: dict[str, Any], replay: str | None
    ) -> None:
        role = item.get("role")
        content = blocks(item.get("content"), self.issues)
        unnamed = rest(item, _MESSAGE_KEYS)
        if role == "assistant":
            entry = self._assistant(key, record_rest, replay)
            entry.content.extend(content)
            self._said["agent_message"] = text_of(content)
            if unnamed:
                extra_of(entry).setdefault("items", []).append({"line": self._line, **unnamed})
            return
        self._close()
        extra = self._extra(record_rest, replay)
        if unnamed:
            extra["message"] = unnamed
        if not isinstance(role, str):
            note(
                self.issues,
                f"payload.role is {describe(role)}, not a string",
                "the message is kept as a custom node",
            )
            role = ""
        first = next((str(b.get("text") or "") for b in content if b.get("type") == "text"), "")
        custom_type = context_type(role, first)
        if role == USER and custom_type is None:
            if replay is None:
                words = text_of(content)
                self._said["user_message"] = words
                if self.first_prompt is None:
                    self.first_prompt = prompt_title(words)
            entry = self._entry(key, MESSAGE, USER, content=content, data={"extra": extra} if extra else {})
        elif custom_type is not None:
            details: dict[str, Any] = {"role": role}
            if extra:
                details["extra"] = extra
            data = {"custom_type": custom_type, "display": True, "details": details}
            entry = self._entry(key, CUSTOM_MESSAGE, content=content, data=data)
        else:
            self.notes.append((self._line, f"message role {role[:40]!r} is unknown: kept as a custom node"))
            data = {"custom_type": "codex.item.message", "data": item}
            if extra:
                data["extra"] = extra
            entry = self._entry(key, CUSTOM, data=data)
        self._emit(Node(entry, self._line))

    def _assistant(self, key: str, record_rest: dict[str, Any], replay: str | None) -> Entry:
        """The node of the call this model output item belongs to (a new one if none is open)."""
        entry = self._open
        if entry is not None:
            extra = extra_of(entry)
            extra.setdefault("merged_lines", []).append(self._line)
            if record_rest:
                extra.setdefault("records", []).append({"line": self._line, **record_rest})
            return entry
        self.ready.extend(self._held)  # an earlier call still waiting gets no usage now
        self._held.clear()
        data: dict[str, Any] = {
            "provider": self._provider,
            "model": self._model,
            "api": API,
            "error_message": None,
        }
        if record_rest or replay:
            data["extra"] = self._extra(record_rest, replay)
        entry = self._entry(key, MESSAGE, ASSISTANT, data=data)
        node = Node(entry, self._line)
        self.last_key = key
        if replay is None:
            self._held.append(node)
            self._open = self._waiting = entry
        else:  # a replacement item: part of a context, not a call that reports usage
            self.ready.append(node)
            self._open, self._waiting = entry, None
        return entry

    def _model_item(
        self, key: str, item: dict[str, Any], record_rest: dict[str, Any], replay: str | None
    ) -> None:
        t = item["type"]
        entry = self._assistant(key, record_rest, replay)
        if t == "reasoning":
            summary = item.get("summary")
            texts: list[str] = []
            if isinstance(summary, list):
                for i, s in enumerate(summary):
                    if isinstance(s, dict) and isinstance(s.get("text"), str):
                        texts.append(s["text"])
                    else:
                        note(self.issues, f"payload.summary[{i}] has no text", "it is left out")
            elif summary is not None:
                note(
                    self.issues,
                    f"payload.summary is {describe(summary)}, not an array",
                    "no summary is recorded",
                )
            if any(texts):
                entry.content.append({"type": "thinking", "thinking": "\n\n".join(texts), "signature": None})
                self._said["agent_reasoning"] = texts[-1]
            unnamed = rest(item, _REASONING_KEYS)
            if unnamed:
                extra_of(entry).setdefault("reasoning", []).append({"line": self._line, **unnamed})
            return
        if t in HOSTED:
            entry.content.append(dict(item))
            return
        block = call_block(item, self.issues)
        entry.content.append(block)
        call_id = block["id"]
        if isinstance(call_id, str):
            self._calls[call_id] = Call(block["name"], self._line)

    def _output(
        self, key: str, item: dict[str, Any], record_rest: dict[str, Any], replay: str | None
    ) -> None:
        self._close()
        call_id = string(item.get("call_id"), "payload.call_id", self.issues)
        call = self._calls.pop(call_id, None) if call_id is not None else None
        if call is None and replay is None:
            self.notes.append((self._line, f"output of call {call_id!r}, which is not in the file before it"))
        content, success = output_content(item.get("output"), self.issues, "payload.output")
        facts = exec_facts(text_of(content)) if content else ExecFacts()
        extra = self._extra(record_rest, replay)
        if facts.output is not None and len(content) == 1:
            # Shown and summarized as the command's text; `json` says Codex wrapped it (with the
            # exit code and duration kept here, the wrapper can be written back as it was).
            content = [{"type": "text", "text": facts.output}]
            extra["exec_output"] = "json"
        unnamed = rest(item, _OUTPUT_KEYS)
        if unnamed:
            extra["item"] = unnamed
        if facts.duration_seconds is not None:
            extra["duration_seconds"] = facts.duration_seconds
        if success is not None:
            extra["success"] = success
        data: dict[str, Any] = {
            "tool_call_id": call_id,
            "tool_name": call.name if call is not None else None,
            "is_error": success is False or (facts.exit_code is not None and facts.exit_code != 0),
        }
        if facts.exit_code is not None:
            data["exit_code"] = facts.exit_code
        if extra:
            data["extra"] = extra
        self._emit(Node(self._entry(key, MESSAGE, TOOL_RESULT, content=content, data=data), self._line))
