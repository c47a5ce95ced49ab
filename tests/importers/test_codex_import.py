"""Codex CLI rollouts: one assistant node per model call with that call's usage, tool results with
exit codes, apply_patch as a patch, context messages that are no user turns, three compactions
(no replacement history, a local one with it, a remote one with an empty message), the audit,
the charts, auto-detection, the command and the upload form.

The fixture `data/codex_rollout.jsonl` is a hand-made rollout of six turns in the shape Codex
writes (see `sessions_app/formats/codex/` for where the shapes come from)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.compaction.context import build_context
from sessions_app.formats import codex as codex_format
from sessions_app.formats import detect_format
from sessions_app.importers import import_file
from sessions_app.models import Agent, CompactionEntry, Event, Node, Run, Session
from sessions_app.presenters.compaction import compaction_view
from sessions_app.retention import tool_outcomes
from tests.web.conftest import HX

from .helpers import DATA, jsonl, raw_lines, row_counts, run, snapshot, write

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

ROLLOUT = DATA / "codex_rollout.jsonl"
RECORDS = raw_lines(ROLLOUT)
LINE = {n: r for n, r in enumerate(RECORDS, 1)}


def payload(n: int) -> dict[str, Any]:
    p: dict[str, Any] = LINE[n]["payload"]
    return p


def of_type(t: str, kind: str | None = None) -> list[int]:
    """Lines of records of type `t` (and payload type `kind`)."""
    return [
        n for n, r in LINE.items() if r["type"] == t and (kind is None or r["payload"].get("type") == kind)
    ]


def unapplied_token_counts() -> list[int]:
    """Token counts no call node takes: rate limits only (info null), and the compactions' own
    calls (the token count right before a `compacted` record)."""
    return [
        n
        for n in of_type("event_msg", "token_count")
        if payload(n)["info"] is None or LINE.get(n + 1, {}).get("type") == "compacted"
    ]


COMPACTIONS = of_type("compacted")  # lines 58, 76, 85


@pytest.fixture
def imported() -> Any:
    return import_file(ROLLOUT)


@pytest.fixture
def staff_client() -> Client:
    client = Client()
    client.force_login(User.objects.create_user("op", password="pw-op-123456", is_staff=True))
    return client


def nodes(result: Any) -> dict[str, dict[str, Any]]:
    """The snapshot's nodes in the order they were written."""
    snap: dict[str, dict[str, Any]] = snapshot(result.session)["nodes"]
    order = Node.objects.filter(session=result.session).order_by("seq").values_list("key", flat=True)
    return {k: snap[k] for k in order}


# --- what becomes what --------------------------------------------------------------------------


