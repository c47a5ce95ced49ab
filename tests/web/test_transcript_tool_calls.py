"""How the transcript shows a tool call's arguments (presenters/tool_calls.py): each agent's
spelling of a shell call, a patch, an edit, a write and a read."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app.presenters.tool_calls import MAX_DIFF_LINES, call_view, command_text


def test_codex_shell_argv_reads_as_the_typed_command() -> None:
    assert command_text(["bash", "-lc", "pytest -q && echo ok"]) == "pytest -q && echo ok"
    assert command_text(["/bin/zsh", "-c", "ls"]) == "ls"
    assert command_text(["git", "commit", "-m", "two words"]) == "git commit -m 'two words'"
    assert command_text({"not": "a command"}) is None


def test_shell_tools_of_each_agent_show_a_command() -> None:
    for name, args in [
        ("bash", {"command": "make"}),
        ("Bash", {"command": "make", "description": "build"}),
        ("shell", {"command": ["bash", "-lc", "make"], "workdir": "/w"}),
        ("shell_command", {"command": "make"}),
        ("local_shell", {"command": ["bash", "-lc", "make"], "timeout_ms": 100}),
        ("exec_command", {"cmd": "make"}),
    ]:
        view = call_view(name, "c", args)
        assert (view.shape, view.command) == ("command", "make"), name
        assert all(k not in ("command", "cmd") for k, _ in view.fields)


def test_apply_patch_is_a_diff_whether_a_tool_or_a_shell_argv() -> None:
    patch = "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    return 2\n*** End Patch"
    for view in (
        call_view("apply_patch", "c", {"patch": patch}),
        call_view("shell", "c", {"command": ["apply_patch", patch]}),
    ):
        assert view.shape == "diff"
        assert ("del", "-    return 1") in view.diff and ("add", "+    return 2") in view.diff
        assert ("head", "*** Update File: a.py") in view.diff and ("hunk", "@@ def f():") in view.diff
        assert view.diff_stat == "+1 −1"


def test_edits_of_each_agent_become_unified_diffs() -> None:
    for name, args in [
        ("edit", {"path": "a.py", "old_text": "x = 1\n", "new_text": "x = 2\n"}),
        ("Edit", {"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}),
        ("edit", {"path": "a.py", "oldText": "x = 1", "newText": "x = 2"}),
        ("MultiEdit", {"file_path": "a.py", "edits": [{"old_string": "x = 1", "new_string": "x = 2"}]}),
    ]:
        view = call_view(name, "c", args)
        assert view.shape == "diff" and view.path == "a.py", name
        assert ("del", "-x = 1") in view.diff and ("add", "+x = 2") in view.diff, name


def test_a_multi_edit_writes_the_file_header_once() -> None:
    edits = [{"old_string": f"a{i}", "new_string": f"b{i}"} for i in range(3)]
    view = call_view("MultiEdit", "c", {"file_path": "m.py", "edits": edits})
    assert [line for cls, line in view.diff if cls == "head"] == ["--- m.py", "+++ m.py"]
    assert view.diff_stat == "+3 −3"


def test_a_write_is_the_new_file_as_added_lines() -> None:
    view = call_view("Write", "c", {"file_path": "n.md", "content": "one\ntwo"})
    assert view.diff == [("head", "+++ n.md"), ("add", "+one"), ("add", "+two")]


def test_a_long_diff_is_cut_and_says_how_much() -> None:
    content = "\n".join(f"line {i}" for i in range(MAX_DIFF_LINES + 50))
    view = call_view("write", "c", {"path": "big.txt", "content": content})
    assert len(view.diff) == MAX_DIFF_LINES
    assert view.diff_more == 51  # the header line and 50 file lines left out


def test_reads_show_the_path_and_the_rest_as_fields() -> None:
    view = call_view("Read", "c", {"file_path": "/src/a.py", "offset": 10, "limit": 5})
    assert (view.shape, view.path) == ("path", "/src/a.py")
    assert view.fields == [("offset", "10"), ("limit", "5")]


def test_other_tools_show_their_named_fields() -> None:
    view = call_view(
        "Task", "c", {"description": "find it", "prompt": "Find where.", "subagent_type": "Explore"}
    )
    assert view.shape == "fields"
    assert ("prompt", "Find where.") in view.fields
    assert call_view("odd", "c", ["not", "a", "dict"]).fields == [("arguments", '["not", "a", "dict"]')]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
names = st.sampled_from(
    ["bash", "shell", "exec_command", "apply_patch", "edit", "Edit", "MultiEdit", "Write", "Read", "x"]
)


# Generation is slow on a loaded machine; the property is cheap, so no deadline either.
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    names,
    st.dictionaries(
        st.sampled_from(
            [
                "command",
                "cmd",
                "patch",
                "path",
                "file_path",
                "old_string",
                "new_string",
                "old_text",
                "new_text",
                "content",
                "edits",
                "other",
            ]
        ),
        json_values,
        max_size=5,
    ),
)
def test_any_arguments_give_a_view_without_raising(name: str, args: dict[str, Any]) -> None:
    """Imported arguments are whatever the file held: every shape renders, none raises."""
    view = call_view(name, "id", args)
    assert view.shape in ("command", "diff", "path", "fields")
    if view.shape == "fields":
        assert len(view.fields) == sum(1 for v in args.values() if v is not None)
    for cls, line in view.diff:
        assert cls in ("add", "del", "hunk", "head", "ctx") and "\n" not in line
