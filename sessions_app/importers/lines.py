"""Reading a JSONL file line by line, with a cap on line length, and the problem policy.

A file is never read whole: 1 MB chunks, split into lines here (at most `max_line_bytes` of a
line is kept), so a 100 MB session costs the memory of a chunk and its longest line plus what the
importer keeps per entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO, Any, NoReturn

import orjson

from sessions_app.formats import jsonl

from .errors import ImportFailed, LineProblem

DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024
_DRAIN = 1 << 20
_CHUNK = 1 << 20
_BOM = b"\xef\xbb\xbf"
_NOTES_SHOWN = 3

Progress = Callable[[int, int | None, int], None]  # (bytes read, total bytes or None, lines read)
Warn = Callable[[int, str], None]  # (line, what was repaired)


def _truncated(problem: str) -> str:
    return f"truncated last line (no newline at the end, JSON {problem})"


def _replaced(notes: list[tuple[str, str]]) -> str:
    """One warning for the text `jsonl.scrub` replaced on a line: each field and what it held."""
    shown = [f"{what} in {field}" for field, what in notes[:_NOTES_SHOWN]]
    more = len(notes) - len(shown)
    listed = "; ".join(shown) + (f"; and {more} more field{'s' if more > 1 else ''}" if more else "")
    return f"text that cannot be stored: {listed}; replaced by U+FFFD"


class LineReader:
    """Yields `(line number, object, None)` for each non-blank line holding a JSON object and
    `(line number, None, problem)` for each line that does not; blank lines are skipped.

    Lines are decoded as `formats.jsonl` describes: nesting past `jsonl.MAX_DEPTH`, NaN,
    Infinity and numbers out of a double's range make a bad line; lone surrogates and NUL
    characters are replaced by U+FFFD here, before anything else sees the object, and `warn`
    (if given) hears of each line where that happened, with the fields."""

    def __init__(
        self,
        fh: IO[bytes],
        file: str,
        *,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        total_bytes: int | None = None,
        progress: Progress | None = None,
        progress_every: int = 8 * 1024 * 1024,
        chunk_bytes: int = _CHUNK,
        warn: Warn | None = None,
    ) -> None:
        if max_line_bytes < 1 or chunk_bytes < 1:
            raise ValueError("max_line_bytes and chunk_bytes must be positive")
        self.fh = fh
        self.file = file
        self.max_line_bytes = max_line_bytes
        self.total_bytes = total_bytes
        self.bytes_read = 0
        self.lines = 0  # physical lines read so far
        self.records = 0  # non-blank lines
        self._progress = progress
        self._warn = warn
        self._every = max(progress_every, 1)
        self._pushed: list[tuple[int, dict[str, Any] | None, str | None]] = []
        self._chunk_bytes = chunk_bytes
        self._buf = b""  # the chunk being split into lines, from `_pos` on
        self._pos = 0

    def push_back(self, item: tuple[int, dict[str, Any] | None, str | None]) -> None:
        """Return a line to the reader (format detection reads the first record ahead)."""
        self._pushed.append(item)

    def _chunk(self) -> bytes:
        data: bytes | str = self.fh.read(self._chunk_bytes)
        if isinstance(data, str):  # a text-mode handle: treat its text as UTF-8
            text = data
            try:
                data = text.encode("utf-8", "surrogateescape")
            except UnicodeEncodeError:  # a surrogate no byte stands for: invalid UTF-8, reported
                data = text.encode("utf-8", "surrogatepass")
        return data

    def _scrub(self, n: int, obj: Any) -> Any:
        obj, notes = jsonl.scrub(obj)
        if notes and self._warn is not None:
            self._warn(n, _replaced(notes))
        return obj

    def _read(self, limit: int) -> bytes:
        """Like `fh.readline(limit)`, from 1 MB chunks: one read call per megabyte instead of one
        per 8 KB buffer, so the estimate thread takes the GIL from the reader less often
        (measured: 3% of a big import)."""
        buf, pos = self._buf, self._pos
        nl = buf.find(b"\n", pos, pos + limit)
        if nl >= 0:
            self._pos = nl + 1
            raw = buf[pos : nl + 1]
        else:
            raw = buf[pos : pos + limit]
            self._pos = pos + len(raw)
            if len(raw) < limit:  # the line goes on in the next chunks
                parts = [raw]
                have = len(raw)
                while True:
                    chunk = self._chunk()
                    self._buf, self._pos = chunk, 0
                    if not chunk:
                        break
                    nl = chunk.find(b"\n", 0, limit - have)
                    end = nl + 1 if nl >= 0 else min(len(chunk), limit - have)
                    parts.append(chunk[:end])
                    have += end
                    self._pos = end
                    if nl >= 0 or have >= limit:
                        break
                raw = b"".join(parts)
        self.bytes_read += len(raw)
        return raw

    def __iter__(self) -> Iterator[tuple[int, dict[str, Any] | None, str | None]]:
        while self._pushed:
            yield self._pushed.pop()
        cap = self.max_line_bytes
        fast_loads = orjson.loads
        fast_error = orjson.JSONDecodeError
        may_be_deep = jsonl.may_be_deep
        nul = jsonl.has_nul_escape
        mark = self.bytes_read + self._every if self._progress else -1
        while True:
            raw = self._read(cap + 1)
            if not raw:
                break
            self.lines += 1
            n = self.lines
            ended = raw.endswith(b"\n")
            if not ended and len(raw) > cap:
                while True:  # skip the rest of the line without holding it
                    rest = self._read(_DRAIN)
                    if not rest or rest.endswith(b"\n"):
                        break
                self.records += 1
                yield n, None, f"line is longer than the limit of {cap} bytes"
                continue
            if n == 1 and raw.startswith(_BOM):
                raw = raw[3:]
            line = raw.rstrip(b"\r\n") if ended else raw
            if not line or line.isspace():
                continue
            self.records += 1
            try:
                obj = fast_loads(line)
                if may_be_deep(line) and jsonl.value_depth(obj) > jsonl.MAX_DEPTH:
                    yield n, None, jsonl.too_deep().reason
                    continue
                dirty = nul(line)
            except fast_error:
                # orjson is strict (NaN, escaped lone surrogates, numbers past a double, nesting
                # past 1024) and its messages are terse: the standard library decides and words
                # the problem, within the depth limit. (orjson reads an integer past 64 bits as a
                # float; pi and Claude Code are JavaScript, whose numbers are all doubles, so
                # that is the value their writer meant; the standard library's path does too.)
                try:
                    obj = jsonl.slow_loads(line)
                except jsonl.BadJson as exc:
                    problem = exc.reason
                    if exc.syntax:
                        problem = f"malformed JSON: {problem}" if ended else _truncated(problem)
                    yield n, None, problem
                    continue
                dirty = True
            if not isinstance(obj, dict):
                yield n, None, f"not a JSON object but {jsonl.describe(obj)}"
                continue
            if dirty:
                obj = self._scrub(n, obj)
            yield n, obj, None
            if 0 <= mark <= self.bytes_read and self._progress is not None:
                self._progress(self.bytes_read, self.total_bytes, n)
                mark = self.bytes_read + self._every


class Problems:
    """What to do with a problem: without `skip_bad_lines` every problem is an error (the import
    fails and writes nothing); with it, unreadable lines are skipped and repairable ones are
    imported with the repair noted. Errors are collected up to `limit` to report them together."""

    def __init__(self, file: str, *, skip_bad_lines: bool, limit: int = 50) -> None:
        self.file = file
        self.skip_bad_lines = skip_bad_lines
        self.limit = limit
        self.errors: list[LineProblem] = []
        self.more = 0
        self.skipped: list[LineProblem] = []
        self.warnings: list[LineProblem] = []

    @property
    def failed(self) -> bool:
        return bool(self.errors)

    @property
    def full(self) -> bool:
        """Enough errors to report: stop reading."""
        return len(self.errors) >= self.limit

    def _error(self, line: int, problem: str) -> None:
        if len(self.errors) < self.limit:
            self.errors.append(LineProblem(self.file, line, problem))
        else:
            self.more += 1

    def bad(self, line: int, problem: str) -> None:
        """A line that cannot be imported: skipped with `skip_bad_lines`."""
        if self.skip_bad_lines:
            self.skipped.append(LineProblem(self.file, line, problem))
        else:
            self._error(line, problem)

    def repaired(self, line: int, problem: str, repair: str) -> None:
        """A line that can be imported after `repair`: done (and reported) with `skip_bad_lines`."""
        if self.skip_bad_lines:
            self.warnings.append(LineProblem(self.file, line, f"{problem}; {repair}"))
        else:
            self._error(line, problem)

    def warn(self, line: int, problem: str) -> None:
        self.warnings.append(LineProblem(self.file, line, problem))

    def fatal(self, line: int, problem: str) -> NoReturn:
        """A problem nothing can be imported past, whatever the mode."""
        problems = [*self.errors, LineProblem(self.file, line, problem)]
        raise ImportFailed(problems, more=self.more, skippable=False)

    def raise_if_failed(self) -> None:
        if self.errors:
            raise ImportFailed(list(self.errors), more=self.more)
