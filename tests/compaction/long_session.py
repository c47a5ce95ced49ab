"""A long, scripted coding-agent session with planted facts, for measuring what compaction keeps.

The session builds `shelf`, a small bookmark manager (CLI, sqlite storage, JSON HTTP service) over
fourteen user turns. Facts of ten kinds are planted in the first eleven turns; the last three turns
are ordinary work that mentions none of them, so after the last compaction every planted fact is
visible to the model only if a summary carried it. `play` replays the script through the engine
(usage, threshold, `prepare`) with any compactor and returns the final path.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from functools import cached_property
from typing import Any

from sessions_app.compaction.budget import context_tokens, should_compact
from sessions_app.compaction.context import build_context, context_entries
from sessions_app.compaction.messages import Entry, LlmMessage, Usage
from sessions_app.compaction.prepare import Preparation, prepare
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.validate import CompactionPayload, check_payload

from .builders import Chain, text

KINDS = (
    "file",
    "command",
    "error",
    "constraint",
    "request",
    "decision",
    "value",
    "denied",
    "subagent",
    "artifact",
)
SETTINGS = CompactionSettings(keep_recent_tokens=8000, reserve_tokens=8000, threshold_tokens=32_000)
WINDOW = 64_000
SYSTEM_TOKENS = 2300  # system prompt + tool specs, part of every reported input
ARTIFACT_SESSION = 31  # artifacts live under ARTIFACT_ROOT/<session>/<sha256>.txt
ARTIFACT_LIMIT = 8000  # results longer than this are stored as artifacts (the runtime's default)


@dataclass(frozen=True)
class Planted:
    kind: str
    probe: str
    node: str
    note: str = ""


@dataclass(frozen=True)
class Fact:
    """A fact carried by one step; it becomes a `Planted` once the step has an entry key."""

    kind: str
    probe: str
    note: str = ""
    reversed: bool = False  # a constraint the user takes back later


@dataclass(frozen=True)
class Step:
    role: str  # "user", "assistant" or "tool_result"
    text: str
    calls: tuple[tuple[str, str, dict[str, Any]], ...] = ()  # assistant: (call id, tool, arguments)
    call_id: str = ""  # tool_result
    tool: str = ""
    is_error: bool = False
    details: dict[str, Any] = field(default_factory=dict)
    facts: tuple[Fact, ...] = ()


@dataclass(frozen=True)
class Out:
    """A tool result as the runtime would store it."""

    text: str
    is_error: bool = False
    details: dict[str, Any] = field(default_factory=dict)


def norm(s: str) -> str:
    return " ".join(s.split()).lower()


def message_text(m: LlmMessage) -> str:
    """Everything the model reads of one message: text, thinking, tool calls with arguments."""
    parts: list[str] = []
    for b in m.content:
        kind = b.get("type")
        if kind == "text":
            parts.append(b.get("text") or "")
        elif kind == "thinking":
            parts.append(b.get("thinking") or "")
        elif kind == "tool_call":
            parts.append(f"{b.get('name')}({json.dumps(b.get('arguments') or {}, ensure_ascii=False)})")
    return "\n".join(parts)


@dataclass
class Played:
    path: list[Entry]
    compactions: list[int]
    planted: list[Planted]
    reversed: list[Planted]
    plans: list[Preparation] = field(default_factory=list)  # the preparation behind each compaction

    def visible_text(self) -> str:
        """What the model sees now: the last summary, the kept tail and everything after it."""
        return "\n\n".join(message_text(m) for m in build_context(self.path))

    @cached_property
    def _visible(self) -> str:
        return norm(self.visible_text())

    def retained(self, p: Planted) -> bool:
        return norm(p.probe) in self._visible

    @property
    def last_first_kept_index(self) -> int:
        """Index on the path where the kept tail of the last compaction starts (-1 without one)."""
        if not self.compactions:
            return -1
        key = self.path[self.compactions[-1]].data["first_kept"]
        return next(i for i, e in enumerate(self.path) if e.key == key)


# --- generated tool output --------------------------------------------------------------------

_WORDS = ("bookmark", "tag", "title", "url", "folder", "note", "archive", "entry", "link", "query")
_SITES = (
    "docs.python.org",
    "lwn.net",
    "sqlite.org",
    "go.dev",
    "blog.rust-lang.org",
    "peps.python.org",
    "news.ycombinator.com",
    "developer.mozilla.org",
    "jvns.ca",
    "simonwillison.net",
)
_STMTS = (
    "if not {a}:\n        raise ValueError('{n}: empty {w}')",
    "items = [x.strip() for x in str({a}).split(',') if x.strip()]",
    "log.debug('%s: %d {w}s', '{n}', len(items))",
    "seen = set()",
    "for item in items:\n        if item in seen:\n            continue\n        seen.add(item)",
    "result = {{'{w}': {a}, 'count': len(seen), 'limit': limit}}",
    "when = datetime.now(timezone.utc).isoformat(timespec='seconds')",
    "target = Path(str({a})).expanduser()",
    "body = target.read_text(encoding='utf-8') if target.exists() else ''",
    "rows = sorted(seen, key=str.lower)[:limit]",
    "parts = urlsplit(str({a}))",
    "host = parts.netloc.lower()\n    if host.startswith('www.'):\n        host = host[4:]",
    "width = max((len(str(r)) for r in rows), default=0)",
    "lines = ['{w}: ' + str(r).ljust(width) for r in rows]",
)


def code(doc: str, names: Sequence[str], imports: str = "", extra: str = "", body: int = 6) -> str:
    """A plausible Python module: docstring, imports, then one function per name."""
    out = [
        f'"""{doc}"""',
        "",
        "from __future__ import annotations",
        "",
        "import logging",
        "from datetime import datetime, timezone",
        "from pathlib import Path",
        "from urllib.parse import urlsplit",
        *imports.splitlines(),
        "",
        "log = logging.getLogger(__name__)",
    ]
    if extra:
        out += ["", extra.rstrip()]
    for i, name in enumerate(names):
        arg = ("conn", "path", "rows", "url", "tags", "value")[i % 6]
        w = _WORDS[i % len(_WORDS)]
        out += ["", "", f"def {name}({arg}, limit=50):", f'    """{name.replace("_", " ").capitalize()}."""']
        for j in range(body + i % 4):
            out.append("    " + _STMTS[(i * 5 + j) % len(_STMTS)].format(a=arg, n=name, w=w))
        out.append("    return result if 'result' in locals() else rows")
    return "\n".join(out) + "\n"


def numbered(content: str, offset: int = 1, limit: int | None = None) -> tuple[str, dict[str, Any]]:
    lines = content.splitlines()
    shown = lines[offset - 1 : offset - 1 + limit] if limit else lines[offset - 1 :]
    last = offset + len(shown) - 1
    body = "\n".join(shown)
    if offset > 1 or last < len(lines):
        more = f" Use offset={last + 1} to continue." if last < len(lines) else ""
        body += f"\n\n[Showing lines {offset}-{last} of {len(lines)}.{more}]"
    return body, {"total_lines": len(lines), "offset": offset, "lines": len(shown)}


def suite_log(modules: Sequence[str], per: int, fail: str = "") -> str:
    ids = [
        f"tests/{m}::test_{v}_{_WORDS[(i + j) % 10]}"
        for i, m in enumerate(modules)
        for j, v in enumerate(("add", "list", "search", "update", "delete", "export", "parse", "merge")[:per])
    ]
    out = [
        "============================= test session starts ==============================",
        "platform linux -- Python 3.11.8, pytest-8.1.1, pluggy-1.4.0 -- /home/dev/shelf/.venv/bin/python",
        "rootdir: /home/dev/shelf",
        "configfile: pyproject.toml",
        f"collected {len(ids)} items",
        "",
    ]
    for k, t in enumerate(ids, 1):
        out.append(f"{t} {'FAILED' if t == fail else 'PASSED'} [{100 * k // len(ids):3d}%]")
    tail = f"1 failed, {len(ids) - 1} passed" if fail else f"{len(ids)} passed"
    return "\n".join([*out, "", f"========================= {tail} in 6.48s ========================="])


def bookmarks(n: int, start: int = 0) -> list[dict[str, Any]]:
    return [
        {
            "url": f"https://{_SITES[i % 10]}/{_WORDS[i % 7]}/{i:04d}-{_WORDS[(i * 3) % 10]}s",
            "title": f"{_WORDS[(i * 7) % 10].capitalize()} notes #{i}",
            "tags": [_WORDS[i % 10], _WORDS[(i + 4) % 10]],
            "created_at": f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}T10:{i % 60:02d}:00+00:00",
        }
        for i in range(start, start + n)
    ]


def trace(frames: Sequence[tuple[str, int, str, str]], last: str) -> str:
    out = ["Traceback (most recent call last):"]
    for file, line, func, src in frames:
        out += [f'  File "{file}", line {line}, in {func}', f"    {src}"]
    return "\n".join([*out, last])


_RUNPY = [
    ("/usr/lib/python3.9/runpy.py", 197, "_run_module_as_main", "return _run_code(code, main_globals, None,"),
    ("/usr/lib/python3.9/runpy.py", 87, "_run_code", "exec(code, run_globals)"),
]


# --- tool results -----------------------------------------------------------------------------


def sh(output: str, code_: int = 0, ms: int = 240) -> Out:
    out = output.rstrip("\n") or "(no output)"
    details = {
        "exit_code": code_,
        "timed_out": False,
        "truncated": False,
        "output_bytes": len(output.encode()),
        "duration_ms": ms,
        "timeout": 120.0,
    }
    return Out(f"{out}\n[exit code {code_}]", code_ != 0, details)


def denied(reason: str, tool: str = "bash") -> Out:
    return Out(
        f"Tool call denied: {tool} was not run. Reason: {reason}.",
        True,
        {"denied": True, "tool": tool, "reason": reason},
    )


def shown(path: str, content: str, offset: int = 1, limit: int | None = None) -> Out:
    body, details = numbered(content, offset, limit)
    return Out(body, False, {"path": path, **details})


def wrote(path: str, content: str, existed: bool = False) -> Out:
    size = len(content.encode())
    return Out(
        f"{'Overwrote' if existed else 'Created'} {path} ({size} bytes).",
        False,
        {"path": path, "bytes": size},
    )


def edited(path: str, line: int) -> Out:
    return Out(f"Edited {path} at line {line}.", False, {"path": path, "line": line})


def sub(definition: str, session: int, answer: str) -> Out:
    return Out(
        f"[sub-agent {definition}, session {session}: completed]\n{answer}", False, {"definition": definition}
    )


def stored(output: str, art_id: int, ms: int = 900) -> tuple[Out, str]:
    """A bash result too long for the context: head and tail plus the artifact reference line."""
    full = sh(output, 0, ms)
    digest = hashlib.sha256(full.text.encode()).hexdigest()
    path, size = f"{ARTIFACT_SESSION}/{digest}.txt", len(full.text.encode())
    lines = full.text.splitlines()
    assert len(full.text) > ARTIFACT_LIMIT, "only oversized results become artifacts"
    preview = [*lines[:12], f"[... {len(lines) - 24} lines omitted ...]", *lines[-12:]]
    body = "\n".join(
        [
            *preview,
            "",
            f"[This bash result was {len(full.text)} characters ({len(lines)} lines); "
            "the full text is stored as an artifact and only the head and tail are shown here.]",
            f"[artifact {art_id}: {path}, {size} bytes, sha256 {digest[:12]}]",
        ]
    )
    info = {"id": art_id, "path": path, "size": size, "sha256": digest}
    return Out(body, False, {**full.details, "artifact": info}), path


# --- the script -------------------------------------------------------------------------------


class Writer:
    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.ids = 0

    def user(self, t: str, *facts: Fact) -> None:
        self.steps.append(Step("user", t, facts=facts))

    def say(self, t: str, *facts: Fact) -> None:
        self.steps.append(Step("assistant", t, facts=facts))

    def call(
        self,
        t: str,
        tool: str,
        args: dict[str, Any],
        out: Out,
        *,
        said: Sequence[Fact] = (),
        got: Sequence[Fact] = (),
    ) -> None:
        self.calls(t, [(tool, args, out, got)], said)

    def calls(
        self,
        t: str,
        items: Sequence[tuple[str, dict[str, Any], Out, Sequence[Fact]]],
        said: Sequence[Fact] = (),
    ) -> None:
        ids = []
        for _ in items:
            self.ids += 1
            ids.append(f"toolu_{self.ids:04d}")
        calls = tuple((cid, tool, args) for cid, (tool, args, _, _) in zip(ids, items))
        self.steps.append(Step("assistant", t, calls=calls, facts=tuple(said)))
        for cid, (tool, _, out, got) in zip(ids, items):
            self.steps.append(
                Step("tool_result", out.text, (), cid, tool, out.is_error, out.details, tuple(got))
            )

    def bash(
        self, t: str, command: str, out: Out, *, said: Sequence[Fact] = (), got: Sequence[Fact] = ()
    ) -> None:
        self.call(t, "bash", {"command": command}, out, said=said, got=got)

    def read(
        self,
        t: str,
        path: str,
        content: str,
        offset: int = 1,
        limit: int | None = None,
        said: Sequence[Fact] = (),
    ) -> None:
        args: dict[str, Any] = {"path": path} | ({"offset": offset} if offset > 1 else {})
        args |= {"limit": limit} if limit else {}
        self.call(t, "read", args, shown(path, content, offset, limit), said=said)

    def read_all(self, t: str, path: str, content: str, said: Sequence[Fact] = ()) -> None:
        """Read a file whole, or in windows that stay under the artifact limit, like a careful agent."""
        lines, start = content.splitlines(), 1
        while start <= len(lines):
            n = size = 0
            while start + n <= len(lines) and size + len(lines[start + n - 1]) < 6500:
                size, n = size + len(lines[start + n - 1]) + 1, n + 1
            whole = start == 1 and n == len(lines)
            note = t if start == 1 else f"Continuing with {path} from line {start}."
            self.read(note, path, content, start, None if whole else n, said if start == 1 else ())
            start += n

    def write(
        self, t: str, path: str, content: str, said: Sequence[Fact] = (), existed: bool = False
    ) -> None:
        self.call(t, "write", {"path": path, "content": content}, wrote(path, content, existed), said=said)

    def edit(self, t: str, path: str, old: str, new: str, line: int, said: Sequence[Fact] = ()) -> None:
        self.call(t, "edit", {"path": path, "old_text": old, "new_text": new}, edited(path, line), said=said)

    def fork(self, t: str, definition: str, prompt: str, session: int, answer: str, got: Fact) -> None:
        out = sub(definition, session, answer)
        self.call(t, "agent.fork_agent", {"definition": definition, "prompt": prompt}, out, got=[got])


def F(kind: str, probe: str, note: str = "", reversed: bool = False) -> Fact:  # noqa: N802
    return Fact(kind, probe, note, reversed)


HOME = "/home/dev/shelf"
_VERBS = (
    "load",
    "check",
    "format",
    "parse",
    "merge",
    "split",
    "clean",
    "count",
    "find",
    "sort",
    "group",
    "dump",
)


def names(base: Sequence[str], n: int) -> list[str]:
    """`base`, then made-up helper names, `n` in all."""
    extra = [f"{v}_{w}s" for v in _VERBS for w in _WORDS if f"{v}_{w}s" not in base]
    return [*base, *extra[: max(0, n - len(base))]]


LEGACY = code(
    "Legacy configuration reader, kept for scripts/migrate.py and the cron job.",
    names(
        [
            "parse_config",
            "read_section",
            "coerce_bool",
            "merge_defaults",
            "legacy_db_path",
            "split_list",
            "expand_vars",
            "load_profile",
            "check_keys",
            "dump_config",
            "normalise_url",
            "env_override",
        ],
        24,
    ),
    "import os\nimport os.path",
)
STORE = code(
    "sqlite3 storage for bookmarks: table links_v2, one row per URL.",
    names(
        [
            "connect",
            "migrate",
            "add",
            "get",
            "list_recent",
            "search_like",
            "delete",
            "set_tags",
            "row_to_bookmark",
            "count",
            "main",
        ],
        22,
    ),
    "import argparse\nimport sqlite3",
    "SCHEMA = '''CREATE TABLE IF NOT EXISTS links_v2 (\n    id INTEGER PRIMARY KEY,\n    url TEXT NOT NULL UNIQUE,"
    "\n    title TEXT NOT NULL DEFAULT '',\n    tags TEXT NOT NULL DEFAULT '',\n    created_at TEXT NOT NULL\n)'''",
    body=7,
)
SERVER = code(
    "JSON HTTP service: GET /bookmarks, GET /search?q=, POST /bookmarks.",
    names(
        [
            "route",
            "send_json",
            "read_body",
            "do_get",
            "do_post",
            "parse_query",
            "make_server",
            "serve",
            "health",
        ],
        20,
    ),
    "import json\nimport os\nfrom http.server import BaseHTTPRequestHandler, ThreadingHTTPServer",
    "QueryParams = dict[str, str | None]\nDEFAULT_PORT = int(os.environ.get('SHELF_PORT', '8731'))",
    body=7,
)
CLI = code(
    "Command line entry point: shelf add/list/search/export/serve.",
    names(
        [
            "build_parser",
            "cmd_add",
            "cmd_list",
            "cmd_search",
            "cmd_export",
            "cmd_serve",
            "print_rows",
            "main",
            "open_store",
            "format_row",
            "parse_since",
            "exit_with",
        ],
        24,
    ),
    "import argparse\nimport sys",
    body=7,
)
SEARCH = code(
    "Search over titles, URLs and tags.",
    names(["search", "tokenize", "like_clause", "rank", "highlight", "paginate", "explain"], 16),
    "import sqlite3",
    body=7,
)
IMPORTER = code(
    "Import Netscape bookmark HTML (the file browsers export).",
    names(
        [
            "read_export",
            "BookmarkParser",
            "handle_starttag",
            "handle_data",
            "to_bookmark",
            "import_file",
            "dedupe",
            "report",
        ],
        20,
    ),
    "from html.parser import HTMLParser",
    body=7,
)
RENDER = code(
    "Terminal rendering of bookmark tables.",
    names(
        [
            "render_table",
            "truncate",
            "pad",
            "colour",
            "render_tags",
            "render_row",
            "column_widths",
            "terminal_width",
            "render_summary",
            "render_json",
            "wrap_title",
            "style_header",
        ],
        30,
    ),
    "import shutil\nimport textwrap",
    body=8,
)


def setup(w: Writer) -> None:
    w.user(
        "Hi! This repo is the beginning of shelf, a small bookmark manager. I want a CLI (shelf add / list / "
        "search / export) and a tiny JSON HTTP service (shelf serve). Keep it compatible with Python 3.9: the box "
        "it runs on is Debian bullseye. No new dependencies, standard library only. Bookmarks go into SQLite, in a "
        "table called links_v2 (the old links table belongs to the legacy importer, leave it alone). Have a look "
        "around first.",
        F("constraint", "Python 3.9", "the code must run on Python 3.9"),
        F("constraint", "no new dependencies", "standard library only"),
        F("value", "links_v2", "the sqlite table for bookmarks"),
    )
    log = "\n".join(
        f"{h} {m}"
        for h, m in zip(
            ("4e1c2d9", "a77f310", "0b93e5e", "5d0a6c1", "c3e8f02", "91b7d44"),
            (
                "Add legacy config reader",
                "Vendor bookmark fixtures",
                "Initial package layout",
                "Add pre-commit config",
                "Add pyproject",
                "Initial commit",
            ),
        )
    )
    w.bash(
        "Let me get oriented.",
        "git status --short --branch && git log --oneline -6",
        sh(f"## main...origin/main\n?? notes.txt\n{log}"),
    )
    files = [
        "./.pre-commit-config.yaml",
        "./Makefile",
        "./README.md",
        "./deploy/crontab",
        "./notes.txt",
        "./pyproject.toml",
        "./scripts/load_fixtures.py",
        "./scripts/migrate.py",
        "./src/shelf/__init__.py",
        "./src/shelf/__main__.py",
        "./src/shelf/legacy_config.py",
        "./src/shelf/testing/__init__.py",
        "./src/shelf/testing/fixtures.py",
        "./tests/conftest.py",
        "./tests/fixtures/bookmarks.yaml",
        "./tests/fixtures/firefox-export.html",
        "./tests/helpers.py",
        "./tests/test_legacy_config.py",
    ]
    w.bash(
        "And the file layout.", "find . -path ./.git -prune -o -type f -print | sort", sh("\n".join(files))
    )
    pyproject = (
        '[project]\nname = "shelf"\ndynamic = ["version"]\nrequires-python = ">=3.9"\ndependencies = []\n\n'
        '[project.scripts]\nshelf = "shelf.cli:main"\n\n[tool.ruff]\nline-length = 100\ntarget-version = '
        '"py39"\n\n[tool.mypy]\npython_version = "3.9"\nstrict = true\n'
    )
    readme = "# shelf\n\nA small bookmark manager. Work in progress.\n\n## Development\n\n    make test\n    make dist\n"
    w.calls(
        "Reading the project metadata and README together.",
        [
            ("read", {"path": "pyproject.toml"}, shown("pyproject.toml", pyproject), ()),
            ("read", {"path": "README.md"}, shown("README.md", readme), ()),
        ],
    )
    w.read_all(
        "The legacy config reader is the only real code so far.",
        "src/shelf/legacy_config.py",
        LEGACY,
        said=[F("file", "src/shelf/legacy_config.py", "legacy config reader; parse_config lives here")],
    )
    fixtures = (
        '"""Test fixtures."""\n\nfrom pathlib import Path\n\nimport yaml\n\n\ndef load_yaml_fixture(path):\n'
        "    with Path(path).open(encoding='utf-8') as fh:\n        return yaml.safe_load(fh)\n"
    )
    w.read("The fixture helper the tests use:", "src/shelf/testing/fixtures.py", fixtures)
    migrate = code(
        "One-off migration of the legacy links table; also run nightly from deploy/crontab.",
        names(["main", "open_db", "copy_links", "backup"], 14),
        "import os\nimport sqlite3",
        body=6,
    )
    w.read_all("scripts/migrate.py is the other user of the legacy reader:", "scripts/migrate.py", migrate)
    tlegacy = code(
        "Tests for the legacy config reader.",
        [f"test_{n}" for n in names(["parse_config_defaults"], 16)],
        "import pytest\n\nfrom shelf import legacy_config",
        body=5,
    )
    w.read_all("And what the existing tests pin down.", "tests/test_legacy_config.py", tlegacy)
    w.say(
        "Here is the picture: the package is empty apart from legacy_config.py (a configparser-style reader used "
        "by scripts/migrate.py), fixtures are YAML and loaded through src/shelf/testing/fixtures.py, and "
        "pyproject already targets 3.9 with no dependencies. My plan: storage first, then the CLI, then serve. "
        "Which branch should I work on?"
    )
    w.user(
        "Work on a new branch called feature/shelf-serve. Never push to origin without asking me first.",
        F("value", "feature/shelf-serve", "the working branch"),
        F("constraint", "Never push to origin without asking me first", "later lifted by the user", True),
    )
    w.bash(
        "Creating the branch.",
        "git checkout -b feature/shelf-serve",
        sh("Switched to a new branch 'feature/shelf-serve'"),
    )
    w.say("Done: I'm on feature/shelf-serve and nothing leaves this machine until you say so.")


def storage(w: Writer) -> None:
    w.user(
        "Start with the storage layer in src/shelf/store.py: url (unique), title, tags, created_at. Then get the "
        "fixtures loading so the tests have data.",
        F("file", "src/shelf/store.py", "the storage module"),
    )
    w.write(
        "I'll use sqlite3 instead of SQLAlchemy because the no-new-dependencies rule leaves only the standard "
        "library, and four tables' worth of queries are easy to write by hand.",
        "src/shelf/store.py",
        STORE,
        said=[F("decision", "SQLAlchemy", "sqlite3 instead of SQLAlchemy: no new dependencies")],
    )
    tests = code(
        "Tests for shelf.store.",
        [
            f"test_{v}_{n}"
            for v in ("add", "get", "list", "delete", "tag")
            for n in ("basic", "duplicate", "tags")
        ],
        "import pytest\n\nfrom shelf import store",
        body=4,
    )
    w.write("Tests for it:", "tests/test_store.py", tests)
    yaml_err = trace(
        [
            (
                f"{HOME}/scripts/load_fixtures.py",
                14,
                "<module>",
                "from shelf.testing.fixtures import load_yaml_fixture",
            ),
            (f"{HOME}/src/shelf/testing/fixtures.py", 5, "<module>", "import yaml"),
        ],
        "ModuleNotFoundError: No module named 'yaml'",
    )
    w.bash(
        "Loading the fixtures into a scratch database.",
        "python scripts/load_fixtures.py tests/fixtures/bookmarks.yaml",
        sh(yaml_err, 1),
        got=[F("error", "No module named 'yaml'", "fixture loader needs PyYAML; fixed by JSON")],
    )
    w.bash(
        "PyYAML isn't installed. Checking whether I may add it for the test tooling only.",
        "pip install pyyaml",
        denied("installing packages is not allowed in this workspace"),
        said=[F("denied", "pip install pyyaml", "refused: installing packages is not allowed")],
    )
    yml = "\n".join(
        f"- url: {b['url']}\n  title: {b['title']}\n  tags: [{', '.join(b['tags'])}]\n"
        f"  created_at: '{b['created_at']}'"
        for b in bookmarks(40)
    )
    w.read("Looking at the YAML fixture to see what it holds.", "tests/fixtures/bookmarks.yaml", yml)
    data = json.dumps(bookmarks(40), indent=2)
    w.write(
        "Refused, and it would break the no-dependency rule anyway. I'll convert the fixture to JSON, which the "
        "standard library reads.",
        "tests/fixtures/bookmarks.json",
        data,
    )
    w.edit(
        "Switching the helper to json.",
        "src/shelf/testing/fixtures.py",
        "import yaml",
        "import json",
        5,
        said=[F("file", "src/shelf/testing/fixtures.py", "fixture helper switched from yaml to json")],
    )
    w.edit(
        "And its loader function.",
        "src/shelf/testing/fixtures.py",
        "def load_yaml_fixture(path):\n    with Path(path).open(encoding='utf-8') as fh:\n        return yaml.safe_load(fh)",
        "def load_json_fixture(path):\n    with Path(path).open(encoding='utf-8') as fh:\n        return json.load(fh)",
        8,
    )
    w.edit(
        "Updating the script that calls it.",
        "scripts/load_fixtures.py",
        "load_yaml_fixture",
        "load_json_fixture",
        14,
        said=[F("file", "scripts/load_fixtures.py", "fixture loading script")],
    )
    w.bash(
        "Rerunning the loader with the JSON file.",
        "python scripts/load_fixtures.py tests/fixtures/bookmarks.json",
        sh("Loaded 40 bookmarks into /tmp/shelf-fixtures.db (table links_v2)"),
    )
    w.bash(
        "Now the store tests.",
        "python -m pytest tests/test_store.py -q",
        sh(
            "............                                                             [100%]\n12 passed in 0.41s"
        ),
    )
    mig = trace(
        [
            *_RUNPY,
            (f"{HOME}/src/shelf/store.py", 212, "<module>", "main()"),
            (f"{HOME}/src/shelf/store.py", 205, "main", "migrate(connect(args.db))"),
            (
                f"{HOME}/src/shelf/store.py",
                141,
                "migrate",
                "conn.execute('CREATE INDEX IF NOT EXISTS links_v2_created ON links_v2(created_at)')",
            ),
        ],
        "sqlite3.OperationalError: no such column: created_at",
    )
    w.bash(
        "Tests pass. Your existing database needs the new schema too; running the migration against it.",
        "python -m shelf.store --migrate ~/.local/share/shelf/shelf.db",
        sh(mig, 1),
        said=[F("command", "python -m shelf.store --migrate", "schema migration; failed once, then passed")],
        got=[
            F(
                "error",
                "no such column: created_at",
                "old rows lacked created_at; fixed by ALTER TABLE + backfill",
            )
        ],
    )
    w.read("The old table predates created_at. Looking at migrate().", "src/shelf/store.py", STORE, 120, 40)
    w.edit(
        "Adding the column (backfilled from added_on) before the index is created.",
        "src/shelf/store.py",
        "    conn.execute('CREATE INDEX",
        "    add_created_at(conn)  # backfills from added_on\n    conn.execute('CREATE INDEX",
        141,
    )
    w.bash(
        "Migrating again.",
        "python -m shelf.store --migrate ~/.local/share/shelf/shelf.db",
        sh("links_v2: added column created_at (backfilled 1873 rows from added_on)\nschema version 3"),
    )
    w.say(
        "Storage is in: src/shelf/store.py on plain sqlite3, 12 tests passing, fixtures are JSON now, and your "
        "database at ~/.local/share/shelf/shelf.db is on schema version 3."
    )


def service(w: Writer) -> None:
    w.user(
        "Nice. Now the HTTP service. Default port 8731, and take the database location from the SHELF_DB_URL "
        "environment variable. It must only listen on 127.0.0.1. Prefer pathlib over os.path everywhere, including "
        "old code you touch. Also never commit with --no-verify: the pre-commit checks have to gate every commit.",
        F("value", "8731", "default port of shelf serve"),
        F("value", "SHELF_DB_URL", "env var with the database"),
        F("constraint", "127.0.0.1", "the service binds to localhost only"),
        F("constraint", "pathlib over os.path", "style rule"),
        F("constraint", "--no-verify", "never bypass the pre-commit checks"),
    )
    w.write(
        "I'll build it on http.server's ThreadingHTTPServer rather than Flask: the standard-library rule excludes "
        "Flask, and a threading server is plenty for one user on localhost.",
        "src/shelf/server.py",
        SERVER,
        said=[F("decision", "Flask", "ThreadingHTTPServer rather than Flask: stdlib only")],
    )
    config = code(
        "Settings: SHELF_DB_URL, port and an optional INI file.",
        ["load_settings", "db_url", "ini_path", "port"],
        "import configparser\nimport os",
        body=5,
    )
    w.write(
        "For the settings file I'll use configparser with INI, because tomllib only exists from Python 3.11 and "
        "this has to run on 3.9.",
        "src/shelf/config.py",
        config,
        said=[F("decision", "tomllib", "INI via configparser because tomllib needs Python 3.11")],
    )
    tconf = code(
        "Tests for shelf.config.",
        [
            f"test_{n}"
            for n in (
                "env_db_url",
                "default_port",
                "ini_overrides",
                "missing_ini",
                "bad_port",
                "localhost_only",
                "expand_home",
                "relative_db",
            )
        ],
        "from shelf import config",
        body=4,
    )
    w.write("Tests for the settings.", "tests/test_config.py", tconf)
    hits = "\n".join(
        f"{p}:{n}:    {s}"
        for p, n, s in [
            ("src/shelf/legacy_config.py", 31, "base = os.path.dirname(os.path.abspath(path))"),
            ("src/shelf/legacy_config.py", 48, "if not os.path.exists(candidate):"),
            ("src/shelf/legacy_config.py", 77, "return os.path.join(base, name)"),
            ("src/shelf/legacy_config.py", 102, "home = os.path.expanduser('~')"),
            ("scripts/migrate.py", 12, "db = os.path.join(home, '.local', 'share', 'shelf', 'shelf.db')"),
            ("scripts/migrate.py", 20, "if os.path.isfile(db + '.bak'):"),
        ]
    )
    w.bash("Finding os.path uses to convert.", "grep -rn 'os.path' src/ scripts/", sh(hits))
    w.calls(
        "Converting them to pathlib.",
        [
            (
                "edit",
                {
                    "path": "src/shelf/legacy_config.py",
                    "old_text": "base = os.path.dirname(os.path.abspath(path))",
                    "new_text": "base = Path(path).resolve().parent",
                },
                edited("src/shelf/legacy_config.py", 31),
                (),
            ),
            (
                "edit",
                {
                    "path": "src/shelf/legacy_config.py",
                    "old_text": "return os.path.join(base, name)",
                    "new_text": "return base / name",
                },
                edited("src/shelf/legacy_config.py", 77),
                (),
            ),
            (
                "edit",
                {
                    "path": "scripts/migrate.py",
                    "old_text": "db = os.path.join(home, '.local', 'share', 'shelf', 'shelf.db')",
                    "new_text": "db = Path.home() / '.local/share/shelf/shelf.db'",
                },
                edited("scripts/migrate.py", 12),
                (),
            ),
        ],
    )
    w.bash(
        "Checking the server starts with the env var.",
        "SHELF_DB_URL=sqlite:////tmp/shelf-fixtures.db python -m shelf serve --check",
        sh(
            "shelf serve: would listen on 127.0.0.1:8731, database sqlite:////tmp/shelf-fixtures.db (check only)"
        ),
    )
    w.bash(
        "Lint and types.",
        "ruff check src/shelf scripts && mypy src/shelf",
        sh("All checks passed!\nSuccess: no issues found in 9 source files", ms=3100),
        said=[F("command", "ruff check src/shelf scripts", "lint, exit 0")],
    )
    hooks = "\n".join(
        f"{n:.<70}Passed" for n in ("ruff", "ruff-format", "mypy", "check yaml", "end of files")
    )
    w.bash(
        "Committing through the pre-commit checks.",
        "git add -A && git commit -m 'Add store, config and serve'",
        sh(
            f"{hooks}\n[feature/shelf-serve 7c1d0aa] Add store, config and serve\n 9 files changed, 1043 insertions(+), "
            "41 deletions(-)",
            ms=8200,
        ),
    )
    w.say(
        "The service is in src/shelf/server.py on ThreadingHTTPServer, bound to localhost on the default port, "
        "with the database taken from the environment. os.path is gone from the code I touched; committed with the "
        "checks running."
    )


def suite(w: Writer) -> None:
    w.user("Run the whole suite, under 3.9 as well, and fix whatever breaks. Take your time.")
    mods = (
        "test_store.py",
        "test_legacy_config.py",
        "test_server.py",
        "test_config.py",
        "test_cli.py",
        "test_fixtures.py",
        "test_urls.py",
        "test_tags.py",
        "test_search.py",
        "test_migrate.py",
    )
    out, path = stored(
        suite_log([f"{m}" for m in mods] * 2, 8, "tests/test_server.py::test_add_folder"), 1187
    )
    w.bash(
        "Full verbose run first.",
        "python -m pytest -vv",
        out,
        got=[F("artifact", path, "full verbose pytest log of the first full run")],
    )
    ci = "\n".join(
        [f"CI run #482 on main ({h})" for h in ("c3e8f02",)]
        + [
            f"[{i:02d}:{(i * 7) % 60:02d}] step {s}: ok"
            for i, s in enumerate(
                (
                    "checkout",
                    "setup-python 3.9",
                    "setup-python 3.11",
                    "install",
                    "ruff",
                    "mypy",
                    "pytest py39",
                    "pytest py311",
                    "build wheel",
                    "upload wheel",
                )
            )
        ]
        + ["", "Summary: 212 passed, 0 failed, 3 skipped, took 41.8s", "Result: success"]
    )
    w.read("One failure here. Checking what main looked like in CI.", "logs/ci/last-run.txt", ci)
    w.say(
        "CI on main was green (0 failed), so the failure is new on this branch. First the 3.9 run, then the server test."
    )
    err = trace(
        [
            *_RUNPY,
            (f"{HOME}/src/shelf/__main__.py", 3, "<module>", "from shelf.cli import main"),
            (f"{HOME}/src/shelf/cli.py", 12, "<module>", "from shelf.server import serve"),
            (f"{HOME}/src/shelf/server.py", 24, "<module>", "QueryParams = dict[str, str | None]"),
        ],
        "TypeError: unsupported operand type(s) for |: 'type' and 'NoneType'",
    )
    w.bash(
        "Starting the app under 3.9.",
        "python3.9 -m shelf serve --check",
        sh(err, 1),
        said=[F("command", "python3.9 -m shelf serve --check", "3.9 smoke check; failed, then passed")],
        got=[
            F(
                "error",
                "unsupported operand type(s) for |: 'type' and 'NoneType'",
                "PEP 604 alias on 3.9; fixed",
            )
        ],
    )
    w.read(
        "A PEP 604 union evaluated at import time. Reading the top of server.py.",
        "src/shelf/server.py",
        SERVER,
        1,
        60,
    )
    w.edit(
        "Using typing.Optional for the runtime alias.",
        "src/shelf/server.py",
        "QueryParams = dict[str, str | None]",
        "QueryParams = Dict[str, Optional[str]]",
        24,
    )
    w.bash(
        "Again under 3.9.",
        "python3.9 -m shelf serve --check",
        sh(
            "shelf serve: would listen on 127.0.0.1:8731, database sqlite:///"
            + "~/.local/share/shelf/shelf.db (check only)"
        ),
    )
    w.read(
        "Now the failing server test module.",
        "tests/test_server.py",
        code(
            "Tests for the HTTP service.",
            [
                f"test_{v}"
                for v in (
                    "get_empty",
                    "post_bookmark",
                    "search",
                    "bad_json",
                    "not_found",
                    "serve_background",
                    "serve_concurrent",
                    "health",
                    "sort_param",
                )
            ],
            "import threading\n\nfrom tests.helpers import start_server",
            body=5,
        ),
    )
    frames = [
        (f"{HOME}/tests/test_server.py", 88, "test_serve_concurrent", "server = start_server(port=8731)"),
        (
            f"{HOME}/tests/helpers.py",
            31,
            "start_server",
            "httpd = ThreadingHTTPServer(('127.0.0.1', port), Handler)",
        ),
        ("/usr/lib/python3.11/socketserver.py", 456, "__init__", "self.server_bind()"),
        (
            "/usr/lib/python3.11/http/server.py",
            136,
            "server_bind",
            "socketserver.TCPServer.server_bind(self)",
        ),
        ("/usr/lib/python3.11/socketserver.py", 472, "server_bind", "self.socket.bind(self.server_address)"),
    ]
    fail = (
        "tests/test_server.py ......F..                                            [100%]\n\n"
        "=================================== FAILURES ===================================\n"
        "____________________________ test_serve_concurrent _____________________________\n"
        + trace(frames, "OSError: [Errno 98] Address already in use")
        + "\n=========================== short test summary info ============================\n"
        "FAILED tests/test_server.py::test_serve_concurrent - OSError: [Errno 98] Address already in use\n"
        "========================= 1 failed, 8 passed in 2.14s =========================="
    )
    w.bash(
        "Running it with native tracebacks.",
        "python -m pytest tests/test_server.py -q --tb=native",
        sh(fail, 1, 2600),
        said=[
            F("command", "python -m pytest tests/test_server.py -q --tb=native", "server tests; still exit 1")
        ],
        got=[
            F(
                "error",
                "[Errno 98] Address already in use",
                "test_serve_concurrent; unresolved, left for CI folks",
            )
        ],
    )
    w.fork(
        "Before touching it, a sub-agent can survey which tests use real sockets.",
        "planner",
        "List every test in tests/ that opens a real socket or touches the network: test id, port, and whether it "
        "shuts the server down. Read-only; report findings, no changes.",
        57,
        "Only tests/test_server.py::test_serve_concurrent binds a real socket on a fixed port (127.0.0.1:8731, "
        "hard-coded in tests/helpers.py:31). test_serve_background uses port 0 and shuts down in a finally block. "
        "No test makes outbound connections.",
        F(
            "subagent",
            "test_serve_concurrent binds a real socket",
            "planner finding about the flaky server test",
        ),
    )
    helpers = code(
        "Test helpers: temporary databases and a background server.",
        ["tmp_db", "start_server", "stop_server", "wait_ready", "make_client"],
        "import threading\nfrom http.server import ThreadingHTTPServer",
        body=6,
    )
    w.read("The helper that binds it:", "tests/helpers.py", helpers)
    w.edit(
        "Allowing address reuse so a socket in TIME_WAIT does not block the bind.",
        "tests/helpers.py",
        "    httpd = ThreadingHTTPServer(",
        "    ThreadingHTTPServer.allow_reuse_address = True\n    httpd = ThreadingHTTPServer(",
        31,
    )
    w.bash(
        "Rerunning the server tests.",
        "python -m pytest tests/test_server.py -q --tb=native",
        sh(fail, 1, 2500),
    )
    w.bash(
        "Same failure, so something really holds the port.",
        "ss -ltnp | grep 8731",
        sh('LISTEN 0      5      127.0.0.1:8731      0.0.0.0:*    users:(("python",pid=48213,fd=3))'),
    )
    w.bash(
        "Who is pid 48213?",
        "ps -o pid,etime,cmd -p 48213",
        sh("    PID     ELAPSED CMD\n  48213  2-03:11:52 python -m shelf serve --port 8731"),
    )
    w.read_all("Reading the CLI entry point as well, since serve goes through it.", "src/shelf/cli.py", CLI)
    w.bash(
        "The rest of the suite under 3.9, with the server module excluded.",
        "python3.9 -m pytest -q --ignore=tests/test_server.py",
        sh("." * 71 + "  [ 89%]\n" + "." * 8 + "  [100%]\n79 passed in 5.92s", ms=6400),
    )
    w.say(
        "Status: the 3.9 import crash is fixed (Optional instead of a `|` alias in server.py), and everything except "
        "the server module passes on 3.9. test_serve_concurrent still fails with Errno 98: port 8731 is held by "
        "pid 48213, a `python -m shelf serve` started two days ago, not by me, so I left it running. The reuse-address "
        "change stays, it is harmless. Options: kill that process, or move the test to an ephemeral port."
    )


def export(w: Writer) -> None:
    w.user(
        "Leave the Errno 98 thing for now, I'll look at it with the CI folks tomorrow. I'll be blocked in meetings "
        "most of the afternoon, so just keep going: add shelf export --format json|csv that writes into exports/ "
        "as shelf-YYYYMMDD.json (or .csv).",
        F("value", "shelf-YYYYMMDD", "export file name pattern"),
    )
    w.fork(
        "Export needs the config, and parse_config is the legacy entry point; finding who calls it.",
        "planner",
        "Find every call site of parse_config in this repository (src/, scripts/, tests/). For each: file:line and "
        "the type of the argument passed. Read-only.",
        58,
        "Found 3 call sites of parse_config: src/shelf/cli.py:41, src/shelf/server.py:18, scripts/migrate.py:9. All "
        "three pass a str path. scripts/migrate.py is also run nightly by deploy/crontab (the legacy cron job).",
        F(
            "subagent",
            "Found 3 call sites of parse_config",
            "planner: cli.py:41, server.py:18, scripts/migrate.py:9",
        ),
    )
    w.edit(
        "I'll make parse_config accept both str and Path instead of changing the three callers, because "
        "scripts/migrate.py also runs from the legacy cron job and I would rather not touch it.",
        "src/shelf/legacy_config.py",
        "def parse_config(conn, limit=50):",
        "def parse_config(conn, limit=50):  # str or Path",
        18,
        said=[F("decision", "accept both str and Path", "parse_config widened instead of changing callers")],
    )
    exp = code(
        "shelf export: JSON or CSV into exports/shelf-YYYYMMDD.<ext>.",
        ["export", "rows_for_export", "write_json", "write_csv", "export_name", "iso_date", "ensure_dir"],
        "import csv\nimport json\nimport sqlite3",
        body=7,
    )
    exp += "\n\ndef pairs(a, b):\n    return list(zip(a, b, strict=True))\n"
    w.write("The export module:", "src/shelf/export.py", exp)
    texp = code(
        "Tests for shelf.export.",
        [
            f"test_export_{n}"
            for n in (
                "json",
                "csv",
                "empty",
                "unicode",
                "name",
                "dir",
                "quoting",
                "newline",
                "bom",
                "iso_dates",
                "tags",
                "overwrite",
            )
        ],
        "import csv\nimport json\n\nfrom shelf import export",
        body=4,
    )
    w.write("And its tests.", "tests/test_export.py", texp)
    w.bash(
        "Running them.",
        "python -m pytest tests/test_export.py -q",
        sh("." * 9 + "  [100%]\n9 passed in 0.38s"),
    )
    w.fork(
        "Asking a reviewer for anything newer than 3.9 across the package.",
        "coder",
        "Review src/shelf/ for syntax or standard-library APIs newer than Python 3.9. Report file:line and the "
        "feature; do not edit.",
        59,
        "Found 2 uses of 3.10+ features: src/shelf/export.py:27 calls zip(strict=True) (3.10) and src/shelf/cli.py:88 "
        "uses a match statement (3.10). Everything else is fine on 3.9.",
        F("subagent", "zip(strict=True)", "coder: export.py:27 zip(strict=True), cli.py:88 match statement"),
    )
    w.edit(
        "Replacing the strict zip with an explicit length check.",
        "src/shelf/export.py",
        "    return list(zip(a, b, strict=True))",
        "    if len(a) != len(b):\n        raise ValueError('length mismatch')\n    return list(zip(a, b))",
        27,
    )
    w.edit(
        "And the match statement with if/elif.",
        "src/shelf/cli.py",
        "    match args.command:",
        "    command = args.command\n    if command == 'add':",
        88,
    )
    w.bash(
        "Whole suite under 3.9 minus the known server failure.",
        "python3.9 -m pytest -q --ignore=tests/test_server.py",
        sh("." * 79 + "  [ 90%]\n" + "." * 9 + "  [100%]\n88 passed in 6.11s", ms=6600),
    )
    w.fork(
        "One more review, for SQL injection in the new code.",
        "coder",
        "Review src/shelf/store.py, src/shelf/search.py and src/shelf/server.py for SQL built with string "
        "formatting or concatenation. Report each query and whether it is parameterised.",
        60,
        "No string-formatted SQL: all 9 queries use ? placeholders. The ?sort= parameter in server.py:112 reaches "
        "ORDER BY only after an allow-list check (title, url, created_at).",
        F("subagent", "all 9 queries use ? placeholders", "coder: SQL review found no injection"),
    )
    w.bash(
        "Trying the command for real.",
        "python -m shelf export --format csv",
        sh("Wrote 1873 bookmarks to exports/shelf-20250311.csv"),
        said=[F("command", "python -m shelf export --format csv", "export smoke run, exit 0")],
    )
    w.say(
        "shelf export is in (JSON and CSV, ISO-8601 dates, files named by date under exports/), parse_config takes "
        "str or Path, the two 3.10-only constructs are gone and 88 tests pass on 3.9."
    )


def importer(w: Writer) -> None:
    w.user(
        'FYI, in this repo "artifact" just means the wheel that make dist builds, and the hook under .github/hooks/ '
        "only posts to our chat channel; neither matters for you. Next: shelf import for the Netscape bookmark HTML "
        "that browsers export. There's a sample in tests/fixtures/firefox-export.html.",
        F("file", "tests/fixtures/firefox-export.html", "sample browser export for the importer"),
    )
    html = "\n".join(
        [
            "<!DOCTYPE NETSCAPE-Bookmark-file-1>",
            '<META HTTP-EQUIV="Content-Type" CONTENT="text/html">',
            "<TITLE>Bookmarks</TITLE>",
            "<H1>Bookmarks Menu</H1>",
            "<DL><p>",
        ]
        + [
            f'    <DT><A HREF="{b["url"]}" ADD_DATE="{1700000000 + 3600 * i}" TAGS="{",".join(b["tags"])}">'
            f"{b['title']}</A>"
            for i, b in enumerate(bookmarks(70, 100))
        ]
        + ["</DL><p>"]
    )
    w.read("Looking at the sample first.", "tests/fixtures/firefox-export.html", html, 1, 40)
    w.read("Folders and the end of the file.", "tests/fixtures/firefox-export.html", html, 41)
    w.write(
        "I'll parse it with html.parser.HTMLParser from the standard library: the export is not well-formed XML, "
        "so xml.etree would choke on the unclosed <DT> and <p> tags.",
        "src/shelf/importer.py",
        IMPORTER,
        said=[F("decision", "HTMLParser", "html.parser because the export is not XML")],
    )
    dec = trace(
        [
            *_RUNPY,
            (f"{HOME}/src/shelf/__main__.py", 5, "<module>", "main()"),
            (f"{HOME}/src/shelf/cli.py", 140, "main", "return args.func(args)"),
            (
                f"{HOME}/src/shelf/importer.py",
                38,
                "import_file",
                "text = Path(path).read_text(encoding='utf-8')",
            ),
            ("/usr/lib/python3.9/pathlib.py", 1267, "read_text", "return f.read()"),
            (
                "/usr/lib/python3.9/codecs.py",
                322,
                "decode",
                "(result, consumed) = self._buffer_decode(data, self.errors, final)",
            ),
        ],
        "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 18231: invalid continuation byte",
    )
    w.bash(
        "Trying it on the sample.",
        "python -m shelf import tests/fixtures/firefox-export.html --verbose",
        sh(dec, 1),
        got=[F("error", "can't decode byte 0xe9", "export in cp1252; fixed with an encoding fallback")],
    )
    w.edit(
        "The export is cp1252, not UTF-8. Falling back when UTF-8 fails.",
        "src/shelf/importer.py",
        "    text = Path(path).read_text(encoding='utf-8')",
        "    raw = Path(path).read_bytes()\n    try:\n        text = raw.decode('utf-8')\n    except UnicodeDecodeError:\n"
        "        text = raw.decode('cp1252')",
        38,
    )
    lines = (
        [f"imported  {b['url']}" for b in bookmarks(295, 100)]
        + [f"duplicate {b['url']}" for b in bookmarks(17, 100)]
        + ["", "312 bookmarks read, 295 imported, 17 duplicates skipped"]
    )
    out, path = stored("\n".join(lines), 1192, 2300)
    w.bash(
        "Again.",
        "python -m shelf import tests/fixtures/firefox-export.html --verbose",
        out,
        got=[F("artifact", path, "verbose import log of the sample export")],
    )
    timp = code(
        "Tests for shelf.importer.",
        [
            f"test_import_{n}"
            for n in ("sample", "cp1252", "duplicates", "tags", "dates", "empty", "nested_folders")
        ],
        "from shelf import importer",
        body=4,
    )
    w.write("Tests for the importer.", "tests/test_importer.py", timp)
    w.bash(
        "Running them.",
        "python -m pytest tests/test_importer.py -q",
        sh("." * 7 + "  [100%]\n7 passed in 0.52s"),
    )
    w.say(
        "shelf import works: 295 of the sample's 312 bookmarks imported, 17 duplicates skipped, cp1252 exports handled."
    )


def release(w: Writer) -> None:
    w.user(
        "Great. The next release will be 0.4.0, set that in src/shelf/__init__.py. You can push now, the review "
        "is done.",
        F("value", "0.4.0", "next release version"),
        F("constraint", "You can push now", "lifts the no-push rule"),
    )
    w.edit(
        "Bumping the version.", "src/shelf/__init__.py", "__version__ = '0.3.2'", "__version__ = '0.4.0'", 3
    )
    hooks = "\n".join(
        f"{n:.<70}Passed" for n in ("ruff", "ruff-format", "mypy", "check yaml", "end of files")
    )
    w.bash(
        "Committing.",
        "git add -A && git commit -m 'Add export and import, bump to 0.4.0'",
        sh(
            f"{hooks}\n[feature/shelf-serve 2f9a6be] Add export and import, bump to 0.4.0\n 11 files changed",
            ms=7900,
        ),
    )
    w.bash(
        "Pushing the branch.",
        "git push -u origin feature/shelf-serve",
        denied("network access is disabled for this session"),
        said=[F("denied", "git push -u origin feature/shelf-serve", "refused: no network in the sandbox")],
    )
    w.say(
        "Committed as 2f9a6be, but the push was refused: this session has no network access. Please push from your "
        "machine with git push -u origin feature/shelf-serve."
    )
    w.user("Ok, I pushed it myself. Also clear the stale cache in ~/.cache/shelf, it has old thumbnails.")
    w.bash(
        "Clearing it.",
        "rm -rf ~/.cache/shelf",
        denied("deleting files outside the workspace needs approval"),
        said=[F("denied", "rm -rf ~/.cache/shelf", "refused: deleting outside the workspace needs approval")],
    )
    w.say(
        "That was refused too: deleting outside the workspace needs your approval. Run rm -rf ~/.cache/shelf yourself "
        "or approve it and I will retry."
    )


def speed(w: Writer) -> None:
    w.user(
        "Fine, I'll do it later. Bigger thing: shelf search is slow on my real database (about 40k bookmarks, "
        "~/.local/share/shelf/shelf.db). Profile it and make it fast.",
        F("value", "~/.local/share/shelf/shelf.db", "the user's real database"),
    )
    funcs = [
        ("store.py", 88, "row_to_bookmark"),
        ("search.py", 41, "like_clause"),
        ("search.py", 12, "search"),
        ("{built-in method _sqlite3.connect}", 0, ""),
        ("search.py", 67, "rank"),
        ("search.py", 90, "highlight"),
    ]
    prof = [
        "         2918374 function calls (2911180 primitive calls) in 3.412 seconds",
        "",
        "   Ordered by: cumulative time",
        "",
        "   ncalls  tottime  percall  cumtime  percall filename:lineno(function)",
    ]
    for i in range(230):
        f, ln, fn = funcs[i % len(funcs)]
        where = f if not fn else f"{f}:{ln + i // 6}({fn}{'' if i < 6 else '_' + str(i // 6)})"
        prof.append(
            f"{40000 // (1 + i % 9):>9} {0.412 / (1 + i):8.3f} {0.0:8.3f} {3.4 / (1 + i / 8):8.3f} {0.0:8.3f} {where}"
        )
    out, path = stored("\n".join(prof), 1203, 4100)
    w.bash(
        "Profiling a typical query against your database.",
        "python -m cProfile -s cumtime -m shelf search rust --db ~/.local/share/shelf/shelf.db",
        out,
        got=[F("artifact", path, "cProfile output of shelf search")],
    )
    w.read_all(
        "Most time is in like_clause and row_to_bookmark. The search module:", "src/shelf/search.py", SEARCH
    )
    bench = code(
        "Search benchmark: N synthetic rows, 50 queries, median and p95.",
        ["main", "make_rows", "run_queries", "percentile", "report"],
        "import argparse\nimport statistics\nimport time",
        body=6,
    )
    w.read("There is a benchmark script from the earlier prototype.", "scripts/bench_search.py", bench)
    w.bash(
        "A baseline with the benchmark script.",
        "python scripts/bench_search.py --rows 40000",
        sh("40000 rows, 50 queries\nmedian 412.3 ms, p95 530.1 ms", ms=24000),
        said=[
            F(
                "command",
                "python scripts/bench_search.py --rows 40000",
                "search benchmark: 412 ms, later 8.7 ms",
            )
        ],
    )
    w.bash(
        "Checking that this sqlite build has FTS5.",
        'python3.9 -c \'import sqlite3; c = sqlite3.connect(":memory:"); '
        'c.execute("create virtual table t using fts5(x)"); print("fts5 ok", sqlite3.sqlite_version)\'',
        sh("fts5 ok 3.34.1"),
    )
    fts = code(
        "Search through an FTS5 index kept in sync by triggers.",
        ["search", "fts_query", "rank", "highlight", "paginate", "rebuild_index", "explain", "escape_term"],
        "import sqlite3",
        "FTS_SCHEMA = '''CREATE "
        "VIRTUAL TABLE IF NOT EXISTS links_fts USING fts5(title, url, tags, content='links_v2', "
        "content_rowid='id')'''",
        body=7,
    )
    w.write(
        "I'll add an FTS5 index kept in sync by triggers instead of the LIKE scans, because every search currently "
        "reads all 40k rows and bullseye's sqlite (3.34) ships FTS5.",
        "src/shelf/search.py",
        fts,
        existed=True,
        said=[F("decision", "FTS5", "FTS5 index instead of LIKE scans")],
    )
    w.edit(
        "Creating the index and triggers in the migration.",
        "src/shelf/store.py",
        "    add_created_at(conn)",
        "    add_created_at(conn)\n    search.create_fts(conn)",
        141,
    )
    w.bash(
        "Migrating your database.",
        "python -m shelf.store --migrate ~/.local/share/shelf/shelf.db",
        sh("links_v2: schema version 4 (links_fts created, 40112 rows indexed)", ms=5200),
    )
    w.bash(
        "Benchmark again.",
        "python scripts/bench_search.py --rows 40000",
        sh("40000 rows, 50 queries\nmedian 8.7 ms, p95 12.9 ms", ms=2100),
    )
    tsearch = code(
        "Tests for shelf.search.",
        [
            f"test_search_{n}"
            for n in (
                "title",
                "url",
                "tag",
                "prefix",
                "phrase",
                "quotes",
                "empty",
                "rank_order",
                "after_delete",
                "after_update",
                "rebuild",
            )
        ],
        "from shelf import search, store",
        body=4,
    )
    w.write("Tests, including the trigger paths (update and delete).", "tests/test_search.py", tsearch)
    w.bash(
        "Running them.",
        "python -m pytest tests/test_search.py -q",
        sh("." * 11 + "  [100%]\n11 passed in 0.61s"),
    )
    w.bash("And lint.", "ruff check src/shelf scripts", sh("All checks passed!"))
    w.say(
        "Search went from a 412 ms median to 8.7 ms on 40k rows with the FTS5 index; your database is migrated "
        "(schema 4) and the search tests pass."
    )


def wishes(w: Writer) -> None:
    w.user(
        "Excellent. Next on the list, in this order: a --dry-run flag for shelf import; after that, write the README "
        "section on configuration, using docs/config-reference.md as the source. Later, not today: add a CHANGELOG "
        "entry for 0.4.0. And at some point the importer should also read Chrome's JSON bookmark format.",
        F("request", "write the README section on configuration", "open: next after --dry-run"),
        F("file", "docs/config-reference.md", "source for the README configuration section"),
        F("request", "CHANGELOG entry", "open: later, not today"),
        F("request", "Chrome's JSON bookmark format", "open: importer should also read it some day"),
    )
    w.edit(
        "Adding the flag to the importer.",
        "src/shelf/importer.py",
        "def import_file(path, limit=50):",
        "def import_file(path, limit=50, dry_run=False):",
        52,
    )
    w.edit(
        "And to the command line.",
        "src/shelf/cli.py",
        "    sub.add_parser('import')",
        "    imp = sub.add_parser('import')\n    imp.add_argument('--dry-run', action='store_true')",
        61,
    )
    w.bash(
        "Trying it.",
        "python -m shelf import tests/fixtures/firefox-export.html --dry-run",
        sh("dry run: would import 312 bookmarks (17 duplicates skipped), nothing written"),
    )
    w.say("--dry-run is in. The README configuration section is next whenever you want it.")
    w.user(
        "Hold the README for a moment. Sometime this week I also want a shelf doctor command that checks the DB "
        "schema, but not yet. Right now the rendering code is a mess: src/shelf/render.py. Clean it up: type "
        "hints, docstrings, tests.",
        F("request", "shelf doctor", "open: schema check command, this week"),
    )


def tail(w: Writer) -> None:
    """Ordinary work after the last planted fact: long enough that a compaction keeps only this part."""
    w.read_all("Reading the current renderer.", "src/shelf/render.py", RENDER)
    typed = RENDER.replace("limit=50):", "limit: int = 50) -> list[str]:").replace(
        "Terminal rendering of bookmark tables.", "Terminal rendering of bookmark tables (typed, documented)."
    )
    w.write(
        "Rewriting it with type hints and docstrings; behaviour stays the same.",
        "src/shelf/render.py",
        typed,
        existed=True,
    )
    trender = code(
        "Tests for shelf.render.",
        [
            f"test_render_{n}"
            for n in (
                "empty",
                "one_row",
                "wide_title",
                "unicode",
                "tags",
                "narrow_terminal",
                "json",
                "summary",
                "header_style",
                "wrap",
                "padding",
                "colour_off",
            )
        ],
        "import pytest\n\nfrom shelf import render",
        body=5,
    )
    w.write("Tests for the renderer.", "tests/test_render.py", trender)
    fail = (
        "........F...                                                             [100%]\n"
        "=================================== FAILURES ===================================\n"
        "__________________________ test_render_narrow_terminal __________________________\n"
        "    def test_render_narrow_terminal(monkeypatch, limit=50):\n>       assert render.render_table([], limit=3) == []\n"
        "E       AssertionError: assert ['(no rows)'] == []\n"
        "========================= 1 failed, 11 passed in 0.33s ========================="
    )
    w.bash("Running them.", "python -m pytest tests/test_render.py -q", sh(fail, 1))
    w.edit(
        "The test is wrong: an empty table renders a placeholder on purpose.",
        "tests/test_render.py",
        "assert render.render_table([], limit=3) == []",
        "assert render.render_table([], limit=3) == ['(no rows)']",
        64,
    )
    w.bash(
        "Again.", "python -m pytest tests/test_render.py -q", sh("." * 12 + "  [100%]\n12 passed in 0.29s")
    )
    w.bash(
        "Types for the new module.",
        "mypy src/shelf/render.py",
        sh(
            'src/shelf/render.py:41: error: Incompatible return value type (got "str", expected "list[str]")\n'
            'src/shelf/render.py:97: error: Need type annotation for "seen"\nFound 2 errors in 1 file',
            1,
            2900,
        ),
    )
    w.read("Looking at both spots.", "src/shelf/render.py", typed, 30, 80)
    w.calls(
        "Fixing both.",
        [
            (
                "edit",
                {
                    "path": "src/shelf/render.py",
                    "old_text": "    seen = set()\n",
                    "new_text": "    seen: set[str] = set()\n",
                },
                edited("src/shelf/render.py", 97),
                (),
            ),
            (
                "edit",
                {
                    "path": "src/shelf/render.py",
                    "old_text": "def truncate(path, limit: int = 50) -> list[str]:",
                    "new_text": "def truncate(path, limit: int = 50) -> str:",
                },
                edited("src/shelf/render.py", 41),
                (),
            ),
        ],
    )
    w.bash(
        "Re-checking.", "mypy src/shelf/render.py", sh("Success: no issues found in 1 source file", ms=2700)
    )
    w.bash(
        "Committing quietly; the checks still run.",
        "git add -A && git commit -q -m 'Type and document the renderer'",
        sh("", ms=7000),
    )
    w.say("render.py is typed and documented, with 12 tests; mypy is clean and it is committed.")
    w.user("Now shelf list: add --limit and --since options, and show the rows through the new renderer.")
    w.read_all("Reading the CLI.", "src/shelf/cli.py", CLI)
    w.edit(
        "Adding the options.",
        "src/shelf/cli.py",
        "    lst = sub.add_parser('list')",
        "    lst = sub.add_parser('list')\n    lst.add_argument('--limit', type=int, default=20)\n"
        "    lst.add_argument('--since', type=parse_since)",
        58,
    )
    w.edit(
        "Routing the rows through render_table.",
        "src/shelf/cli.py",
        "def cmd_list(tags, limit=50):",
        "def cmd_list(tags, limit=50):  # rows go through render.render_table",
        72,
    )
    tlist = code(
        "Tests for shelf list.",
        [
            f"test_list_{n}"
            for n in ("default", "limit", "since", "since_bad_date", "limit_zero", "order", "render")
        ],
        "from shelf import cli",
        body=5,
    )
    w.write("Tests for the options.", "tests/test_list.py", tlist)
    w.bash(
        "Running them.", "python -m pytest tests/test_list.py -q", sh("." * 7 + "  [100%]\n7 passed in 0.47s")
    )
    rows = "\n".join(f"{b['created_at'][:10]}  {b['title']:<22} {b['url']}" for b in bookmarks(5, 400))
    w.bash(
        "Trying it.",
        "python -m shelf list --limit 5 --since 2024-06-01",
        sh(f"DATE        TITLE{' ' * 19}URL\n{rows}"),
    )
    for k, mod in enumerate(("src/shelf/render.py", "src/shelf/cli.py", "tests/test_list.py")):
        w.bash(f"Format check {k + 1} of 3.", f"ruff format --check {mod}", sh("1 file already formatted"))
    w.say("shelf list now takes --limit (default 20) and --since, and prints through the renderer.")
    w.user(
        "Can shelf list also print JSON? Add --json, and document list in docs/usage.md with a couple of examples."
    )
    tcli = code(
        "Tests for the command line.",
        [f"test_cli_{n}" for n in names(["add", "list", "search", "help"], 18)],
        "import pytest\n\nfrom shelf import cli",
        body=5,
    )
    w.read_all("Checking how the existing CLI tests capture output.", "tests/test_cli.py", tcli)
    w.edit(
        "Adding the flag.",
        "src/shelf/cli.py",
        "    lst.add_argument('--limit', type=int, default=20)",
        "    lst.add_argument('--limit', type=int, default=20)\n    lst.add_argument('--json', action='store_true')",
        59,
    )
    w.edit(
        "Printing JSON when asked.",
        "src/shelf/cli.py",
        "def print_rows(rows, limit=50):",
        "def print_rows(rows, limit=50, as_json=False):  # --json prints render.render_json(rows)",
        96,
    )
    w.edit(
        "A test for it.",
        "tests/test_list.py",
        "def test_list_render(",
        "def test_list_json(capsys):\n    assert cli.main(['list', '--json']) == 0\n\n\ndef test_list_render(",
        88,
    )
    w.bash(
        "Running the list tests.",
        "python -m pytest tests/test_list.py -q",
        sh("." * 8 + "  [100%]\n8 passed in 0.45s"),
    )
    sample = json.dumps(bookmarks(24, 500), indent=2)
    w.bash("What it prints.", "python -m shelf list --limit 24 --json", sh(sample))
    usage = "\n".join(
        [
            "# Using shelf",
            "",
            "## Listing bookmarks",
            "",
            "`shelf list` prints the newest bookmarks as a "
            "table. `--limit N` caps the rows (default 20), `--since YYYY-MM-DD` hides older ones and "
            "`--json` prints the rows as JSON instead of a table.",
            "",
            "```console",
            "$ shelf list --limit 5 --since 2024-06-01",
        ]
        + [f"{b['created_at'][:10]}  {b['title']:<22} {b['url']}" for b in bookmarks(5, 400)]
        + [
            "```",
            "",
            "```console",
            "$ shelf list --limit 2 --json",
            json.dumps(bookmarks(2, 500), indent=2),
            "```",
            "",
            "## Adding and searching",
            "",
            "`shelf add URL --tag t1 --tag t2` stores a bookmark; "
            "`shelf search WORDS` finds it again by title, URL or tag.",
            "",
        ]
    )
    w.write("Writing the usage page.", "docs/usage.md", usage)
    w.say(
        "shelf list --json is in, with a test, and docs/usage.md documents list with table and JSON examples."
    )
    w.user(
        "One more small command: shelf tags, listing every tag with its number of bookmarks, most used first."
    )
    tags = code(
        "shelf tags: every tag with its bookmark count.",
        names(["tag_counts", "cmd_tags", "sort_counts", "print_counts", "normalise_tag"], 14),
        "import collections",
        body=6,
    )
    w.write("A small module for it, printed through the renderer.", "src/shelf/tags.py", tags)
    w.edit(
        "Wiring it into the parser.",
        "src/shelf/cli.py",
        "    lst = sub.add_parser('list')",
        "    sub.add_parser('tags').set_defaults(func=tags.cmd_tags)\n    lst = sub.add_parser('list')",
        57,
    )
    ttags = code(
        "Tests for shelf tags.",
        [
            f"test_tags_{n}"
            for n in (
                "empty",
                "counts",
                "order",
                "case_folding",
                "unicode",
                "render",
                "ties",
                "whitespace",
                "many",
            )
        ],
        "from shelf import tags",
        body=5,
    )
    w.write("Tests.", "tests/test_tags.py", ttags)
    w.bash(
        "Running them.", "python -m pytest tests/test_tags.py -q", sh("." * 9 + "  [100%]\n9 passed in 0.31s")
    )
    counts = "\n".join(f"{_WORDS[i]:<10} {1900 - 173 * i:>5}" for i in range(10))
    w.bash("Trying it.", "python -m shelf tags", sh(f"TAG        COUNT\n{counts}"))
    w.read_all(
        "Re-reading the renderer to reuse its column logic for the counts.", "src/shelf/render.py", typed
    )
    w.edit(
        "Right-aligning numeric columns, which the counts need.",
        "src/shelf/render.py",
        "def pad(rows, limit: int = 50) -> list[str]:",
        "def pad(rows, limit: int = 50, right: bool = False) -> list[str]:",
        58,
    )
    w.bash(
        "Renderer tests still pass?",
        "python -m pytest tests/test_render.py tests/test_tags.py -q",
        sh("." * 21 + "  [100%]\n21 passed in 0.52s"),
    )
    w.say("shelf tags lists tags by count, most used first, with right-aligned numbers; 9 new tests.")
    w.user("Last thing for today: run the full suite once more and give me a short status.")
    w.bash(
        "Full run, with the known server test deselected.",
        "python -m pytest -q --deselect tests/test_server.py::test_serve_concurrent",
        sh("." * 80 + "  [ 68%]\n" + "." * 37 + "  [100%]\n117 passed, 1 deselected in 7.12s", ms=7600),
    )
    w.say(
        "Status: 117 tests pass (one deselected, as agreed). This afternoon added typed rendering, shelf list "
        "--limit / --since / --json, shelf tags and docs/usage.md; the renderer is committed, the rest is not yet."
    )


def script() -> list[Step]:
    w = Writer()
    for part in (setup, storage, service, suite, export, importer, release, speed, wishes, tail):
        part(w)
    return w.steps


START = datetime(2025, 3, 11, 9, 0, tzinfo=timezone.utc)
_PAUSE = {"user": 95, "assistant": 14, "tool_result": 3}


def play(
    compactor: Callable[[Preparation], CompactionPayload],
    settings: CompactionSettings = SETTINGS,
    window: int = WINDOW,
) -> Played:
    """Append the script entry by entry; after each assistant message, compact if over the threshold."""
    chain = Chain()
    path = chain.entries
    planted: list[Planted] = []
    reversed_: list[Planted] = []
    compactions: list[int] = []
    plans: list[Preparation] = []
    clock = START
    for step in script():
        if step.role == "user":
            e = chain.user(step.text)
        elif step.role == "assistant":
            before = SYSTEM_TOKENS + sum(x.tokens for x in context_entries(path))
            e = chain.assistant(step.text, calls=step.calls)
            e.usage = Usage(input=before, output=e.tokens, total=before + e.tokens)
        else:
            data = {
                "tool_call_id": step.call_id,
                "tool_name": step.tool,
                "is_error": step.is_error,
                "details": dict(step.details),
            }
            e = chain.add("message", "tool_result", text(step.text), data)
        clock += timedelta(seconds=_PAUSE[step.role])
        e.timestamp = clock.isoformat()
        for f in step.facts:
            (reversed_ if f.reversed else planted).append(Planted(f.kind, f.probe, e.key, f.note))
        if step.role != "assistant" or not should_compact(
            context_tokens(path, settings).tokens, window, settings
        ):
            continue
        prep = prepare(path, settings)
        if not isinstance(prep, Preparation):
            continue
        payload = compactor(prep)
        check_payload(path, payload, settings)
        c = chain.add("compaction", None, None, payload.to_data())
        c.timestamp = (clock + timedelta(seconds=20)).isoformat()
        compactions.append(len(path) - 1)
        plans.append(prep)
    return Played(path, compactions, planted, reversed_, plans)


def entry_text(e: Entry) -> str:
    """The text the model reads of one entry (as in `Played.visible_text`)."""
    from sessions_app.compaction.convert import to_llm

    m = to_llm(e)
    return "" if m is None else message_text(m)


_ = re  # kept for callers that match probes with patterns