def test_records_map_to_nodes_and_events(imported: Any) -> None:
    session = imported.session
    assert (session.source, imported.format) == ("codex", "codex")
    assert (
        session.title
        == "Fix the failing test in tests/test_stock.py: reserve() must never take the stock below zero."
    )
    assert (imported.skipped, imported.warnings) == ([], [])
    snap = nodes(imported)
    # Records that are no node are kept verbatim, once each: session_meta, turn_context, and every
    # event_msg but the token counts a call took, the turn_aborted marker (a node) and the
    # user_message / agent_message events that only repeat the prompt or answer before them.
    repeats = [n for n in of_type("event_msg") if payload(n)["type"] in ("user_message", "agent_message")]
    messages = [m for m in of_type("response_item", "message")]
    for n in repeats:  # each repeats the message item before it
        before = max(m for m in messages if m < n)
        assert payload(n)["message"] == payload(before)["content"][0]["text"]
    kept = [
        n
        for n, r in LINE.items()
        if r["type"] in ("session_meta", "turn_context")
        or (
            r["type"] == "event_msg"
            and r["payload"]["type"] not in ("token_count", "turn_aborted", "context_compacted")
        )
    ] + unapplied_token_counts()
    kept = [n for n in kept if n not in repeats]
    events = list(Event.objects.filter(session=session, type="import_record").order_by("id"))
    assert sorted(e.payload["timestamp"] for e in events) == sorted(LINE[n]["timestamp"] for n in kept)
    # Codex's context_compacted events are context edits on the timeline (docs/compaction.md, E7),
    # each with its record whole.
    compacted = [n for n in of_type("event_msg") if payload(n)["type"] == "context_compacted"]
    edited = list(Event.objects.filter(session=session, type="context_edited").order_by("id"))
    assert [e.payload["record"] for e in edited] == [LINE[n] for n in compacted] and len(compacted) == 2
    assert imported.events == len(kept) + len(compacted) == len(events) + len(edited)
    assert session.metadata["import"]["repeated_events_left_out"] == len(repeats) == 8
    users = [k for k, n in snap.items() if n["role"] == "user"]
    prompts = [
        n for n in of_type("response_item", "message") if payload(n)["role"] == "user"
        and not payload(n)["content"][0]["text"].startswith(("<", "# AGENTS.md"))
    ]  # fmt: skip
    # The user's six prompts, plus the three a compaction's replacement history carries again.
    assert len(prompts) == 6 and sorted(users) == sorted(
        [f"L{n}" for n in prompts] + ["L76.4", "L76.5", "L85.1"]
    )
    # One chain: every node under the one before it; the active node is the last.
    keys = [e.key for e in store.path_entries(session)]
    assert len(keys) == imported.node_count == len(snap) == 56
    assert all(snap[k]["parent"] == (keys[i - 1] if i else None) for i, k in enumerate(keys))
    assert keys[-1] == f"L{len(RECORDS) - 2}" and session.active_node.key == keys[-1]
    assert Agent.objects.get(session=session).definition_name == "codex"
    meta = session.metadata["import"]
    assert meta["codex_session_ids"] == [payload(1)["id"]] and meta["codex_cli_versions"] == ["0.46.0"]
    assert meta["cwd"] == "/home/dev/inventory" and meta["git"]["branch"] == "main"
    assert meta["models"] == ["gpt-5-codex", "gpt-5.1-codex"]
    assert session.context_window == 272_000
    assert Session.objects.get(pk=session.pk).context_window == 272_000
    # The session's last activity is the rollout's last record, not the import time.
    assert Session.objects.get(pk=session.pk).updated_at.isoformat().startswith(RECORDS[-1]["timestamp"][:19])


def test_one_assistant_node_per_model_call_with_that_calls_usage(imported: Any) -> None:
    snap = nodes(imported)
    first = snap["L8"]  # reasoning (line 8) and the shell call (line 9), then the token count (line 10)
    assert [b["type"] for b in first["content"]] == ["thinking", "tool_call"]
    assert first["data"]["extra"]["merged_lines"] == [9]
    last = payload(10)["info"]["last_token_usage"]
    assert first["usage"] == {
        "input": last["input_tokens"] - last["cached_input_tokens"],
        "output": last["output_tokens"],
        "cache_read": last["cached_input_tokens"],
        "cache_write": 0,
        "total": last["total_tokens"],
    }
    assert first["data"]["extra"]["usage"] == {"reasoning_output_tokens": 128}
    assert first["data"]["extra"]["token_count"]["rate_limits"] == payload(10)["rate_limits"]
    assert first["data"]["model"] == "gpt-5-codex" and first["data"]["provider"] == "openai"
    # Every call node took exactly one token count; their outputs add up to the session's total
    # minus what the three compactions' own calls produced.
    assistants = [n for n in snap.values() if n["role"] == "assistant"]
    replayed = [n for n in assistants if "replacement_of" in n["data"].get("extra", {})]
    assert replayed == [] and all(n["usage"] for n in assistants)
    final_total = payload(of_type("event_msg", "token_count")[-1])["info"]["total_token_usage"]
    compaction_calls = [
        payload(n)["info"]["last_token_usage"]["output_tokens"] for n in unapplied_token_counts()[1:]
    ]
    assert sum(n["usage"]["output"] for n in assistants) == final_total["output_tokens"] - sum(
        compaction_calls
    )
    # The encrypted reasoning is kept, never shown as text.
    enc = payload(8)["encrypted_content"]
    assert first["data"]["extra"]["reasoning"][0]["encrypted_content"] == enc
    assert enc not in json.dumps(first["content"])
    no_summary = snap["L12"]  # a reasoning item with only encrypted content: no thinking block
    assert [b["type"] for b in no_summary["content"]] == ["tool_call"]


