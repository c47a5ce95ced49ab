# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout3 retention split.

A user who asks almost everything as a question ("could we avoid ...?", "what if we kept ...?")
and changes their mind twice (t-digest -> exact uint32 values -> log-linear buckets) has Codex
make a C++17 access-log rollup tool stop running out of memory. CMake + Ninja, ctest + GoogleTest,
a clang ASan/UBSan preset; build errors, test failures and sanitizer reports with the salient line
in the middle of the output.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))

import files as F  # noqa: E402
from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/mei/src/logrollup"
r = Rollout(CWD, "2025-11-26T16:30:12", seed="logrollup-hist", repo_url="git@git.internal.example:obs/logrollup.git")
SH = "src/stats.hpp"
SC = "src/stats.cpp"
ST = "tests/stats_test.cpp"
LH = "src/loghist.hpp"
r.files.update({"CMakeLists.txt": F.CMAKELISTS, SH: F.STATS_HPP, SC: F.STATS_CPP, ST: F.STATS_TEST})


def ctest(results: list[tuple[str, bool, str]], detail: str = "") -> str:
    out = [f"Test project {CWD}/build"]
    n = len(results)
    for i, (name, ok, secs) in enumerate(results, 1):
        out.append(f"    Start {i}: {name}")
        dots = "." * (28 - len(name))
        out.append(f"{i}/{n} Test #{i}: {name} {dots}{'   Passed' if ok else '***Failed'}    {secs} sec")
        if not ok and detail:
            out.append(detail)
    failed = [name for name, ok, _ in results if not ok]
    pct = round(100 * (n - len(failed)) / n)
    out.append("")
    out.append(f"{pct}% tests passed, {len(failed)} tests failed out of {n}")
    out.append("")
    out.append("Total Test time (real) =   0.19 sec")
    if failed:
        out.append("\nThe following tests FAILED:")
        out += [f"\t  {results.index(next(x for x in results if x[0] == name)) + 1} - {name} (Failed)" for name in failed]
        out.append("Errors while running CTest")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ turn 1
r.user(
    "hey. logrollup gets OOM-killed on the nightly box since traffic went up, the full day is 41M lines now. could we make the percentiles "
    "streaming instead of keeping every latency in memory? would a t-digest work here?\n\n"
    "also: could we avoid any new dependency? the CI box builds offline and we don't vendor stuff. and could the output stay the same format? "
    "the grafana importer parses the tsv by column position.",
    pause=0,
)
r.run("ls && ls src tests && git log --oneline -3",
      "CMakeLists.txt\nCMakePresets.json\nREADME.md\nsamples\nsrc\ntests\n"
      "main.cpp\nparse.cpp\nparse.hpp\nreport.cpp\nreport.hpp\nstats.cpp\nstats.hpp\n"
      "parse_test.cpp\nreport_test.cpp\nstats_test.cpp\n"
      "8c1e4aa report: sort endpoints by count\n51f09d3 parse: accept rt= with 3 decimals\n0b7e2c1 initial import\n",
      reasoning="**Orienting**\n\nFind where latencies are stored and how percentiles are computed.")
r.cat("CMakeLists.txt")
r.cat(SH)
r.cat(SC)
r.run("sed -n '1,40p' src/report.cpp",
      "#include \"report.hpp\"\n\n#include <cstdio>\n\nnamespace rollup {\n\n"
      "// One line per endpoint: endpoint<TAB>count<TAB>p50<TAB>p95<TAB>p99 (milliseconds, one decimal).\n"
      "// The Grafana importer (obs/grafana-import) reads these columns by position.\n"
      "void write_report(std::FILE* out, StatsByEndpoint& stats) {\n"
      "  for (auto& [endpoint, s] : sorted_by_count(stats)) {\n"
      "    std::fprintf(out, \"%s\\t%llu\\t%.1f\\t%.1f\\t%.1f\\n\", endpoint.c_str(), static_cast<unsigned long long>(s.count()),\n"
      "                 s.quantile(0.50), s.quantile(0.95), s.quantile(0.99));\n  }\n}\n\n}  // namespace rollup\n")
r.run("cat CMakePresets.json | grep -A6 '\"name\": \"asan-ubsan\"'",
      "      \"name\": \"asan-ubsan\",\n      \"generator\": \"Ninja\",\n      \"binaryDir\": \"build-asan\",\n"
      "      \"cacheVariables\": {\n        \"CMAKE_CXX_COMPILER\": \"clang++\",\n        \"CMAKE_CXX_FLAGS\": \"-fsanitize=address,undefined -fno-sanitize-recover=all -g -O1\"\n")
