"""Every user sentence is a candidate, kept in the user's words, and what the user asked outranks
what the assistant said when a summary is trimmed (retention/user_facts.py, extractive.py; issue 30
Build item 2). Small transcripts written for these tests, one voice each."""

from __future__ import annotations

from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.extractive import compact_extractive
from sessions_app.retention.facts import extract_facts
from tests.compaction.builders import Chain
from tests.retention.test_extractive import plan


def requests(c: Chain, *, done: bool) -> list[str]:
    return [
        f.text
        for f in extract_facts(c.entries)
        if f.kind == FactKind.REQUEST and f.is_open_request is not done
    ]


def test_long_paragraph_a_rule_told_as_context_stays_with_the_finished_request() -> None:
    c = Chain()
    c.user(
        "We have to split the `orders` table into orders and order_lines. The table is large in "
        "production, about 9M rows (production is read-only for us; the DBAs apply a SQL file we "
        "send them). Please write the migration so that it can run in two steps."
    )
    c.assistant("Both steps are in `0042_split_orders.py`.")
    c.user("thanks, now the docs")
    [asked] = requests(c, done=True)
    assert "read-only for us" in asked and "the DBAs apply a SQL file" in asked  # no keyword needed
    assert asked.index("split the `orders` table") < asked.index("two steps")  # in the user's order


def test_terse_lower_case_a_question_is_a_request_and_chatter_is_nothing() -> None:
    c = Chain()
    c.user("nice.")
    c.assistant("Thanks!")
    c.user("what about an index on created_at? the report filters by it")
    c.assistant("Added `idx_events_created_at` (CONCURRENTLY).")
    c.user("ok")
    done = requests(c, done=True)
    assert any("index on created_at" in d and "the report filters by it" in d for d in done)
    assert not any(d.startswith("nice") for d in done)  # says nothing a colleague needs


def test_non_native_the_context_of_the_open_request_is_kept_too() -> None:
    c = Chain()
    c.user(
        "For me is important that the CLI output stay like before, our cron scripts are parsing it. "
        "Can you add the --json flag for the new consumers?"
    )
    c.assistant(None, calls=(("r", "read", {"path": "cli.go"}),))
    c.tool_result("r", "package main")
    facts = extract_facts(c.entries[:-2], c.entries[-2:])  # the turn goes on at the cut
    opened = [f.text for f in facts if f.kind == FactKind.REQUEST and f.is_open_request]
    assert any("--json" in t for t in opened)
    assert any("cron scripts are parsing it" in t for t in opened)


def test_pasted_output_is_not_the_users_words() -> None:
    c = Chain()
    c.user(
        "why does this fail now?\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app/jobs.py", line 12, in run\n'
        "    load(cfg)\n"
        "KeyError: 'SUMMER'"
    )
    c.assistant("`SEASONS` lacks SUMMER; added it.")
    c.user("good")
    [asked] = requests(c, done=True)
    assert asked.startswith("why does this fail now?")
    assert "/srv/app/jobs.py" not in asked


def test_what_the_user_asked_outlasts_the_assistants_findings_over_two_compactions() -> None:
    c = Chain()
    for i in range(14):
        c.user(f"Turn {i}: please rename the handler hdl{i:02d} to handle_{i:02d} everywhere.")
        c.assistant(
            f"Renamed hdl{i:02d} in src/handlers/h{i:02d}.py and its 12 call sites. "
            + " ".join(f"Call site {k} in module m{i}_{k}.py now uses handle_{i:02d}." for k in range(12))
        )
    c.user("latest " * 200)
    first = compact_extractive(plan(c, keep=60))
    c.compaction(c.entries[-1].key, summary=first.summary)
    for i in range(14, 20):
        c.user(f"Turn {i}: please rename the handler hdl{i:02d} to handle_{i:02d} everywhere.")
        c.assistant(
            f"Renamed hdl{i:02d} in src/handlers/h{i:02d}.py. "
            + " ".join(f"Call site {k} in module m{i}_{k}.py now uses handle_{i:02d}." for k in range(12))
        )
    c.user("newest " * 200)
    second = compact_extractive(plan(c, keep=60)).summary
    assert "Call site 0 in module m0_0.py" not in second  # the assistant's details were trimmed
    for i in range(20):  # and every request, old ones included, is still there
        assert f"rename the handler hdl{i:02d}" in second, i


