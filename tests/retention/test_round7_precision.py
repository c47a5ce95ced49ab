"""Round 7 of issue 30 (docs/retention.md, "Round 7"): structural rules for extraction precision.
A message between calls that only look is thinking aloud, not a finding; a file shown as it is gives
no values; one value per tool output; a tool's line that a finding repeats is said by the finding;
the Goal's own sentence is no Next Step. Round 8 undid two of them (a tool's line that a finding
repeats stays; a file written whole is a fact by its names too): their tests moved, reversed, to
test_round8_recall.py. Small transcripts in several voices and toolchains (pi's
lower-case tools, Claude Code's `Read`/`Grep`/`Edit`, Codex's shell-only sessions)."""

from __future__ import annotations

from sessions_app.compaction.sections import parse_summary
from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.extractive import _in_goal, compact_extractive
from sessions_app.retention.facts import extract_facts
from sessions_app.retention.findings import MIDWAY
from tests.compaction.builders import Chain
from tests.retention.test_extractive import failing, filler, plan


def _facts(c: Chain, kind: FactKind) -> list[str]:
    return [f.text for f in extract_facts(c.entries) if f.kind == kind]


def _midway(c: Chain) -> list[str]:
    return [f.text for f in extract_facts(c.entries) if f.kind == FactKind.FINDING and f.detail == MIDWAY]


# --- thinking aloud while looking -------------------------------------------------------------


def test_musing_between_reads_is_no_finding_pi_voice() -> None:
    c = Chain()
    c.user("the theme colours look different in vscode, why?")
    c.assistant(
        "Both terminals report `COLORTERM=truecolor`, so the detection should pick 24-bit colour for both.",
        calls=(("r", "read", {"path": "packages/tui/src/terminal.ts"}),),
    )
    c.tool_result("r", "export function detect() { return process.env.COLORTERM; }")
    c.assistant("VS Code applies its minimum contrast ratio of 4.5 to `#00d7ff`; that is the difference.")
    assert _midway(c) == []
    assert any("minimum contrast" in f for f in _facts(c, FactKind.FINDING))


def test_words_written_with_an_edit_stay_a_finding_claude_voice() -> None:
    c = Chain()
    c.user("The aliquot split throws on 100.0 / 3, please fix it.")
    c.assistant(
        "BigDecimal.divide without a scale throws on 100.0 / 3; dividing with scale 1 and "
        "RoundingMode.DOWN keeps the remainder in the parent.",
        calls=(
            (
                "e",
                "Edit",
                {"file_path": "src/main/java/AliquotService.java", "old_string": "a", "new_string": "b"},
            ),
        ),
    )
    c.tool_result("e", "The file has been updated.", name="Edit")
    c.assistant(None, calls=(("t", "Bash", {"command": "mvn -q verify"}),))
    c.tool_result("t", "BUILD SUCCESS", name="Bash")
    c.user("thanks")
    assert any("RoundingMode.DOWN" in f for f in _midway(c))


def test_a_command_that_runs_something_keeps_the_words_beside_it_codex_voice() -> None:
    c = Chain()
    c.user("Please check the observed order of the 1D scheme.")
    c.assistant(
        "The MMS table should show order 2.00 for nx = 64, 128 and 256 with the Crank-Nicolson step.",
        calls=(("a", "exec_command", {"cmd": "fpm run --example mms_table"}),),
    )
    c.tool_result("a", "64 8.27E-05 2.00\n128 2.07E-05 2.00", name="exec_command")
    c.user("ok")
    assert _midway(c), "a run is no mere look: its message keeps its exact sentences"


def test_only_reading_shell_commands_are_looking_too_codex_voice() -> None:
    c = Chain()
    c.user("Where is the VAT rounded?")
    c.assistant(
        "The net-price branch in `vat.clj` keeps 4 decimals while the gross branch rounds to 2.",
        calls=(
            (
                "g",
                "shell",
                {
                    "command": [
                        "bash",
                        "-lc",
                        "rg -n 'round' src/faturas && sed -n '1,40p' src/faturas/vat.clj",
                    ]
                },
            ),
        ),
    )
    c.tool_result("g", "src/faturas/vat.clj:12: (round2 x)", name="shell")
    c.assistant("Only the gross branch rounds (`round2` at vat.clj:12).")
    assert _midway(c) == []


def test_a_decision_said_while_looking_stays() -> None:
    c = Chain()
    c.user("Should the cache move to Redis?")
    c.assistant(
        "I'll keep the in-process LRU cache instead of Redis because the 3 pods share nothing else.",
        calls=(("r", "Read", {"file_path": "src/cache.ts"}),),
    )
    c.tool_result("r", "export const cache = new LRU(500);", name="Read")
    c.assistant("Done looking.")
    assert any("instead of Redis" in f for f in _facts(c, FactKind.DECISION))