r.run("cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build 2>&1 | tail -2 && ctest --test-dir build",
      "[11/12] Linking CXX executable logrollup\n[12/12] Linking CXX executable report_test\n"
      + ctest([("parse", True, "0.01"), ("stats", True, "0.01"), ("report", True, "0.01")]),
      secs=38.0)
r.run("ls -la samples && /usr/bin/time -v build/logrollup samples/access-2025-11-25.log.zst > /tmp/before.tsv 2> /tmp/time-before.txt; grep -E 'Maximum resident|Elapsed' /tmp/time-before.txt; wc -l /tmp/before.tsv",
      "total 1893220\ndrwxr-xr-x 2 mei mei       4096 Nov 26 16:02 .\ndrwxr-xr-x 7 mei mei       4096 Nov 26 15:58 ..\n"
      "-rw-r--r-- 1 mei mei 1938648113 Nov 26 16:02 access-2025-11-25.log.zst\n"
      "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:48.31\n\tMaximum resident set size (kbytes): 3214560\n212 /tmp/before.tsv\n",
      secs=49.0)
r.say(
    "Measured on yesterday's full log (41M lines, 212 endpoints): 48 s and 3.1 GB max RSS. Every latency is kept as a `double` in a vector per endpoint "
    "(plus the vector growth slack), and `quantile` sorts them, so memory grows with traffic.\n\n"
    "A t-digest would work, but it's ~300 lines to get right and its error depends on the data. A simpler option: a log-linear histogram "
    "(the HdrHistogram idea): fixed buckets, a power of two split into N linear sub-buckets, so the relative error is bounded (1/N) and memory is "
    "constant per endpoint, whatever the traffic. ~80 lines, header-only, no dependency.\n\n"
    "The TSV format stays byte-for-byte the same shape (same columns, `%.1f` ms); only the values become approximations within the chosen error. "
    "Which one would you like?",
    reasoning="**Options**\n\nExact storage scales with lines; bounded-error histogram is constant memory.",
)

# ------------------------------------------------------------------ turn 2
r.user(
    "hmm. what if we kept the exact values but smaller, like uint32 microseconds instead of double? would that be enough? "
    "i'd rather keep exact numbers if we can, people compare with the old dashboards. the nightly box has 2 GB."
)
r.patch([("update", SH, [
    ("  void add(double ms) { values_.push_back(ms); }\n", "  void add(double ms) { values_.push_back(static_cast<std::uint32_t>(ms * 1000.0 + 0.5)); }\n"),
    ("  std::vector<double> values_;\n", "  std::vector<std::uint32_t> values_;  // microseconds\n"),
]), ("update", SC, [("  return values_[rank == 0 ? 0 : rank - 1];\n", "  return values_[rank == 0 ? 0 : rank - 1] / 1000.0;\n")])],
    reasoning="**Try exact uint32**\n\nQuick experiment to measure RSS.")
r.run("cmake --build build 2>&1 | tail -1 && ctest --test-dir build | tail -3 && /usr/bin/time -v build/logrollup samples/access-2025-11-25.log.zst > /tmp/u32.tsv 2> /tmp/time-u32.txt; grep -E 'Maximum resident|Elapsed' /tmp/time-u32.txt",
      "[4/4] Linking CXX executable logrollup\n100% tests passed, 0 tests failed out of 3\n\nTotal Test time (real) =   0.18 sec\n"
      "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:41.07\n\tMaximum resident set size (kbytes): 1436212\n", secs=80.0)
r.say(
    "With `uint32` microseconds: 1.37 GB max RSS (from 3.1 GB), 41 s. That fits in 2 GB today, but it still grows linearly: at the current growth "
    "it crosses 2 GB at about 60M lines a day, and the box also runs the log shipper. Exact percentiles need every value (or a second pass over the file), "
    "so there is no constant-memory exact version. Should I keep this, or go for the histogram?"
)

