"""GenAI messages on a span (`gen_ai.input.messages` / `gen_ai.output.messages`, and the older
spellings) as the nodes they become (docs/telemetry.md, "Receiving spans"). No Django.

A semconv message is `{"role", "parts": [...], "finish_reason"?}`; it may arrive as a JSON
string (most SDKs) or as a structured attribute value. Older instrumentations are read too:

- `gen_ai.prompt` / `gen_ai.completion` as JSON text (an attribute, or an attribute of the
  `gen_ai.content.prompt` / `gen_ai.content.completion` span events) holding OpenAI-style
  messages (`content` a string or a list, `tool_calls`, `tool_call_id`);
- the flattened `gen_ai.prompt.<i>.role` / `.content` attributes (OpenLLMetry);
- one span event per message (`gen_ai.user.message`, `gen_ai.assistant.message`,
  `gen_ai.tool.message`, `gen_ai.system.message`, `gen_ai.choice`).

Every form is first turned into semconv messages, then into `Unit`s: one unit per node. A tool
message (or a user message carrying tool responses, as Anthropic's API does) becomes one unit per
response; system messages become none (they are the system prompt, which no node holds). Each
unit carries a fingerprint of what identifies it in a later call's history — its role, its text
and its tool-call ids, not reasoning (which providers drop from the history) — so the rebuild
can tell where a new call's input stops repeating the previous one.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from sessions_app.compaction.messages import ASSISTANT, TOOL_RESULT, USER, Block
from sessions_app.compaction.vocabulary import stop_reason
from sessions_app.formats.jsonl import BadJson, loads_text

from . import schema

_MAX_STOP_REASON: Final = 32  # Node.stop_reason (formats.fields.MAX_STOP_REASON)
_LEGACY_INDEXED: Final = re.compile(r"^gen_ai\.(prompt|completion)\.(\d+)\.(.+)$")
_EVENT_ROLES: Final[dict[str, str]] = {
    "gen_ai.system.message": "system",
    "gen_ai.user.message": "user",
    "gen_ai.assistant.message": "assistant",
    "gen_ai.tool.message": "tool",
}
LEGACY_PROMPT: Final = "gen_ai.prompt"
LEGACY_COMPLETION: Final = "gen_ai.completion"


class BadMessages(ValueError):
    """A messages attribute that cannot be read (names the attribute and the problem)."""


@dataclass(slots=True)
class Unit:
    """One node-to-be: role, content blocks, data, and the fingerprint that identifies it in a
    later call's history. `call_id` is set for tool results."""

    role: str
    content: list[Block]
    data: dict[str, Any] = field(default_factory=dict)
    fingerprint: str = ""
    call_id: str | None = None
    text: str = ""  # the unit's text, to recognise a compaction summary repeated as a message


def fingerprint(*parts: Any) -> str:
    return hashlib.blake2b(orjson.dumps(parts), digest_size=8).hexdigest()


def tool_result_fingerprint(call_id: str) -> str:
    """A tool result is identified by its call id alone: the span of the tool and the message the
    model saw may word the same result differently."""
    return fingerprint(TOOL_RESULT, call_id)


def finish_reason(value: Any) -> str | None:
    if not isinstance(value, str) or not value:
        return None
    ours = stop_reason(value) or value
    return ours if len(ours) <= _MAX_STOP_REASON else None


# --- reading the attributes ------------------------------------------------------------------


def _decode(value: Any, name: str) -> Any:
    if isinstance(value, str):
        try:
            return loads_text(value)
        except BadJson as exc:
            raise BadMessages(f"{name} is not JSON ({exc})") from None
    return value


def semconv_messages(value: Any, name: str) -> list[dict[str, Any]]:
    """`gen_ai.input.messages` / `gen_ai.output.messages` (JSON text or structured) as a list of
    message objects; raises BadMessages."""
    value = _decode(value, name)
    if isinstance(value, dict):  # a single message
        value = [value]
    if not isinstance(value, list):
        raise BadMessages(f"{name} is not a list of messages")
    out = []
    for i, m in enumerate(value):
        if not isinstance(m, dict):
            raise BadMessages(f"{name}[{i}] is not a message object")
        if "parts" not in m and ("content" in m or "tool_calls" in m):
            m = _openai_message(m)  # some SDKs put the provider's own shape here
        parts = m.get("parts")
        if not isinstance(parts, list):
            raise BadMessages(f"{name}[{i}] has no parts list")
        out.append(m)
    return out


