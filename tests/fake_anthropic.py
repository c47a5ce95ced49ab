"""A fake Anthropic Messages API on a loopback port, for testing the real SDK via `base_url`.

stdlib only (`http.server.ThreadingHTTPServer` in a daemon thread). Speaks:

* `POST /v1/messages` — JSON, or SSE when the body has `"stream": true`, with the real event
  sequence: `message_start` (usage incl. cache fields), `ping`, per block `content_block_start` /
  `content_block_delta` (text_delta, thinking_delta + signature_delta, input_json_delta chunks) /
  `content_block_stop`, `message_delta` (stop_reason, usage.output_tokens), `message_stop`.
* `POST /v1/messages/count_tokens` — `{"input_tokens": N}`.

Pytest fixture (function scope): `fake_anthropic` → a started `FakeAnthropic`, stopped afterwards
(held streams are released first). Outside pytest: `with running_fake_anthropic() as fake: ...`.

Scripting (`fake` is a `FakeAnthropic`):

    fake.base_url                              # "http://127.0.0.1:<port>", pass as base_url
    fake.queue(reply, ...)                     # FIFO; one reply per /v1/messages request
    fake.handler = fn                          # fn(RecordedRequest) -> Reply | ErrorReply | None,
                                               #   used when the queue is empty
    fake.default = Reply(...)                  # used when queue and handler give nothing
                                               #   (otherwise: HTTP 400 "no reply queued")
    fake.count_tokens = 1234 | fn(body)->int   # count_tokens answer (default: chars/4 of the body)
    fake.requests                              # every RecordedRequest (method, path, headers, body)
    fake.message_requests / fake.count_requests
    fake.wait_for_requests(n, timeout=5)       # block until n /v1/messages requests arrived
    fake.release_all(); fake.reset(); fake.close()

Replies:

    Reply(content=[text("hi"), thinking("hmm", signature="sig"), tool_use("read", {"path": "a"})],
          stop_reason=None,            # default: "tool_use" if a tool_use block, else "end_turn"
          usage={"input_tokens": .., "output_tokens": .., "cache_read_input_tokens": ..,
                 "cache_creation_input_tokens": ..},   # missing keys are estimated / 0
          model=None,                  # default: the request's model
          chunk_size=8,                # characters per text/thinking/json delta
          event_delay=0.0,             # seconds the server sleeps before each SSE event (slow streams)
          error_after=None,            # send an SSE `event: error` after this many deltas ...
          error_type="overloaded_error", error_message="Overloaded",   # ... with this error
          drop_after=None,             # or just close the connection after this many deltas
          hold=None, hold_after=0,     # threading.Event: after `hold_after` deltas the server sets
                                       #   `reply.held` and waits until `hold` is set
          headers={})
    ErrorReply(status, error_type, message, headers={})

Factories: `text_reply(text, **kw)`, `tool_reply(name, input, text=None, **kw)`,
`overflow_error(tokens=210000, maximum=200000)` (400 "prompt is too long: 210000 tokens > 200000
maximum"), `rate_limit_error()` (429), `overloaded_error()` (529 `overloaded_error`), and
`stream_error_reply(text, error_after=2)` (mid-stream `event: error`). Error factories send
`retry-after-ms: 1` so the SDK's retries are immediate.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

Block = dict[str, Any]
HOLD_TIMEOUT = 30.0  # a held stream is released after this long even if nobody sets `hold`

# --------------------------------------------------------------------------------------------
# Reply scripting
# --------------------------------------------------------------------------------------------


def text(value: str) -> Block:
    return {"type": "text", "text": value}


def thinking(value: str, signature: str = "sig_fake") -> Block:
    return {"type": "thinking", "thinking": value, "signature": signature}


def redacted_thinking(data: str = "redacted_fake") -> Block:
    return {"type": "redacted_thinking", "data": data}


def tool_use(name: str, input: dict[str, Any], id: str | None = None) -> Block:
    block: Block = {"type": "tool_use", "name": name, "input": input}
    if id is not None:
        block["id"] = id
    return block


@dataclass
class Reply:
    """A successful /v1/messages reply (streamed or JSON, as the request asks)."""

    content: list[Block] = field(default_factory=list)
    stop_reason: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    model: str | None = None
    chunk_size: int = 8
    event_delay: float = 0.0
    error_after: int | None = None
    error_type: str = "overloaded_error"
    error_message: str = "Overloaded"
    drop_after: int | None = None  # close the connection silently after this many deltas
    hold: threading.Event | None = None
    hold_after: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    held: threading.Event = field(default_factory=threading.Event)  # set by the server when holding


@dataclass
class ErrorReply:
    """An HTTP error reply: `{"type": "error", "error": {"type": error_type, "message": message}}`."""

    status: int
    error_type: str
    message: str
    headers: dict[str, str] = field(default_factory=dict)


def text_reply(value: str, **kwargs: Any) -> Reply:
    return Reply(content=[text(value)], **kwargs)


def tool_reply(name: str, input: dict[str, Any], text_before: str | None = None, **kwargs: Any) -> Reply:
    content = [text(text_before)] if text_before else []
    return Reply(content=[*content, tool_use(name, input)], **kwargs)


def overflow_error(tokens: int = 210_000, maximum: int = 200_000) -> ErrorReply:
    return ErrorReply(
        400, "invalid_request_error", f"prompt is too long: {tokens} tokens > {maximum} maximum"
    )


def rate_limit_error(
    message: str = "Number of request tokens has exceeded your per-minute rate limit",
) -> ErrorReply:
    return ErrorReply(429, "rate_limit_error", message, headers={"retry-after-ms": "1", "retry-after": "0"})


def overloaded_error(message: str = "Overloaded") -> ErrorReply:
    return ErrorReply(529, "overloaded_error", message, headers={"retry-after-ms": "1", "retry-after": "0"})


def stream_error_reply(
    value: str = "partial answer that will not finish",
    error_after: int = 2,
    error_type: str = "overloaded_error",
    error_message: str = "Overloaded",
) -> Reply:
    return Reply(
        content=[text(value)], error_after=error_after, error_type=error_type, error_message=error_message
    )


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # lower-cased names
    body: Any
    index: int = 0

    @property
    def system_text(self) -> str:
        """The system prompt as plain text (string or list of text blocks)."""
        system = self.body.get("system") if isinstance(self.body, dict) else None
        if isinstance(system, list):
            return "".join(b.get("text", "") for b in system if isinstance(b, dict))
        return system or ""

    @property
    def last_user_text(self) -> str:
        for message in reversed(self.body.get("messages", [])):
            if message.get("role") == "user":
                content = message.get("content")
                if isinstance(content, str):
                    return content
                return "".join(b.get("text", "") for b in content if b.get("type") == "text")
        return ""


Handler = Callable[[RecordedRequest], "Reply | ErrorReply | None"]

# --------------------------------------------------------------------------------------------
# Server
# --------------------------------------------------------------------------------------------


def _estimate(value: Any) -> int:
    return max(1, len(json.dumps(value, ensure_ascii=False)) // 4)


def _chunks(value: str, size: int) -> list[str]:
    size = max(1, size)
    return [value[i : i + size] for i in range(0, len(value), size)] or [""]


class FakeAnthropic:
    """The fake server; see the module docstring."""

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self.handler: Handler | None = None
        self.default: Reply | ErrorReply | None = None
        self.count_tokens: int | Callable[[dict[str, Any]], int] | None = None
        self._queue: deque[Reply | ErrorReply] = deque()
        self._cond = threading.Condition()
        self._ids = itertools.count(1)
        self._holds: list[threading.Event] = []
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ----------------------------------------------------------------------------
    def start(self) -> FakeAnthropic:
        fake = self

        class _Handler(_RequestHandler):
            owner = fake

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.02},
            name="fake-anthropic",
            daemon=True,
        )
        self._thread.start()
        return self

    @property
    def port(self) -> int:
        assert self._server is not None, "server not started"
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.release_all()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    # -- scripting ----------------------------------------------------------------------------
    def queue(self, *replies: Reply | ErrorReply) -> None:
        with self._cond:
            self._queue.extend(replies)
            for reply in replies:
                if isinstance(reply, Reply) and reply.hold is not None:
                    self._holds.append(reply.hold)

    @property
    def pending(self) -> int:
        with self._cond:
            return len(self._queue)

    def release_all(self) -> None:
        with self._cond:
            holds = list(self._holds)
        for hold in holds:
            hold.set()

    def reset(self) -> None:
        with self._cond:
            self._queue.clear()
            self.requests.clear()
        self.handler = None
        self.default = None
        self.count_tokens = None

    @property
    def message_requests(self) -> list[RecordedRequest]:
        with self._cond:
            return [r for r in self.requests if r.path.rstrip("/").endswith("/v1/messages")]

    @property
    def count_requests(self) -> list[RecordedRequest]:
        with self._cond:
            return [r for r in self.requests if r.path.rstrip("/").endswith("/count_tokens")]

    def wait_for_requests(self, n: int, timeout: float = 5.0) -> list[RecordedRequest]:
        """Block until at least `n` /v1/messages requests arrived (raises TimeoutError)."""

        def enough() -> bool:
            return sum(1 for r in self.requests if r.path.rstrip("/").endswith("/v1/messages")) >= n

        with self._cond:
            if not self._cond.wait_for(enough, timeout=timeout):
                raise TimeoutError(f"fake_anthropic: expected {n} requests, got {len(self.requests)}")
        return self.message_requests

    # -- used by the request handler -----------------------------------------------------------
    def _record(self, method: str, path: str, headers: dict[str, str], body: Any) -> RecordedRequest:
        with self._cond:
            rec = RecordedRequest(method, path, headers, body, index=len(self.requests))
            self.requests.append(rec)
            self._cond.notify_all()
            return rec

    def _next_reply(self, rec: RecordedRequest) -> Reply | ErrorReply:
        with self._cond:
            if self._queue:
                return self._queue.popleft()
        if self.handler is not None:
            reply = self.handler(rec)
            if reply is not None:
                if isinstance(reply, Reply) and reply.hold is not None:
                    with self._cond:
                        self._holds.append(reply.hold)
                return reply
        if self.default is not None:
            return self.default
        return ErrorReply(400, "invalid_request_error", "fake_anthropic: no reply queued for this request")

    def _count(self, body: dict[str, Any]) -> int:
        if callable(self.count_tokens):
            return int(self.count_tokens(body))
        if self.count_tokens is not None:
            return int(self.count_tokens)
        return _estimate([body.get("system"), body.get("messages"), body.get("tools")])

    def _new_id(self, prefix: str) -> str:
        return f"{prefix}_fake_{next(self._ids)}"


class _RequestHandler(BaseHTTPRequestHandler):
    owner: FakeAnthropic
    protocol_version = "HTTP/1.0"  # the connection closes after each response; SSE ends at close

    def log_message(self, format: str, *args: Any) -> None:
        pass

    # -- plumbing ------------------------------------------------------------------------------
    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.send_header("request-id", self.owner._new_id("req"))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _send_error_reply(self, reply: ErrorReply) -> None:
        payload = {"type": "error", "error": {"type": reply.error_type, "message": reply.message}}
        self._send_json(reply.status, payload, reply.headers)

    def do_GET(self) -> None:
        self.owner._record("GET", self.path, {k.lower(): v for k, v in self.headers.items()}, None)
        self._send_error_reply(
            ErrorReply(404, "not_found_error", f"fake_anthropic: no route GET {self.path}")
        )

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            body = raw.decode("utf-8", "replace")
        headers = {k.lower(): v for k, v in self.headers.items()}
        path = self.path.split("?", 1)[0].rstrip("/")
        rec = self.owner._record("POST", self.path, headers, body)
        try:
            if path.endswith("/v1/messages/count_tokens"):
                self._send_json(
                    200, {"input_tokens": self.owner._count(body if isinstance(body, dict) else {})}
                )
            elif path.endswith("/v1/messages"):
                self._messages(rec)
            else:
                self._send_error_reply(ErrorReply(404, "not_found_error", f"fake_anthropic: no route {path}"))
        except (BrokenPipeError, ConnectionResetError):  # the client went away mid-stream
            pass

    # -- /v1/messages --------------------------------------------------------------------------
    def _messages(self, rec: RecordedRequest) -> None:
        reply = self.owner._next_reply(rec)
        if isinstance(reply, ErrorReply):
            self._send_error_reply(reply)
            return
        body = rec.body if isinstance(rec.body, dict) else {}
        content = []
        for block in reply.content:
            block = dict(block)
            if block["type"] == "tool_use" and not block.get("id"):
                block["id"] = self.owner._new_id("toolu")
            content.append(block)
        has_tool = any(b["type"] == "tool_use" for b in content)
        usage = {
            "input_tokens": _estimate(body.get("messages", [])),
            "output_tokens": _estimate(content),
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            **reply.usage,
        }
        message = {
            "id": self.owner._new_id("msg"),
            "type": "message",
            "role": "assistant",
            "model": reply.model or body.get("model", "claude-fake"),
            "content": content,
            "stop_reason": reply.stop_reason or ("tool_use" if has_tool else "end_turn"),
            "stop_sequence": None,
            "usage": usage,
        }
        if body.get("stream"):
            self._stream(reply, message)
        else:
            self._send_json(200, message, reply.headers)

    def _event(self, reply: Reply, name: str, data: dict[str, Any]) -> None:
        if reply.event_delay > 0:
            time.sleep(reply.event_delay)
        self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
        self.wfile.flush()

    def _stream(self, reply: Reply, message: dict[str, Any]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.send_header("request-id", self.owner._new_id("req"))
        for key, value in reply.headers.items():
            self.send_header(key, value)
        self.end_headers()

        usage = message["usage"]
        start = {
            **message,
            "content": [],
            "stop_reason": None,
            "usage": {**usage, "output_tokens": min(1, usage["output_tokens"])},
        }
        self._event(reply, "message_start", {"type": "message_start", "message": start})
        self._event(reply, "ping", {"type": "ping"})
        deltas = 0

        def checkpoint() -> bool:
            """Hold or fail at the scripted delta count; False = stop streaming."""
            if reply.hold is not None and deltas == reply.hold_after and not reply.held.is_set():
                reply.held.set()
                reply.hold.wait(HOLD_TIMEOUT)
            if reply.drop_after is not None and deltas >= reply.drop_after:
                return False
            if reply.error_after is not None and deltas >= reply.error_after:
                error = {"type": reply.error_type, "message": reply.error_message}
                self._event(reply, "error", {"type": "error", "error": error})
                return False
            return True

        if not checkpoint():
            return
        for index, block in enumerate(message["content"]):
            kind = block["type"]
            if kind == "text":
                start_block: dict[str, Any] = {"type": "text", "text": ""}
                pieces = [("text_delta", "text", p) for p in _chunks(block["text"], reply.chunk_size)]
            elif kind == "thinking":
                start_block = {"type": "thinking", "thinking": "", "signature": ""}
                pieces = [
                    ("thinking_delta", "thinking", p) for p in _chunks(block["thinking"], reply.chunk_size)
                ]
                if block.get("signature"):
                    pieces.append(("signature_delta", "signature", block["signature"]))
            elif kind == "tool_use":
                start_block = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
                raw = json.dumps(block.get("input", {}))
                pieces = [("input_json_delta", "partial_json", "")]
                pieces += [("input_json_delta", "partial_json", p) for p in _chunks(raw, reply.chunk_size)]
            else:  # redacted_thinking and anything else arrive whole
                start_block, pieces = block, []
            self._event(
                reply,
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": start_block},
            )
            for delta_type, key, piece in pieces:
                delta = {"type": delta_type, key: piece}
                self._event(
                    reply,
                    "content_block_delta",
                    {"type": "content_block_delta", "index": index, "delta": delta},
                )
                deltas += 1
                if not checkpoint():
                    return
            self._event(reply, "content_block_stop", {"type": "content_block_stop", "index": index})
        self._event(
            reply,
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": usage["output_tokens"]},
            },
        )
        self._event(reply, "message_stop", {"type": "message_stop"})


# --------------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------------


@contextlib.contextmanager
def running_fake_anthropic() -> Iterator[FakeAnthropic]:
    fake = FakeAnthropic().start()
    try:
        yield fake
    finally:
        fake.close()


@pytest.fixture
def fake_anthropic() -> Iterator[FakeAnthropic]:
    """A started fake Anthropic server on 127.0.0.1:<free port>."""
    with running_fake_anthropic() as fake:
        yield fake