def test_an_answers_list_is_one_finding_with_its_items_and_code_is_not_prose() -> None:
    c = Chain()
    c.user("which helpers go where?")
    c.assistant(
        "Generic helpers move to src/utils/:\n\n"
        "- `changelog.ts` parses the changelog\n"
        "- `clipboard.ts` copies text\n"
        "- `fuzzy.ts` ranks matches\n\n"
        "```ts\n// src/utils/index.ts\n\nexport * from './fuzzy';\n```\n\n"
        "The rest stays in `src/core/session.ts` because the session owns it."
    )
    found = [f.text for f in extract_facts(c.entries) if f.kind in (FactKind.FINDING, FactKind.DECISION)]
    [listed] = [t for t in found if "changelog.ts" in t]
    assert "clipboard.ts" in listed and "fuzzy.ts" in listed  # the list is one finding
    assert not any("export *" in t or "index.ts" in t for t in found)  # a fenced block is code
    assert any(t.startswith("The rest stays in `src/core/session.ts`") for t in found)


def test_terse_lower_case_sentences_split_so_a_rule_is_its_own_fact() -> None:
    from sessions_app.retention.phrases import sentences

    assert sentences("hello. the api of pkg store must stay same. e.g. add() and etc. stay. v1.2 ok") == [
        "hello.",
        "the api of pkg store must stay same.",
        "e.g. add() and etc. stay.",
        "v1.2 ok",
    ]
    c = Chain()
    c.user(
        "hi. our cron job is slow when the mirror is down. pls make the fetch async. "
        "the public functions in pkg mirror must stay same, the billing team imports them."
    )
    c.assistant("Done: `fetch_all` is async now; `mirror` is untouched.")
    c.user("ok next")
    [rule] = [f.text for f in extract_facts(c.entries) if f.kind == FactKind.CONSTRAINT]
    assert rule.startswith("the public functions in pkg mirror must stay same")


def test_a_long_run_on_sentence_is_prose_and_a_dump_without_spaces_is_not() -> None:
    c = Chain()
    long_sentence = (
        "so what i would like is that the importer keeps reading the old csv files from the bank "
        + "and also the new ones with the semicolon separator, " * 6
        + "because our accountant still has two years of the old format on her laptop"
    )
    c.user(long_sentence)
    c.assistant("Both separators are read now.")
    c.user("blob: " + "x" * 300 + "\nthanks, also bump the version")
    c.assistant("Bumped to 2.1.0.")
    c.user("ok")
    done = requests(c, done=True)
    assert any("two years of the old format" in d for d in done)  # > 400 characters, still the user's
    assert not any("xxxxxxxx" in d for d in done)


def test_a_value_in_a_sentence_the_summary_quotes_is_said_once() -> None:
    c = Chain()
    c.user("Never raise the client timeout above 30s, the gateway cuts requests at 35s.")
    c.assistant("Noted: 30s stays the ceiling.")
    c.user("Port the retry loop to `httpx` please, with at most 4 attempts.")
    c.assistant("Ported: `fetch()` retries 4 times with `httpx`.")
    c.user("now the docs " * 60)
    summary = compact_extractive(plan(c, keep=60)).summary
    assert summary.count("the gateway cuts requests at 35s") == 1  # the rule, not again as a value
    assert summary.count("with at most 4 attempts") == 1  # the finished request, not again


def test_a_long_first_message_keeps_what_it_asks_beyond_the_goal() -> None:
    c = Chain()
    c.user(
        "Good morning. We discussed the export job in Tuesday's meeting and I want to start on it "
        "today, because the finance team is waiting for the monthly numbers and they have asked "
        "twice already. The job currently runs for about forty minutes on the reporting replica, "
        "most of which is spent serialising rows one at a time, and the replica is shared with the "
        "dashboards, which then become slow for everyone in the office during the morning. "
        "Colleagues on the data team mentioned that they tried batching before and gave up because "
        "of memory, but that was on the old machines and I think it is worth another look now. "
        "Please measure the current run time on a copy of last month's data first, so we have a "
        "baseline to compare against. After that, try writing the rows in batches of a thousand."
    )
    c.assistant("Baseline: 41 min 12 s on `march_copy`. Batches of 1000 take 6 min 3 s.")
    c.user("great, thanks")
    c.assistant("You're welcome.")
    c.user("next " * 80)
    summary = compact_extractive(plan(c, keep=60)).summary
    goal = summary.split("## Constraints")[0]
    assert "Good morning." in goal and "baseline to compare against" not in goal  # the goal is short
    done = [line for line in summary.splitlines() if line.startswith("- [x] User asked:")]
    assert any("measure the current run time" in d and "batches of a thousand" in d for d in done)
