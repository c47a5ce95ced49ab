"""What a file the assistant wrote whole says of itself: its opening doc comment and the names it
defines (docs/retention.md, "Files"). A new module's purpose is often in no message at all (the
assistant wrote `money.py` and said nothing), yet its first doc line ("Money amounts: parsing bank
notation into Decimal …") and its top-level names (`parse_amount`, `AmountError`) are what a
colleague needs to know of it. Read from the tool call's arguments: a whole-file write (pi,
Claude Code `Write`) or a Codex `apply_patch` that adds a file; edits of a part say too little.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final

from sessions_app.compaction.messages import Entry

from .phrases import clip

_WRITE_TOOLS: Final = frozenset({"write", "create", "write_file", "create_file"})
_CONTENT_KEYS: Final = ("content", "file_text", "contents", "text")
_PATH_KEYS: Final = ("path", "file_path", "filePath", "file", "filename", "target_file")
_ADD_FILE: Final = re.compile(r"^\*\*\* Add File: (\S+)\s*$")
GIST_CHARS: Final = 240
MAX_NAMES: Final = 8

# A doc comment's text: Python/Elixir docstrings, `//`, `#`, `--`, `;;`, `/** … */` lines.
_DOC: Final = re.compile(
    r'^\s*(?:"""|\'\'\'|@moduledoc\s+"""|//[/!]?|/\*\*?|\*|#|--|;;)\s*(.*?)\s*(?:"""|\*/)?\s*$'
)
# A top-level definition in most languages: optional modifiers, a keyword, the name.
_DEFINES: Final = re.compile(
    r"^(?:(?:export|pub(?:\([\w:]+\))?|public|internal|private|protected|final|abstract|sealed|data|"
    r"open|async|static|default|extern|inline)\s+)*"
    r"(?:def|defp|defmodule|class|fn|fun|func|function|struct|enum|trait|interface|type|record|object|"
    r"module|const|let|val|var|impl|protocol|extension|typealias|newtype|data)\s+([A-Za-z_][\w.]*)"
)
_SHEBANG_OR_PRAGMA: Final = re.compile(r"^\s*(?:#!|#\s*-\*-|//\s*@ts-|#\s*frozen_string|/\*\s*eslint|#\[)")


def _base(name: str) -> str:
    """The name's last part after ".", ":" or "/" (`mcp__fs.write` -> "write"), lower-cased; found
    by position: the fact walk asks it of every call several times (issue 35)."""
    low = name.lower()
    return low[max(low.rfind("."), low.rfind(":"), low.rfind("/")) + 1 :]


def _patch_text(args: dict[str, Any]) -> str:
    for key in ("patch", "input", "command", "cmd"):
        value = args.get(key)
        if isinstance(value, list):
            value = "\n".join(str(v) for v in value)
        if isinstance(value, str) and "*** Add File:" in value:
            return value
    return ""


def written_files(e: Entry) -> Iterator[tuple[str, str]]:
    """(path, whole content) of every file an assistant message's tool calls wrote whole."""
    for b in e.content:
        if not isinstance(b, dict) or b.get("type") != "tool_call":
            continue
        args = b.get("arguments")
        if not isinstance(args, dict):
            continue
        if _base(str(b.get("name") or "")) in _WRITE_TOOLS:
            path = next((args[k] for k in _PATH_KEYS if isinstance(args.get(k), str)), None)
            content = next((args[k] for k in _CONTENT_KEYS if isinstance(args.get(k), str)), None)
            if path and content is not None:
                yield path, content
            continue
        patch = _patch_text(args)
        current: str | None = None
        lines: list[str] = []
        for line in patch.splitlines():
            if line.startswith("*** "):
                if current is not None:
                    yield current, "\n".join(lines)
                m = _ADD_FILE.match(line)
                current, lines = (m.group(1), []) if m else (None, [])
            elif current is not None and line.startswith("+"):
                lines.append(line[1:])
        if current is not None:
            yield current, "\n".join(lines)


def gist(content: str) -> str:
    """The file's own opening doc line and the names it defines at top level (or one level in, as
    in a module body: Elixir, Ruby, Scala); "" when neither."""
    doc = opening_doc(content)
    lines = content.splitlines()
    names = list(dict.fromkeys(m.group(1) for ln in lines if (m := _DEFINES.match(_top(ln)))))
    parts = [doc] if doc else []
    if names:
        parts.append("defines " + ", ".join(names[:MAX_NAMES]))
    return clip("; ".join(parts), GIST_CHARS)


def opening_doc(content: str) -> str:
    """The file's own opening doc line when it says something (three words or more), else ""."""
    doc = ""
    in_doc = False  # a docstring opened on a line of its own: its next line is the text
    for line in content.splitlines()[:12]:
        if not line.strip() or _SHEBANG_OR_PRAGMA.match(line):
            continue
        if in_doc:
            doc = line.strip().strip('"').strip()
            break
        m = _DOC.match(line)
        if m is None:
            if _DEFINES.match(line.strip()):
                continue  # a module header before its doc (`defmodule X do`, `module X`)
            break  # code before any comment: the file has no opening doc
        if len(m.group(1).split()) >= _DOC_WORDS:
            doc = m.group(1)
            break
        in_doc = line.strip().endswith(('"""', "'''"))
    return doc if len(doc.split()) >= _DOC_WORDS else ""


_DOC_WORDS: Final = 3
_NESTING: Final = 2  # spaces of indentation a definition may have and still be the file's own


def _top(line: str) -> str:
    """The line without its indentation when it is at most one level in, else "" (a member)."""
    indent = len(line) - len(line.lstrip(" "))
    return line.lstrip(" ") if indent <= _NESTING and not line.startswith("\t") else ""