def test_tool_results_carry_exit_codes_in_both_forms(imported: Any) -> None:
    snap = nodes(imported)
    expect = {
        "L11": ("shell", 1, True),  # JSON with metadata, a failing pytest
        "L15": ("shell", 0, False),  # "Exit code: 0" text
        "L23": ("shell", 1, True),
        "L50": ("shell_command", 0, False),  # unified exec: "Process exited with code 0"
        "L65": ("local_shell", 1, True),  # a local_shell_call, "Exit code: 1" text
        "L71": ("shell", 0, False),
    }
    for key, (name, code, error) in expect.items():
        d = snap[key]["data"]
        assert (snap[key]["role"], d["tool_name"], d["exit_code"], d["is_error"]) == (
            "tool_result",
            name,
            code,
            error,
        )
        assert d["tool_call_id"] == payload(int(key[1:]))["call_id"]
    # A JSON-wrapped output is shown as the command's own text, the wrapper's facts beside it.
    wrapped = json.loads(payload(11)["output"])
    assert snap["L11"]["content"] == [{"type": "text", "text": wrapped["output"]}]
    assert snap["L11"]["data"]["extra"] == {"duration_seconds": 0.6, "exec_output": "json"}
    assert snap["L15"]["content"] == [{"type": "text", "text": payload(15)["output"]}]  # text: as it was
    assert "exit_code" not in snap["L41"]["data"] and snap["L41"]["data"]["is_error"] is False  # "aborted"
    # The engine's facts read the same exit codes and failures.
    path = {e.key: e for e in store.path_entries(imported.session)}
    assert [tool_outcomes.exit_code(path[k]) for k in expect] == [c for _, c, _ in expect.values()]
    assert [tool_outcomes.is_failure(path[k]) for k in expect] == [e for _, _, e in expect.values()]


def test_apply_patch_is_a_patch_in_every_spelling(imported: Any) -> None:
    snap = nodes(imported)
    custom = snap["L16"]["content"][1]  # custom_tool_call apply_patch
    assert (custom["name"], custom["arguments"]) == ("apply_patch", {"patch": payload(17)["input"]})
    assert custom["extra"] == {"status": "completed"}
    function = snap["L24"]["content"][1]  # function_call apply_patch {"input": patch}
    patch = json.loads(payload(25)["arguments"])["input"]
    assert (function["name"], function["arguments"]) == ("apply_patch", {"patch": patch})
    heredoc = snap["L51"]["content"][0]  # shell: apply_patch <<'EOF' … EOF
    script = json.loads(payload(51)["arguments"])["command"][2]
    assert heredoc["name"] == "apply_patch"
    assert heredoc["arguments"]["patch"].startswith("*** Begin Patch\n*** Add File: tests/test_negative.py\n")
    assert heredoc["arguments"]["patch"].endswith("*** End Patch") and heredoc["arguments"]["patch"] in script
    assert (
        heredoc["extra"]["codex_name"] == "shell"
        and heredoc["extra"]["codex_arguments"]["command"][2] == script
    )
    # The results name the tool as the calls do.
    assert {snap[k]["data"]["tool_name"] for k in ("L19", "L27", "L53")} == {"apply_patch"}


def test_context_messages_are_shown_as_such_and_are_no_user_turns(imported: Any) -> None:
    snap = nodes(imported)
    kinds = {k: (snap[k]["kind"], snap[k]["data"].get("custom_type")) for k in ("L2", "L3", "L4", "L43")}
    assert kinds == {
        "L2": ("custom_message", "codex.instructions"),  # a developer message
        "L3": ("custom_message", "codex.instructions"),  # AGENTS.md
        "L4": ("custom_message", "codex.environment_context"),
        "L43": ("custom_message", "codex.turn_aborted"),
    }
    assert snap["L2"]["data"]["details"]["role"] == "developer"
    assert snap["L42"]["kind"] == "custom" and snap["L42"]["data"]["data"] == {"reason": "interrupted"}
    # turn_context: a model change when the model changes, a thinking level when the effort does.
    changes = [
        (k, n["kind"], n["data"])
        for k, n in snap.items()
        if n["kind"] in ("model_change", "thinking_level_change")
    ]
    assert changes == [
        ("L5", "model_change", {"provider": "openai", "model_id": "gpt-5-codex"}),
        ("L5.1", "thinking_level_change", {"thinking_level": "medium"}),
        ("L35", "thinking_level_change", {"thinking_level": "high"}),
        ("L44", "model_change", {"provider": "openai", "model_id": "gpt-5.1-codex"}),
    ]
    # The audit's open requests and constraints come from the user's words only.
    audit = CompactionEntry.objects.get(node__session=imported.session, node__key="L58").audit
    assert audit is not None
    facts = audit["facts"]
    assert facts and not [f for f in facts if "environment_context" in f["text"] or "AGENTS.md" in f["text"]]
    assert any(f["kind"] == "constraint" and "Negative amounts must raise" in f["text"] for f in facts)


