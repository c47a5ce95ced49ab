"""The compaction_plan and context management commands (dry runs; nothing is written)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from sessions_app import store
from sessions_app.formats.pi import reader as pi_jsonl
from sessions_app.models import Node, Session

from .fixtures import BEFORE, LARGE

PLAN_KEYS = {
    "boundary_start",
    "first_kept",
    "is_split_turn",
    "turn_start",
    "summarize",
    "turn_prefix",
    "tokens_before",
    "read_files",
    "modified_files",
    "previous_summary_chars",
    "nothing_to_do",
}


def run(*args: Any) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_plan_json_in_pi_mode_matches_pi() -> None:
    plan = json.loads(run("compaction_plan", str(BEFORE), "--compat", "pi", "--json"))
    assert set(plan) == PLAN_KEYS
    s = pi_jsonl.load(BEFORE)
    assert s.index(plan["boundary_start"]) == 550
    assert s.index(plan["first_kept"]) == 946
    assert plan["is_split_turn"] is True and s.index(plan["turn_start"]) == 939
    assert [s.index(k) for k in plan["summarize"]] == list(range(550, 939))
    assert [s.index(k) for k in plan["turn_prefix"]] == list(range(939, 946))
    assert plan["tokens_before"] == 180820
    assert (len(plan["read_files"]), len(plan["modified_files"])) == (2, 12)
    assert plan["previous_summary_chars"] == 3649 and plan["nothing_to_do"] is None


def test_plan_keep_and_leaf_options() -> None:
    s = pi_jsonl.load(LARGE)
    leaf = s.entries[40].key
    plan = json.loads(
        run("compaction_plan", str(LARGE), "--compat", "pi", "--leaf", leaf, "--keep", "500", "--json")
    )
    last_summarized = plan["turn_start"] or plan["first_kept"]
    assert s.index(plan["first_kept"]) <= 40 and s.index(last_summarized) <= s.index(plan["first_kept"])
    everything = json.loads(
        run("compaction_plan", str(LARGE), "--leaf", leaf, "--keep", "10000000", "--json")
    )
    assert everything["nothing_to_do"].startswith("nothing to compact")
    assert everything["summarize"] == [] and everything["first_kept"] is None


def test_plan_table_output() -> None:
    out = run("compaction_plan", str(BEFORE), "--compat", "pi", "--window", "200000")
    assert "tokens before           180820" in out
    assert "threshold               183616 of 200000" in out
    assert "would trigger           False" in out
    assert "previous summary        3649 chars" in out


def test_bad_sources_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="neither an existing file nor a session id"):
        run("compaction_plan", "no-such-file.jsonl")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(CommandError, match="not a pi session file"):
        run("context", str(empty))
    with pytest.raises(CommandError, match="no entry 'nope'"):
        run("context", str(BEFORE), "--leaf", "nope")


def test_context_json_lists_the_summary_first() -> None:
    items = json.loads(run("context", str(BEFORE), "--json"))
    s = pi_jsonl.load(BEFORE)
    assert set(items[0]) == {"key", "role", "tokens"}
    assert s.index(items[0]["key"]) == 627 and items[0]["role"] == "user"  # the latest compaction
    assert s.index(items[1]["key"]) == 550  # its first kept entry
    assert all(i["tokens"] >= 0 for i in items) and items[0]["tokens"] > 500
    pi_items = json.loads(run("context", str(BEFORE), "--json", "--compat", "pi"))
    assert [i["key"] for i in pi_items] == [i["key"] for i in items]
    assert pi_items[0]["tokens"] == -(-3649 // 4)


def test_context_table() -> None:
    out = run("context", str(LARGE))
    lines = out.strip().splitlines()
    assert lines[0].split() == ["key", "role", "from", "tokens"]
    assert lines[-1].endswith("tokens") and "messages" in lines[-1]


@pytest.mark.django_db
def test_commands_read_a_stored_session(session: Session) -> None:
    def text(t: str) -> list[dict[str, str]]:
        return [{"type": "text", "text": t}]

    u = store.append(session, None, kind="message", role="user", content=text("x " * 300))
    a = store.append(
        session, u.key, kind="message", role="assistant", content=text("y " * 300), data={"model": "m"}
    )
    last = store.append(session, a.key, kind="message", role="user", content=text("z " * 300))
    n_nodes = Node.objects.filter(session=session).count()
    plan = json.loads(run("compaction_plan", str(session.pk), "--keep", "200", "--json"))
    assert plan["nothing_to_do"] is None and len(plan["summarize"]) == 2
    assert plan["first_kept"] == last.key and plan["summarize"] == [u.key, a.key]
    items = json.loads(run("context", str(session.pk), "--json"))
    # The system prompt and tool definitions first, as "what the model sees" lists them (issue 32).
    assert [i["role"] for i in items] == ["system", "tools", "user", "assistant", "user"]
    assert [i["key"] for i in items[2:]] == [u.key, a.key, last.key]
    assert Node.objects.filter(session=session).count() == n_nodes  # a dry run writes nothing
    with pytest.raises(CommandError, match="no session with id"):
        run("context", "999999")
