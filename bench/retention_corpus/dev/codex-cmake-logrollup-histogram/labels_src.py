# ruff: noqa: E501
"""Labels for codex-cmake-logrollup-histogram, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "logrollup (C++17): constant-memory percentiles — t-digest? exact uint32? log-linear histogram; sign-compare, error bound, UBSan clz(0)",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout3 test split",
    "voice": "nearly everything asked as a question ('could we avoid ...?', 'what if we kept ...?'); changes mind twice on the approach and once more inside a message",
    "toolchain": "C++17, CMake + Ninja, ctest + GoogleTest, GCC -Wall -Wextra -Werror, clang ASan/UBSan preset, /usr/bin/time -v",
}
COMPACTIONS = [
    ("With `uint32` microseconds: 1.37 GB", 1000),
    ("Done with the histogram:", 700),
]
FACTS = [
    f("h01", "request", "must", "logrollup gets OOM-killed on the nightly box", "logrollup is OOM-killed on the nightly box (a full day is 41M lines): make the percentiles streaming / constant memory.", [r"OOM|out of memory|memory", r"percentile|histogram|logrollup|nightly"], "done"),
    f("h02", "constraint", "must", "could we avoid any new dependency?", "No new dependency: the CI box builds offline and nothing is vendored.", [r"dependenc|vendor", r"offline|no new|avoid|without (a |any )?new|not add"]),
    f("h03", "constraint", "must", "could the output stay the same format?", "The output TSV format must stay the same: the Grafana importer parses columns by position.", [r"format|\btsv\b|column", r"same|grafana|position|unchanged|keep"]),
    f("h04", "value", "should", "Maximum resident set size (kbytes): 3214560", "Before: the full day (41M lines, 212 endpoints) took 48 s and 3.1 GB max RSS.", [r"3\.1 ?GB|3214560|3,214,560|3\.2 ?GB"]),
    f("h05", "finding", "should", "// The Grafana importer (obs/grafana-import) reads these columns by position.", "Report: endpoint, count, p50, p95, p99 tab-separated, milliseconds with one decimal (%.1f); obs/grafana-import reads the columns by position.", [r"%\.1f|one decimal|p50.{0,20}p95.{0,20}p99", r"tsv|column|format|report|endpoint"]),
    f("h06", "finding", "should", "Measured on yesterday's full log (41M lines, 212 endpoints)", "Old code kept every latency as a double in a vector per endpoint and sorted it, so memory grew with traffic.", [r"every (latency|value)|all (the )?values|keeps? every|vector", r"double|sort|memory|grow"]),
    f("h07", "decision", "nice", "would a t-digest work here?", "A t-digest was the user's first idea; dropped for the simpler log-linear histogram.", [r"t-?digest"], "reversed"),
    f("h08", "decision", "should", "what if we kept the exact values but smaller", "Second idea: keep exact values as uint32 microseconds. Tried, then dropped (still grows with traffic) and reverted.", [r"uint32|32-bit", r"exact|micro"], "reversed"),
    f("h09", "value", "should", "With `uint32` microseconds: 1.37 GB", "The uint32 experiment: 1.37 GB max RSS, 41 s.", [r"1\.37 ?GB|1436212|1\.4 ?GB"]),
    f("h10", "value", "nice", "it crosses 2 GB at about 60M lines a day", "Exact uint32 storage would cross 2 GB at about 60M lines a day.", [r"60 ?M(illion)? lines"]),
    f("h11", "finding", "nice", "the nightly box has 2 GB", "The nightly box has 2 GB (and also runs the log shipper).", [r"2 ?GB", r"box|nightly|RAM|memory"]),
    f("h12", "decision", "must", "so let's not keep exact values, go with the log buckets", "Final: no exact values, a log-linear bucket histogram; ~1% error on p99 is acceptable.", [r"log[- ]?(linear|bucket)|histogram|HdrHistogram", r"1 ?%|approximat|error|bound"]),
    f("h13", "request", "nice", "could you revert the uint32 thing first", "Revert the uint32 experiment first so the diff stays clean (done with git checkout).", [r"revert|checkout|undo", r"uint32"], "done"),
    f("h14", "error", "should", "[-Werror=sign-compare]", "Build failed with -Werror=sign-compare in loghist.hpp (int loop index vs counts_.size()); now std::size_t.", [r"sign-compare|different signedness"], "fixed"),
    f("h15", "error", "should", "actual: 0.0150331 vs 0.01", "RelativeErrorUnderOnePercent failed: p95/p99 1.4-1.5% low (64 sub-buckets, bucket lower bound returned).", [r"RelativeErrorUnderOnePercent|0\.015|1\.[45] ?%|lower bound|64 sub"], "fixed"),
    f("h16", "fix", "must", "The error bound is the issue, not the code", "Fix: 128 sub-buckets per power of two (kSubBits 7) and return the bucket midpoint: error ≤ ~0.4%; 59 KB per endpoint, ~12.6 MB for 212 endpoints.", [r"\b128\b|kSubBits ?= ?7|midpoint", r"sub-?bucket|bucket|0\.4|0\.78"]),
    f("h17", "command", "should", "cmake --preset asan-ubsan", "Checks: cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release, cmake --build build, ctest --test-dir build --output-on-failure; sanitizers via cmake --preset asan-ubsan (build-asan).", [r"asan-ubsan|ctest --test-dir|cmake --build", r"build|preset|ctest"]),
    f("h18", "finding", "nice", "-fsanitize=address,undefined -fno-sanitize-recover=all", "The asan-ubsan preset uses clang++ with -fsanitize=address,undefined into build-asan; the release build is GCC with -Wall -Wextra -Werror.", [r"clang|fsanitize|build-asan", r"asan|sanitiz|preset"]),
    f("h19", "error", "must", "runtime error: passing zero to __builtin_clzll()", "UBSan: passing zero to __builtin_clzll() in LogHistogram::index (0 µs is legal: cached responses log rt=0.000).", [r"clz|passing zero|UBSan|UndefinedBehaviorSanitizer"], "fixed"),
    f("h20", "fix", "should", "Small values are handled before the clz now.", "Fix: values below kSub return early, before the clz.", [r"clz|zero|small values", r"before|first|handled|check"]),
    f("h21", "value", "should", "Maximum resident set size (kbytes): 17220", "After: full day in 11.4 s with 17 MB max RSS (before 48 s, 3.1 GB).", [r"17 ?MB|17220|17,220"]),
    f("h22", "finding", "should", "max rel diff 0.00391", "Output check vs the old tool: same 212 rows, endpoints and counts; percentiles within 0.39% of the exact values.", [r"0\.39 ?%|0\.00391|0\.4 ?%", r"diff|differ|exact|within|max"]),
    f("h23", "value", "nice", "9120334\t41.3\t387.1\t986.9", "Example: /api/search p99 986.9 ms vs 987.4 exact.", [r"986\.9|987\.4"]),
    f("h24", "state", "must", "- `src/loghist.hpp` (new, header-only)", "src/loghist.hpp (new, header-only): LogHistogram, 128 sub-buckets per power of two, bucket midpoint, values in µs, 0-127 µs exact; EndpointStats holds one instead of every value.", [r"loghist\.hpp|LogHistogram", r"\b128\b|sub-?bucket|midpoint|header"]),
    f("h25", "decision", "should", "could we add a --precision flag", "No --precision flag after all: one fixed setting (128 sub-buckets) is easier to explain on the dashboard.", [r"--precision|precision flag|\bflag\b", r"\bno\b|\bnot\b|fixed|let.?s not"]),
    f("h26", "request", "must", "could we merge the daily histograms into a weekly p99", "Open, later: merge daily histograms into a weekly p99 without rereading 7 days of logs (needs the histograms stored); noted in README under 'Later (not started)'.", [r"weekly|week", r"merg|daily histograms|combin|add(ed)? up"], "open"),
    f("h27", "value", "should", "Committed as e5a09b3", "Committed as e5a09b3 on main, not pushed.", [r"e5a09b3"]),
    f("h28", "finding", "nice", "The README now says the percentiles are approximate", "README updated: percentiles are approximate (~0.4%), no longer 'exact'.", [r"README", r"approximat|0\.4"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