# --- compactions ------------------------------------------------------------------------------


def test_compactions_keep_nothing_validate_and_measure_both_sizes(imported: Any) -> None:
    entries = {
        ce.node.key: ce
        for ce in CompactionEntry.objects.filter(node__session=imported.session).select_related(
            "node", "first_kept_node"
        )
    }
    assert sorted(entries) == [f"L{n}" for n in COMPACTIONS] == ["L58", "L76", "L85"]
    for key, ce in entries.items():
        assert ce.first_kept_node_id == ce.node_id  # Codex keeps no tail (rule C1)
        assert ce.reason == "imported"
        assert compaction_view(ce).validation == []
        # tokens_before: the last token count before it (the compaction's own call).
        before = payload(int(key[1:]) - 1)["info"]["last_token_usage"]
        assert ce.tokens_before == before["total_tokens"]
    assert entries["L58"].summary == payload(58)["message"]
    assert entries["L76"].summary == payload(76)["message"]
    # tokens_after: what the first call after it sent (its input, cached input included).
    assert entries["L58"].tokens_after == payload(64)["info"]["last_token_usage"]["input_tokens"] == 3104
    assert entries["L76"].tokens_after == payload(83)["info"]["last_token_usage"]["input_tokens"]
    # A remote compaction has no message: a placeholder says so, the empty message is kept.
    remote = Node.objects.get(session=imported.session, key="L85")
    assert entries["L85"].summary == codex_format.NO_SUMMARY and remote.data["extra"]["message"] == ""


def test_the_context_is_what_codex_had_after_each_compaction(imported: Any) -> None:
    session = imported.session
    path = store.path_entries(session)
    keys = [e.key for e in path]

    def context_at(key: str) -> list[Any]:
        return build_context(path[: keys.index(key) + 1])

    # No replacement history: the summary, then only what followed.
    after_first = context_at("L63")
    assert [m.source_key for m in after_first] == ["L58", "L61", "L63"]
    # With one: the summary stands for the history's last item (the summary message, left out);
    # the other items follow it, so the model sees the same texts Codex kept.
    history = payload(76)["replacement_history"]
    after_second = context_at("L79")
    assert [m.source_key for m in after_second] == ["L76", "L76.1", "L76.2", "L76.3", "L76.4", "L76.5", "L79"]
    texts = [b["text"] for m in after_second[1:-1] for b in m.content]
    assert texts == [item["content"][0]["text"] for item in history[:-1]]
    assert history[-1]["content"][0]["text"] == payload(76)["message"] in after_second[0].content[0]["text"]
    snap = nodes(imported)
    assert snap["L76"]["data"]["extra"]["summary_item"] == 5
    assert snap["L76.4"]["data"]["extra"]["replacement_of"] == "L76"
    # Remote: the encrypted item is kept (a custom node, not sent); the user's message is.
    assert (
        snap["L85.2"]["data"]["data"]["encrypted_content"]
        == payload(85)["replacement_history"][1]["encrypted_content"]
    )
    # The store's own context load (from the last compaction's first kept node) agrees.
    loaded = store.context_path_entries(session)
    assert [m.source_key for m in build_context(loaded)] == ["L85", "L85.1", "L86", "L88", "L90", "L91"]


