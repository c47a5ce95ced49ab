"""build_context (docs/compaction.md, rules C1–C2): pi's build-context.test.ts, buildSessionContext
cases of compaction.test.ts, labels.test.ts / save-entry.test.ts (non-message entries stay out of
the context)."""

from __future__ import annotations

from sessions_app.compaction.context import build_context, context_report, path_settings
from sessions_app.compaction.convert import BRANCH_PREAMBLE, COMPACTION_PREAMBLE
from sessions_app.compaction.tree import path_to
from sessions_app.formats.pi import reader as pi_jsonl

from .builders import Chain


def texts(messages: list) -> list[str]:
    out = []
    for m in messages:
        out.append("".join(b.get("text", "") for b in m.content if b.get("type") == "text"))
    return out


def test_empty_path() -> None:
    assert build_context([]) == []
    ps = path_settings([])
    assert (ps.thinking_level, ps.provider, ps.model) == ("off", None, None)


def test_single_user_message() -> None:
    c = Chain()
    c.user("hello")
    msgs = build_context(c.entries)
    assert len(msgs) == 1 and msgs[0].role == "user" and msgs[0].source_key == "1"


def test_roles_in_order_and_defaults() -> None:
    c = Chain()
    c.user("q1")
    c.assistant("r1")
    c.user("q2")
    c.assistant("r2")
    msgs = build_context(c.entries)
    assert [m.role for m in msgs] == ["user", "assistant", "user", "assistant"]
    ps = path_settings(c.entries)
    assert (ps.thinking_level, ps.provider, ps.model) == ("off", "anthropic", "claude-sonnet-4-5")


def test_thinking_level_change_is_not_a_message() -> None:
    c = Chain()
    c.user("q")
    c.thinking("high")
    c.assistant("r")
    assert len(build_context(c.entries)) == 2
    assert path_settings(c.entries).thinking_level == "high"


def test_model_from_assistant_overrides_earlier_model_change() -> None:
    c = Chain()
    c.user("q")
    c.model_change("openai", "gpt-4")
    assert (path_settings(c.entries).provider, path_settings(c.entries).model) == ("openai", "gpt-4")
    c.assistant("r")
    c.thinking("high")
    ps = path_settings(c.entries)
    assert (ps.provider, ps.model, ps.thinking_level) == ("anthropic", "claude-sonnet-4-5", "high")


def test_compaction_summary_then_kept_then_new() -> None:
    c = Chain()
    c.user("first")
    c.assistant("response1")
    c.user("second")
    c.assistant("response2")
    c.compaction("3", summary="Summary of first")
    c.user("third")
    c.assistant("response3")
    msgs = build_context(c.entries)
    assert texts(msgs)[1:] == ["second", "response2", "third", "response3"]
    assert msgs[0].role == "user" and msgs[0].source_key == "5"
    assert texts(msgs)[0] == f"{COMPACTION_PREAMBLE}\n\n<summary>\nSummary of first\n</summary>"
    assert [m.source_key for m in msgs] == ["5", "3", "4", "6", "7"]


def test_compaction_keeping_the_first_entry() -> None:
    c = Chain()
    c.user("first")
    c.assistant("response1")
    c.compaction("1", summary="s")
    c.user("second")
    assert texts(build_context(c.entries))[1:] == ["first", "response1", "second"]


def test_only_the_last_compaction_applies() -> None:
    c = Chain()
    c.user("u1")
    c.assistant("a1")
    c.compaction("1", summary="First summary")
    c.user("u2")
    c.assistant("b")
    c.user("u3")
    c.assistant("c")
    c.compaction("6", summary="Second summary")
    c.user("u4")
    c.assistant("d")
    msgs = build_context(c.entries)
    assert len(msgs) == 5
    assert "Second summary" in texts(msgs)[0] and "First summary" not in "".join(texts(msgs))
    assert texts(msgs)[1:] == ["u3", "c", "u4", "d"]


def test_older_compaction_inside_the_kept_range_is_skipped() -> None:
    c = Chain()
    c.user("u1")
    c.compaction("1", summary="old")
    c.user("u2")
    c.compaction("1", summary="new")  # keeps from u1, so the old compaction lies in the kept range
    msgs = build_context(c.entries)
    assert [m.source_key for m in msgs] == ["4", "1", "3"]


def test_first_kept_not_on_path_keeps_nothing_before_the_compaction() -> None:
    c = Chain()
    c.user("u1")
    c.compaction("missing", summary="s")
    c.user("u2")
    assert [m.source_key for m in build_context(c.entries)] == ["2", "3"]


def branches() -> dict:
    c = Chain()
    c.user("start", key="1")
    c.assistant("r1", key="2")
    c.user("branch A", key="3", parent="2")
    c.user("branch B", key="4", parent="2")
    return {e.key: e for e in c.entries}


