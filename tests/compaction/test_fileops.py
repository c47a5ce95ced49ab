"""File-operation tracking and the <read-files>/<modified-files> blocks (docs/compaction.md, rule M7)."""

from __future__ import annotations

from sessions_app.compaction.fileops import FileOps, format_file_lists

from .builders import Chain


def test_read_write_edit_paths_verbatim_other_tools_ignored() -> None:
    c = Chain()
    c.assistant(
        None,
        calls=(
            ("1", "read", {"path": "./a.py"}),
            ("2", "read", {"path": "/abs/a.py"}),
            ("3", "write", {"path": "/new.py", "content": "x"}),
            ("4", "edit", {"path": "/e.py"}),
            ("5", "bash", {"path": "/ignored", "command": "cat"}),
            ("6", "read", {"file": "/no-path-arg"}),
            ("7", "read", {"path": 42}),
            ("8", "read", {"path": ""}),
        ),
    )
    c.tool_result("1")  # results carry no file operations
    ops = FileOps()
    ops.add_entries(c.entries)
    assert ops.read == {"./a.py", "/abs/a.py"} and ops.written == {"/new.py"} and ops.edited == {"/e.py"}


def test_modified_wins_over_read_and_lists_are_sorted() -> None:
    ops = FileOps(read={"/b", "/a", "/m"}, written={"/m", "/z"}, edited={"/c"})
    assert ops.lists() == (["/a", "/b"], ["/c", "/m", "/z"])


def test_previous_details_modified_count_as_edited() -> None:
    ops = FileOps()
    ops.add_details({"read_files": ["/r", 3], "modified_files": ["/m"]})
    ops.add_details(None)
    ops.add_details({"read_files": "not a list"})
    assert ops.read == {"/r"} and ops.edited == {"/m"}


def test_pi_sort_is_utf16_code_unit_order() -> None:
    # U+FF5E (fullwidth tilde, one unit 0xFF5E) vs U+1F600 (surrogates 0xD83D...): JS puts the
    # emoji first, code-point order puts it last.
    ops = FileOps(read={"/\uff5e", "/😀"})
    assert ops.lists(utf16_order=True)[0] == ["/😀", "/\uff5e"]
    assert ops.lists()[0] == ["/\uff5e", "/😀"]


def test_format_file_lists() -> None:
    assert format_file_lists([], []) == ""
    assert format_file_lists(["/a", "/b"], []) == "\n\n<read-files>\n/a\n/b\n</read-files>"
    assert format_file_lists([], ["/m"]) == "\n\n<modified-files>\n/m\n</modified-files>"
    assert format_file_lists(["/a"], ["/m"]) == (
        "\n\n<read-files>\n/a\n</read-files>\n\n<modified-files>\n/m\n</modified-files>"
    )