def test_the_audit_runs_on_the_imported_compactions(imported: Any) -> None:
    ce = CompactionEntry.objects.get(node__session=imported.session, node__key="L58")
    audit = ce.audit
    assert audit is not None and audit["total"] > 0 and ce.retention is not None
    facts = audit["facts"]
    # The failing test run is an error fact that names its command, as for native ones (round 5 of
    # issue 30: a command whose last run failed is said by its error, docs/retention.md).
    errors = [f for f in facts if f["kind"] == "error"]  # pytest's salient "E …" lines
    assert len(errors) == 2 and "AssertionError: stock went below zero: -1" in errors[0]["text"]
    assert "ValueError: cannot reserve 2: only 1 in stock" in errors[1]["text"]
    assert all("pytest -q tests/test_stock.py" in f["detail"] for f in errors)
    assert not any(f["kind"] == "command" and "pytest -q tests/test_stock.py" in f["text"] for f in facts)
    out, _ = run("audit", str(imported.session.pk), "--json")
    report = json.loads(out)
    assert [c["key"] for c in report["compactions"]] == ["L58", "L76", "L85"]
    assert all(c["total"] is not None for c in report["compactions"])


def test_the_charts_read_one_point_per_model_call(imported: Any, staff_client: Client) -> None:
    session = imported.session
    url = reverse("sessions_app:session_panel", args=[session.pk, "charts"])
    html = staff_client.get(url, **HX).content.decode()
    figs = {
        name: json.loads(body)
        for name, body in re.findall(
            r'<script id="(fig-\w+)" type="application/json">(.*?)</script>', html, re.S
        )
    }
    calls = Node.objects.filter(session=session, role="assistant").order_by("seq")
    context = next(
        t for t in figs["fig-context"]["data"] if t["name"].startswith("context tokens per model call")
    )
    assert context["x"] == list(range(1, calls.count() + 1))
    assert context["y"] == [(n.usage or {})["total"] for n in calls]
    compaction = next(t for t in figs["fig-context"]["data"] if t["name"].startswith("compaction"))
    assert len([x for x in compaction["x"] if x is not None]) == 2 * len(COMPACTIONS)
    assert figs["fig-usage"]["data"][0]["x"] == list(range(1, calls.count() + 1))


def test_every_page_of_an_imported_rollout_renders(imported: Any, staff_client: Client) -> None:
    session = imported.session
    page = staff_client.get(reverse("sessions_app:session_detail", args=[session.pk]))
    assert page.status_code == 200 and "Codex CLI" in page.content.decode()
    for key in Node.objects.filter(session=session).values_list("key", flat=True):
        response = staff_client.get(reverse("sessions_app:node_detail", args=[session.pk, key]))
        assert response.status_code == 200, key
    patch_page = staff_client.get(
        reverse("sessions_app:node_detail", args=[session.pk, "L16"])
    ).content.decode()
    assert "apply_patch" in patch_page and "*** Update File: inventory/stock.py" in patch_page
    for ce in CompactionEntry.objects.filter(node__session=session):
        html = staff_client.get(reverse("sessions_app:compaction_detail", args=[ce.pk])).content.decode()
        assert 'id="validation-ok"' in html and "keeps nothing from before it" in html


# --- detection, the command, the upload form ------------------------------------------------------


def test_auto_detects_a_rollout() -> None:
    assert detect_format(RECORDS[0]) == "codex"
    assert detect_format({"timestamp": "2025-01-01T00:00:00Z", "type": "event_msg", "payload": {}}) == "codex"
    legacy = {"id": "0199", "timestamp": "2025-05-01T10:00:00.000Z", "instructions": None}
    assert detect_format(legacy) == "codex"
    assert detect_format({"type": "session_meta", "payload": "x"}) is None
    assert import_file(ROLLOUT, format="auto").format == "codex"


def test_the_command_imports_a_rollout() -> None:
    before = row_counts()
    out, err = run("import_session", str(ROLLOUT), "--format", "codex")
    session = Session.objects.get(source="codex")
    assert f"session {session.pk}" in out and err == ""
    assert row_counts()["sessions_app.Node"] == before["sessions_app.Node"] + 56
    runs = Run.objects.filter(session=session).count()
    assert runs and f" {runs} runs, " in out  # the turns, as runs (issue 32)


@pytest.mark.parametrize("fmt", ["auto", "codex"])
def test_the_upload_form_takes_a_rollout(staff_client: Client, fmt: str) -> None:
    upload = SimpleUploadedFile(
        "rollout.jsonl", ROLLOUT.read_bytes(), content_type="application/octet-stream"
    )
    response = staff_client.post(reverse("sessions_app:session_import"), {"file": upload, "format": fmt})
    assert response.status_code == 302
    session = Session.objects.get(source="codex")
    assert response["Location"] == reverse("sessions_app:session_detail", args=[session.pk])
    assert session.metadata["import"]["file"] == "rollout.jsonl"
    page = staff_client.get(response["Location"]).content.decode()
    assert "Codex CLI" in page