# --- values --------------------------------------------------------------------------------------


def test_a_file_shown_as_it_is_gives_no_value_but_a_lookup_does() -> None:
    c = Chain()
    c.user("how big is the production grid, and how many rows has the sample?")
    failing(c, "a", "cat config/bay_400x300.nml", "nx = 400 ! cells, dx = 2.5 mm", code=0)
    failing(c, "b", "wc -lc samples/export.csv", "80412 1934221 samples/export.csv", code=0)
    # Neither line is repeated whole (2.5 mm, the byte count): only the dump's rule can drop one.
    c.assistant("The grid is 400 cells along the transect and the sample has 80412 lines.")
    values = _facts(c, FactKind.VALUE)
    assert not any("nx = 400" in v for v in values)
    assert any("80412" in v for v in values)


def test_a_read_tools_numbers_are_the_files_claude_and_pi_voices() -> None:
    for tool in ("Read", "read"):
        c = Chain()
        c.user("Which Java version does the build use?")
        c.assistant(None, calls=(("r", tool, {"path": "pom.xml", "file_path": "pom.xml"}),))
        c.tool_result(
            "r",
            "<java.version>17</java.version>\n<spring-boot.version>3.3.5</spring-boot.version>",
            name=tool,
        )
        c.assistant("The build uses Java 17 with Spring Boot 3.3.5.")
        assert _facts(c, FactKind.VALUE) == [], tool


def test_one_value_per_tool_output() -> None:
    c = Chain()
    c.user("run the benchmark against main")
    failing(
        c,
        "b",
        "cargo +nightly bench --bench parse",
        "test bench_parse_short ... bench: 231.06 ns/iter (+/- 4.12)\n"
        "test bench_parse_long ... bench: 3917.42 ns/iter (+/- 88.10)",
        code=0,
    )
    c.assistant("Short lines: 231.06 ns, long quoted ones 3917.42 ns; the long ones dominate.")
    relied = [
        f for f in extract_facts(c.entries) if f.kind == FactKind.VALUE and f.detail.startswith("relied")
    ]
    assert len(relied) <= 1


# --- the Goal is no Next Step ----------------------------------------------------------------------


def test_the_goals_own_sentence_is_no_next_step_and_a_later_deferral_is() -> None:
    c = Chain()
    c.user(
        "Morning! Today I'd like to get aliquoting into lims-core: a technician splits a received "
        "sample into N aliquots, each gets its own barcode and goes on its own rack position later."
    )
    c.assistant(
        None, calls=(("e", "edit", {"path": "src/AliquotService.java", "oldText": "a", "newText": "b"}),)
    )
    c.tool_result("e", "Edited src/AliquotService.java", name="edit")
    c.assistant("Aliquoting works: POST /api/samples/{id}/aliquots splits a sample into N children.")
    c.user("Great. Please add the PDF labels for the tubes later, Jonas redoes the templates first.")
    c.assistant("Noted: PDF labels wait for Jonas's templates.")
    filler(c, 4)
    sections = parse_summary(compact_extractive(plan(c)).summary).sections
    steps = sections.get("next", [])
    assert not any("aliquoting into lims-core" in step for step in steps)
    assert any("PDF labels" in step for step in steps)
    assert any("aliquoting into lims-core" in g for g in sections["goal"])


def test_in_goal_needs_the_requests_opening() -> None:
    goal = "morning! today i'd like to get aliquoting into lims-core: a technician splits a sample later"
    assert _in_goal(
        "Today I'd like to get aliquoting into lims-core: a technician splits a sample later", goal
    )
    assert not _in_goal("The PDF labels come later.", goal)
    assert not _in_goal("Today I'd like to get aliquoting into lims-core", "")


# --- a file written whole needs words ----------------------------------------------------------


def _wrote(c: Chain, path: str, content: str, tool: str = "write") -> None:
    c.assistant(None, calls=(("w", tool, {"path": path, "file_path": path, "content": content}),))
    c.tool_result("w", f"Wrote {path}", name=tool)


def test_a_file_that_says_what_it_is_or_that_the_answer_names_stays_claude_voice() -> None:
    c = Chain()
    c.user("Please add the retry policy.")
    _wrote(
        c,
        "src/retry.py",
        '"""Retry policy: four attempts with doubling backoff."""\ndef retry():\n    pass\n',
        "Write",
    )
    _wrote(c, "src/clock.py", "def now():\n    return 0\n", "Write")
    c.assistant("The tests use a fake clock from `clock.py` so no test really sleeps.")
    files = _facts(c, FactKind.FILE)
    assert "src/retry.py" in files  # its opening doc line says what it is
    assert "src/clock.py" in files  # the answer says what it is for