def _openai_message(m: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI-style chat message (the older conventions' shape) as a semconv message."""
    role = m.get("role") if isinstance(m.get("role"), str) else "user"
    parts: list[dict[str, Any]] = []
    content = m.get("content")
    if role == "tool":
        parts.append(
            {"type": schema.PART_TOOL_CALL_RESPONSE, "id": m.get("tool_call_id"), "response": content}
        )
    elif isinstance(content, str):
        parts.append({"type": schema.PART_TEXT, "content": content})
    elif isinstance(content, list):
        for c in content:
            if isinstance(c, dict) and isinstance(c.get("text"), str):
                parts.append({"type": schema.PART_TEXT, "content": c["text"]})
            elif isinstance(c, str):
                parts.append({"type": schema.PART_TEXT, "content": c})
    for call in m.get("tool_calls") or ():
        if not isinstance(call, dict):
            continue
        fn: dict[str, Any] = call["function"] if isinstance(call.get("function"), dict) else call
        parts.append(
            {
                "type": schema.PART_TOOL_CALL,
                "id": call.get("id"),
                "name": fn.get("name"),
                "arguments": fn.get("arguments"),
            }
        )
    out = {"role": role, "parts": parts}
    if "finish_reason" in m:
        out["finish_reason"] = m["finish_reason"]
    return out


def legacy_messages(
    attrs: dict[str, Any], events: list[tuple[str, dict[str, Any]]]
) -> tuple[list[dict[str, Any]] | None, list[dict[str, Any]] | None]:
    """Input and output messages from the older conventions (None where a span has none)."""
    inp: list[dict[str, Any]] | None = None
    out: list[dict[str, Any]] | None = None
    for source in (attrs, *(a for name, a in events if name.startswith("gen_ai.content."))):
        if inp is None and LEGACY_PROMPT in source:
            inp = semconv_messages(source[LEGACY_PROMPT], LEGACY_PROMPT)
        if out is None and LEGACY_COMPLETION in source:
            out = semconv_messages(source[LEGACY_COMPLETION], LEGACY_COMPLETION)
    if inp is None or out is None:
        indexed: dict[str, dict[int, dict[str, Any]]] = {"prompt": {}, "completion": {}}
        for key, value in attrs.items():
            if key.startswith("gen_ai.p") or key.startswith("gen_ai.c"):
                found = _LEGACY_INDEXED.match(key)
                if found:
                    which, i, name = found.groups()
                    indexed[which].setdefault(int(i), {})[name] = value
        if inp is None and indexed["prompt"]:
            inp = [_openai_message(_flat(indexed["prompt"][i])) for i in sorted(indexed["prompt"])]
        if out is None and indexed["completion"]:
            out = [_openai_message(_flat(indexed["completion"][i])) for i in sorted(indexed["completion"])]
    if inp is None or out is None:
        ev_in: list[dict[str, Any]] = []
        ev_out: list[dict[str, Any]] = []
        for name, a in events:
            if name in _EVENT_ROLES:
                ev_in.append(_openai_message({"role": _EVENT_ROLES[name], **_event_body(a)}))
            elif name == "gen_ai.choice":
                body = _event_body(a)
                msg: dict[str, Any] = body["message"] if isinstance(body.get("message"), dict) else body
                ev_out.append(
                    _openai_message({"role": "assistant", **msg, "finish_reason": body.get("finish_reason")})
                )
        if inp is None and ev_in:
            inp = ev_in
        if out is None and ev_out:
            out = ev_out
    return inp, out


def _flat(fields: dict[str, Any]) -> dict[str, Any]:
    """OpenLLMetry's flattened message (`role`, `content`, `tool_calls.0.name`, ...)."""
    msg: dict[str, Any] = {k: v for k, v in fields.items() if "." not in k}
    calls: dict[int, dict[str, Any]] = {}
    for k, v in fields.items():
        if k.startswith("tool_calls."):
            _, i, name = [*k.split(".", 2), ""][:3]
            if i.isdigit():
                calls.setdefault(int(i), {})[name] = v
    if calls:
        msg["tool_calls"] = [calls[i] for i in sorted(calls)]
    return msg


def _event_body(attrs: dict[str, Any]) -> dict[str, Any]:
    """A per-message event's fields: its attributes, with JSON text in `content` / `message` /
    `tool_calls` decoded when it is JSON."""
    body = dict(attrs)
    for key in ("message", "tool_calls"):
        value = body.get(key)
        if isinstance(value, str):
            with contextlib.suppress(BadJson):
                body[key] = loads_text(value)
    if body.get("id") is not None and "tool_call_id" not in body:
        body["tool_call_id"] = body["id"]
    return body


# --- messages → units ------------------------------------------------------------------------


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    return orjson.dumps(value).decode()


def _arguments(value: Any) -> Any:
    """Tool-call arguments: an object as an object; JSON text holding one is decoded (several SDKs
    send the provider's argument string)."""
    if isinstance(value, str):
        try:
            decoded = loads_text(value)
        except BadJson:
            return value
        return decoded if isinstance(decoded, dict) else value
    return value


def _block(part: dict[str, Any], other: list[Any]) -> Block | None:
    t = part.get("type")
    if t == schema.PART_TEXT:
        return {"type": "text", "text": _text(part.get("content"))}
    if t == schema.PART_REASONING:
        signature = part.get("signature")  # Cutpoint's export keeps Anthropic's signature here
        return {
            "type": "thinking",
            "thinking": _text(part.get("content")),
            "signature": signature if isinstance(signature, str) else None,
        }
    if t == schema.PART_TOOL_CALL:
        call_id = part.get("id")
        name = part.get("name")
        return {
            "type": "tool_call",
            "id": call_id if isinstance(call_id, str) else None,
            "name": name if isinstance(name, str) else None,
            "arguments": _arguments(part.get("arguments")),
        }
    if t == schema.PART_BLOB:
        mime = part.get("mime_type")
        if part.get("modality") == "image" or (isinstance(mime, str) and mime.startswith("image/")):
            return {
                "type": "image",
                "mime_type": mime if isinstance(mime, str) else None,
                "data": _text(part.get("content")),
            }
    other.append(part)  # kept under data["extra"]["parts"], and named in the text
    return {"type": "text", "text": f"[{t or 'unknown'} part]"}


def part_block(part: dict[str, Any]) -> Block | None:
    """One message part as a content block (a part we have no block for becomes a text naming it)."""
    return _block(part, [])


def _tool_unit(part: dict[str, Any], names: dict[str, str], where: int) -> Unit:
    raw = part.get("id")
    call_id = raw if isinstance(raw, str) and raw else f"#{where}"
    content = response_blocks(part.get("response"))
    text = "\n".join(b["text"] for b in content if b["type"] == "text")
    data: dict[str, Any] = {"tool_call_id": call_id, "tool_name": names.get(call_id, ""), "is_error": False}
    return Unit(TOOL_RESULT, content, data, tool_result_fingerprint(call_id), call_id, text)


def response_blocks(response: Any) -> list[Block]:
    """A tool's response (a `tool_call_response` part, `gen_ai.tool.call.result`) as content
    blocks: text as one text block, a list of message parts as their blocks, any other value as
    its JSON text."""
    if (
        isinstance(response, list)
        and response
        and all(isinstance(p, dict) and isinstance(p.get("type"), str) for p in response)
    ):
        other: list[Any] = []
        return [b for p in response for b in [_block(p, other)] if b is not None]
    return [{"type": "text", "text": _text(response)}]


def tool_result_value(value: Any) -> Any:
    """`gen_ai.tool.call.result`: JSON text is decoded (the conventions record the result as JSON
    when it is structured, and Cutpoint's export always does); other text is the result itself."""
    if isinstance(value, str):
        try:
            return loads_text(value)
        except BadJson:
            return value
    return value


def _message_unit(role: str, parts: list[dict[str, Any]], names: dict[str, str]) -> Unit:
    other: list[Any] = []
    blocks = [b for p in parts if isinstance(p, dict) for b in [_block(p, other)] if b is not None]
    data: dict[str, Any] = {}
    if other:
        data["extra"] = {"parts": other}
    texts = [b["text"] for b in blocks if b["type"] == "text"]
    calls = []
    for b in blocks:
        if b["type"] == "tool_call":
            calls.append(b["id"])
            if isinstance(b["id"], str) and isinstance(b["name"], str):
                names[b["id"]] = b["name"]
        elif b["type"] == "image":
            texts.append(hashlib.blake2b(str(b["data"]).encode(), digest_size=8).hexdigest())
    text = "\n".join(texts)
    return Unit(role, blocks, data, fingerprint(role, texts, calls), None, text)


def units(messages: list[dict[str, Any]], names: dict[str, str]) -> tuple[list[Unit], list[str]]:
    """The nodes a list of semconv messages becomes, and the text of its system messages.
    `names` maps tool-call ids to tool names; calls seen here are added to it."""
    out: list[Unit] = []
    system: list[str] = []
    for i, m in enumerate(messages):
        role = m.get("role")
        parts = [p for p in m.get("parts") or () if isinstance(p, dict)]
        if role == "system":
            system.extend(_text(p.get("content")) for p in parts if p.get("type") == schema.PART_TEXT)
            continue
        responses = [p for p in parts if p.get("type") == schema.PART_TOOL_CALL_RESPONSE]
        rest = [p for p in parts if p.get("type") != schema.PART_TOOL_CALL_RESPONSE]
        out.extend(_tool_unit(p, names, i) for p in responses)
        if rest or (not responses and role != "tool"):
            ours = ASSISTANT if role == "assistant" else USER
            out.append(_message_unit(ours, rest, names))
    return out, system


def output_unit(messages: list[dict[str, Any]], names: dict[str, str]) -> tuple[Unit, str | None]:
    """The assistant node of a call's output (its first choice; others are kept in `extra`) and
    its finish reason in our words."""
    first = messages[0] if messages else {"parts": []}
    parts = [p for p in first.get("parts") or () if isinstance(p, dict)]
    unit = _message_unit(ASSISTANT, parts, names)
    if len(messages) > 1:
        unit.data.setdefault("extra", {})["other_choices"] = messages[1:]
    return unit, finish_reason(first.get("finish_reason"))