# --- titles and older rollouts ----------------------------------------------------------------


def test_title_precedence(tmp_path: Path) -> None:
    meta, prompt = RECORDS[0], LINE[6]
    renamed = {"type": "thread_name_updated", "thread_id": payload(1)["id"], "thread_name": "stock fix"}
    named = {"timestamp": "2025-10-20T09:10:00.000Z", "type": "event_msg", "payload": renamed}
    assert import_file(write(tmp_path, "a.jsonl", jsonl(meta, prompt, named))).session.title == "stock fix"
    assert (
        import_file(write(tmp_path, "b.jsonl", jsonl(meta, prompt))).session.title
        == payload(6)["content"][0]["text"].splitlines()[0]
    )
    long = {**prompt, "payload": {**payload(6), "content": [{"type": "input_text", "text": "word " * 40}]}}
    title = import_file(write(tmp_path, "c.jsonl", jsonl(meta, long))).session.title
    assert title.endswith("…") and len(title) <= 101
    # Context messages are no prompt: with nothing else, the file's name.
    only_context = import_file(write(tmp_path, "rollout-x.jsonl", jsonl(meta, LINE[3], LINE[4]))).session
    assert only_context.title == "rollout-x"


def test_an_older_rollout_without_the_envelope(tmp_path: Path) -> None:
    rows = [
        {"id": "0197a1", "timestamp": "2025-05-01T10:00:00.000Z", "instructions": None,
         "git": {"branch": "main"}},
        {"record_type": "state"},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "list the files"}]},
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Use ls."}]},
        {"type": "function_call", "id": "fc_1", "name": "shell", "arguments": "{\"command\":[\"ls\"]}",
         "call_id": "call_1"},
        {"type": "function_call_output", "call_id": "call_1",
         "output": "{\"output\":\"a.py\\n\",\"metadata\":{\"exit_code\":0,\"duration_seconds\":0.0}}"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "One file."}]},
        {"record_type": "state"},
    ]  # fmt: skip
    result = import_file(write(tmp_path, "old.jsonl", jsonl(*rows)))
    assert result.format == "codex" and result.warnings == [] and result.skipped == []
    snap = nodes(result)
    assert [(e.key, e.role) for e in store.path_entries(result.session)] == [
        ("L3", "user"), ("L4", "assistant"), ("L6", "tool_result"), ("L7", "assistant")
    ]  # fmt: skip
    assert snap["L4"]["content"][1]["extra"] == {"id": "fc_1"} and snap["L6"]["data"]["exit_code"] == 0
    assert result.events == 3 and result.session.metadata["import"]["legacy_format"] is True
    # Without timestamps the records take the header's time.
    assert {str(n["timestamp"])[:19] for n in snap.values()} == {"2025-05-01 10:00:00"}


def test_codex_shell_command_calls_are_command_facts(imported: Any) -> None:
    """`shell_command` (Codex's newer shell tool) is a shell tool: its commands are audited."""
    from sessions_app.compaction.vocabulary import FactKind
    from sessions_app.retention.facts import extract_facts
    from sessions_app.retention.tool_outcomes import command_of, is_shell_tool

    path = store.path_entries(imported.session)
    calls = [
        b
        for e in path
        if e.role == "assistant"
        for b in e.content
        if isinstance(b, dict) and b.get("type") == "tool_call" and b.get("name") == "shell_command"
    ]
    assert calls and all(is_shell_tool(b["name"]) for b in calls)
    assert command_of(calls[0]["arguments"]) == "cat tests/test_stock.py"
    facts = extract_facts(path)
    commands = {f.text for f in facts if f.kind == FactKind.COMMAND}
    # The test runs are facts (one that failed through its error, which names the command); a
    # `cat` that only read and passed is not (docs/retention.md, "Commands").
    runs = commands | {f.command for f in facts if f.kind == FactKind.ERROR}
    assert "pytest -q" in runs and "cat tests/test_stock.py" not in commands