def test_sibling_branches_never_enter_the_context() -> None:
    by_key = branches()
    a = build_context(path_to(by_key, "3"))
    b = build_context(path_to(by_key, "4"))
    assert texts(a) == ["start", "r1", "branch A"]
    assert texts(b) == ["start", "r1", "branch B"]


def test_branch_summary_on_path() -> None:
    c = Chain()
    c.user("q")
    c.assistant("r")
    c.branch_summary("what happened elsewhere")
    c.user("next")
    msgs = build_context(c.entries)
    assert len(msgs) == 4
    assert texts(msgs)[2] == f"{BRANCH_PREAMBLE}\n\n<summary>\nwhat happened elsewhere\n</summary>"
    c.branch_summary("")  # an empty branch summary says nothing
    assert len(build_context(c.entries)) == 4


def test_complex_tree() -> None:
    c = Chain()
    c.user("start", key="1")
    c.assistant("r1", key="2")
    c.user("q2", key="3")
    c.assistant("r2", key="4")
    c.compaction("3", summary="summary", key="5")
    c.user("q3", key="6")
    c.assistant("r3", key="7")
    c.assistant("abandoned", key="8", parent="3")
    c.user("abandoned too", key="9")
    c.branch_summary("tried another way", key="10", parent="3")
    c.user("better approach", key="11")
    by_key = {e.key: e for e in c.entries}
    main = build_context(path_to(by_key, "7"))
    assert texts(main)[1:] == ["q2", "r2", "q3", "r3"] and main[0].source_key == "5"
    side = build_context(path_to(by_key, "11"))
    assert [m.source_key for m in side] == ["1", "2", "3", "10", "11"]
    assert texts(side)[-1] == "better approach"


def test_orphan_entry_is_a_root() -> None:
    c = Chain()
    c.user("lost parent", key="1", parent="missing")
    assert len(build_context(path_to({"1": c.entries[0]}, "1"))) == 1


def test_unknown_leaf_means_last_entry() -> None:
    text = "\n".join(
        [
            '{"type":"session","version":3,"id":"s","timestamp":"2025-01-01T00:00:00Z","cwd":"/"}',
            '{"type":"message","id":"1","parentId":null,"timestamp":"t","message":{"role":"user","content":"q"}}',
            '{"type":"message","id":"2","parentId":"1","timestamp":"t","message":{"role":"assistant",'
            '"content":[{"type":"text","text":"a"}],"stopReason":"stop"}}',
        ]
    )
    session = pi_jsonl.parse(text)
    assert [e.key for e in session.path("nope")] == ["1", "2"]
    assert len(build_context(session.path("nope"))) == 2


def test_labels_custom_entries_and_settings_stay_out() -> None:
    c = Chain()
    c.user("q")
    c.label("1", "important")
    c.custom()
    c.model_change()
    c.add("session_info", None, None, {"name": "my session"})
    c.assistant("r")
    assert [m.source_key for m in build_context(c.entries)] == ["1", "6"]


def test_bash_custom_and_tool_results() -> None:
    c = Chain()
    c.user("q")
    c.assistant(None, calls=(("call-1", "bash", {"command": "ls"}),))
    c.tool_result("call-1", "a b", name="bash")
    c.bash("make test", "ok")
    c.bash("secret", "hidden", exclude=True)
    c.add("message", "custom", [{"type": "text", "text": "from an extension"}], {"custom_type": "x"})
    c.custom_message("injected")
    msgs = build_context(c.entries)
    assert [m.source_key for m in msgs] == ["1", "2", "3", "4", "6", "7"]
    tr = msgs[2]
    assert (tr.role, tr.tool_call_id, tr.tool_name) == ("tool_result", "call-1", "bash")
    bash = texts(msgs)[3]
    assert msgs[3].role == "user" and "make test" in bash and "ok" in bash
    assert [m.role for m in msgs[4:]] == ["user", "user"]
    assert texts(msgs)[4:] == ["from an extension", "injected"]


def test_context_report_per_message_tokens() -> None:
    c = Chain()
    c.user("q", tokens=3)
    c.assistant("r", tokens=4)
    c.compaction("2", summary="abcdefgh", tokens=9)
    c.user("next", tokens=5)
    report = context_report(c.entries)
    assert [(i.key, i.role, i.source, i.tokens) for i in report] == [
        ("3", "user", "compaction", 9),
        ("2", "assistant", "assistant", 4),
        ("4", "user", "user", 5),
    ]
    assert context_report(c.entries, pi=True)[0].tokens == 2  # 8 chars / 4


def test_build_context_is_deterministic() -> None:
    c = Chain()
    c.user("q")
    c.assistant("r")
    c.compaction("2")
    c.user("next")
    assert build_context(c.entries) == build_context(list(c.entries))
