# ruff: noqa: E501
"""Labels for pi-bazel-fencepost, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "fencepost (C++17 geofencing library, Bazel 7 bzlmod): static STR R-tree index for FenceSet::Contains, visibility/layering/sandbox/gcc9/asan/clang-tidy fixes, benchmarks; 400k-fence memory question open",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout5b test split",
    "voice": "terse lower-case, several instructions per message, says \"never mind\" to its own earlier request (RTree::Remove)",
    "toolchain": "Bazel 7.4.1 (bzlmod, rules_cc, layering_check, configs gcc9/asan/tidy/ci), clang 17 and gcc 9.5, googletest, google benchmark, abseil, clang-tidy aspect, 150 tool calls",
}
COMPACTIONS = [
    ("berlin test enabled and passing in the sandbox", 1200),
    ("capacity 8: 744 ns / 10.9 ms build", 1500),
    ("tidy clean for //fence/... with the repo's .clang-tidy", 1500),
]
FACTS = [
    f("b01", "request", "must", "add a spatial index (rtree or whatever) in a new package //fence/index", "Replace FenceSet::Contains's linear scan over all polygons (prod ~40k fences, visible in ingest profiles) with a spatial index in a new package //fence/index.", [r"index|r-?tree", r"fence/index|Contains|linear|40k"], "done"),
    f("b02", "constraint", "must", "bazel 7.4, bzlmod only, no WORKSPACE file", "Bazel 7.4 with bzlmod only, no WORKSPACE file.", [r"bzlmod|WORKSPACE", r"\bno\b|only|without"]),
    f("b03", "constraint", "must", "no new bazel_deps, only what MODULE.bazel already has", "No new bazel_deps: only what MODULE.bazel has (abseil-cpp, googletest, google_benchmark, rules_cc).", [r"bazel_deps?|MODULE\.bazel|dependenc", r"no new|only|nothing new|unchanged"]),
    f("b04", "finding", "nice", "state of things:", ".bazelrc: c++17, -fno-exceptions, layering_check on, configs gcc9 (ingest toolchain, -Werror=pedantic), asan, tidy (clang-tidy aspect), ci.", [r"layering_check|-fno-exceptions", r"bazelrc|config|enabled"]),
    f("b05", "constraint", "must", "fence_set.h api must not change", "fence_set.h's public API must not change: the ingest service links against //fence:fence_set and cannot be bumped this sprint.", [r"fence_set|public api|\bAPI\b", r"not change|unchanged|stays?|can.?t change|don.?t change|must not"]),
    f("b06", "decision", "should", "plan: //fence/index:rtree, a static R-tree", "Design: //fence/index:rtree, a static R-tree over the fences' bounding boxes, bulk-loaded with sort-tile-recursive (STR); FenceSet runs the exact Polygon::Contains only on candidates.", [r"\bSTR\b|sort[- ]tile|bulk[- ]load|static r-?tree", r"r-?tree|index|bounding|candidates?"]),
    f("b07", "error", "nice", "//fence:polygon is package-private. rtree.cc includes polygon.h", "First rtree build failed: //fence:polygon not visible from //fence/index:rtree; the unused polygon dep/include was dropped.", [r"not visible|visibility|package-private", r"polygon"], "fixed"),
    f("b08", "error", "should", "module //fence/index:rtree does not depend on a module exporting 'absl/types/span.h'", "layering_check error: rtree.h includes absl/types/span.h without a direct dep; added @abseil-cpp//absl/types:span (the bench later needed //fence:polygon directly for the same reason).", [r"layering|does not depend on a module", r"span|absl|polygon"], "fixed"),
    f("b09", "decision", "must", "`Box::Contains` is half-open", "Boxes are closed (boundary inclusive), matching Polygon::Contains where a point on the boundary counts as inside (prod semantics since v0.3); the half-open version missed points on a shared edge.", [r"boundary|closed|half-open|shared edge|inclusive", r"inside|inclusive|closed|Contains|box"]),
    f("b10", "request", "should", "the grid test compares the index against Box::Contains itself", "Verify against the old linear scan on real data (fence/testdata/berlin_zones.geojson, 1287 fences) instead of the circular grid test.", [r"linear scan|berlin|real data", r"compar|against|match|circular"], "done"),
    f("b11", "finding", "must", "found a separate breakage: commit b41e0d7", "Commit b41e0d7 removed public visibility from //fence:polygon, so //tools:geojson_lite and //tools:fencecheck did not build at HEAD (polygon is part of fence_set's API via Add(int, Polygon)).", [r"b41e0d7|//tools|fencecheck|geojson_lite", r"visib|broke|build"]),
    f("b12", "decision", "must", "not public. fence subpackages + //tools only", "//fence:polygon visibility: //fence:__subpackages__ and //tools:__pkg__, not public (the ingest repo only uses fence_set).", [r"__subpackages__|subpackages|//tools", r"visib|polygon|not public"]),
    f("b13", "constraint", "must", "dont use --spawn_strategy=local or no-sandbox tags", "Never use --spawn_strategy=local or no-sandbox tags to make tests pass; fix data dependencies properly.", [r"spawn_strategy|no-sandbox|sandbox|local", r"don.?t|\bnot\b|\bno\b|never|without|proper"]),
    f("b14", "fix", "should", "berlin test enabled and passing in the sandbox", "The disabled berlin test now runs in the sandbox: data = testdata/berlin_zones.geojson, path via runfiles (_main/fence/testdata/...), dep on //tools:geojson_lite (its visibility extended to //fence subpackages).", [r"runfiles|\bdata\b|_main/", r"berlin|geojson|test"]),
    f("b15", "error", "nice", "use of undeclared identifier 'BAZEL_CURRENT_REPOSITORY'", "Runfiles::CreateForTest(BAZEL_CURRENT_REPOSITORY, ...) did not compile (undeclared identifier); CreateForTest(&error) is used.", [r"BAZEL_CURRENT_REPOSITORY", r"undeclared|CreateForTest|runfiles"], "fixed"),
    f("b16", "constraint", "should", "keep the old linear scan as a private test-only path", "The old linear scan stays only as a private, test-only path (ContainsLinear, reached through a friend peer class), not in the public header API.", [r"linear|ContainsLinear", r"private|test[- ]only|not (in )?(the )?public|friend|peer"]),
    f("b17", "error", "should", "the friend declaration names `fencepost::FenceSetTestPeer`", "'ContainsLinear is a private member': the friend FenceSetTestPeer was defined inside the test's anonymous namespace; moved out of it.", [r"FenceSetTestPeer|friend", r"anonymous|private"], "fixed"),
    f("b18", "state", "should", "all three test targets pass, including `BerlinIndexMatchesLinearScan`", "BerlinIndexMatchesLinearScan: on 20,000 deterministic points over the Berlin bbox the indexed Contains equals the linear scan every time.", [r"BerlinIndexMatchesLinearScan|20,?000", r"linear|match|equal"]), 
    f("b19", "constraint", "must", "Contains is called from 8 ingest threads concurrently", "Contains() is called concurrently from 8 ingest threads, so a lazily built mutable index is a data race; it must be thread-safe without an API change.", [r"threads?|race|concurren", r"Contains|\b8\b|index|lazy"]),
    f("b20", "decision", "must", "index is built under `absl::call_once` on the first Contains()", "The index is built once under absl::call_once on the first Contains(); Add() resets the once-flag and is load-time only, documented in header comments (no API change); 8-thread test added, clean under -fsanitize=thread (no tsan config added).", [r"call_once|once_flag", r"first|Contains|Add|load"]),
    f("b21", "value", "must", "numbers (-c opt, 16-core box)", "Bench (-c opt): at 40k fences linear 1.89 ms vs index ~0.69 µs per Contains (~2700x); 1k: 38.9 µs vs 0.41 µs; 400k: 1.10 µs; building the index for 40k takes 8.7 ms.", [r"1\.89|0\.69|688|691|8\.7 ?ms|2700", r"ms|µs|\bus\b|ns|build|linear"]),
    f("b22", "decision", "should", "capacity 8: 744 ns / 10.9 ms build", "Node capacity stays 16: capacity 8 was slower (744 ns, 10.9 ms build), 32 within noise (702 ns, 7.95 ms).", [r"capacity|kNodeCapacity", r"\b16\b"]),
    f("b23", "request", "should", "next: RTree::Remove(id) please", "RTree::Remove(id) for config deltas was requested, then dropped by the user (\"never mind\").", [r"Remove|delta", r"never mind|drop|no\b|not|cancel|revers|r-?tree"], "reversed"),
    f("b24", "finding", "should", "never mind the remove. checked with ops, pushes are always full snapshots", "Config pushes are always full snapshots (~40k fences; the delta idea was an old plan): the index stays static and is rebuilt with each new FenceSet.", [r"full snapshots?|snapshot|rebuil", r"push|config|rebuil|static"]),
    f("b25", "error", "should", "C++ designated initializers only available with", "gcc 9 (--config=gcc9, -Werror=pedantic) rejected C++20 designated initializers in rtree.cc (clang 17 accepted them); replaced with plain aggregate initialisation.", [r"designated initiali", r"gcc|c\+\+2a|C\+\+20|pedantic"], "fixed"),
    f("b26", "error", "must", "asan, with the frame that matters in the middle of the trace", "ASan container-overflow in RTree's constructor (rtree.cc:40, the per-slice std::sort): the last STR slice ran past order_'s end when partial; clamped to min(n, s + per_slice); PartialSlices test (n = 1..1000) added.", [r"asan|AddressSanitizer|container-overflow|overflow", r"slice|rtree\.cc:40|clamp|partial"], "fixed"),
    f("b27", "constraint", "should", "there's an untracked `fence/.clang-tidy` (created 16:02 today)", "The untracked fence/.clang-tidy is the user's experiment: ignore it, move it aside while running tidy and put it back; never commit it.", [r"\.clang-tidy", r"move|aside|untracked|ignore|experiment|not commit|back"]),
    f("b28", "fix", "nice", "tidy clean for //fence/... with the repo's .clang-tidy", "clang-tidy fixes: [[nodiscard]] on Query/size, size_t-typed capacity, a cast for the leaf index, reserve() for index_ids_.", [r"nodiscard|reserve|size_t", r"tidy|Query|capacity|clean"]),
    f("b29", "command", "should", "ci runs build, test, asan test, tidy and gcc9", "CI runs, all on //... with --config=ci: bazel build, bazel test, bazel test --config=asan, bazel build --config=tidy, bazel build --config=gcc9; all must pass before committing.", [r"\bci\b", r"asan|tidy|gcc9"]),
    f("b30", "constraint", "should", "`--config=ci` turns on `--remote_upload_local_results=true`", "Do not use --config=ci locally: it uploads local results to the shared remote cache; the local default is download-only.", [r"config=ci|remote_upload|upload|remote cache", r"local|\bnot\b|without|upload"]),
    f("b31", "decision", "nice", "fencecheck: add --no-index flag so ops can compare. actually no.", "No --no-index flag for fencecheck (the user withdrew it); fencecheck keeps its behaviour, lint-only fixes allowed.", [r"fencecheck|no-index", r"as is|\bno\b|not|keep|lint"]),
    f("b32", "finding", "nice", "tidy fails on //tools, in code I haven't touched", "clang-tidy also failed on //tools code nobody touched (fencecheck.cc:42 readability-qualified-auto, geojson_lite.cc:88 modernize-use-emplace), hidden since b41e0d7 broke //tools; fixed as lint-only changes.", [r"//tools|fencecheck|geojson_lite", r"tidy|lint|qualified-auto|emplace"], "fixed"),
    f("b33", "value", "must", "committed **2c7e9f4** on main (not pushed)", "Committed 2c7e9f4 on main (not pushed); fence/.clang-tidy left untracked; .bazelrc's unexplained mode change (644 -> 755) was reverted with chmod 644 and not committed.", [r"2c7e9f4"]),
    f("b34", "request", "should", "ingest team asks if 400k fences is ok memory-wise", "Open: the user replies to the ingest team tomorrow about 400k fences; numbers given: ~281 MB peak RSS for the 400k bench (~30 MB at 40k), index ~40 B per fence (~16 MB at 400k), query 1.10 µs, index build estimated ~90-100 ms (not measured); nothing changed.", [r"400k|400,?000|281|16 ?MB", r"memory|RSS|MB"], "open"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