# ------------------------------------------------------------------ turn 3
r.user(
    "ok that only buys us a few months. so let's not keep exact values, go with the log buckets you described. is 1% error ok for p99? "
    "i think it is, nobody reads p99 to the millisecond. could you revert the uint32 thing first so the diff stays clean?"
)
r.run("git checkout -- src/stats.hpp src/stats.cpp && git status --short", "")
r.files.update({SH: F.STATS_HPP, SC: F.STATS_CPP})  # the checkout restores the committed files
LOGHIST_V1 = '''#pragma once
#include <cstdint>
#include <vector>

namespace rollup {

// Log-linear histogram (HdrHistogram idea): each power of two is split into kSub linear
// sub-buckets, so a value is known to within 1/kSub of itself and memory does not grow with
// the number of values. Values are integer microseconds.
class LogHistogram {
 public:
  static constexpr int kSubBits = 6;
  static constexpr std::uint64_t kSub = 1u << kSubBits;

  void add(std::uint64_t us) {
    ++counts_[index(us)];
    ++total_;
  }
  std::uint64_t count() const { return total_; }

  // Nearest-rank quantile; returns the lower bound of the bucket holding it.
  std::uint64_t quantile(double q) const {
    if (total_ == 0) return 0;
    std::uint64_t rank = static_cast<std::uint64_t>(q * total_ + 0.999999);
    if (rank == 0) rank = 1;
    std::uint64_t seen = 0;
    for (int i = 0; i < counts_.size(); ++i) {
      seen += counts_[i];
      if (seen >= rank) return lower(i);
    }
    return lower(counts_.size() - 1);
  }

 private:
  static std::size_t index(std::uint64_t v) {
    int msb = 63 - __builtin_clzll(v);
    if (msb < kSubBits) return v;  // small values are exact
    int shift = msb - kSubBits;
    return (static_cast<std::size_t>(shift + 1) << kSubBits) + ((v >> shift) - kSub);
  }
  static std::uint64_t lower(std::size_t i) {
    if (i < kSub) return i;
    std::size_t shift = (i >> kSubBits) - 1;
    return (kSub + (i & (kSub - 1))) << shift;
  }

  std::vector<std::uint64_t> counts_ = std::vector<std::uint64_t>((64 - kSubBits + 1) << kSubBits);
  std::uint64_t total_ = 0;
};

}  // namespace rollup
'''
r.patch([
    ("add", LH, LOGHIST_V1),
    ("update", SH, [
        ("#include <cstdint>\n#include <string>\n#include <unordered_map>\n#include <vector>\n", "#include <cstdint>\n#include <string>\n#include <unordered_map>\n\n#include \"loghist.hpp\"\n"),
        ("// Latencies per endpoint, in milliseconds. Percentiles are exact: every value is kept.\nclass EndpointStats {\n public:\n  void add(double ms) { values_.push_back(ms); }\n  std::uint64_t count() const { return values_.size(); }\n  double quantile(double q);  // sorts on first call\n\n private:\n  std::vector<double> values_;\n  bool sorted_ = false;\n};\n",
         "// Latencies per endpoint, in milliseconds. Percentiles are approximate (LogHistogram's bound)\n// so memory stays constant whatever the traffic: the nightly run OOMed keeping every value.\nclass EndpointStats {\n public:\n  void add(double ms) { hist_.add(static_cast<std::uint64_t>(ms * 1000.0 + 0.5)); }\n  std::uint64_t count() const { return hist_.count(); }\n  double quantile(double q) const { return hist_.quantile(q) / 1000.0; }\n\n private:\n  LogHistogram hist_;\n};\n"),
    ]),
    ("update", SC, [("double EndpointStats::quantile(double q) {\n  if (values_.empty()) return 0.0;\n  if (!sorted_) {\n    std::sort(values_.begin(), values_.end());\n    sorted_ = true;\n  }\n  // nearest-rank\n  auto rank = static_cast<std::size_t>(std::ceil(q * values_.size()));\n  return values_[rank == 0 ? 0 : rank - 1];\n}\n\n", "")]),
    ("update", ST, [("TEST(EndpointStats, EmptyIsZero) {", '''TEST(LogHistogram, SmallValuesAreExact) {
  rollup::LogHistogram h;
  for (std::uint64_t v = 0; v < 64; ++v) h.add(v);
  EXPECT_EQ(h.quantile(0.5), 31u);
}

TEST(LogHistogram, RelativeErrorUnderOnePercent) {
  rollup::LogHistogram h;
  std::vector<std::uint64_t> all;
  std::uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 200000; ++i) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    std::uint64_t us = 200 + x % 2000000;  // 0.2 ms .. 2 s
    h.add(us);
    all.push_back(us);
  }
  std::sort(all.begin(), all.end());
  for (double q : {0.5, 0.95, 0.99}) {
    double want = static_cast<double>(all[static_cast<std::size_t>(q * all.size()) - 1]);
    double got = static_cast<double>(h.quantile(q));
    EXPECT_LE(std::abs(got - want) / want, 0.01) << "q=" << q << " want=" << want << " got=" << got;
  }
}

TEST(EndpointStats, EmptyIsZero) {''')]),
], reasoning="**Histogram v1**\n\nHeader-only LogHistogram, 64 sub-buckets.")
r.patch([("update", ST, [("#include <gtest/gtest.h>\n", "#include <gtest/gtest.h>\n\n#include <algorithm>\n#include <cmath>\n#include <vector>\n")])])
r.run(
    "cmake --build build 2>&1 | tail -20",
    "[1/6] Building CXX object CMakeFiles/rollup.dir/src/parse.cpp.o\n"
    "[2/6] Building CXX object CMakeFiles/rollup.dir/src/stats.cpp.o\n"
    "FAILED: CMakeFiles/rollup.dir/src/stats.cpp.o \n"
    "/usr/bin/c++  -I/home/mei/src/logrollup/src -O3 -DNDEBUG -std=c++17 -Wall -Wextra -Werror -MD -MT CMakeFiles/rollup.dir/src/stats.cpp.o -MF CMakeFiles/rollup.dir/src/stats.cpp.o.d -o CMakeFiles/rollup.dir/src/stats.cpp.o -c /home/mei/src/logrollup/src/stats.cpp\n"
    "In file included from /home/mei/src/logrollup/src/stats.hpp:6,\n"
    "                 from /home/mei/src/logrollup/src/stats.cpp:1:\n"
    "/home/mei/src/logrollup/src/loghist.hpp: In member function 'uint64_t rollup::LogHistogram::quantile(double) const':\n"
    "/home/mei/src/logrollup/src/loghist.hpp:27:23: error: comparison of integer expressions of different signedness: 'int' and 'std::vector<long unsigned int>::size_type' {aka 'long unsigned int'} [-Werror=sign-compare]\n"
    "   27 |     for (int i = 0; i < counts_.size(); ++i) {\n"
    "      |                     ~~^~~~~~~~~~~~~~~~\n"
    "cc1plus: all warnings being treated as errors\n"
    "[3/6] Building CXX object CMakeFiles/rollup.dir/src/report.cpp.o\n"
    "ninja: build stopped: subcommand failed.\n",
    code=1,
    secs=9.0,
)
r.patch([("update", LH, [
    ("    for (int i = 0; i < counts_.size(); ++i) {\n", "    for (std::size_t i = 0; i < counts_.size(); ++i) {\n"),
    ("    if (msb < kSubBits) return v;  // small values are exact\n", "    if (msb < kSubBits) return static_cast<std::size_t>(v);  // small values are exact\n"),
])], reasoning="**-Werror=sign-compare**\n\nsize_t loop index.")
r.run(
    "cmake --build build 2>&1 | tail -1 && ctest --test-dir build --output-on-failure",
    "[6/6] Linking CXX executable stats_test\n" + ctest([("parse", True, "0.01"), ("stats", False, "0.06"), ("report", True, "0.01")],
    detail="Running main() from /usr/src/googletest/googletest/src/gtest_main.cc\n[==========] Running 4 tests from 2 test suites.\n"
           "[----------] Global test environment set-up.\n[----------] 1 test from EndpointStats\n[ RUN      ] EndpointStats.NearestRank\n[       OK ] EndpointStats.NearestRank (0 ms)\n"
           "[----------] 2 tests from LogHistogram\n[ RUN      ] LogHistogram.SmallValuesAreExact\n[       OK ] LogHistogram.SmallValuesAreExact (0 ms)\n"
           "[ RUN      ] LogHistogram.RelativeErrorUnderOnePercent\n"
           "/home/mei/src/logrollup/tests/stats_test.cpp:31: Failure\n"
           "Expected: (std::abs(got - want) / want) <= (0.01), actual: 0.013952 vs 0.01\n"
           "q=0.95 want=1900761 got=1874240\n"
           "/home/mei/src/logrollup/tests/stats_test.cpp:31: Failure\n"
           "Expected: (std::abs(got - want) / want) <= (0.01), actual: 0.0150331 vs 0.01\n"
           "q=0.99 want=1980124 got=1949696\n"
           "[  FAILED  ] LogHistogram.RelativeErrorUnderOnePercent (38 ms)\n"
           "[----------] 1 test from EndpointStats\n[ RUN      ] EndpointStats.EmptyIsZero\n[       OK ] EndpointStats.EmptyIsZero (0 ms)\n"
           "[==========] 4 tests from 2 test suites ran. (39 ms total)\n[  PASSED  ] 3 tests.\n[  FAILED  ] 1 test, listed below:\n[  FAILED  ] LogHistogram.RelativeErrorUnderOnePercent\n\n 1 FAILED TEST"),
    code=8,
    secs=3.0,
)
r.say(
    "The error bound is the issue, not the code: with 64 sub-buckets a bucket spans up to 1/64 = 1.56% of its value, and I return the bucket's lower "
    "bound, so p95/p99 come out 1.4-1.5% low. Two changes: 128 sub-buckets (bucket width ≤ 0.78%) and return the bucket's midpoint, so the worst case is about 0.4%. "
    "Memory: (64-7+1)·128 counters × 8 bytes = 59 KB per endpoint, about 12.6 MB for 212 endpoints."
)
r.patch([("update", LH, [
    ("  static constexpr int kSubBits = 6;\n", "  // 128 sub-buckets: a bucket spans <= 1/128 of its values; with the midpoint the error is <= ~0.4%.\n  static constexpr int kSubBits = 7;\n"),
    ("  // Nearest-rank quantile; returns the lower bound of the bucket holding it.\n", "  // Nearest-rank quantile; returns the midpoint of the bucket holding it.\n"),
    ("      if (seen >= rank) return lower(i);\n    }\n    return lower(counts_.size() - 1);\n", "      if (seen >= rank) return mid(i);\n    }\n    return mid(counts_.size() - 1);\n"),
    ("  std::vector<std::uint64_t> counts_", "  static std::uint64_t mid(std::size_t i) {\n    if (i < kSub) return i;\n    std::size_t shift = (i >> kSubBits) - 1;\n    return lower(i) + ((std::uint64_t{1} << shift) >> 1);\n  }\n\n  std::vector<std::uint64_t> counts_"),
])])
r.run("cmake --build build 2>&1 | tail -1 && ctest --test-dir build --output-on-failure | tail -4",
      "[6/6] Linking CXX executable stats_test\n100% tests passed, 0 tests failed out of 3\n\nTotal Test time (real) =   0.21 sec\n", secs=20.0)
