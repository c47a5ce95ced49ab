"""The files an apply_patch patch names (compaction/patch.py)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app.compaction.patch import ADD, DELETE, MOVE, UPDATE, patch_files

# A path as a header carries it: one line, no whitespace at either end.
paths = (
    st.text(st.characters(blacklist_categories=("Cs", "Zl", "Zp", "Cc")), min_size=1, max_size=30)
    .map(str.strip)
    .filter(bool)
)
# Body lines as a patch writes them: every one starts with +, -, a space or @@ (the text after the
# prefix may itself look like a header).
body_text = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs", "Zl", "Zp", "Cc")), max_size=20),
    st.just("*** Update File: fake.py"),
)
body_lines = st.lists(st.tuples(st.sampled_from(["+", "-", " ", "@@ "]), body_text), max_size=4)


@st.composite
def sections(draw: st.DrawFn) -> tuple[list[str], list[tuple[str, str]]]:
    """One file section of a patch: its lines, and the (operation, path) pairs it names."""
    kind = draw(st.sampled_from(["add", "delete", "update", "move"]))
    path = draw(paths)
    lines = [line for prefix, text in draw(body_lines) for line in [prefix + text]]
    if kind == "add":
        return [ADD + path, *["+" + line[1:] for line in lines]], [("write", path)]
    if kind == "delete":
        return [DELETE + path], [("edit", path)]
    if kind == "update":
        return [UPDATE + path, "@@", *lines], [("edit", path)]
    to = draw(paths)
    return [UPDATE + path, MOVE + to, "@@", *lines], [("edit", path), ("write", to)]


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a busy machine is slow
@given(st.lists(sections(), max_size=6))
def test_any_set_of_file_headers_round_trips(parts: list[tuple[list[str], list[tuple[str, str]]]]) -> None:
    text = "\n".join(["*** Begin Patch", *(line for lines, _ in parts for line in lines), "*** End Patch"])
    assert patch_files(text) == [op for _, ops in parts for op in ops]


def test_a_codex_patch() -> None:
    patch = (
        "*** Begin Patch\n"
        "*** Add File: docs/new.md\n+# New\n+*** Delete File: not/a/header.py\n"
        "*** Update File: src/app.py\n*** Move to: src/main.py\n@@ def main():\n-    pass\n+    run()\n"
        " *** Update File: context/line.py\n"
        "*** End of File\n"
        "*** Delete File: old.txt   \n"
        "*** End Patch\n"
    )
    assert patch_files(patch) == [
        ("write", "docs/new.md"),
        ("edit", "src/app.py"),
        ("write", "src/main.py"),
        ("edit", "old.txt"),
    ]


def test_text_without_headers_names_nothing() -> None:
    assert patch_files("") == []
    assert patch_files("*** Begin Patch\n*** End Patch") == []
    assert patch_files("*** Add File:    \n*** Move to: x.py\n") == []  # no path; a move needs an update
