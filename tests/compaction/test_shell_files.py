"""The files one shell command plainly reads or writes (compaction/shell_files.py)."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app.compaction.shell_files import shell_files


@pytest.mark.parametrize(
    ("command", "files"),
    [
        (["bash", "-lc", "sed -n '1,40p' inventory/stock.py"], [("read", "inventory/stock.py")]),
        ("cat tests/test_stock.py", [("read", "tests/test_stock.py")]),
        (["head", "-n", "20", "a.py"], [("read", "a.py")]),
        ("tail -5 log.txt", [("read", "log.txt")]),
        ("nl -ba f.py", [("read", "f.py")]),
        ("sed -i 's/a/b/' x.py y.py", [("edit", "x.py"), ("edit", "y.py")]),
        ("sed -i '' -e 's/a/b/' z.py", [("edit", "z.py")]),  # BSD sed's empty suffix is no file
        ("cat > notes.md <<'EOF'\n# Notes\nEOF", [("write", "notes.md")]),
        ("echo done >> log.txt", [("write", "log.txt")]),
        ("python gen.py > out.json 2> err.log", [("write", "out.json"), ("write", "err.log")]),
        ("tee copy.txt", [("write", "copy.txt")]),
        ("cat a.txt 2>/dev/null", [("read", "a.txt")]),  # a device is no file
        ("cat 'my file.txt'", [("read", "my file.txt")]),
    ],
)
def test_plain_reads_and_writes(command: str | list[str], files: list[tuple[str, str]]) -> None:
    assert shell_files(command) == files


@pytest.mark.parametrize(
    "command",
    [
        "pytest -q 2>&1",  # a descriptor copy writes no file
        "cat a.py | grep x",
        "cd src && cat a.py",
        "cat a.py; cat b.py",
        "cat a.py\ncat b.py",
        "cat $HOME/a.py",
        "cat *.py",
        "cat ~/notes",
        "cat $(ls)",
        "echo x >(cat)",
        "cat 'unclosed",
        "sed --expression=p a.py",  # a long option that may take a value
        "rm -rf build",  # not a reader; what it does is not guessed
        "",
    ],
)
def test_anything_less_plain_names_no_file(command: str) -> None:
    assert shell_files(command) == []


names = st.text(
    st.characters(whitelist_categories=("L", "N"), whitelist_characters="._/-"), min_size=1
).filter(lambda s: not s.startswith("-"))


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["cat", "head", "tail", "nl"]), st.lists(names, min_size=1, max_size=4))
def test_a_reader_reads_its_operands_however_quoted(reader: str, files: list[str]) -> None:
    assert shell_files(shlex.join([reader, *files])) == [("read", f) for f in files]
    assert shell_files(["bash", "-lc", shlex.join([reader, *files])]) == [("read", f) for f in files]