r.run(
    "cmake --preset asan-ubsan >/dev/null && cmake --build build-asan 2>&1 | tail -1 && ctest --test-dir build-asan --output-on-failure 2>&1 | sed -n '1,30p'",
    "[12/12] Linking CXX executable report_test\n" + ctest([("parse", True, "0.04"), ("stats", False, "0.09"), ("report", True, "0.03")],
    detail="Running main() from /usr/src/googletest/googletest/src/gtest_main.cc\n[==========] Running 4 tests from 2 test suites.\n"
           "[----------] Global test environment set-up.\n[----------] 1 test from EndpointStats\n[ RUN      ] EndpointStats.NearestRank\n[       OK ] EndpointStats.NearestRank (1 ms)\n"
           "[----------] 2 tests from LogHistogram\n[ RUN      ] LogHistogram.SmallValuesAreExact\n"
           "/home/mei/src/logrollup/src/loghist.hpp:36:25: runtime error: passing zero to __builtin_clzll(), which is not a valid argument\n"
           "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior /home/mei/src/logrollup/src/loghist.hpp:36:25 \n"),
    code=8,
    secs=95.0,
)
r.say(
    "UBSan catches a real bug: `__builtin_clzll(0)` is undefined, and 0 µs is a legal value (the `SmallValuesAreExact` test adds it; in the logs, cached responses "
    "have `rt=0.000`). In the release build it happened to work. Small values are handled before the clz now."
)
r.patch([("update", LH, [("    int msb = 63 - __builtin_clzll(v);\n    if (msb < kSubBits) return static_cast<std::size_t>(v);  // small values are exact\n",
                          "    // Before the clz: __builtin_clzll(0) is undefined, and rt=0.000 (cached responses) is common.\n    if (v < kSub) return static_cast<std::size_t>(v);  // small values are exact\n    int msb = 63 - __builtin_clzll(v);\n")])])
