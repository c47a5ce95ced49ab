# ruff: noqa: E501
"""Labels for codex-verilog-axiscdc, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "axis_cdc (AXI-Stream async FIFO): almost_full fixed (gray->binary level), gray_sync loop-bound regression fixed, registered prog_full, Verilator lint clean, cocotb tests moved to a pytest runner; committed b7e52c9 on fix/axis-fifo-af, not pushed",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout7b test split",
    "voice": "Chinese-flavoured English hardware engineer, rules lettered (a)-(d), decisions stated with \"therefore\", reverses the no-pragma rule",
    "toolchain": "SystemVerilog, Verilator 5.024 (--lint-only -Wall), cocotb 1.9.2 with make SIM=verilator and a pytest cocotb.runner, fst2vcd + vcdvcd, GitLab CI",
}
COMPACTIONS = [
    ("Both fixes work: after `make clean`, 5/5 pass.", 1500),
    ("Lint clean now (`LINT-CLEAN`), the elaboration checks fire", 1500),
    ("Done: `unused_ok` removed;", 1500),
]
FACTS = [
    f("v01", "request", "must", "the almost_full flag is wrong, Zhang team report it assert too early", "Fix almost_full of rtl/axis_async_fifo.sv: Zhang team (DMA) reports it asserts too early and their DMA throttles too much.", [r"almost_full", r"early|wrong|fix"], "done"),
    f("v02", "request", "must", "they ask a new output prog_full with threshold parameter PROG_FULL_THRESH", "Add a new output prog_full with a threshold parameter PROG_FULL_THRESH so the DMA team can set the level themselves.", [r"prog_full|PROG_FULL_THRESH"], "done"),
    f("v03", "constraint", "must", "(a) CI use Verilator 5.024 image", "CI uses the Verilator 5.024 image (registry.sinolink.example/fpga/verilator:5.024): no features of newer Verilator.", [r"5\.024"]),
    f("v04", "constraint", "must", "(b) No verilator lint_off pragma in the RTL", "Original rule (b): no verilator lint_off pragma in the RTL, every -Wall warning really fixed. Later withdrawn: lint_off allowed for UNUSEDSIGNAL around s_axis_tuser only.", [r"lint_off|pragma", r"no |not |allow|withdraw|revers|chang"], "reversed"),
    f("v05", "constraint", "must", "(c) Existing port names must not change", "Existing port names must not change: sl40g_top (DMA team) connects by name; new ports are OK.", [r"port", r"name", r"chang|keep|same|by name"]),
    f("v06", "constraint", "should", "(d) Testbench keep cocotb 1.9 API", "Testbench stays on the cocotb 1.9 API; no upgrade to cocotb 2.0 this quarter.", [r"cocotb", r"1\.9|2\.0"]),
    f("v07", "finding", "should", "- Lint `verilator --lint-only -Wall -Irtl rtl/axis_async_fifo.sv`: **4 warnings**", "Baseline lint had 4 warnings: UNUSEDSIGNAL s_axis_tuser, two WIDTHEXPAND on the level_w lines, UNUSEDSIGNAL ff[0] in gray_sync.sv.", [r"4 warnings|four warnings|UNUSEDSIGNAL|WIDTHEXPAND", r"lint|baseline|warning"]),
    f("v08", "finding", "must", "Cause, I am fairly sure: line 47", "almost_full bug: level_w = wr_bin - rd_gray_s subtracted a gray-coded synced read pointer from a binary write pointer; fixed by converting rd_gray_s to binary (rd_bin_s) first.", [r"gray", r"binary|bin", r"almost_full|level"]),
    f("v09", "finding", "should", "Found why: `tb/sim_build` is **stale**", "tb/sim_build was stale (built 19 Oct 17:40) and the cocotb makefile did not rebuild, so the first baseline ran an old binary, not the RTL in the tree.", [r"stale|old (build|binary)|incremental", r"sim_build|build"]),
    f("v10", "finding", "should", "Real baseline after `make clean` (the stale sim_build lied to us): **2 pass, 3 fail**", "Real baseline after make clean: 2 pass, 3 fail; test_single_beat and test_random_stream hang (read side never sees data) because of the gray_sync bug.", [r"2 pass|3 fail|hang", r"clean|baseline|gray_sync"]),
    f("v11", "error", "must", "Confirmed a second bug, and it is serious: commit 31d8e60", "Commit 31d8e60 (Chen Hao, 3 June, 'ASYNC_REG attribute') changed gray_sync's loop to i < STAGES - 1, so with SYNC_STAGES=2 the last flop is never loaded and the FIFO cannot pass data.", [r"31d8e60|STAGES ?- ?1|loop bound", r"gray_sync|flop|synchron"], "fixed"),
    f("v12", "fix", "must", "rtl/gray_sync.sv: loop bound back to", "Fixes: gray_sync.sv loop bound back to i < STAGES; axis_async_fifo.sv computes rd_bin_s (gray to binary) and level_w = wr_bin - rd_bin_s; 5/5 tests passed after make clean.", [r"i < STAGES|loop|rd_bin_s|gray.{0,10}binary", r"gray_sync|level|fix"]),
    f("v13", "preference", "must", "Therefore also always make clean before the tests in your runs", "Always make clean (fresh build) before running tests; the user does not trust incremental builds (the pytest runner uses always=True).", [r"make clean|clean build|fresh build|always=True|incremental"]),
    f("v14", "decision", "should", "Timeout yes, use 200 us for each test", "Every cocotb test gets a 200 us timeout (timeout_time=200, timeout_unit=\"us\"); test_af_never_lies later got 400 us.", [r"200 ?us|timeout_time=200|200 (micro|µ)", r"timeout"]),
    f("v15", "constraint", "should", "AF_LEVEL keep default 14, don't change default", "almost_full level = words written and not yet read, seen from the write side; AF_LEVEL default stays 14.", [r"AF_LEVEL|almost_full", r"\b14\b"]),
    f("v16", "error", "should", "Seed-dependent: seeds 42 and 1733 hang", "test_random_stream hung seed-dependently (seeds 42 and 1733: 312 of 400 beats, SimTimeoutError at 200 us); reproducible with RANDOM_SEED=42.", [r"\b42\b|1733|312", r"seed|hang|timeout"], "fixed"),
    f("v17", "fix", "should", "Fix in the tb: sample `s_axis_tready` **before** the edge", "Cause was the testbench push(): it sampled tready after the edge; rewritten as a real valid/ready handshake (ReadOnly sample, beat taken on the edge where tready was 1).", [r"push|handshake|ReadOnly", r"tready|edge|valid"]),
    f("v18", "error", "nice", "Write to object s_axis_tvalid was scheduled during a read-only sync phase.\n                                                          File", "After adding ReadOnly in test_almost_full: 'Write to object s_axis_tvalid was scheduled during a read-only sync phase'; fixed by awaiting RisingEdge after the assert before the next push.", [r"read-only sync phase|ReadOnly|read-only", r"RisingEdge|write|tvalid"], "fixed"),
    f("v19", "command", "should", "for s in 42 1733 1 7 2026; do make SIM=verilator RANDOM_SEED=$s", "Makefile tests: cd tb && make clean && make SIM=verilator [TESTCASE=... RANDOM_SEED=...]; latest 7/7 pass (test_reset_empty, single_beat, fill_to_full, almost_full, prog_full, af_never_lies, random_stream).", [r"make SIM=verilator|make -C tb", r"pass|7/7|TESTS"]),
    f("v20", "decision", "should", "Use option 2 for tuser. Therefore also the localparam compare.", "Decision (later reversed for tuser): silence unused s_axis_tuser with wire unused_ok = &{1'b0, s_axis_tuser} (Verilator's unused regexp), and compare level_w against localparam AF_L of the same width to fix WIDTHEXPAND.", [r"unused_ok|localparam|AF_L", r"tuser|WIDTHEXPAND|width|compare"], "reversed"),
    f("v21", "decision", "should", "And yes add the elaboration check, DEPTH must be power of two too", "Elaboration checks ($error in generate-if): DEPTH must be a power of two >= 4, AF_LEVEL and PROG_FULL_THRESH in 1..DEPTH (gray pointers need power-of-two depth).", [r"power of two|power-of-two", r"DEPTH|elaborat|\$error"]),
    f("v22", "command", "must", "Final state: lint clean with", "Lint (as CI): verilator --lint-only -Wall -Irtl rtl/axis_async_fifo.sv; clean at the end (also with -GSYNC_STAGES=3).", [r"--lint-only|lint", r"-Wall|clean"]),
    f("v23", "request", "should", "prog_full: parameter PROG_FULL_THRESH, default 12.", "prog_full: PROG_FULL_THRESH default 12, high when level >= threshold (same write-side level), registered flop output because timing at 250 MHz is tight; one cycle later than almost_full is acceptable.", [r"prog_full|PROG_FULL", r"regist|flop|\b12\b|250"], "done"),
    f("v24", "finding", "should", "Parameters are not visible through VPI with Verilator", "Verilator hides parameters from VPI (AttributeError: no object named PROG_FULL_THRESH); the tests read FIFO_DEPTH, AF_LEVEL and PROG_FULL_THRESH from environment variables instead of using --public-flat-rw.", [r"VPI|public-flat-rw|environment|env", r"PROG_FULL_THRESH|parameter"]),
    f("v25", "request", "should", "Next: move to pytest-style runner, tests/test_runner.py", "Move to a pytest cocotb runner tests/test_runner.py (cocotb.runner get_runner), parametrize DEPTH (16 and 64 at least), keep the Makefile working, CI runs pytest instead of make.", [r"test_runner\.py|pytest|get_runner", r"DEPTH|parametri|Makefile|CI"], "done"),
    f("v26", "error", "should", "`Cannot find file containing module: 'gray_sync'` — I listed only", "First pytest run: %Error Cannot find file containing module: 'gray_sync' because SOURCES listed only axis_async_fifo.sv; fixed by adding rtl/gray_sync.sv first.", [r"Cannot find file|gray_sync", r"SOURCES|module|source"], "fixed"),
    f("v27", "error", "should", "Interesting: with `-Wall` in the *build*, Verilator warns UNUSEDSIGNAL on `unused_ok`", "With -Wall in the runner's build, Verilator flagged UNUSEDSIGNAL on unused_ok (runner passes --public-flat-rw); build_args changed to --timing -Wno-fatal, lint stays its own job.", [r"-Wall|-Wno-fatal|build_args", r"unused_ok|UNUSEDSIGNAL|lint"], "fixed"),
    f("v28", "fix", "should", "DEPTH=64 fails the three fill tests because the testbench hard-codes", "DEPTH=64 failed fill/almost_full/prog_full tests because the tb hard-coded 16 and 14; tests now use DEPTH/AF_LEVEL/PROG_FULL_THRESH from the env the runner sets.", [r"64", r"hard-?cod|16|env|FIFO_DEPTH"]),
    f("v29", "command", "should", "pytest runner done: tests/test_runner.py builds with `always=True`", "pytest tests/test_runner.py -v: params (DEPTH, AF_LEVEL, PROG_FULL_THRESH) = (16,14,12) and (64,60,48), seed RANDOM_SEED default 42; latest 2 passed (~131 s clean).", [r"pytest", r"test_runner|16.{0,5}14.{0,5}12|64.{0,5}60.{0,5}48|2 passed"]),
    f("v30", "path", "should", "CI `sim` job now runs", "CI sim job (.gitlab-ci.yml) now runs pytest tests/test_runner.py -v --junitxml=report.xml with the JUnit report as artifact; .gitignore adds tests/sim_build/ and report.xml.", [r"gitlab-ci|CI", r"pytest|junit|report\.xml"]),
    f("v31", "constraint", "must", "Therefore we change rule (b): lint_off pragma IS allowed now", "Rule (b) changed: a lint_off pragma is now allowed, only for UNUSEDSIGNAL and only around the s_axis_tuser port, with a comment; the unused_ok wire must go (Spyglass and reviewers complained).", [r"lint_off|pragma", r"UNUSEDSIGNAL|tuser", r"allow|now|only"]),
    f("v32", "fix", "should", "Done: `unused_ok` removed;", "Done: unused_ok removed, /* verilator lint_off UNUSEDSIGNAL */ ... lint_on wraps only s_axis_tuser with a comment; lint clean.", [r"unused_ok", r"remov|lint_off|lint_on"]),
    f("v33", "request", "should", "Use seeds 1..20 on the DEPTH=16 case", "Stress the CDC before commit: both clock-ratio directions, seeds 1..20 on DEPTH=16, to show almost_full never lies.", [r"seeds?|1\.\.20|clock ratio|CDC", r"almost_full|stress|never lies|ratio"], "done"),
    f("v34", "error", "should", "Seed 13 fails: `almost_full low at true level 14`", "test_af_never_lies seed 13 (4 ns write / 13 ns read) failed 'almost_full low at true level 14'; a race in the test's read counter, not the RTL; fixed with one beat of slack (written - read - 1).", [r"seed 13|\b13\b", r"race|slack|read counter|not the RTL|low at true level"], "fixed"),
    f("v35", "state", "should", "CDC stress result: test_af_never_lies", "CDC stress: test_af_never_lies passes seeds 1..20 with CLK_NS=4,13 and 13,4, plus equal 4,4 clocks for seeds 1, 7, 13.", [r"af_never_lies|stress|CLK_NS", r"1\.\.20|13,4|4,13|pass"]),
    f("v36", "request", "should", "then commit on branch fix/axis-fifo-af, message in English. Don't push", "Commit on branch fix/axis-fifo-af, English message, do not push: Chen Hao must review the gray_sync change first (it reverts his commit).", [r"fix/axis-fifo-af|push|Chen Hao", r"commit|review|push|branch"], "done"),
    f("v37", "state", "must", "Committed **b7e52c9** on new branch `fix/axis-fifo-af`", "Committed b7e52c9 on new branch fix/axis-fifo-af, not pushed; lint clean, pytest 2 passed, make 7/7 pass.", [r"b7e52c9|fix/axis-fifo-af"]),
    f("v38", "value", "nice", "- Tools: Verilator 5.024, cocotb 1.9.2, Python 3.11.9", "Local tools match CI: Verilator 5.024, cocotb 1.9.2, Python 3.11.9, pytest 8.3.3.", [r"1\.9\.2|3\.11\.9", r"cocotb|Python"]),
    f("v39", "request", "nice", "write a short note to Zhang team what changed for them", "Write a short note for the Zhang (DMA) team on what changed (written in the chat: almost_full fix, prog_full, gray_sync rebuild needed, ports unchanged, parameter rules).", [r"note|Zhang", r"changed|rebuild|prog_full"], "done"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
