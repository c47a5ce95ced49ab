"""A tiny pi v3 session writer for hand-written corpus sessions (no Cutpoint imports).

Keeps a virtual file tree so that `read` returns what earlier `write`/`edit` calls left, `edit`
checks its old text occurs exactly once (as pi's edit tool does) and reports a diff the way pi's
tool details do. Ids and timestamps are derived from a counter, so regenerating gives the same file.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any


class PiSession:
    def __init__(self, cwd: str, start: str, model: str = "claude-sonnet-4-5", seed: str = "s") -> None:
        self.cwd = cwd
        self.model = model
        self.seed = seed
        self.t = datetime.fromisoformat(start).replace(tzinfo=UTC)
        self.lines: list[dict[str, Any]] = []
        self.parent: str | None = None
        self.n = 0
        self.files: dict[str, str] = {}
        self.context = 2600  # system prompt + tools, as the first usage would show
        self.calls = 0
        self.pending: dict[str, tuple[str, dict[str, Any]]] = {}
        sid = hashlib.sha1(f"{seed}-session".encode()).hexdigest()
        self.header = {
            "type": "session",
            "version": 3,
            "id": f"{sid[:8]}-{sid[8:12]}-4{sid[13:16]}-a{sid[17:20]}-{sid[20:32]}",
            "timestamp": self._iso(),
            "cwd": cwd,
        }

    # --- plumbing -------------------------------------------------------------------------
    def _iso(self) -> str:
        return f"{self.t:%Y-%m-%dT%H:%M:%S}.{self.t.microsecond // 1000:03d}Z"

    def _tick(self, seconds: float) -> None:
        self.t += timedelta(seconds=seconds)

    def _id(self) -> str:
        self.n += 1
        return hashlib.sha1(f"{self.seed}-{self.n}".encode()).hexdigest()[:8]

    def _ms(self) -> int:
        return int(self.t.timestamp() * 1000)

    def _add(self, message: dict[str, Any]) -> None:
        eid = self._id()
        self.lines.append(
            {
                "type": "message",
                "id": eid,
                "parentId": self.parent,
                "timestamp": self._iso(),
                "message": message,
            }
        )
        self.parent = eid
        self.context += sum(len(json.dumps(b)) for b in message.get("content", [])) // 4

    def abs(self, path: str) -> str:
        return path if path.startswith("/") else f"{self.cwd}/{path}"

    # --- roles ----------------------------------------------------------------------------
    def user(self, text: str, pause: float = 40) -> None:
        self._tick(pause)
        self._add({"role": "user", "content": [{"type": "text", "text": text}], "timestamp": self._ms()})

    def assistant(
        self,
        text: str | None = None,
        calls: list[tuple[str, dict[str, Any]]] | None = None,
        thinking: str | None = None,
    ) -> list[str]:
        self._tick(6 + 3 * len(calls or []))
        content: list[dict[str, Any]] = []
        if thinking:
            content.append({"type": "thinking", "thinking": thinking, "thinkingSignature": ""})
        if text:
            content.append({"type": "text", "text": text})
        ids = []
        for name, args in calls or []:
            self.calls += 1
            cid = "toolu_01" + hashlib.sha1(f"{self.seed}-call-{self.calls}".encode()).hexdigest()[:22]
            ids.append(cid)
            content.append({"type": "toolCall", "id": cid, "name": name, "arguments": args})
            self.pending[cid] = (name, args)
        out = 40 + sum(len(json.dumps(b)) for b in content) // 4
        cache_read = self.context - 180
        usage = {
            "input": 180,
            "output": out,
            "cacheRead": cache_read,
            "cacheWrite": 0,
            "totalTokens": 180 + out + cache_read,
            "cost": {
                "input": round(180 * 3e-6, 6),
                "output": round(out * 15e-6, 6),
                "cacheRead": round(cache_read * 3e-7, 6),
                "cacheWrite": 0,
                "total": round(180 * 3e-6 + out * 15e-6 + cache_read * 3e-7, 6),
            },
        }
        self._add(
            {
                "role": "assistant",
                "content": content,
                "api": "anthropic-messages",
                "provider": "anthropic",
                "model": self.model,
                "usage": usage,
                "stopReason": "toolUse" if calls else "stop",
                "timestamp": self._ms(),
            }
        )
        return ids

    def result(
        self, cid: str, text: str, is_error: bool = False, details: dict[str, Any] | None = None
    ) -> None:
        name, _ = self.pending.pop(cid)
        self._tick(1.5)
        msg: dict[str, Any] = {
            "role": "toolResult",
            "toolCallId": cid,
            "toolName": name,
            "content": [{"type": "text", "text": text}],
        }
        if details is not None:
            msg["details"] = details
        msg["isError"] = is_error
        msg["timestamp"] = self._ms()
        self._add(msg)

    # --- tools with a virtual tree ----------------------------------------------------------
    def read(self, path: str, text: str | None = None) -> None:
        """One assistant call to read `path` and its result (the stored content unless given)."""
        (cid,) = self.assistant(calls=[("read", {"path": self.abs(path)})])
        self.result(cid, text if text is not None else self.files[path])

    def reads(self, paths: list[str], text: str | None = None) -> None:
        ids = self.assistant(text, calls=[("read", {"path": self.abs(p)}) for p in paths])
        for cid, p in zip(ids, paths, strict=True):
            self.result(cid, self.files[p])

    def write(self, path: str, content: str, text: str | None = None) -> None:
        (cid,) = self.assistant(text, calls=[("write", {"path": self.abs(path), "content": content})])
        self.files[path] = content
        self.result(cid, f"Successfully wrote {len(content.encode())} bytes to {self.abs(path)}")

    def edit(self, path: str, old: str, new: str, text: str | None = None) -> None:
        (cid,) = self.assistant(
            text, calls=[("edit", {"path": self.abs(path), "oldText": old, "newText": new})]
        )
        before = self.files[path]
        assert before.count(old) == 1, (path, old[:60], before.count(old))
        after = before.replace(old, new)
        self.files[path] = after
        self.result(
            cid,
            f"Successfully replaced text in {self.abs(path)}. "
            f"Changed {len(old)} characters to {len(new)} characters.",
            details={"diff": _diff(before, after)},
        )

    def patched(self, path: str, *pairs: tuple[str, str]) -> str:
        """`path`'s content after replacing each old text (once, checked) by its new text; no call."""
        text = self.files[path]
        for old, new in pairs:
            assert text.count(old) == 1, (path, old[:60], text.count(old))
            text = text.replace(old, new)
        return text

    def rewrite(self, path: str, *pairs: tuple[str, str], text: str | None = None) -> None:
        """A `write` of the whole file, its content being `patched(path, *pairs)`."""
        self.write(path, self.patched(path, *pairs), text=text)

    def bash(self, command: str, output: str, code: int = 0, text: str | None = None) -> None:
        (cid,) = self.assistant(text, calls=[("bash", {"command": command})])
        output = output or "(no output)"
        if code:
            self.result(cid, f"{output}\n\nCommand exited with code {code}", is_error=True)
        else:
            self.result(cid, output)

    def snapshot(self) -> None:
        """Remember the tree as committed (what `git_diff` compares with)."""
        self.committed = dict(self.files)

    def git_diff(self, paths: list[str]) -> str:
        """`git diff -- paths` between the snapshot and now (new files as /dev/null diffs)."""
        return git_diff(self.committed, self.files, paths)

    def save(self, path: Path) -> None:
        with path.open("w", encoding="utf-8") as fh:
            for obj in [self.header, *self.lines]:
                fh.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")