r.run("cmake --build build-asan 2>&1 | tail -1 && ctest --test-dir build-asan | tail -3 && cmake --build build | tail -1 && ctest --test-dir build | tail -3",
      "[3/3] Linking CXX executable stats_test\n100% tests passed, 0 tests failed out of 3\n\nTotal Test time (real) =   0.52 sec\n"
      "[3/3] Linking CXX executable stats_test\n100% tests passed, 0 tests failed out of 3\n\nTotal Test time (real) =   0.20 sec\n", secs=60.0)
r.run("/usr/bin/time -v build/logrollup samples/access-2025-11-25.log.zst > /tmp/after.tsv 2> /tmp/time-after.txt; grep -E 'Maximum resident|Elapsed' /tmp/time-after.txt; "
      "paste /tmp/before.tsv /tmp/after.tsv | awk -F'\\t' '$1!=$6 || $2!=$7 {bad++} {for (c=3;c<=5;c++){d=($(c+5)-$c)/($c>0?$c:1); if (d<0) d=-d; if (d>m) m=d}} END {print \"rows\", NR, \"key/count mismatches\", bad+0, \"max rel diff\", m}'",
      "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:11.42\n\tMaximum resident set size (kbytes): 17220\nrows 212 key/count mismatches 0 max rel diff 0.00391\n", secs=12.0)
