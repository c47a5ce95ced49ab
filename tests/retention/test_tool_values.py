"""Values a tool printed and the assistant relied on (retention/tool_values.py), and a short
request with the assistant's reading of it (user_facts.restated). Small transcripts in several
toolchains, written for these tests."""

from __future__ import annotations

from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.facts import MEASURED, extract_facts
from sessions_app.retention.tool_values import RELIED
from sessions_app.retention.user_facts import TAKEN_AS
from tests.compaction.builders import Chain


def _values(c: Chain) -> list[str]:
    facts = extract_facts(c.entries)
    return [f.text for f in facts if f.kind == FactKind.VALUE and f.detail.startswith((RELIED, MEASURED))]


def test_a_number_the_assistant_repeats_is_a_value_with_its_line() -> None:
    c = Chain()
    c.user("why is the import slow")
    c.assistant(None, calls=(("a", "bash", {"command": "wc -l data/export.csv"}),))
    c.tool_result("a", "80412 data/export.csv\n", name="bash")
    c.assistant(None, calls=(("b", "bash", {"command": "mix run bench.exs"}),))
    c.tool_result("b", "Name   ips   average\nload   0.71  1408.22 ms\nparse  12.3  81.2 ms\n", name="bash")
    c.assistant("The file has 80,412 lines and one load takes 1408.22 ms; parsing is only 81.2 ms of it.")
    c.user("ok")
    got = _values(c)
    # Written with a thousands comma by the assistant. Round 7 left a line the answer repeats
    # whole to the answer; round 8 keeps it (docs/retention.md, "Round 8": recall paid for it).
    assert "80412 data/export.csv" in got
    assert "load 0.71 1408.22 ms" in [" ".join(v.split()) for v in got]


def test_a_number_nobody_repeats_in_a_long_output_is_no_value() -> None:
    c = Chain()
    c.user("list the tables")
    listing = "\n".join(f"table_{i} rows={i * 1000}" for i in range(12))
    c.assistant(None, calls=(("a", "bash", {"command": "psql -c '\\dt+'"}),))
    c.tool_result("a", listing, name="bash")
    c.assistant("There are twelve tables.")
    c.user("ok")
    assert _values(c) == []


def test_a_short_lookup_keeps_its_measurement_and_a_setting_the_assistant_cites() -> None:
    c = Chain()
    c.user("page is slow")
    c.assistant(None, calls=(("a", "bash", {"command": "grep Completed log/dev.log | tail -1"}),))
    c.tool_result("a", "Completed 200 OK in 1432ms (ActiveRecord: 1210.4ms (1843 queries))\n", name="bash")
    c.assistant(None, calls=(("b", "bash", {"command": "grep -rn INVARIANT compose.yml"}),))
    c.tool_result("b", "compose.yml:14:  - DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1\n", name="bash")
    c.assistant("compose sets DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1, so the culture is invariant.")
    c.user("ok")
    got = _values(c)
    assert any("1843 queries" in v for v in got)
    # The setting the answer cites is a value (round 7 left it to the answer; round 8 restored it).
    assert any("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1" in v for v in got)
    assert any("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1" in f.text for f in extract_facts(c.entries))


def test_source_lines_and_line_numbers_are_not_values() -> None:
    c = Chain()
    c.user("where is the limit set")
    c.assistant(None, calls=(("a", "read", {"path": "src/limits.swift"}),))
    c.tool_result("a", "12: let maxItems = 250\n13: if count > 250 {\n")
    c.assistant("Line 12 sets it to 250.")
    c.user("ok")
    assert _values(c) == []


def test_a_short_request_gains_how_the_assistant_took_it_and_keeps_its_words() -> None:
    c = Chain()
    c.user("fix the n+1 pls")
    c.assistant(None, calls=(("a", "bash", {"command": "grep Completed log/dev.log"}),))
    c.tool_result("a", "Completed 200 OK in 38ms", name="bash")
    c.assistant("The list page (lists#show) loads each book's author separately; preloading them.")
    c.user("thanks")
    [asked] = [f for f in extract_facts(c.entries) if f.kind == FactKind.REQUEST and "n+1" in f.text]
    assert asked.text.startswith("fix the n+1 pls")  # the user's words
    assert f"{TAKEN_AS}The list page (lists#show)" in asked.detail
    assert not asked.is_open_request  # the status still leads the detail


def test_a_long_request_is_not_restated() -> None:
    c = Chain()
    c.user("Please add a --json flag to the report command so that the cron scripts can parse it.")
    c.assistant("Adding `--json` to `report`.")
    c.user("thanks")
    [asked] = [f for f in extract_facts(c.entries) if f.kind == FactKind.REQUEST and "--json" in f.text]
    assert TAKEN_AS not in asked.detail