def _diff(before: str, after: str) -> str:
    a, b = before.splitlines(), after.splitlines()
    out: list[str] = []
    width = len(str(max(len(a), len(b))))
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "equal":
            span = range(i1, i2)
            if len(span) > 4:
                for i in list(span)[:2]:
                    out.append(f" {i + 1:>{width}} {a[i]}")
                out.append(f" {'':>{width}} ...")
                for i in list(span)[-2:]:
                    out.append(f" {i + 1:>{width}} {a[i]}")
            else:
                out.extend(f" {i + 1:>{width}} {a[i]}" for i in span)
            continue
        out.extend(f"-{i + 1:>{width}} {a[i]}" for i in range(i1, i2))
        out.extend(f"+{j + 1:>{width}} {b[j]}" for j in range(j1, j2))
    return "\n".join(out)


def git_diff(committed: dict[str, str], files: dict[str, str], paths: list[str]) -> str:
    """`git diff -- paths` from `committed` to `files` (a path missing on one side is new/deleted)."""
    out: list[str] = []
    for path in paths:
        old = committed.get(path)
        new = files.get(path)
        if old == new:
            continue
        a = (old or "").splitlines(keepends=True)
        b = (new or "").splitlines(keepends=True)
        out.append(f"diff --git a/{path} b/{path}\n")
        if old is None:
            out.append("new file mode 100644\n")
        digest_a = hashlib.sha1(old.encode()).hexdigest()[:7] if old else "0000000"
        digest_b = hashlib.sha1(new.encode()).hexdigest()[:7] if new else "0000000"
        out.append(f"index {digest_a}..{digest_b}" + (" 100644\n" if old and new else "\n"))
        src = "a/" + path if old is not None else "/dev/null"
        dst = "b/" + path if new is not None else "/dev/null"
        lines = difflib.unified_diff(a, b, src, dst, n=3)
        out.extend(line if line.endswith("\n") else line + "\n" for line in lines)
    return "".join(out).rstrip("\n")