r.run("head -3 /tmp/before.tsv; head -3 /tmp/after.tsv",
      "/api/search\t9120334\t41.2\t388.0\t987.4\n/api/items\t7702113\t12.8\t61.5\t140.2\n/api/cart\t3329018\t18.1\t95.3\t212.9\n"
      "/api/search\t9120334\t41.3\t387.1\t986.9\n/api/items\t7702113\t12.8\t61.4\t140.1\n/api/cart\t3329018\t18.1\t95.5\t212.7\n")
r.say(
    "Done with the histogram:\n\n"
    "- `src/loghist.hpp` (new, header-only): `LogHistogram`, 128 sub-buckets per power of two, midpoint of the bucket, values in µs; 0-127 µs exact\n"
    "- `EndpointStats` keeps a `LogHistogram` instead of every value; `stats.cpp` has no code left (the sort is gone)\n"
    "- tests: exact small values, relative error ≤ 1% on 200k random latencies\n\n"
    "Full day: 11.4 s and 17 MB max RSS (before 48 s and 3.1 GB). Same 212 rows, same endpoints and counts, same columns and `%.1f` format; percentiles "
    "differ from the exact ones by at most 0.39% (e.g. /api/search p99 986.9 vs 987.4). Release and ASan/UBSan builds both pass. No new dependency."
)

# ------------------------------------------------------------------ turn 4
r.user(
    "nice, 17 MB. could we add a --precision flag so people can choose the sub-buckets? ... actually no, let's not, one fixed setting is easier "
    "to explain on the dashboard. can you commit it? and one for later, not now: could we merge the daily histograms into a weekly p99 "
    "without rereading 7 days of logs? just note it somewhere."
)
r.run("grep -n 'Percentiles' -A3 README.md",
      "18:## Percentiles\n19:\n20:p50/p95/p99 are exact (nearest-rank over all requests of the day).\n21:\n")
r.files["README.md"] = "## Percentiles\n\np50/p95/p99 are exact (nearest-rank over all requests of the day).\n"
r.patch([("update", "README.md", [("p50/p95/p99 are exact (nearest-rank over all requests of the day).\n",
                                   "p50/p95/p99 are approximate: each endpoint keeps a log-linear histogram (src/loghist.hpp,\n"
                                   "128 sub-buckets per power of two), so they are within ~0.4% of the exact nearest-rank value\n"
                                   "and memory does not grow with traffic.\n\n"
                                   "Later (not started): merge daily histograms into weekly percentiles without rereading the logs\n"
                                   "(LogHistogram counts can be added bucket by bucket; needs a file format to store them).\n")])])
r.run("git add -A && git commit -qm 'stats: constant-memory percentiles with a log-linear histogram (41M lines: 3.1 GB -> 17 MB)' && git log --oneline -1",
      "e5a09b3 stats: constant-memory percentiles with a log-linear histogram (41M lines: 3.1 GB -> 17 MB)\n")
r.say(
    "No flag then, the setting stays fixed at 128 sub-buckets. Committed as e5a09b3 on main (not pushed). The README now says the percentiles are approximate (~0.4%) "
    "and has the weekly merge noted under \"Later (not started)\": histogram counts add up bucket by bucket, so a weekly p99 only needs the daily histograms "
    "stored somewhere, which we don't do yet."
)

r.save(HERE / "session.jsonl")
