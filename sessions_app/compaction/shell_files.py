"""Files a shell command plainly reads or writes (docs/compaction.md, "File lists").

Codex reads and edits files through its shell tool (`sed -n '1,40p' f`, `cat > f <<'EOF'`), and
Claude Code's Bash tool is used the same way. Telling what an arbitrary script touches is
guesswork, so this reads only one simple command: no pipes, lists, subshells, substitutions or
globs; anything else names no file. Wrong silence costs a missing line in a list; a wrong guess
would put a file in it that the session never touched.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Final

from .patch import FileOp

_SHELLS: Final = frozenset({"bash", "sh", "zsh", "dash"})
_SCRIPT_FLAGS: Final = frozenset({"-c", "-lc", "-cl"})
# Tokens that make a command line more than one simple command.
_CONTROL: Final = frozenset({"|", "||", "&", "&&", ";", ";;", "(", ")", "|&"})
_WRITE_REDIRECTS: Final = frozenset({">", ">>", ">|", "&>", "&>>"})
# An input redirection, a here-document or a descriptor copy: the word after it is no file written.
_OTHER_REDIRECTS: Final = frozenset({"<", "<<", "<<<", "<&", ">&", "<>"})
_PUNCTUATION: Final = ";&|<>()"
# Characters whose meaning depends on the shell's state (expansions, globs, home directories).
_UNSURE: Final = frozenset("$`*?[]{}~")
_READERS: Final = frozenset({"cat", "head", "tail", "nl", "sed"})
# Options that take the next word as their value, per reader (the rest take none).
_VALUE_OPTIONS: Final[dict[str, frozenset[str]]] = {
    "head": frozenset({"-n", "-c"}),
    "tail": frozenset({"-n", "-c"}),
    "sed": frozenset({"-e", "-f", "-l"}),
    "nl": frozenset({"-b", "-d", "-f", "-h", "-i", "-l", "-n", "-s", "-v", "-w"}),
}


def shell_files(command: str | Sequence[str]) -> list[tuple[FileOp, str]]:
    """(operation, path) of the files one simple command reads or writes; [] when unsure.

    `command` is a script, or an argv (a shell's `-c` script when it runs one)."""
    if isinstance(command, str):
        script = command
    elif len(command) == 3 and command[0].rsplit("/", 1)[-1] in _SHELLS and command[1] in _SCRIPT_FLAGS:
        script = command[2]
    else:
        script = shlex.join(command)
    first, _, rest = script.strip().partition("\n")
    if rest and "<<" not in first:
        return []  # several lines: several commands (a here-document's body is not a command)
    try:
        lexer = shlex.shlex(first, posix=True, punctuation_chars=_PUNCTUATION)
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:  # an unclosed quote
        return []
    if not tokens or any(t in _CONTROL for t in tokens):
        return []
    words: list[str] = []
    written: list[str] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t[:1] in _PUNCTUATION and t:  # the lexer keeps a run of punctuation apart from words
            if t not in _WRITE_REDIRECTS and t not in _OTHER_REDIRECTS:
                return []
            if words and words[-1].isdigit():
                words.pop()  # `2>` lexes as "2", ">": a descriptor, not a word
            if i + 1 >= len(tokens):
                return []
            if t in _WRITE_REDIRECTS:
                written.append(tokens[i + 1])
            i += 2
        else:
            words.append(t)
            i += 1
    out: list[tuple[FileOp, str]] = [*_command_files(words), *(("write", p) for p in written)]
    if any(not p or _UNSURE & set(p) for _, p in out):
        return []
    return [(op, p) for op, p in out if not p.startswith("/dev/")]  # devices are no files


def _command_files(words: list[str]) -> list[tuple[FileOp, str]]:
    if not words:
        return []
    name = words[0].rsplit("/", 1)[-1]
    if name == "tee":
        return [("write", w) for w in words[1:] if not w.startswith("-")]
    if name not in _READERS:
        return []
    takes_value = _VALUE_OPTIONS.get(name, frozenset())
    operands: list[str] = []
    in_place = False
    script_given = False
    args = words[1:]
    i = 0
    while i < len(args):
        w = args[i]
        i += 1
        if w == "--":
            operands.extend(args[i:])
            break
        if not w.startswith("-") or w == "-":
            operands.append(w)
        elif name == "sed" and (w == "-i" or w == "--in-place" or w.startswith(("-i", "--in-place="))):
            in_place = True
            if w == "-i" and i < len(args) and args[i] == "":
                i += 1  # BSD sed's `-i ''`: an empty backup suffix
        elif w.startswith("--"):
            return []  # a long option this reader does not know may take a value
        elif w in takes_value:
            script_given = script_given or w in ("-e", "-f")
            i += 1
    if name == "sed":
        if not script_given:
            if not operands:
                return []
            operands = operands[1:]  # the first operand is the script
        return [("edit" if in_place else "read", w) for w in operands]
    return [("read", w) for w in operands if w != "-"]
