# ruff: noqa: E501
"""Labels for codex-zig-pulsegate, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "pulsegate (statsd aggregator ported from Go to Zig 0.13): testing-allocator leaks, no allocation per line, byte-identical output with pulsegate-go, dropped-line counters; sets still to do",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout5b test split",
    "voice": "Korean-flavoured English, polite, constraints asked as questions (\"can we avoid allocating in the hot loop?\")",
    "toolchain": "Zig 0.13.0 (zig build, zig build test in Debug and ReleaseSafe, zig build bench ReleaseFast, zig fmt), GitHub Actions, a Go reference implementation",
}
COMPACTIONS = [
    ("Done: tags are parsed into a `[16]Tag` array", 900),
    ("Golden file is now **byte-identical**", 1200),
    ("Too-long keys (over 256 bytes) are now dropped and counted", 1200),
]
FACTS = [
    f("z01", "request", "must", "is failing on CI with memory leak from testing allocator", "Fix the memory leak the testing allocator reports in `zig build test` (failing on CI).", [r"leak", r"testing allocator|zig build test|\btest\b"], "done"),
    f("z02", "constraint", "must", "CI is Zig 0.13.0 and also my laptop", "Zig 0.13.0 on CI and the user's laptop: use the 0.13 API only, nothing from 0.14.", [r"0\.13", r"only|no 0\.14|0\.14|stay|api"]),
    f("z03", "constraint", "must", "we don't want any dependency in build.zig.zon", "build.zig.zon must stay without dependencies.", [r"build\.zig\.zon|dependenc", r"\bno\b|empty|without|none|any"]),
    f("z04", "error", "should", "'parser.test.bad tag is rejected' leaked", "Leak: parseTags allocated the tags slice and returned error.InvalidTag without freeing it (test 'bad tag is rejected'); a bad @rate after tags leaked the same way in parseLine.", [r"parseTags|bad tag is rejected|InvalidTag", r"leak"], "fixed"),
    f("z05", "fix", "should", "Fixed. Two `errdefer`s in src/parser.zig", "Fix: errdefer allocator.free(tags) in parseTags and errdefer line.deinit(allocator) in parseLine, plus a test for a bad rate after tags (later the tags moved into a fixed array anyway).", [r"errdefer", r"parseTags|parseLine|tags|free"]),
    f("z06", "request", "must", "Can we avoid allocating in the hot loop?", "No allocation per line in the hot loop (Aggregator.add built a key string per line); allocate only when a series is new. Prod does ~200k lines/s.", [r"alloc", r"hot loop|per line|per-line|new series|each line"], "done"),
    f("z07", "value", "should", "Metric names plus tags are never longer than 200 bytes", "Metric name plus tags never exceed 200 bytes with the client library; the series key buffer is 256 bytes (max_key_len).", [r"\b200\b|\b256\b", r"bytes?|limit|buffer|key"]),
    f("z08", "value", "should", "Baseline with ReleaseFast on bench/data/1m.statsd", "Baseline bench (zig build bench -Doptimize=ReleaseFast -- bench/data/1m.statsd): 412.6 ms and 1,836,211 allocations for 1M lines.", [r"412\.6|1,?836,?211", r"ms|alloc|bench|baseline"]),
    f("z09", "decision", "should", "Plan: build the series key into a 256-byte stack buffer", "The series key is written into a 256-byte stack buffer (fixedBufferStream) and looked up with getOrPut; it is duped into the map only for a new series.", [r"stack|buffer|fixedBufferStream", r"dupe|getOrPut|new|256"]),
    f("z10", "error", "nice", "src/aggregate.zig:37:13: error: local variable is never mutated", "Zig 0.13 compile error 'local variable is never mutated' (note: consider using 'const') for key and the writer; changed var to const.", [r"never mutated|consider using 'const'", r"\bvar\b|const"], "fixed"),
    f("z11", "value", "should", "Our client lib allows max 10 tags, so 16 is safe", "The client library allows at most 10 tags per line, so a fixed array of 16 tags is safe.", [r"\b10\b|\b16\b", r"tags?"]),
    f("z12", "decision", "should", "Done: tags are parsed into a `[16]Tag` array", "Tags are parsed into a [16]Tag buffer inside Line (tags() method); parseLine(raw) no longer takes an allocator; more than 16 tags gives error.TooManyTags.", [r"\[16\]Tag|16 tags|TooManyTags|fixed array", r"tags?|parseLine|allocat"]),
    f("z13", "error", "nice", "note: 'tags' is a method; did you mean to call it with '&line'?", "Compile error: tags() takes *const Line but seriesKeyInto got the Line by value; fixed by passing *const parser.Line (also avoids copying the tag buffer).", [r"is a method|\*const (parser\.)?Line|by value|pointer", r"tags|Line|seriesKeyInto"], "fixed"),
    f("z14", "value", "must", "lines: 1000000  time: 171.4 ms  allocs: 3214", "After both changes the bench runs in about 170 ms with 3,214 allocations (from 412.6 ms and 1.84M); 178.2 ms after tag sorting was added.", [r"17[018](\.\d)? ?ms|3,?214", r"ms|alloc|bench"]),
    f("z15", "constraint", "must", "Output must be byte-identical with Go", "Output must be byte-identical with pulsegate-go on the golden files tests/golden/in_50k.statsd -> out_50k.txt; this validates the port before prod switches.", [r"byte[- ]?(for[- ]byte|identical)|identical|same", r"\bgo\b|golden|out_50k"]),
    f("z16", "finding", "must", "Three differences against the Go output", "pulsegate-go sorts tags by key in the series key (internal/agg/key.go:14), sorts keys at flush, and prints counters with strconv.FormatFloat(v, 'g', -1, 64); percentiles are %.3f.", [r"sort", r"tags?|keys?", r"go\b|key\.go|flush"]),
    f("z17", "error", "should", "note: cast discards const qualifier", "Compile error: sorting line.tags() ([]const parser.Tag, cast discards const qualifier); the local copy is sorted instead.", [r"discards const|\[\]const parser\.Tag|const qualifier", r"sort|cop|tags"], "fixed"),
    f("z18", "error", "must", "thread 41877 panic: integer overflow", "ReleaseSafe run on the golden input panicked with integer overflow in histogram.percentile: timers whose only samples were NaN (db.lock_wait:nan) had an empty histogram, so ceil(p*0)-1 underflowed.", [r"integer overflow|panic|underflow", r"percentile|histogram|NaN|empty"], "fixed"),
    f("z19", "fix", "should", "ReleaseSafe caught a real bug", "Timers with no samples are skipped at flush (pulsegate-go omits them); percentile asserts a non-empty histogram.", [r"empty|no samples|without samples|NaN", r"skip|omit|drop|assert"]),
    f("z20", "error", "should", "New leak, and it is from my change in turn 2", "Second leak, caused by the stack-key change: flush's clearRetainingCapacity dropped entries whose keys were duped; fixed with reset() that frees keys and histograms before clearing.", [r"clearRetainingCapacity|reset\(\)|dupe", r"leak|free"], "fixed"),
    f("z21", "decision", "should", "Down to one byte difference in 4127 lines", "Counters and gauges are formatted like Go's FormatFloat(v, 'g', -1, 64) (goFloat): exponent form below 1e-4 and from 1e6, with a two-digit exponent (1e+06).", [r"1e\+06|FormatFloat|goFloat|'g'", r"expon|1e6|format"]),
    f("z22", "state", "must", "Golden file is now **byte-identical**", "The golden output is now byte-identical with pulsegate-go (4127 lines).", [r"identical|byte for byte|cmp", r"golden|4127|go\b"], "done"),
    f("z23", "request", "should", "can we make it part of `zig build test`?", "The golden comparison is part of `zig build test` so CI fails when the output differs from Go (Run step with setStdIn and expectStdOutEqual).", [r"golden", r"zig build test|test step|expectStdOutEqual|\bCI\b"], "done"),
    f("z24", "constraint", "should", "But can we avoid shell in build.zig?", "No shell in build.zig: a Windows colleague (Minseo) runs it too.", [r"shell", r"windows|Minseo|build\.zig|avoid|no\b"]),
    f("z25", "error", "nice", "error: embedded file outside of package root", "@embedFile of tests/golden/out_50k.txt in build.zig failed (outside of package root); the file is read with build_root.handle.readFileAlloc instead.", [r"embedFile|outside of package root", r"readFileAlloc|build\.zig|package root|golden"], "fixed"),
    f("z26", "request", "must", "Just drop it and count.", "Series keys longer than the buffer (256 bytes; old services bypass the client library) are dropped and counted as the counter pulsegate.dropped.key_too_long; no crash, no log per line.", [r"key_too_long|too[- ]long", r"drop|count"], "done"),
    f("z27", "finding", "should", "In Go the dropped counters are printed last", "Go prints the dropped counters last, only when non-zero, in the order key_too_long then parse_error, and resets them every flush; parse errors are counted as pulsegate.dropped.parse_error and main no longer logs bad lines.", [r"dropped|parse_error|key_too_long", r"last|non-?zero|reset|order"]),
    f("z28", "value", "nice", "pulsegate.dropped.key_too_long 37", "The prod capture captures/prod-2026-04-11.statsd has 37 too-long keys and 112 parse errors.", [r"\b37\b|\b112\b", r"drop|parse|key|capture"]),
    f("z29", "constraint", "should", "don't change the parser behaviour to accept them yet", "Do not change the parser to accept the rejected lines yet: Go rejects them too and the output must stay the same.", [r"parser|accept", r"don.?t|\bnot\b|unchanged|reject|same"]),
    f("z30", "finding", "should", "Corrected count, 112 = 64 + 31", "The 112 parse errors: 64 `|h` histogram type (checkout service), 31 upper-case `|C`, 9 empty tags `,,` (payment), 5 empty names, 3 values with a k suffix (batch.size:12k); the user tells the checkout team about `h`.", [r"\|h|histogram type|checkout", r"\b64\b|\b112\b"]),
    f("z31", "command", "nice", "can we add `zig fmt --check` to CI?", "CI runs `zig fmt --check src build.zig bench` before the tests.", [r"zig fmt", r"check|\bCI\b"], "done"),
    f("z32", "value", "must", "Committed **7d3c9e2** on main, not pushed", "Committed 7d3c9e2 on main, not pushed.", [r"7d3c9e2"]),
    f("z33", "constraint", "should", "Don't push, I push after review tomorrow", "Do not push: the user pushes after review tomorrow.", [r"push", r"don.?t|\bnot\b|review|tomorrow|user"]),
    f("z34", "request", "must", "Yes we need sets before switching prod", "Open for next session: aggregate `|s` set metrics (unique count per series per flush, as in Go) before prod switches, storing a hash of each member rather than the string, without per-member allocation; the golden file has no sets.", [r"\bsets?\b|\|s", r"hash|next session|prod|unique|open|alloc"], "open"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
