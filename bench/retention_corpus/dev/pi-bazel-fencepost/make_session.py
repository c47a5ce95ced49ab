# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a LONG pi v3 session (~150 tool calls) written by hand for the heldout5b split.

A terse lower-case user (drops one of their own requests with "never mind") has pi add a bulk-loaded
R-tree index to a C++17 geofencing library built with Bazel 7 (bzlmod): visibility and layering-check
errors, a sandbox data dependency, gtest failures on boundary semantics, ASan heap-buffer-overflow,
gcc 9 pedantic errors, a clang-tidy aspect, google benchmark numbers. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.pi_writer import PiSession  # noqa: E402

CWD = "/home/teo/src/fencepost"
s = PiSession(CWD, "2026-09-08T14:02:40", seed="fencepost-bazel")

MOD = "MODULE.bazel"
RC = ".bazelrc"
FB = "fence/BUILD.bazel"
GEOM = "fence/geometry.h"
POLY_H = "fence/polygon.h"
POLY_CC = "fence/polygon.cc"
FS_H = "fence/fence_set.h"
FS_CC = "fence/fence_set.cc"
FS_T = "fence/fence_set_test.cc"
IB = "fence/index/BUILD.bazel"
RT_H = "fence/index/rtree.h"
RT_CC = "fence/index/rtree.cc"
RT_T = "fence/index/rtree_test.cc"
RT_B = "fence/index/rtree_bench.cc"
TIDY = ".clang-tidy"

s.files.update({
    MOD: """module(name = "fencepost", version = "0.9.0")

bazel_dep(name = "abseil-cpp", version = "20240722.0")
bazel_dep(name = "googletest", version = "1.15.2", dev_dependency = True)
bazel_dep(name = "google_benchmark", version = "1.8.5", dev_dependency = True)
bazel_dep(name = "rules_cc", version = "0.0.10")
""",
    RC: """common --enable_bzlmod
build --cxxopt=-std=c++17 --host_cxxopt=-std=c++17
build --copt=-fno-exceptions
build --features=layering_check
build --incompatible_strict_action_env
test --test_output=errors

# gcc 9 is what the ingest service builds with
build:gcc9 --action_env=CC=/usr/bin/gcc-9 --action_env=CXX=/usr/bin/g++-9 --copt=-Wpedantic --copt=-Werror=pedantic

build:asan --copt=-fsanitize=address --copt=-fno-omit-frame-pointer --linkopt=-fsanitize=address --copt=-O1
build:asan --strip=never

build:tidy --aspects=//tools/lint:clang_tidy.bzl%clang_tidy_aspect --output_groups=report

build:ci --remote_cache=grpcs://cache.fleetwise.example:443 --remote_upload_local_results=true
build --remote_cache=grpcs://cache.fleetwise.example:443 --remote_upload_local_results=false
""",
    FB: """load("@rules_cc//cc:defs.bzl", "cc_library", "cc_test")

cc_library(
    name = "geometry",
    hdrs = ["geometry.h"],
    visibility = ["//visibility:public"],
)

cc_library(
    name = "polygon",
    srcs = ["polygon.cc"],
    hdrs = ["polygon.h"],
    deps = [
        ":geometry",
        "@abseil-cpp//absl/types:span",
    ],
)

cc_library(
    name = "fence_set",
    srcs = ["fence_set.cc"],
    hdrs = ["fence_set.h"],
    visibility = ["//visibility:public"],
    deps = [
        ":geometry",
        ":polygon",
        "@abseil-cpp//absl/container:flat_hash_map",
        "@abseil-cpp//absl/status:statusor",
    ],
)

cc_test(
    name = "polygon_test",
    srcs = ["polygon_test.cc"],
    deps = [
        ":polygon",
        "@googletest//:gtest_main",
    ],
)

cc_test(
    name = "fence_set_test",
    srcs = ["fence_set_test.cc"],
    deps = [
        ":fence_set",
        "@googletest//:gtest_main",
    ],
)
""",
    GEOM: """#pragma once

namespace fencepost {

struct Point {
  double x;  // longitude, degrees
  double y;  // latitude, degrees
};

}  // namespace fencepost
""",
    POLY_H: """#pragma once

#include <vector>

#include "absl/types/span.h"
#include "fence/geometry.h"

namespace fencepost {

// A simple polygon (no holes), vertices in order, first != last.
class Polygon {
 public:
  explicit Polygon(std::vector<Point> vertices);

  // True when p is inside or on the boundary (prod semantics since v0.3:
  // a vehicle parked on the zone line counts as inside).
  bool Contains(Point p) const;

  absl::Span<const Point> vertices() const { return vertices_; }

 private:
  std::vector<Point> vertices_;
};

}  // namespace fencepost
""",
    FS_H: """#pragma once

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "fence/geometry.h"
#include "fence/polygon.h"

namespace fencepost {

// Public API used by the ingest service (links //fence:fence_set). Do not break.
class FenceSet {
 public:
  absl::Status Add(int fence_id, Polygon polygon);
  // ids of all fences containing p, ascending
  std::vector<int> Contains(Point p) const;
  size_t size() const { return polygons_.size(); }

 private:
  absl::flat_hash_map<int, Polygon> polygons_;
};

}  // namespace fencepost
""",
    FS_CC: """#include "fence/fence_set.h"

#include <algorithm>

namespace fencepost {

absl::Status FenceSet::Add(int fence_id, Polygon polygon) {
  auto [it, inserted] = polygons_.try_emplace(fence_id, std::move(polygon));
  if (!inserted) return absl::AlreadyExistsError("duplicate fence id");
  return absl::OkStatus();
}

std::vector<int> FenceSet::Contains(Point p) const {
  std::vector<int> out;
  for (const auto& [id, poly] : polygons_) {
    if (poly.Contains(p)) out.push_back(id);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace fencepost
""",
    TIDY: """Checks: >
  bugprone-*,
  modernize-*,
  performance-*,
  readability-identifier-naming,
  -modernize-use-trailing-return-type
WarningsAsErrors: '*'
CheckOptions:
  - key: readability-identifier-naming.PrivateMemberSuffix
    value: '_'
  - key: readability-identifier-naming.ConstexprVariablePrefix
    value: 'k'
""",
})


def bz(cmd: str, out: str, code: int = 0, text: str | None = None) -> None:
    s.bash(cmd, out, code=code, text=text)


def ok_build(n: int, t: str = "0.512s", actions: int = 1) -> str:
    return (f"INFO: Analyzed {n} targets (0 packages loaded, 0 targets configured).\nINFO: Found {n} targets...\n"
            f"INFO: Elapsed time: {t}, Critical Path: 0.03s\nINFO: {actions} process{'es' if actions != 1 else ''}: {actions} internal.\n"
            f"INFO: Build completed successfully, {actions} total action{'s' if actions != 1 else ''}\n")


def test_summary(lines: list[tuple[str, str, str]], n_targets: int, elapsed: str = "6.204s") -> str:
    body = "".join(f"{t:<73}{st} in {d}\n" for t, st, d in lines)
    passed = sum(1 for _, st, _ in lines if st == "PASSED")
    cached = sum(1 for _, st, _ in lines if st == "(cached) PASSED")
    failed = [t for t, st, _ in lines if st == "FAILED"]
    head = (f"INFO: Analyzed {n_targets} targets (0 packages loaded, 0 targets configured).\n"
            f"INFO: Found {n_targets - len(lines)} targets and {len(lines)} test targets...\n"
            f"INFO: Elapsed time: {elapsed}, Critical Path: 4.91s\n"
            f"INFO: Build completed {'successfully' if not failed else ', ' + str(len(failed)) + ' test FAILED'}\n")
    tail = f"\nExecuted {len(lines) - cached} out of {len(lines)} tests: "
    if failed:
        tail += f"{passed + cached} tests pass and {len(failed)} fail locally.\n"
    else:
        tail += f"{len(lines)} tests pass.\n"
    return head + body + tail


BAZEL_OUT = "/home/teo/.cache/bazel/_bazel_teo/5c2e1f0a93d7b48e6a1f2c3d4e5f6a7b/execroot/_main/bazel-out/k8-fastbuild"

# ============================================================================================ turn 1
s.user("fencepost: FenceSet::Contains is a linear scan over all polygons. prod has ~40k fences and it shows up in the ingest profiles. add a spatial index (rtree or whatever) in a new package //fence/index.\nbazel 7.4, bzlmod only, no WORKSPACE file\nno new bazel_deps, only what MODULE.bazel already has", pause=0)
bz("ls -a && cat .bazelversion && bazel --version", ".\n..\n.bazelrc\n.bazelversion\n.clang-tidy\n.git\n.gitignore\nMODULE.bazel\nMODULE.bazel.lock\nREADME.md\nbazel-bin\nbazel-fencepost\nbazel-out\nbazel-testlogs\nfence\ntools\n7.4.1\nbazel 7.4.1\n")
s.reads([MOD, RC])
bz("find fence tools -type f | sort", "fence/BUILD.bazel\nfence/fence_set.cc\nfence/fence_set.h\nfence/fence_set_test.cc\nfence/geometry.h\nfence/polygon.cc\nfence/polygon.h\nfence/polygon_test.cc\nfence/testdata/berlin_zones.geojson\nfence/testdata/square.geojson\ntools/BUILD.bazel\ntools/fencecheck.cc\ntools/lint/BUILD.bazel\ntools/lint/clang_tidy.bzl\n")
s.reads([FB, FS_H, FS_CC])
s.reads([POLY_H, GEOM])
bz("git log --oneline -6 && git status --short", "b41e0d7 fence_set: AlreadyExists on duplicate id\n3f9c2a1 polygon: boundary counts as inside\n77ad0e5 tidy aspect\n0c6e9b8 gcc9 config for the ingest toolchain\n5e12f4a fencecheck cli\n1a0d3c7 initial import from the ingest repo\n")
bz("bazel build //fence/...", ok_build(5, "7.836s", 23).replace("23 internal", "9 internal, 14 linux-sandbox"))
bz("bazel test //fence/...", test_summary([("//fence:fence_set_test", "PASSED", "0.2s"), ("//fence:polygon_test", "PASSED", "0.1s")], 5, "9.112s"))
bz("bazel mod graph | head -8", "<root> (fencepost@0.9.0)\n├───abseil-cpp@20240722.0\n│   ├───bazel_skylib@1.7.1\n│   ├───googletest@1.15.2 (*)\n│   └───platforms@0.0.10\n├───google_benchmark@1.8.5\n├───googletest@1.15.2\n└───rules_cc@0.0.10\n")
bz("clang --version | head -1; gcc-9 --version | head -1; bazel info release", "Ubuntu clang version 17.0.6 (9ubuntu1)\ngcc-9 (Ubuntu 9.5.0-6ubuntu2) 9.5.0\nrelease 7.4.1\n")
bz("bazel query 'rdeps(//..., //fence:fence_set)' && bazel query 'attr(visibility, \"//visibility:public\", //fence:*)'", "//fence:fence_set\n//fence:fence_set_test\n//tools:fencecheck\n//fence:fence_set\n//fence:geometry\n")
bz("grep -n 'Contains\\|fence_set' tools/fencecheck.cc | head", "4:#include \"fence/fence_set.h\"\n41:  for (const auto& p : points) {\n42:    auto ids = fences.Contains(p);\n")
s.assistant(
    "state of things:\n"
    "- bazel 7.4.1, bzlmod, deps: abseil-cpp 20240722.0, googletest 1.15.2 and google_benchmark 1.8.5 (both dev), rules_cc. `bazel build //fence/...` and `bazel test //fence/...` pass (2 test targets). local compiler clang 17, gcc 9.5 installed for the gcc9 config.\n"
    "- .bazelrc: c++17, -fno-exceptions, layering_check, configs gcc9 (ingest toolchain, -Werror=pedantic), asan, tidy (clang-tidy aspect), ci. remote cache is read-only locally (`--remote_upload_local_results=false`), ci uploads.\n"
    "- `FenceSet::Contains` iterates a flat_hash_map<int, Polygon> and calls `Polygon::Contains` (boundary counts as inside) on every fence, then sorts.\n"
    "- //fence:polygon has no visibility (package-private); fence_set and geometry are public. users of fence_set: its test and //tools:fencecheck, plus the ingest service outside this repo.\n\n"
    "plan: //fence/index:rtree, a static R-tree over the fences' bounding boxes, bulk-loaded with sort-tile-recursive (STR), query returns candidate ids, then FenceSet runs the exact Polygon::Contains only on candidates. node capacity 16. fence_set.h's public API stays as is."
)

# ============================================================================================ turn 2
bz("grep -c 'TEST(' fence/polygon_test.cc fence/fence_set_test.cc", "fence/polygon_test.cc:7\nfence/fence_set_test.cc:3\n")
s.user("ok. fence_set.h api must not change, ingest links against it and we cant bump them this sprint\nbuild the index once in FenceSet, Add() is only called at load time")
s.write(RT_H, """#pragma once

#include <cstddef>
#include <vector>

#include "absl/types/span.h"
#include "fence/geometry.h"

namespace fencepost::index {

// Axis-aligned box, closed on all sides.
struct Box {
  double min_x, min_y, max_x, max_y;
  bool Contains(Point p) const {
    return p.x >= min_x && p.x < max_x && p.y >= min_y && p.y < max_y;
  }
};

Box BoundingBox(absl::Span<const Point> vertices);

// Static R-tree over boxes, bulk-loaded with Sort-Tile-Recursive (Leutenegger et al. 1997).
// Query returns the ids (positions in the input span) of boxes containing p, unordered.
class RTree {
 public:
  static constexpr int kNodeCapacity = 16;

  explicit RTree(absl::Span<const Box> boxes);

  std::vector<int> Query(Point p) const;
  size_t size() const { return boxes_.size(); }

 private:
  struct Node {
    Box box;
    int first;  // index into nodes_ (inner) or order_ (leaf)
    int count;
    bool leaf;
  };
  std::vector<Box> boxes_;
  std::vector<int> order_;
  std::vector<Node> nodes_;
  int root_ = -1;
};

}  // namespace fencepost::index
""")
s.write(RT_CC, """#include "fence/index/rtree.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "absl/types/span.h"
#include "fence/polygon.h"

namespace fencepost::index {
namespace {

Box Union(const Box& a, const Box& b) {
  return Box{.min_x = std::min(a.min_x, b.min_x), .min_y = std::min(a.min_y, b.min_y),
             .max_x = std::max(a.max_x, b.max_x), .max_y = std::max(a.max_y, b.max_y)};
}

double CenterX(const Box& b) { return (b.min_x + b.max_x) / 2; }
double CenterY(const Box& b) { return (b.min_y + b.max_y) / 2; }

}  // namespace

Box BoundingBox(absl::Span<const Point> vertices) {
  Box b{.min_x = vertices[0].x, .min_y = vertices[0].y, .max_x = vertices[0].x, .max_y = vertices[0].y};
  for (const Point& v : vertices) {
    b = Union(b, Box{.min_x = v.x, .min_y = v.y, .max_x = v.x, .max_y = v.y});
  }
  return b;
}

RTree::RTree(absl::Span<const Box> boxes) : boxes_(boxes.begin(), boxes.end()) {
  if (boxes_.empty()) return;
  // leaf level: STR sort of the input boxes
  order_.resize(boxes_.size());
  std::iota(order_.begin(), order_.end(), 0);
  size_t n = boxes_.size();
  size_t leaves = (n + kNodeCapacity - 1) / kNodeCapacity;
  size_t slices = static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(leaves))));
  size_t per_slice = slices * kNodeCapacity;
  std::sort(order_.begin(), order_.end(), [&](int a, int b) { return CenterX(boxes_[a]) < CenterX(boxes_[b]); });
  for (size_t s = 0; s < n; s += per_slice) {
    auto first = order_.begin() + s;
    auto last = order_.begin() + s + per_slice;
    std::sort(first, last, [&](int a, int b) { return CenterY(boxes_[a]) < CenterY(boxes_[b]); });
  }
  std::vector<int> level;
  for (size_t i = 0; i < n; i += kNodeCapacity) {
    int count = static_cast<int>(std::min<size_t>(kNodeCapacity, n - i));
    Box b = boxes_[order_[i]];
    for (int k = 1; k < count; ++k) b = Union(b, boxes_[order_[i + k]]);
    nodes_.push_back(Node{b, static_cast<int>(i), count, true});
    level.push_back(static_cast<int>(nodes_.size()) - 1);
  }
  // upper levels: pack consecutive nodes
  while (level.size() > 1) {
    std::vector<int> next;
    for (size_t i = 0; i < level.size(); i += kNodeCapacity) {
      int count = static_cast<int>(std::min<size_t>(kNodeCapacity, level.size() - i));
      Box b = nodes_[level[i]].box;
      for (int k = 1; k < count; ++k) b = Union(b, nodes_[level[i + k]].box);
      nodes_.push_back(Node{b, level[i], count, false});
      next.push_back(static_cast<int>(nodes_.size()) - 1);
    }
    level = std::move(next);
  }
  root_ = level[0];
}

std::vector<int> RTree::Query(Point p) const {
  std::vector<int> out;
  if (root_ < 0) return out;
  std::vector<int> stack = {root_};
  while (!stack.empty()) {
    const Node& node = nodes_[stack.back()];
    stack.pop_back();
    if (!node.box.Contains(p)) continue;
    for (int k = 0; k < node.count; ++k) {
      if (node.leaf) {
        int id = order_[node.first + k];
        if (boxes_[id].Contains(p)) out.push_back(id);
      } else {
        stack.push_back(node.first + k);
      }
    }
  }
  return out;
}

}  // namespace fencepost::index
""")
s.write(IB, """load("@rules_cc//cc:defs.bzl", "cc_library", "cc_test")

cc_library(
    name = "rtree",
    srcs = ["rtree.cc"],
    hdrs = ["rtree.h"],
    visibility = ["//fence:__pkg__"],
    deps = [
        "//fence:geometry",
        "//fence:polygon",
    ],
)

cc_test(
    name = "rtree_test",
    srcs = ["rtree_test.cc"],
    deps = [
        ":rtree",
        "@googletest//:gtest_main",
    ],
)
""")
s.write(RT_T, """#include "fence/index/rtree.h"

#include <algorithm>
#include <vector>

#include "gtest/gtest.h"

namespace fencepost::index {
namespace {

std::vector<int> Sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(RTreeTest, Empty) {
  RTree idx({});
  EXPECT_TRUE(idx.Query({0, 0}).empty());
}

TEST(RTreeTest, SingleBox) {
  std::vector<Box> boxes = {{0, 0, 10, 10}};
  RTree idx(boxes);
  EXPECT_EQ(idx.Query({5, 5}), std::vector<int>{0});
  EXPECT_TRUE(idx.Query({11, 5}).empty());
}

TEST(RTreeTest, PointOnSharedEdgeHitsBoth) {
  std::vector<Box> boxes = {{0, 0, 10, 10}, {10, 0, 20, 10}};
  RTree idx(boxes);
  EXPECT_EQ(Sorted(idx.Query({10.0, 5.0})), (std::vector<int>{0, 1}));
}

TEST(RTreeTest, MatchesBruteForceOnGrid) {
  // 50 x 50 overlapping boxes, 1000 query points
  std::vector<Box> boxes;
  for (int i = 0; i < 50; ++i)
    for (int j = 0; j < 50; ++j)
      boxes.push_back({i * 1.0, j * 1.0, i * 1.0 + 1.5, j * 1.0 + 1.5});
  RTree idx(boxes);
  for (int q = 0; q < 1000; ++q) {
    Point p{(q * 7919 % 5100) / 100.0, (q * 104729 % 5100) / 100.0};
    std::vector<int> want;
    for (int k = 0; k < static_cast<int>(boxes.size()); ++k)
      if (boxes[k].Contains(p)) want.push_back(k);
    ASSERT_EQ(Sorted(idx.Query(p)), want) << "p = " << p.x << "," << p.y;
  }
}

}  // namespace
}  // namespace fencepost::index
""")
bz("bazel build //fence/index:all", f"""ERROR: {CWD}/fence/index/BUILD.bazel:3:11: in cc_library rule //fence/index:rtree: target '//fence:polygon' is not visible from target '//fence/index:rtree'. Check the visibility declaration of the former target if you think the dependency is legitimate
ERROR: {CWD}/fence/index/BUILD.bazel:3:11: Analysis of target '//fence/index:rtree' failed
ERROR: Analysis of target '//fence/index:rtree' failed; build aborted
INFO: Elapsed time: 0.298s
INFO: 0 processes.
ERROR: Build did NOT complete successfully
""", code=1)
bz("sed -n '1,25p' fence/polygon.cc", "#include \"fence/polygon.h\"\n\n#include <utility>\n\nnamespace fencepost {\n\nPolygon::Polygon(std::vector<Point> vertices) : vertices_(std::move(vertices)) {}\n\n// crossing number with an explicit on-segment check first (boundary = inside)\nbool Polygon::Contains(Point p) const {\n  const size_t n = vertices_.size();\n  bool inside = false;\n  for (size_t i = 0, j = n - 1; i < n; j = i++) {\n    const Point& a = vertices_[i];\n    const Point& b = vertices_[j];\n    if (OnSegment(a, b, p)) return true;\n    if ((a.y > p.y) != (b.y > p.y) &&\n        p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) {\n      inside = !inside;\n    }\n  }\n  return inside;\n}\n\n}  // namespace fencepost\n")
s.assistant("//fence:polygon is package-private. rtree.cc includes polygon.h but doesn't use it (the index works on boxes only), so instead of opening polygon's visibility I drop the dep and the include.")
s.edit(IB, """    deps = [
        "//fence:geometry",
        "//fence:polygon",
    ],
)

cc_test(""", """    deps = [
        "//fence:geometry",
    ],
)

cc_test(""")
s.edit(RT_CC, '#include "absl/types/span.h"\n#include "fence/polygon.h"\n', '#include "absl/types/span.h"\n')
bz("bazel build //fence/index:all", f"""INFO: Analyzed 2 targets (3 packages loaded, 412 targets configured).
INFO: Found 2 targets...
ERROR: {CWD}/fence/index/BUILD.bazel:3:11: Compiling fence/index/rtree.cc failed: (Exit 1): clang-17 failed: error executing CppCompile command (from target //fence/index:rtree) /usr/lib/llvm-17/bin/clang-17 -U_FORTIFY_SOURCE -fstack-protector -Wall -Wthread-safety -Wself-assign -Wunused-but-set-parameter -Wno-free-nonheap-object -fcolor-diagnostics -fno-omit-frame-pointer '-std=c++17' -MD -MF ... (remaining 38 arguments skipped)

Use --sandbox_debug to see verbose messages from the sandbox and retain the sandbox build root for debugging
In file included from fence/index/rtree.cc:1:
fence/index/rtree.h:6:10: error: module //fence/index:rtree does not depend on a module exporting 'absl/types/span.h'
    6 | #include "absl/types/span.h"
      |          ^
See https://bazel.build/docs/... for layering_check
1 error generated.
INFO: Elapsed time: 3.947s, Critical Path: 3.51s
INFO: 4 processes: 4 internal.
ERROR: Build did NOT complete successfully
""", code=1)
s.assistant("layering_check (on in .bazelrc): rtree.h includes absl/types/span.h, which before came in transitively through polygon. it needs its own dep.")
s.edit(IB, """    deps = [
        "//fence:geometry",
    ],
)

cc_test(""", """    deps = [
        "//fence:geometry",
        "@abseil-cpp//absl/types:span",
    ],
)

cc_test(""")
bz("bazel build //fence/index:all", ok_build(2, "5.204s", 6).replace("6 internal", "2 internal, 4 linux-sandbox"))
bz("bazel query 'deps(//fence/index:rtree, 1)'", "//fence/index:rtree\n//fence/index:rtree.cc\n//fence/index:rtree.h\n//fence:geometry\n@abseil-cpp//absl/types:span\n@bazel_tools//tools/cpp:toolchain_type\n")
bz("bazel test //fence/index:rtree_test", f"""INFO: Analyzed target //fence/index:rtree_test (0 packages loaded, 0 targets configured).
INFO: Found 1 test target...
FAIL: //fence/index:rtree_test (see {BAZEL_OUT}/testlogs/fence/index/rtree_test/test.log)
INFO: From Testing //fence/index:rtree_test:
==================== Test output for //fence/index:rtree_test:
Running main() from gmock_main.cc
[==========] Running 4 tests from 1 test suite.
[----------] Global test environment set-up.
[----------] 4 tests from RTreeTest
[ RUN      ] RTreeTest.Empty
[       OK ] RTreeTest.Empty (0 ms)
[ RUN      ] RTreeTest.SingleBox
[       OK ] RTreeTest.SingleBox (0 ms)
[ RUN      ] RTreeTest.PointOnSharedEdgeHitsBoth
fence/index/rtree_test.cc:29: Failure
Expected equality of these values:
  Sorted(idx.Query({10.0, 5.0}))
    Which is: {{ 1 }}
  (std::vector<int>{{0, 1}})
    Which is: {{ 0, 1 }}
[  FAILED  ] RTreeTest.PointOnSharedEdgeHitsBoth (0 ms)
[ RUN      ] RTreeTest.MatchesBruteForceOnGrid
[       OK ] RTreeTest.MatchesBruteForceOnGrid (4 ms)
[----------] 4 tests from RTreeTest (4 ms total)

[----------] Global test environment tear-down
[==========] 4 tests from 1 test suite ran. (4 ms total)
[  PASSED  ] 3 tests.
[  FAILED  ] 1 test, listed below:
[  FAILED  ] RTreeTest.PointOnSharedEdgeHitsBoth

 1 FAILED TEST
================================================================================
INFO: Elapsed time: 4.611s, Critical Path: 4.12s
INFO: 6 processes: 2 internal, 4 linux-sandbox.
INFO: Build completed, 1 test FAILED, 6 total actions
//fence/index:rtree_test                                                 FAILED in 0.1s
  {BAZEL_OUT}/testlogs/fence/index/rtree_test/test.log

Executed 1 out of 1 test: 1 fails locally.
""", code=3)
s.assistant(
    "`Box::Contains` is half-open (`p.x < max_x`), so a point on the shared edge x = 10 only hits the right box. the comment says closed, and Polygon::Contains counts the boundary as inside (prod semantics since v0.3), so the box test has to be closed too, otherwise the index drops fences that the exact test would accept. "
    "the brute-force grid test didn't catch it because it uses the same Box::Contains for the expected set."
)
s.edit(RT_H, "    return p.x >= min_x && p.x < max_x && p.y >= min_y && p.y < max_y;\n", "    return p.x >= min_x && p.x <= max_x && p.y >= min_y && p.y <= max_y;\n")
bz("bazel test //fence/index:rtree_test", test_summary([("//fence/index:rtree_test", "PASSED", "0.1s")], 1, "3.880s"))
s.assistant("boxes are closed now (boundary inclusive, same as Polygon::Contains). rtree_test 4/4.")

# ============================================================================================ turn 3
s.user("the grid test compares the index against Box::Contains itself, thats circular. compare FenceSet results against the old linear scan on real data instead. theres fence/testdata/berlin_zones.geojson")
bz("head -c 600 fence/testdata/berlin_zones.geojson; echo; grep -o '\"type\": *\"Polygon\"' fence/testdata/berlin_zones.geojson | wc -l", "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"properties\": {\"id\": 1, \"name\": \"Mitte depot\"}, \"geometry\": {\"type\": \"Polygon\", \"coordinates\": [[[13.3862, 52.5201], [13.3907, 52.5199], [13.3911, 52.5228], [13.3871, 52.5231], [13.3862, 52.5201]]]}}, {\"type\": \"Feature\", \"properties\": {\"id\": 2, \"name\": \"Hbf taxi rank\"}, \"geometry\": {\"type\": \"Polygon\", \"coordinates\": [[[13.3681, 52.5243], [13.3712, 52.5241], [13.3715, 52.5262], [13.3684, 52.5264], [13.3681, 52.5243]]]}}, {\"type\": \"Feature\", \"properties\": {\"id\": 3, \"name\": \"Tempelhof lot A\"}, \"geo\n1287\n")
bz("grep -rn 'geojson\\|LoadGeoJson\\|ifstream' fence tools --include=*.cc --include=*.h | head", "tools/fencecheck.cc:12:#include \"tools/geojson_lite.h\"\ntools/fencecheck.cc:30:  std::ifstream in(argv[1]);\ntools/fencecheck.cc:31:  auto fences = LoadGeoJson(in);\nfence/fence_set_test.cc:58:  std::ifstream in(\"fence/testdata/berlin_zones.geojson\");\n")
s.files[FS_T] = """#include "fence/fence_set.h"

#include <fstream>

#include "gtest/gtest.h"
#include "tools/geojson_lite.h"

namespace fencepost {
namespace {

TEST(FenceSetTest, DuplicateId) {
  FenceSet set;
  ASSERT_TRUE(set.Add(1, Polygon({{0, 0}, {1, 0}, {1, 1}})).ok());
  EXPECT_EQ(set.Add(1, Polygon({{0, 0}, {1, 0}, {1, 1}})).code(), absl::StatusCode::kAlreadyExists);
}

TEST(FenceSetTest, SquareBoundaryCountsAsInside) {
  FenceSet set;
  ASSERT_TRUE(set.Add(7, Polygon({{0, 0}, {10, 0}, {10, 10}, {0, 10}})).ok());
  EXPECT_EQ(set.Contains({10, 5}), std::vector<int>{7});
  EXPECT_TRUE(set.Contains({10.0001, 5}).empty());
}

// disabled: file not found under bazel test, never looked into (teo, 2025-03)
TEST(FenceSetTest, DISABLED_BerlinZones) {
  std::ifstream in("fence/testdata/berlin_zones.geojson");
  ASSERT_TRUE(in.is_open()) << "could not open fence/testdata/berlin_zones.geojson";
  auto fences = LoadGeoJson(in);
  EXPECT_EQ(fences.size(), 1287u);
}

}  // namespace
}  // namespace fencepost
"""
s.read(FS_T)
bz("bazel test //fence:fence_set_test --test_output=all 2>&1 | tail -5", "[----------] Global test environment tear-down\n[==========] 2 tests from 1 test suite ran. (0 ms total)\n[  PASSED  ] 2 tests.\n\n  YOU HAVE 1 DISABLED TEST\n")
bz("sed -n '1,20p' tools/geojson_lite.h; grep -n 'geojson_lite' -A6 tools/BUILD.bazel", "#pragma once\n// Minimal GeoJSON FeatureCollection reader for Polygon features (no holes), used by\n// fencecheck and tests. Not a general parser.\n#include <istream>\n#include <vector>\n\n#include \"fence/polygon.h\"\n\nnamespace fencepost {\nstruct LoadedFence {\n  int id;\n  Polygon polygon;\n};\nstd::vector<LoadedFence> LoadGeoJson(std::istream& in);\n}  // namespace fencepost\ncc_library(\n    name = \"geojson_lite\",\n    srcs = [\"geojson_lite.cc\"],\n    hdrs = [\"geojson_lite.h\"],\n    visibility = [\"//tools:__pkg__\"],\n    deps = [\"//fence:polygon\"],\n")
s.assistant(
    "the berlin test exists but is DISABLED ('file not found under bazel test'). two reasons it can't work as written: the test target has no `data` dep on the geojson (the sandbox only contains declared inputs), and it doesn't depend on //tools:geojson_lite at all, which is `//tools:__pkg__`-only (and //tools:geojson_lite depends on //fence:polygon, which is package-private, so that only builds because tools... hm, that shouldn't build either)."
)
bz("bazel build //tools:geojson_lite", f"""ERROR: {CWD}/tools/BUILD.bazel:3:11: in cc_library rule //tools:geojson_lite: target '//fence:polygon' is not visible from target '//tools:geojson_lite'. Check the visibility declaration of the former target if you think the dependency is legitimate
ERROR: {CWD}/tools/BUILD.bazel:3:11: Analysis of target '//tools:geojson_lite' failed
ERROR: Analysis of target '//tools:geojson_lite' failed; build aborted
INFO: Elapsed time: 0.244s
INFO: 0 processes.
ERROR: Build did NOT complete successfully
""", code=1)
bz("bazel query 'kind(cc_.*, //tools:*)' && bazel build //tools:fencecheck 2>&1 | tail -3; git log --oneline -1 -- fence/BUILD.bazel", "//tools:fencecheck\n//tools:geojson_lite\nERROR: Analysis of target '//tools:fencecheck' failed; build aborted\nINFO: Elapsed time: 0.201s\nERROR: Build did NOT complete successfully\nb41e0d7 fence_set: AlreadyExists on duplicate id\n")
bz("git show b41e0d7 -- fence/BUILD.bazel | head -20", "commit b41e0d7a9c2f5e13d84b60c7e1f2a3b4c5d6e7f8\nAuthor: Teo Marinescu <teo@fleetwise.example>\nDate:   Fri Sep 5 17:41:02 2026 +0200\n\n    fence_set: AlreadyExists on duplicate id\n\ndiff --git a/fence/BUILD.bazel b/fence/BUILD.bazel\n@@ -9,7 +9,6 @@ cc_library(\n     name = \"polygon\",\n     srcs = [\"polygon.cc\"],\n     hdrs = [\"polygon.h\"],\n-    visibility = [\"//visibility:public\"],\n     deps = [\n         \":geometry\",\n         \"@abseil-cpp//absl/types:span\",\n")
s.assistant(
    "found a separate breakage: commit b41e0d7 (last friday) removed `visibility = [\"//visibility:public\"]` from //fence:polygon, so //tools:geojson_lite and therefore //tools:fencecheck no longer build. I only built //fence/... at the start, so I didn't see it. HEAD is broken for //tools.\n\n"
    "fence_set.h exposes Polygon in its API (`Add(int, Polygon)`), so polygon has to be visible to every user of fence_set anyway. options: restore public, or `//fence:__subpackages__` plus `//tools:__pkg__`. which?"
)

# ============================================================================================ turn 4
s.user("not public. fence subpackages + //tools only. the ingest repo only uses fence_set, polygon comes with it transitively\nand dont use --spawn_strategy=local or no-sandbox tags to make the berlin test pass, fix the data dep properly")
s.edit(FB, """    name = "polygon",
    srcs = ["polygon.cc"],
    hdrs = ["polygon.h"],
    deps = [""", """    name = "polygon",
    srcs = ["polygon.cc"],
    hdrs = ["polygon.h"],
    visibility = [
        "//fence:__subpackages__",
        "//tools:__pkg__",
    ],
    deps = [""")
bz("bazel build //...", ok_build(12, "6.930s", 17).replace("17 internal", "5 internal, 12 linux-sandbox"))
bz("bazel query 'rdeps(//..., //fence:polygon, 1)'", "//fence:fence_set\n//fence:polygon\n//fence:polygon_test\n//tools:geojson_lite\n")
s.assistant("//... builds again, including //tools:fencecheck. the ingest repo gets Polygon through fence_set's public header; visibility only governs direct deps, so that's fine.\n\nnow the berlin test: it needs `data`, a runfiles lookup instead of a cwd-relative path, and a dep on geojson_lite (which is //tools:__pkg__ only).")
bz("grep -n 'visibility' tools/BUILD.bazel", "7:    visibility = [\"//tools:__pkg__\"],\n")
s.files["tools/BUILD.bazel"] = """load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library")

cc_library(
    name = "geojson_lite",
    srcs = ["geojson_lite.cc"],
    hdrs = ["geojson_lite.h"],
    visibility = ["//tools:__pkg__"],
    deps = ["//fence:polygon"],
)

cc_binary(
    name = "fencecheck",
    srcs = ["fencecheck.cc"],
    deps = [
        ":geojson_lite",
        "//fence:fence_set",
    ],
)
"""
s.edit("tools/BUILD.bazel", '    visibility = ["//tools:__pkg__"],\n    deps = ["//fence:polygon"],\n', '    visibility = [\n        "//fence:__subpackages__",\n        "//tools:__pkg__",\n    ],\n    deps = ["//fence:polygon"],\n')
s.edit(FB, """cc_test(
    name = "fence_set_test",
    srcs = ["fence_set_test.cc"],
    deps = [
        ":fence_set",
        "@googletest//:gtest_main",
    ],
)""", """cc_test(
    name = "fence_set_test",
    srcs = ["fence_set_test.cc"],
    data = ["testdata/berlin_zones.geojson"],
    deps = [
        ":fence_set",
        "//tools:geojson_lite",
        "@bazel_tools//tools/cpp/runfiles",
        "@googletest//:gtest_main",
    ],
)""")
s.edit(FS_T, """#include "gtest/gtest.h"
#include "tools/geojson_lite.h"
""", """#include "gtest/gtest.h"
#include "tools/cpp/runfiles/runfiles.h"
#include "tools/geojson_lite.h"
""")
s.edit(FS_T, """// disabled: file not found under bazel test, never looked into (teo, 2025-03)
TEST(FenceSetTest, DISABLED_BerlinZones) {
  std::ifstream in("fence/testdata/berlin_zones.geojson");
  ASSERT_TRUE(in.is_open()) << "could not open fence/testdata/berlin_zones.geojson";
  auto fences = LoadGeoJson(in);
  EXPECT_EQ(fences.size(), 1287u);
}""", """using bazel::tools::cpp::runfiles::Runfiles;

std::vector<LoadedFence> LoadBerlin() {
  std::string error;
  std::unique_ptr<Runfiles> runfiles(Runfiles::CreateForTest(BAZEL_CURRENT_REPOSITORY, &error));
  EXPECT_NE(runfiles, nullptr) << error;
  std::ifstream in(runfiles->Rlocation("_main/fence/testdata/berlin_zones.geojson"));
  EXPECT_TRUE(in.is_open()) << "could not open berlin_zones.geojson via runfiles";
  return LoadGeoJson(in);
}

TEST(FenceSetTest, BerlinZonesLoad) {
  EXPECT_EQ(LoadBerlin().size(), 1287u);
}""")
bz("bazel test //fence:fence_set_test", f"""INFO: Analyzed target //fence:fence_set_test (2 packages loaded, 31 targets configured).
INFO: Found 1 test target...
ERROR: {CWD}/fence/BUILD.bazel:41:8: Compiling fence/fence_set_test.cc failed: (Exit 1): clang-17 failed: error executing CppCompile command (from target //fence:fence_set_test) /usr/lib/llvm-17/bin/clang-17 -U_FORTIFY_SOURCE -fstack-protector -Wall ... (remaining 44 arguments skipped)

Use --sandbox_debug to see verbose messages from the sandbox and retain the sandbox build root for debugging
fence/fence_set_test.cc:33:65: error: use of undeclared identifier 'BAZEL_CURRENT_REPOSITORY'
   33 |   std::unique_ptr<Runfiles> runfiles(Runfiles::CreateForTest(BAZEL_CURRENT_REPOSITORY, &error));
      |                                                                 ^
1 error generated.
INFO: Elapsed time: 2.714s, Critical Path: 2.39s
INFO: 3 processes: 3 internal.
ERROR: Build did NOT complete successfully
//fence:fence_set_test                                          FAILED TO BUILD

Executed 0 out of 1 test: 1 fails to build.
""", code=1)
s.assistant("`BAZEL_CURRENT_REPOSITORY` is only defined by rules_cc's cc rules from bazel 7 when the target is built with the native rules and the define isn't stripped... simpler and version-proof: `Runfiles::CreateForTest(&error)` without the repo argument, and the `_main/` prefix for the main repo under bzlmod.")
s.edit(FS_T, "Runfiles::CreateForTest(BAZEL_CURRENT_REPOSITORY, &error)", "Runfiles::CreateForTest(&error)")
bz("bazel test //fence:fence_set_test", test_summary([("//fence:fence_set_test", "PASSED", "0.3s")], 1, "4.118s"))
bz("bazel test //fence:fence_set_test --test_output=all 2>&1 | grep -E '^\\[ +(OK|RUN|FAILED)' ", "[ RUN      ] FenceSetTest.DuplicateId\n[       OK ] FenceSetTest.DuplicateId (0 ms)\n[ RUN      ] FenceSetTest.SquareBoundaryCountsAsInside\n[       OK ] FenceSetTest.SquareBoundaryCountsAsInside (0 ms)\n[ RUN      ] FenceSetTest.BerlinZonesLoad\n[       OK ] FenceSetTest.BerlinZonesLoad (61 ms)\n")
s.assistant("berlin test enabled and passing in the sandbox: `data = [\"testdata/berlin_zones.geojson\"]`, path via runfiles (`_main/fence/testdata/...`), no local strategy. 1287 fences loaded.\n\nnext: wire the index into FenceSet and compare it against the linear scan on these 1287 fences.")

# ============================================================================================ turn 5
s.user("go. for the comparison keep the old linear scan as a private test-only path, not in the public header")
s.edit(FS_H, """#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "fence/geometry.h"
#include "fence/polygon.h"
""", """#include <memory>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "fence/geometry.h"
#include "fence/polygon.h"

namespace fencepost::index {
class RTree;
}
""")
s.edit(FS_H, """  size_t size() const { return polygons_.size(); }

 private:
  absl::flat_hash_map<int, Polygon> polygons_;
};""", """  size_t size() const { return polygons_.size(); }

  FenceSet();
  ~FenceSet();
  FenceSet(FenceSet&&) noexcept;
  FenceSet& operator=(FenceSet&&) noexcept;

 private:
  friend class FenceSetTestPeer;
  std::vector<int> ContainsLinear(Point p) const;
  void BuildIndex() const;

  absl::flat_hash_map<int, Polygon> polygons_;
  // built lazily on the first Contains() after the last Add()
  mutable std::unique_ptr<index::RTree> index_;
  mutable std::vector<int> index_ids_;
};""")
s.write(FS_CC, """#include "fence/fence_set.h"

#include <algorithm>

#include "fence/index/rtree.h"

namespace fencepost {

FenceSet::FenceSet() = default;
FenceSet::~FenceSet() = default;
FenceSet::FenceSet(FenceSet&&) noexcept = default;
FenceSet& FenceSet::operator=(FenceSet&&) noexcept = default;

absl::Status FenceSet::Add(int fence_id, Polygon polygon) {
  auto [it, inserted] = polygons_.try_emplace(fence_id, std::move(polygon));
  if (!inserted) return absl::AlreadyExistsError("duplicate fence id");
  index_.reset();  // Add() happens at load time only; rebuild on next query
  return absl::OkStatus();
}

void FenceSet::BuildIndex() const {
  std::vector<index::Box> boxes;
  index_ids_.clear();
  boxes.reserve(polygons_.size());
  for (const auto& [id, poly] : polygons_) {
    boxes.push_back(index::BoundingBox(poly.vertices()));
    index_ids_.push_back(id);
  }
  index_ = std::make_unique<index::RTree>(boxes);
}

std::vector<int> FenceSet::Contains(Point p) const {
  if (!index_) BuildIndex();
  std::vector<int> out;
  for (int k : index_->Query(p)) {
    int id = index_ids_[k];
    if (polygons_.at(id).Contains(p)) out.push_back(id);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> FenceSet::ContainsLinear(Point p) const {
  std::vector<int> out;
  for (const auto& [id, poly] : polygons_) {
    if (poly.Contains(p)) out.push_back(id);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace fencepost
""")
s.edit(FB, """    deps = [
        ":geometry",
        ":polygon",
        "@abseil-cpp//absl/container:flat_hash_map",
        "@abseil-cpp//absl/status:statusor",
    ],""", """    deps = [
        ":geometry",
        ":polygon",
        "//fence/index:rtree",
        "@abseil-cpp//absl/container:flat_hash_map",
        "@abseil-cpp//absl/status:statusor",
    ],""")
s.edit(FS_T, """TEST(FenceSetTest, BerlinZonesLoad) {
  EXPECT_EQ(LoadBerlin().size(), 1287u);
}""", """TEST(FenceSetTest, BerlinZonesLoad) {
  EXPECT_EQ(LoadBerlin().size(), 1287u);
}

class FenceSetTestPeer {
 public:
  static std::vector<int> Linear(const FenceSet& s, Point p) { return s.ContainsLinear(p); }
};

// index + exact test must give exactly what the old linear scan gives
TEST(FenceSetTest, BerlinIndexMatchesLinearScan) {
  FenceSet set;
  for (auto& f : LoadBerlin()) ASSERT_TRUE(set.Add(f.id, std::move(f.polygon)).ok());
  int hits = 0;
  for (int i = 0; i < 20000; ++i) {
    // deterministic points over the Berlin bbox 13.08..13.77 E, 52.33..52.68 N
    Point p{13.08 + (i * 7919 % 10000) * 0.000069, 52.33 + (i * 104729 % 10000) * 0.000035};
    auto want = FenceSetTestPeer::Linear(set, p);
    ASSERT_EQ(set.Contains(p), want) << p.x << "," << p.y;
    hits += !want.empty();
  }
  EXPECT_GT(hits, 1000);  // the points must actually hit fences
}""")
bz("bazel test //fence/...", f"""INFO: Analyzed 6 targets (1 packages loaded, 9 targets configured).
INFO: Found 3 targets and 3 test targets...
ERROR: {CWD}/fence/BUILD.bazel:41:8: Compiling fence/fence_set_test.cc failed: (Exit 1): clang-17 failed: error executing CppCompile command (from target //fence:fence_set_test) /usr/lib/llvm-17/bin/clang-17 -U_FORTIFY_SOURCE -fstack-protector -Wall ... (remaining 46 arguments skipped)

Use --sandbox_debug to see verbose messages from the sandbox and retain the sandbox build root for debugging
fence/fence_set_test.cc:49:71: error: 'ContainsLinear' is a private member of 'fencepost::FenceSet'
   49 |   static std::vector<int> Linear(const FenceSet& s, Point p) {{ return s.ContainsLinear(p); }}
      |                                                                       ^
./fence/fence_set.h:40:20: note: declared private here
   40 |   std::vector<int> ContainsLinear(Point p) const;
      |                    ^
1 error generated.
INFO: Elapsed time: 5.912s, Critical Path: 5.41s
INFO: 9 processes: 4 internal, 5 linux-sandbox.
ERROR: Build did NOT complete successfully
//fence:fence_set_test                                          FAILED TO BUILD
//fence:polygon_test                                            (cached) PASSED in 0.1s
//fence/index:rtree_test                                        (cached) PASSED in 0.1s

Executed 0 out of 3 tests: 2 tests pass and 1 fails to build.
""", code=1)
s.assistant("the friend declaration names `fencepost::FenceSetTestPeer`, but the test defines the peer inside the file's anonymous namespace, so it's a different class. moving the peer out of the anonymous namespace (still only in the test file).")
s.edit(FS_T, """class FenceSetTestPeer {
 public:
  static std::vector<int> Linear(const FenceSet& s, Point p) { return s.ContainsLinear(p); }
};

""", """}  // namespace

class FenceSetTestPeer {
 public:
  static std::vector<int> Linear(const FenceSet& s, Point p) { return s.ContainsLinear(p); }
};

namespace {

""")
bz("bazel test //fence/...", test_summary([("//fence:fence_set_test", "PASSED", "1.9s"), ("//fence:polygon_test", "(cached) PASSED", "0.1s"), ("//fence/index:rtree_test", "(cached) PASSED", "0.1s")], 6, "12.640s"))
bz("bazel test //fence:fence_set_test --test_output=all 2>&1 | grep -E '^\\[ +(OK|FAILED) '", "[       OK ] FenceSetTest.DuplicateId (0 ms)\n[       OK ] FenceSetTest.SquareBoundaryCountsAsInside (0 ms)\n[       OK ] FenceSetTest.BerlinZonesLoad (58 ms)\n[       OK ] FenceSetTest.BerlinIndexMatchesLinearScan (1712 ms)\n")
bz("bazel query 'deps(//fence:fence_set, 1)'", "//fence:fence_set\n//fence:fence_set.cc\n//fence:fence_set.h\n//fence:geometry\n//fence:polygon\n//fence/index:rtree\n@abseil-cpp//absl/container:flat_hash_map\n@abseil-cpp//absl/status:statusor\n@bazel_tools//tools/cpp:toolchain_type\n")
s.assistant(
    "all three test targets pass, including `BerlinIndexMatchesLinearScan`: 20,000 deterministic points over the Berlin bbox, index + exact test equal to the linear scan every time (and >1000 of them hit fences).\n\n"
    "the linear scan lives on as private `ContainsLinear`, reached from the test via `FenceSetTestPeer` (friend); fence_set.h's public methods are unchanged (the special members were added because of the unique_ptr to an incomplete type; they don't change how callers use it)."
)

# ============================================================================================ turn 6
s.user("special members are fine. but mutable lazy index in a const method, Contains is called from 8 ingest threads concurrently. thats a data race\nbuild it eagerly. add a Freeze() ? no, api cant change. hm")
s.assistant(
    "right, two threads calling Contains() on a fresh set would both build the index. without changing the API the options are:\n"
    "1. build on every Add(): O(n log n) per add, 40k adds at load = far too slow.\n"
    "2. `absl::call_once` / `std::once_flag` around the lazy build: thread-safe, no API change, one-time cost on the first query. Add() after a query would have to reset the flag, which isn't thread-safe, but Add() only happens at load time (you said so), before the set is shared.\n"
    "3. a mutex around every query: serialises the 8 threads.\n"
    "I'd do 2 and document that Add() must not race with Contains() (it already couldn't: flat_hash_map isn't thread-safe for writes either)."
)
s.user("2. and the doc comment in the header, thats not an api change")
s.edit(FS_H, """  absl::Status Add(int fence_id, Polygon polygon);
  // ids of all fences containing p, ascending
  std::vector<int> Contains(Point p) const;""", """  // Load time only: Add() must not run concurrently with anything else.
  absl::Status Add(int fence_id, Polygon polygon);
  // ids of all fences containing p, ascending. Thread-safe once loading is done
  // (the spatial index is built once, on the first call).
  std::vector<int> Contains(Point p) const;""")
s.edit(FS_H, """  // built lazily on the first Contains() after the last Add()
  mutable std::unique_ptr<index::RTree> index_;
  mutable std::vector<int> index_ids_;""", """  // built once, on the first Contains(); Add() replaces the flag (load time only)
  mutable std::unique_ptr<absl::once_flag> index_once_ = std::make_unique<absl::once_flag>();
  mutable std::unique_ptr<index::RTree> index_;
  mutable std::vector<int> index_ids_;""")
s.edit(FS_H, '#include "absl/container/flat_hash_map.h"\n', '#include "absl/base/call_once.h"\n#include "absl/container/flat_hash_map.h"\n')
s.edit(FS_CC, "  index_.reset();  // Add() happens at load time only; rebuild on next query\n", "  index_.reset();  // load time only (see header); the next Contains() rebuilds\n  index_once_ = std::make_unique<absl::once_flag>();\n")
s.edit(FS_CC, "  if (!index_) BuildIndex();\n", "  absl::call_once(*index_once_, [this] { BuildIndex(); });\n")
s.edit(FB, '        "//fence/index:rtree",\n        "@abseil-cpp//absl/container:flat_hash_map",', '        "//fence/index:rtree",\n        "@abseil-cpp//absl/base",\n        "@abseil-cpp//absl/container:flat_hash_map",')
s.edit(FS_T, """  EXPECT_GT(hits, 1000);  // the points must actually hit fences
}""", """  EXPECT_GT(hits, 1000);  // the points must actually hit fences
}

TEST(FenceSetTest, ConcurrentFirstQueries) {
  FenceSet set;
  for (auto& f : LoadBerlin()) ASSERT_TRUE(set.Add(f.id, std::move(f.polygon)).ok());
  std::vector<std::thread> threads;
  std::atomic<int> total{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        Point p{13.08 + ((i + t * 2000) * 7919 % 10000) * 0.000069, 52.33 + ((i + t * 2000) * 104729 % 10000) * 0.000035};
        total += static_cast<int>(set.Contains(p).size());
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_GT(total.load(), 0);
}""")
s.edit(FS_T, "#include <fstream>\n", "#include <atomic>\n#include <fstream>\n#include <thread>\n")
bz("bazel test //fence:fence_set_test", test_summary([("//fence:fence_set_test", "PASSED", "2.4s")], 1, "5.371s"))
bz("bazel test //fence:fence_set_test --copt=-fsanitize=thread --linkopt=-fsanitize=thread --test_output=errors", test_summary([("//fence:fence_set_test", "PASSED", "9.8s")], 1, "48.201s"))
bz("bazel test //fence:fence_set_test --runs_per_test=20 2>&1 | tail -3", "//fence:fence_set_test                                                   PASSED in 2.5s\n  Stats over 20 runs: max = 2.5s, min = 2.1s, avg = 2.3s, dev = 0.1s\n\nExecuted 1 out of 1 test: 1 test passes.\n")
s.assistant("index is built under `absl::call_once` on the first Contains(); Add() resets the flag (load-time only, documented in the header comment). new test: 8 threads x 2000 first queries on the berlin set; also clean under `-fsanitize=thread` (passed, no race reports). I didn't add a tsan config to .bazelrc, just flags on the command line.")

# ============================================================================================ turn 7
s.user("add a benchmark //fence/index:rtree_bench with google benchmark. 40k fences like prod. linear vs index")
s.write(RT_B, """#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "fence/fence_set.h"

namespace fencepost {
namespace {

// 40k random quadrilaterals of ~300 m over a 60 x 40 km area (prod: ~40k fences)
FenceSet MakeFences(int n) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> x(13.0, 13.9), y(52.3, 52.66), d(0.001, 0.004);
  FenceSet set;
  for (int id = 0; id < n; ++id) {
    double cx = x(rng), cy = y(rng), w = d(rng), h = d(rng);
    (void)set.Add(id, Polygon({{cx - w, cy - h}, {cx + w, cy - h}, {cx + w, cy + h}, {cx - w, cy + h}}));
  }
  return set;
}

void BM_Contains(benchmark::State& state) {
  FenceSet set = MakeFences(static_cast<int>(state.range(0)));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> x(13.0, 13.9), y(52.3, 52.66);
  for (auto _ : state) {
    benchmark::DoNotOptimize(set.Contains({x(rng), y(rng)}));
  }
}
BENCHMARK(BM_Contains)->Arg(1000)->Arg(40000)->Arg(400000);

}  // namespace
}  // namespace fencepost
""")
s.edit(IB, """cc_test(
    name = "rtree_test",""", """cc_binary(
    name = "rtree_bench",
    srcs = ["rtree_bench.cc"],
    deps = [
        "//fence:fence_set",
        "@google_benchmark//:benchmark_main",
    ],
)

cc_test(
    name = "rtree_test",""")
s.edit(IB, 'load("@rules_cc//cc:defs.bzl", "cc_library", "cc_test")\n', 'load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")\n')
bz("bazel run -c opt //fence/index:rtree_bench", f"""INFO: Analyzed target //fence/index:rtree_bench (4 packages loaded, 217 targets configured).
INFO: Found 1 target...
ERROR: {CWD}/fence/index/BUILD.bazel:14:10: Compiling fence/index/rtree_bench.cc failed: (Exit 1): clang-17 failed: error executing CppCompile command (from target //fence/index:rtree_bench) /usr/lib/llvm-17/bin/clang-17 ... (remaining 49 arguments skipped)

Use --sandbox_debug to see verbose messages from the sandbox and retain the sandbox build root for debugging
fence/index/rtree_bench.cc:5:10: error: module //fence/index:rtree_bench does not depend on a module exporting 'fence/polygon.h'
    5 | #include "fence/fence_set.h"
      |          ^
fence/index/rtree_bench.cc:18:15: note: 'Polygon' used here; declared in fence/polygon.h
1 error generated.
INFO: Elapsed time: 6.118s, Critical Path: 5.30s
ERROR: Build did NOT complete successfully
""", code=1)
s.assistant("layering again: the bench constructs Polygon directly, so it needs //fence:polygon as a direct dep (visible to fence subpackages, so allowed).")
s.edit(IB, """        "//fence:fence_set",
        "@google_benchmark//:benchmark_main",""", """        "//fence:fence_set",
        "//fence:polygon",
        "@google_benchmark//:benchmark_main",""")
bz("bazel run -c opt //fence/index:rtree_bench", """INFO: Analyzed target //fence/index:rtree_bench (0 packages loaded, 3 targets configured).
INFO: Found 1 target...
Target //fence/index:rtree_bench up-to-date:
  bazel-bin/fence/index/rtree_bench
INFO: Elapsed time: 41.877s, Critical Path: 38.02s
INFO: Running command line: bazel-bin/fence/index/rtree_bench
2026-09-08T15:24:09+02:00
Running /home/teo/.cache/bazel/_bazel_teo/5c2e1f0a93d7b48e6a1f2c3d4e5f6a7b/execroot/_main/bazel-out/k8-opt/bin/fence/index/rtree_bench
Run on (16 X 4700 MHz CPU s)
CPU Caches:
  L1 Data 48 KiB (x8)
  L1 Instruction 32 KiB (x8)
  L2 Unified 1280 KiB (x8)
  L3 Unified 24576 KiB (x1)
Load Average: 1.12, 0.98, 0.87
-------------------------------------------------------------
Benchmark                   Time             CPU   Iterations
-------------------------------------------------------------
BM_Contains/1000          412 ns          411 ns      1702154
BM_Contains/40000         688 ns          687 ns      1013310
BM_Contains/400000       1102 ns         1101 ns       636201
""")
bz("nproc; cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "16\npowersave\n")
s.assistant("index path: 412 ns at 1k fences, **688 ns at 40k**, 1.10 µs at 400k. for the linear comparison I'll add a second benchmark through the test peer... it's private. I'll add `BM_ContainsLinear` using a FenceSetTestPeer-like friend in the bench.")
s.edit(FS_H, "  friend class FenceSetTestPeer;\n", "  friend class FenceSetTestPeer;\n  friend class FenceSetBenchPeer;\n")
s.edit(RT_B, """BENCHMARK(BM_Contains)->Arg(1000)->Arg(40000)->Arg(400000);
""", """BENCHMARK(BM_Contains)->Arg(1000)->Arg(40000)->Arg(400000);

}  // namespace

class FenceSetBenchPeer {
 public:
  static std::vector<int> Linear(const FenceSet& s, Point p) { return s.ContainsLinear(p); }
};

namespace {

void BM_ContainsLinear(benchmark::State& state) {
  FenceSet set = MakeFences(static_cast<int>(state.range(0)));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> x(13.0, 13.9), y(52.3, 52.66);
  for (auto _ : state) {
    benchmark::DoNotOptimize(FenceSetBenchPeer::Linear(set, {x(rng), y(rng)}));
  }
}
BENCHMARK(BM_ContainsLinear)->Arg(1000)->Arg(40000);

void BM_BuildIndex(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    FenceSet set = MakeFences(static_cast<int>(state.range(0)));
    state.ResumeTiming();
    benchmark::DoNotOptimize(set.Contains({13.4, 52.5}));  // first query builds the index
  }
}
BENCHMARK(BM_BuildIndex)->Arg(40000)->Unit(benchmark::kMillisecond);
""")
bz("ls -la bazel-bin/fence/index/ | grep -v '\\.params$' | tail -4", "-r-xr-xr-x 1 teo teo 2210544 Sep  8 15:24 rtree_bench\ndrwxr-xr-x 3 teo teo    4096 Sep  8 15:24 rtree_bench.runfiles\n-r-xr-xr-x 1 teo teo     512 Sep  8 15:24 rtree_bench.runfiles_manifest\n-r-xr-xr-x 1 teo teo 3012288 Sep  8 14:52 rtree_test\n")
bz("bazel run -c opt //fence/index:rtree_bench 2>&1 | tail -8", """-------------------------------------------------------------
Benchmark                   Time             CPU   Iterations
-------------------------------------------------------------
BM_Contains/1000          409 ns          409 ns      1711840
BM_Contains/40000         691 ns          690 ns      1010377
BM_Contains/400000       1098 ns         1097 ns       639012
BM_ContainsLinear/1000   38912 ns        38899 ns        17995
BM_ContainsLinear/40000  1893114 ns      1892650 ns          370
BM_BuildIndex/40000       8.71 ms         8.70 ms           80
""")
s.assistant(
    "numbers (-c opt, 16-core box):\n"
    "- 40k fences: **linear 1.89 ms per Contains(), index 0.69 µs**, ~2700x.\n"
    "- 1k: 38.9 µs vs 0.41 µs. 400k: index 1.10 µs.\n"
    "- building the index for 40k (the first query after load): **8.7 ms**.\n"
    "node capacity is 16 (kNodeCapacity)."
)

# ============================================================================================ turn 8
s.user("nice. try capacity 8 and 32 too, if one is clearly better use it")
for cap, t40, tb in ((8, "744", "10.92"), (32, "702", "7.95")):
    s.edit(RT_H, f"  static constexpr int kNodeCapacity = {16 if cap == 8 else 8};\n", f"  static constexpr int kNodeCapacity = {cap};\n")
    bz("bazel run -c opt //fence/index:rtree_bench -- --benchmark_filter='BM_Contains/40000|BM_BuildIndex' 2>&1 | tail -3", f"-------------------------------------------------------------\nBM_Contains/40000         {t40} ns          {t40} ns       9{cap}1022\nBM_BuildIndex/40000      {tb} ms         {tb} ms           {int(640 / float(tb))}\n")
s.edit(RT_H, "  static constexpr int kNodeCapacity = 32;\n", "  static constexpr int kNodeCapacity = 16;\n")
bz("bazel run -c opt //fence/index:rtree_bench -- --benchmark_filter='BM_Contains/40000' --benchmark_repetitions=5 --benchmark_report_aggregates_only 2>&1 | tail -4", "BM_Contains/40000_mean          693 ns          692 ns            5\nBM_Contains/40000_median        690 ns          690 ns            5\nBM_Contains/40000_stddev       7.14 ns         7.02 ns            5\nBM_Contains/40000_cv           1.03 %          1.01 %             5\n")
s.assistant("capacity 8: 744 ns / 10.9 ms build; 16: 691 ns / 8.7 ms; 32: 702 ns / 7.95 ms. 16 and 32 are within noise for queries (16: 693 ± 7 ns over 5 reps), 8 is worse. none is clearly better, so kNodeCapacity stays **16**.")

# ============================================================================================ turn 9
bz("git diff --stat", " fence/BUILD.bazel        | 12 +++++++++++-\n fence/fence_set.cc       | 45 +++++++++++++++++++++++++++++++++++++++++++--\n fence/fence_set.h        | 22 +++++++++++++++++++++-\n fence/fence_set_test.cc  | 71 +++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++----\n tools/BUILD.bazel        |  5 ++++-\n 5 files changed, 147 insertions(+), 8 deletions(-)\n")
s.user("ok 16. next: RTree::Remove(id) please, the config service sends deltas and we want to drop single fences without rebuilding")
s.read(RT_H)
bz("grep -rn 'config\\|delta\\|Reload' tools/fencecheck.cc README.md | head", "README.md:14:The ingest service loads all fences from the config service at start-up and on every\nREADME.md:15:config push (full snapshot, ~40k fences), then swaps the FenceSet atomically.\n")
s.assistant(
    "before I build Remove(): README.md says the ingest service loads a **full snapshot** (~40k fences) on every config push and swaps the FenceSet atomically; no deltas. a static STR tree doesn't support removal well (it would need tombstones or condense-tree, and FenceSet has no Remove either, so the API would have to grow, which you ruled out). "
    "rebuilding costs 8.7 ms for 40k. is the delta path real, or is the README out of date?"
)
s.user("never mind the remove. checked with ops, pushes are always full snapshots, the delta thing was an old plan. rebuild on push is fine")
s.assistant("ok, no Remove(). the index stays static and is rebuilt with each new FenceSet.")

# ============================================================================================ turn 10
s.user("run the gcc9 config, ingest builds with that")
bz("grep -n 'gcc9' .bazelrc", "8:# gcc 9 is what the ingest service builds with\n9:build:gcc9 --action_env=CC=/usr/bin/gcc-9 --action_env=CXX=/usr/bin/g++-9 --copt=-Wpedantic --copt=-Werror=pedantic\n")
bz("bazel build --config=gcc9 //fence/...", f"""INFO: Build option --action_env has changed, discarding analysis cache (this can be expensive, see https://bazel.build/advanced/performance/iteration-speed).
INFO: Analyzed 9 targets (72 packages loaded, 1433 targets configured).
INFO: Found 9 targets...
ERROR: {CWD}/fence/index/BUILD.bazel:3:11: Compiling fence/index/rtree.cc failed: (Exit 1): gcc-9 failed: error executing CppCompile command (from target //fence/index:rtree) /usr/bin/gcc-9 -U_FORTIFY_SOURCE -fstack-protector -Wall -Wunused-but-set-parameter -Wno-free-nonheap-object -fno-omit-frame-pointer '-std=c++17' -MD -MF ... (remaining 31 arguments skipped)

Use --sandbox_debug to see verbose messages from the sandbox and retain the sandbox build root for debugging
fence/index/rtree.cc: In function 'fencepost::index::Box fencepost::index::{{anonymous}}::Union(const fencepost::index::Box&, const fencepost::index::Box&)':
fence/index/rtree.cc:11:15: error: C++ designated initializers only available with '-std=c++2a' or '-std=gnu++2a' [-Werror=pedantic]
   11 |   return Box{{.min_x = std::min(a.min_x, b.min_x), .min_y = std::min(a.min_y, b.min_y),
      |               ^
fence/index/rtree.cc: In function 'fencepost::index::Box fencepost::index::BoundingBox(absl::lts_20240722::Span<const fencepost::Point>)':
fence/index/rtree.cc:21:10: error: C++ designated initializers only available with '-std=c++2a' or '-std=gnu++2a' [-Werror=pedantic]
   21 |   Box b{{.min_x = vertices[0].x, .min_y = vertices[0].y, .max_x = vertices[0].x, .max_y = vertices[0].y}};
      |          ^
cc1plus: some warnings being treated as errors
INFO: Elapsed time: 38.406s, Critical Path: 12.77s
INFO: 112 processes: 41 internal, 71 linux-sandbox.
ERROR: Build did NOT complete successfully
""".replace("{{", "{").replace("}}", "}"), code=1)
s.assistant("designated initializers are C++20; clang-17 accepts them silently in c++17 mode, gcc 9 with -Werror=pedantic doesn't. plain aggregate initialisation in field order (min_x, min_y, max_x, max_y) instead.")
s.edit(RT_CC, """  return Box{.min_x = std::min(a.min_x, b.min_x), .min_y = std::min(a.min_y, b.min_y),
             .max_x = std::max(a.max_x, b.max_x), .max_y = std::max(a.max_y, b.max_y)};""", """  return Box{std::min(a.min_x, b.min_x), std::min(a.min_y, b.min_y),  // min_x, min_y
             std::max(a.max_x, b.max_x), std::max(a.max_y, b.max_y)};  // max_x, max_y""")
s.edit(RT_CC, """  Box b{.min_x = vertices[0].x, .min_y = vertices[0].y, .max_x = vertices[0].x, .max_y = vertices[0].y};
  for (const Point& v : vertices) {
    b = Union(b, Box{.min_x = v.x, .min_y = v.y, .max_x = v.x, .max_y = v.y});
  }""", """  Box b{vertices[0].x, vertices[0].y, vertices[0].x, vertices[0].y};
  for (const Point& v : vertices) {
    b = Union(b, Box{v.x, v.y, v.x, v.y});
  }""")
bz("bazel build --config=gcc9 //fence/...", ok_build(9, "21.702s", 14).replace("14 internal", "4 internal, 10 linux-sandbox"))
bz("bazel test --config=gcc9 //fence/...", test_summary([("//fence:fence_set_test", "PASSED", "2.9s"), ("//fence:polygon_test", "PASSED", "0.1s"), ("//fence/index:rtree_test", "PASSED", "0.1s")], 9, "19.334s"))
bz("bazel test //fence/...", test_summary([("//fence:fence_set_test", "PASSED", "2.3s"), ("//fence:polygon_test", "PASSED", "0.1s"), ("//fence/index:rtree_test", "PASSED", "0.1s")], 9, "22.050s").replace("INFO: Analyzed", "INFO: Build option --action_env has changed, discarding analysis cache (this can be expensive, see https://bazel.build/advanced/performance/iteration-speed).\nINFO: Analyzed"))
s.assistant("gcc9 config builds and all 3 test targets pass with gcc 9 and clang 17. the only problem was the C++20 designated initializers in rtree.cc.")

# ============================================================================================ turn 11
s.user("asan too")
bz("bazel test --config=asan //fence/...", f"""INFO: Build option --copt has changed, discarding analysis cache (this can be expensive, see https://bazel.build/advanced/performance/iteration-speed).
INFO: Analyzed 9 targets (0 packages loaded, 1433 targets configured).
INFO: Found 6 targets and 3 test targets...
FAIL: //fence/index:rtree_test (see {BAZEL_OUT.replace('k8-fastbuild', 'k8-fastbuild-ST-4a1c0e2b9d7f')}/testlogs/fence/index/rtree_test/test.log)
INFO: From Testing //fence/index:rtree_test:
==================== Test output for //fence/index:rtree_test:
Running main() from gmock_main.cc
[==========] Running 4 tests from 1 test suite.
[----------] Global test environment set-up.
[----------] 4 tests from RTreeTest
[ RUN      ] RTreeTest.Empty
[       OK ] RTreeTest.Empty (0 ms)
[ RUN      ] RTreeTest.SingleBox
=================================================================
==48213==ERROR: AddressSanitizer: container-overflow on address 0x602000000094 at pc 0x55a3c8e1f4d2 bp 0x7ffd4b3e2a10 sp 0x7ffd4b3e2a08
READ of size 4 at 0x602000000094 thread T0
    #0 0x55a3c8e1f4d1 in bool std::__1::__insertion_sort_incomplete<...>(int*, int*, ...) /usr/lib/llvm-17/bin/../include/c++/v1/__algorithm/sort.h:344:9
    #1 0x55a3c8e1e8a0 in void std::__1::__introsort<...>(int*, int*, ...) /usr/lib/llvm-17/bin/../include/c++/v1/__algorithm/sort.h:601:11
    #2 0x55a3c8e1d2f7 in void std::__1::sort<std::__1::__wrap_iter<int*>, ...>(...) /usr/lib/llvm-17/bin/../include/c++/v1/__algorithm/sort.h:745:3
    #3 0x55a3c8e1c0a5 in fencepost::index::RTree::RTree(absl::lts_20240722::Span<fencepost::index::Box const>) fence/index/rtree.cc:40:5
    #4 0x55a3c8e0b9e6 in fencepost::index::(anonymous namespace)::RTreeTest_SingleBox_Test::TestBody() fence/index/rtree_test.cc:21:9
    #5 0x55a3c8e8a1c3 in void testing::internal::HandleExceptionsInMethodIfSupported<testing::Test, void>(...) external/googletest~/googletest/src/gtest.cc:2664:10
    #6 0x55a3c8e6f0b2 in testing::Test::Run() external/googletest~/googletest/src/gtest.cc:2743:5
    #7 0x55a3c8e70a51 in testing::TestInfo::Run() external/googletest~/googletest/src/gtest.cc:2889:11
    #8 0x55a3c8e71f6c in testing::TestSuite::Run() external/googletest~/googletest/src/gtest.cc:3067:30
    #9 0x55a3c8e8d0e4 in testing::internal::UnitTestImpl::RunAllTests() external/googletest~/googletest/src/gtest.cc:5967:44

0x602000000094 is located 0 bytes after 4-byte region [0x602000000090,0x602000000094)
allocated by thread T0 here:
    #0 0x55a3c8dd7f3d in operator new(unsigned long) (/home/teo/.cache/bazel/_bazel_teo/.../rtree_test+0x1a2f3d)
    #1 0x55a3c8e1bf8c in fencepost::index::RTree::RTree(absl::lts_20240722::Span<fencepost::index::Box const>) fence/index/rtree.cc:31:10

SUMMARY: AddressSanitizer: container-overflow /usr/lib/llvm-17/bin/../include/c++/v1/__algorithm/sort.h:344:9 in bool std::__1::__insertion_sort_incomplete<...>
==48213==ABORTING
================================================================================
INFO: Elapsed time: 71.390s, Critical Path: 44.82s
INFO: 96 processes: 19 internal, 77 linux-sandbox.
INFO: Build completed, 1 test FAILED, 96 total actions
//fence:fence_set_test                                                   PASSED in 6.1s
//fence:polygon_test                                                     PASSED in 0.3s
//fence/index:rtree_test                                                 FAILED in 0.4s

Executed 3 out of 3 tests: 2 tests pass and 1 fails locally.
""", code=3)
bz(f"grep -n 'rtree.cc' {BAZEL_OUT.replace('k8-fastbuild', 'k8-fastbuild-ST-4a1c0e2b9d7f')}/testlogs/fence/index/rtree_test/test.log", "    #3 0x55a3c8e1c0a5 in fencepost::index::RTree::RTree(absl::lts_20240722::Span<fencepost::index::Box const>) fence/index/rtree.cc:40:5\n    #1 0x55a3c8e1bf8c in fencepost::index::RTree::RTree(absl::lts_20240722::Span<fencepost::index::Box const>) fence/index/rtree.cc:31:10\n")
s.read(RT_CC)
s.assistant(
    "asan, with the frame that matters in the middle of the trace: `RTree::RTree ... rtree.cc:40`, the per-slice `std::sort(first, last, ...)`. `last = order_.begin() + s + per_slice` runs past the end when the last slice is partial (n % per_slice != 0): with one box, per_slice = 16 and order_ has 1 element. "
    "the brute-force and berlin tests passed by luck (the libc++ sort read but didn't use the garbage). fix: clamp `last` to `order_.end()`."
)
s.edit(RT_CC, "    auto last = order_.begin() + s + per_slice;\n", "    auto last = order_.begin() + std::min(n, s + per_slice);  // last slice may be partial\n")
bz("bazel test --config=asan //fence/...", test_summary([("//fence:fence_set_test", "PASSED", "6.3s"), ("//fence:polygon_test", "(cached) PASSED", "0.3s"), ("//fence/index:rtree_test", "PASSED", "0.4s")], 9, "14.882s"))
s.edit(RT_T, """TEST(RTreeTest, PointOnSharedEdgeHitsBoth) {""", """// sizes around the slice/node boundaries (asan found the partial last slice)
TEST(RTreeTest, PartialSlices) {
  for (int n : {1, 15, 16, 17, 255, 256, 257, 1000}) {
    std::vector<Box> boxes;
    for (int i = 0; i < n; ++i) boxes.push_back({i * 1.0, 0, i * 1.0 + 0.5, 1});
    RTree idx(boxes);
    EXPECT_EQ(idx.Query({n - 1.0 + 0.25, 0.5}), std::vector<int>{n - 1}) << n;
  }
}

TEST(RTreeTest, PointOnSharedEdgeHitsBoth) {""")
bz("bazel test --config=asan //fence/index:rtree_test --test_output=all 2>&1 | grep -cE '^\\[       OK \\]'", "5\n")
bz("bazel test --config=asan //fence/index:rtree_test && bazel test //fence/index:rtree_test", test_summary([("//fence/index:rtree_test", "PASSED", "0.5s")], 1, "9.104s") + test_summary([("//fence/index:rtree_test", "PASSED", "0.1s")], 1, "4.332s"))
s.assistant("fixed: the last STR slice is clamped to the end of order_. new `PartialSlices` test with n = 1, 15, 16, 17, 255, 256, 257, 1000. asan clean for //fence/..., plain build too.")

# ============================================================================================ turn 12
bz("git status --short", " M fence/BUILD.bazel\n M fence/fence_set.cc\n M fence/fence_set.h\n M fence/fence_set_test.cc\n M tools/BUILD.bazel\n?? fence/index/\n")
s.user("clang-tidy next. bazel build --config=tidy //fence/... has to be clean, ci runs it with warnings as errors")
bz("cat tools/lint/clang_tidy.bzl | head -30", "\"\"\"clang-tidy as an aspect: bazel build --config=tidy //... (reports in bazel-bin/**/*.clang-tidy.yaml).\"\"\"\n\ndef _clang_tidy_impl(target, ctx):\n    if not CcInfo in target or not hasattr(ctx.rule.attr, \"srcs\"):\n        return []\n    ...\n    args.add(\"--config-file=\" + ctx.file._config.path)\n    args.add(\"--export-fixes\", out.path)\n    ...\n\nclang_tidy_aspect = aspect(\n    implementation = _clang_tidy_impl,\n    attrs = {\n        \"_config\": attr.label(default = \"//:.clang-tidy\", allow_single_file = True),\n        \"_tidy\": attr.label(default = \"@@//tools/lint:clang_tidy_bin\"),\n    },\n)\n")
bz("bazel build --config=tidy //fence/...", f"""INFO: Analyzed 9 targets (1 packages loaded, 11 targets configured).
INFO: Found 9 targets...
ERROR: {CWD}/fence/index/BUILD.bazel:3:11: Run clang-tidy on fence/index/rtree.cc failed: (Exit 1): clang_tidy_bin failed: error executing ClangTidy command (from target //fence/index:rtree) tools/lint/clang_tidy_bin --config-file=.clang-tidy --export-fixes bazel-out/k8-fastbuild/bin/fence/index/rtree.cc.clang-tidy.yaml ... (remaining 37 arguments skipped)
4 warnings generated.
fence/index/rtree.cc:34:26: error: narrowing conversion from 'unsigned long' to 'double' [bugprone-narrowing-conversions,-warnings-as-errors]
   34 |   size_t leaves = (n + kNodeCapacity - 1) / kNodeCapacity;
      |                          ^
fence/index/rtree.cc:38:22: error: variable name 's' is too short, expected at least 2 characters [readability-identifier-length,-warnings-as-errors]
   38 |   for (size_t s = 0; s < n; s += per_slice) {{
      |               ^
fence/index/rtree.h:22:8: error: function 'Query' should be marked [[nodiscard]] [modernize-use-nodiscard,-warnings-as-errors]
   22 |   std::vector<int> Query(Point p) const;
      |   ^
      |   [[nodiscard]]
fence/index/rtree.h:10:10: error: invalid case style for member 'min_x' [readability-identifier-naming,-warnings-as-errors]
   10 |   double min_x, min_y, max_x, max_y;
      |          ^
ERROR: {CWD}/fence/BUILD.bazel:19:11: Run clang-tidy on fence/fence_set.cc failed: (Exit 1): clang_tidy_bin failed: error executing ClangTidy command (from target //fence:fence_set) ...
fence/fence_set.cc:29:5: error: 'push_back' is called inside a loop; consider pre-allocating the container capacity before the loop [performance-inefficient-vector-operation,-warnings-as-errors]
   29 |     index_ids_.push_back(id);
      |     ^
INFO: Elapsed time: 12.440s, Critical Path: 6.03s
ERROR: Build did NOT complete successfully
""".replace("{{", "{"), code=1)
s.assistant(
    "5 findings. before fixing: two of them are odd for this repo. `readability-identifier-length` isn't in .clang-tidy's Checks list, and `readability-identifier-naming` flags the public struct members `min_x` (the config only sets PrivateMemberSuffix and ConstexprVariablePrefix). let me check which config the aspect really uses."
)
bz("bazel build --config=tidy //fence/index:rtree --aspects_parameters 2>&1 | head -2; bazel aquery --config=tidy 'mnemonic(ClangTidy, //fence/index:rtree)' 2>/dev/null | grep -o -- '--config-file=[^ ]*'", "ERROR: --aspects_parameters :: Unrecognized option: --aspects_parameters\n--config-file=.clang-tidy\n")
bz("cat .clang-tidy; ls -la ~/.clang-tidy fence/.clang-tidy 2>&1", "Checks: >\n  bugprone-*,\n  modernize-*,\n  performance-*,\n  readability-identifier-naming,\n  -modernize-use-trailing-return-type\nWarningsAsErrors: '*'\nCheckOptions:\n  - key: readability-identifier-naming.PrivateMemberSuffix\n    value: '_'\n  - key: readability-identifier-naming.ConstexprVariablePrefix\n    value: 'k'\nls: cannot access '/home/teo/.clang-tidy': No such file or directory\n-rw-r--r-- 1 teo teo 212 Sep  8 16:02 fence/.clang-tidy\n")
bz("cat fence/.clang-tidy; git status --short fence/.clang-tidy; git log --oneline -1 -- fence/.clang-tidy", "InheritParentConfig: true\nChecks: 'readability-identifier-length'\nCheckOptions:\n  - key: readability-identifier-naming.MemberCase\n    value: CamelCase\n?? fence/.clang-tidy\n")
s.assistant(
    "there's an untracked `fence/.clang-tidy` (created 16:02 today) that adds readability-identifier-length and MemberCase=CamelCase on top of the root config; clang-tidy picks up the nearest config for each file even with --config-file... (apparently the aspect's wrapper lets the per-directory file override). CI checks out git, so CI won't see it. was that your editor again? I'd leave it alone and fix only what the root .clang-tidy flags."
)
bz("stat -c '%y %n' fence/.clang-tidy .clang-tidy", "2026-09-08 16:02:11.418220913 +0200 fence/.clang-tidy\n2026-08-29 10:14:52.000000000 +0200 .clang-tidy\n")
s.user("yes its mine, experimenting. ignore it, move it out of the way while you run tidy and put it back after")
bz("mv fence/.clang-tidy /tmp/fence.clang-tidy.teo && bazel build --config=tidy //fence/... 2>&1 | grep -E 'error:|Build'", """fence/index/rtree.cc:34:26: error: narrowing conversion from 'unsigned long' to 'double' [bugprone-narrowing-conversions,-warnings-as-errors]
fence/index/rtree.h:22:8: error: function 'Query' should be marked [[nodiscard]] [modernize-use-nodiscard,-warnings-as-errors]
fence/index/rtree.h:24:3: error: function 'size' should be marked [[nodiscard]] [modernize-use-nodiscard,-warnings-as-errors]
fence/fence_set.cc:29:5: error: 'push_back' is called inside a loop; consider pre-allocating the container capacity before the loop [performance-inefficient-vector-operation,-warnings-as-errors]
ERROR: Build did NOT complete successfully
""", code=1)
s.edit(RT_H, "  std::vector<int> Query(Point p) const;\n  size_t size() const { return boxes_.size(); }\n", "  [[nodiscard]] std::vector<int> Query(Point p) const;\n  [[nodiscard]] size_t size() const { return boxes_.size(); }\n")
s.edit(RT_CC, "  size_t slices = static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(leaves))));\n", "  auto slices = static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(leaves))));\n")
bz("sed -n '32,36p' fence/index/rtree.cc", "  size_t n = boxes_.size();\n  size_t leaves = (n + kNodeCapacity - 1) / kNodeCapacity;\n  auto slices = static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(leaves))));\n  size_t per_slice = slices * kNodeCapacity;\n  std::sort(order_.begin(), order_.end(), [&](int a, int b) { return CenterX(boxes_[a]) < CenterX(boxes_[b]); });\n")
s.assistant("the narrowing report points at line 34 column 26, which after my edit is the `static_cast<double>(leaves)`... that's an explicit cast, tidy doesn't flag those. the original line 34 was `size_t leaves = (n + kNodeCapacity - 1) / kNodeCapacity;`: `kNodeCapacity` is `int`, mixed with size_t. making the constant size_t-typed where it's used.")
s.edit(RT_CC, "  size_t leaves = (n + kNodeCapacity - 1) / kNodeCapacity;\n  auto slices = static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(leaves))));\n  size_t per_slice = slices * kNodeCapacity;\n", "  const auto cap = static_cast<size_t>(kNodeCapacity);\n  size_t leaves = (n + cap - 1) / cap;\n  auto slices = static_cast<size_t>(std::ceil(std::sqrt(static_cast<double>(leaves))));\n  size_t per_slice = slices * cap;\n")
s.edit(FS_CC, "  index_ids_.clear();\n  boxes.reserve(polygons_.size());\n", "  index_ids_.clear();\n  boxes.reserve(polygons_.size());\n  index_ids_.reserve(polygons_.size());\n")
bz("bazel build --config=tidy //fence/... 2>&1 | grep -E 'error:|Build'", "fence/index/rtree.cc:46:67: error: narrowing conversion from 'size_t' (aka 'unsigned long') to signed type 'int' is implementation-defined [bugprone-narrowing-conversions,-warnings-as-errors]\nERROR: Build did NOT complete successfully\n", code=1)
bz("sed -n '44,48p' fence/index/rtree.cc", "  for (size_t i = 0; i < n; i += cap) {\n    int count = static_cast<int>(std::min<size_t>(cap, n - i));\n    Box b = boxes_[order_[i]];\n    for (int k = 1; k < count; ++k) b = Union(b, boxes_[order_[i + k]]);\n    nodes_.push_back(Node{b, static_cast<int>(i), count, true});\n")
s.edit(RT_CC, "    Box b = boxes_[order_[i]];\n    for (int k = 1; k < count; ++k) b = Union(b, boxes_[order_[i + k]]);\n", "    Box b = boxes_[order_[i]];\n    for (int k = 1; k < count; ++k) b = Union(b, boxes_[order_[i + static_cast<size_t>(k)]]);\n")
bz("bazel build --config=tidy //fence/... 2>&1 | grep -E 'error:|Build'", "INFO: Build completed successfully, 14 total actions\n")
bz("find bazel-bin/fence -name '*.clang-tidy.yaml' | head -4", "bazel-bin/fence/fence_set.cc.clang-tidy.yaml\nbazel-bin/fence/index/rtree.cc.clang-tidy.yaml\nbazel-bin/fence/index/rtree_test.cc.clang-tidy.yaml\nbazel-bin/fence/polygon.cc.clang-tidy.yaml\n")
bz("mv /tmp/fence.clang-tidy.teo fence/.clang-tidy && git status --short fence/.clang-tidy", "?? fence/.clang-tidy\n")
bz("bazel test //fence/... && bazel test --config=asan //fence/...", test_summary([("//fence:fence_set_test", "PASSED", "2.2s"), ("//fence:polygon_test", "(cached) PASSED", "0.1s"), ("//fence/index:rtree_test", "PASSED", "0.1s")], 9, "10.270s") + test_summary([("//fence:fence_set_test", "PASSED", "6.0s"), ("//fence:polygon_test", "(cached) PASSED", "0.3s"), ("//fence/index:rtree_test", "PASSED", "0.5s")], 9, "15.801s"))
s.assistant("tidy clean for //fence/... with the repo's .clang-tidy (nodiscard on Query/size, size_t-typed capacity, one cast for the leaf index, reserve for index_ids_). your fence/.clang-tidy is back in place, untracked as before. tests pass plain and with asan.")

# ============================================================================================ turn 13
s.user("fencecheck: add --no-index flag so ops can compare. actually no. keep fencecheck as is\nwhat does ci run exactly? make sure all of it passes before i commit")
bz("ls .github/workflows", "ci.yml\nrelease.yml\n")
bz("cat .github/workflows/ci.yml | sed -n '/steps:/,$p'", "    steps:\n      - uses: actions/checkout@v4\n      - uses: bazel-contrib/setup-bazel@0.9.0\n        with:\n          bazelisk-cache: true\n      - run: bazel build --config=ci //...\n      - run: bazel test --config=ci //...\n      - run: bazel test --config=ci --config=asan //...\n      - run: bazel build --config=ci --config=tidy //...\n      - run: bazel build --config=ci --config=gcc9 //...\n")
s.assistant("ci runs build, test, asan test, tidy and gcc9, all on `//...` with `--config=ci`. `--config=ci` turns on `--remote_upload_local_results=true`, which would upload my local results to the shared cache; locally the default is download-only. I'll run the same five steps without `--config=ci`.")
bz("bazel build //... && bazel test //...", ok_build(14, "9.421s", 8).replace("8 internal", "3 internal, 5 linux-sandbox") + test_summary([("//fence:fence_set_test", "(cached) PASSED", "2.2s"), ("//fence:polygon_test", "(cached) PASSED", "0.1s"), ("//fence/index:rtree_test", "(cached) PASSED", "0.1s")], 14, "1.204s"))
bz("bazel test --config=asan //...", test_summary([("//fence:fence_set_test", "(cached) PASSED", "6.0s"), ("//fence:polygon_test", "(cached) PASSED", "0.3s"), ("//fence/index:rtree_test", "(cached) PASSED", "0.5s")], 14, "33.617s"))
bz("bazel build --config=tidy //...", f"""INFO: Analyzed 14 targets (0 packages loaded, 6 targets configured).
INFO: Found 14 targets...
ERROR: {CWD}/tools/BUILD.bazel:12:10: Run clang-tidy on tools/fencecheck.cc failed: (Exit 1): clang_tidy_bin failed: error executing ClangTidy command (from target //tools:fencecheck) tools/lint/clang_tidy_bin --config-file=.clang-tidy ... (remaining 35 arguments skipped)
tools/fencecheck.cc:42:10: error: 'auto ids' can be declared as 'const auto ids' [readability-qualified-auto,-warnings-as-errors]
   42 |     auto ids = fences.Contains(p);
      |     ^
      |     const 
ERROR: {CWD}/tools/BUILD.bazel:3:11: Run clang-tidy on tools/geojson_lite.cc failed: (Exit 1): clang_tidy_bin failed: error executing ClangTidy command (from target //tools:geojson_lite) ...
tools/geojson_lite.cc:88:17: error: use emplace_back instead of push_back [modernize-use-emplace,-warnings-as-errors]
   88 |     out.push_back(LoadedFence{{id, Polygon(std::move(ring))}});
      |         ^~~~~~~~~~
INFO: Elapsed time: 8.930s, Critical Path: 4.41s
ERROR: Build did NOT complete successfully
""".replace("{{", "{").replace("}}", "}"), code=1)
bz("git stash -q && bazel build --config=tidy //tools/... 2>&1 | grep -E 'error:|Analysis|Build'; git stash pop -q", "ERROR: Analysis of target '//tools:fencecheck' failed; build aborted\nERROR: Build did NOT complete successfully\n")
s.assistant(
    "tidy fails on //tools, in code I haven't touched (fencecheck.cc:42 readability-qualified-auto, geojson_lite.cc:88 modernize-use-emplace). on HEAD without my changes //tools doesn't even get analysed (the polygon visibility break from b41e0d7), so ci has been red on tidy for //tools since friday and nobody saw these. "
    "they're one-line fixes. you said keep fencecheck as is; does that cover lint fixes in it?"
)
s.user("lint fixes are fine, no behaviour change")
s.files["tools/fencecheck.cc"] = "    auto ids = fences.Contains(p);\n"
s.edit("tools/fencecheck.cc", "    auto ids = fences.Contains(p);\n", "    const auto ids = fences.Contains(p);\n")
s.files["tools/geojson_lite.cc"] = "    out.push_back(LoadedFence{id, Polygon(std::move(ring))});\n"
s.edit("tools/geojson_lite.cc", "    out.push_back(LoadedFence{id, Polygon(std::move(ring))});\n", "    out.emplace_back(LoadedFence{id, Polygon(std::move(ring))});\n")
bz("mv fence/.clang-tidy /tmp/fence.clang-tidy.teo && bazel build --config=tidy //... 2>&1 | tail -1; mv /tmp/fence.clang-tidy.teo fence/.clang-tidy", "INFO: Build completed successfully, 22 total actions\n")
bz("bazel build --config=gcc9 //...", ok_build(14, "24.118s", 19).replace("19 internal", "6 internal, 13 linux-sandbox").replace("INFO: Analyzed", "INFO: Build option --action_env has changed, discarding analysis cache (this can be expensive, see https://bazel.build/advanced/performance/iteration-speed).\nINFO: Analyzed"))
bz("bazel run -c opt //tools:fencecheck -- fence/testdata/berlin_zones.geojson fence/testdata/square.geojson 2>&1 | tail -3", "loaded 1287 fences\nchecked 5 points\n13.4050,52.5200 -> [1 17 204]\n")
bz("git status --short", " M .bazelrc\n M fence/BUILD.bazel\n M fence/fence_set.cc\n M fence/fence_set.h\n M fence/fence_set_test.cc\n M tools/BUILD.bazel\n M tools/fencecheck.cc\n M tools/geojson_lite.cc\n?? fence/.clang-tidy\n?? fence/index/\n")
bz("git diff --stat MODULE.bazel MODULE.bazel.lock", "")
bz("git diff .bazelrc", "")
bz("git diff --stat .bazelrc; git diff .bazelrc | cat -A | head", "")
s.assistant(
    "all five ci steps pass locally (without --config=ci, so nothing uploaded): build, test, asan, tidy (with your fence/.clang-tidy moved aside and back), gcc9. fencecheck still runs the same (1287 berlin fences; output unchanged).\n\n"
    "git status lists `.bazelrc` as modified but `git diff` shows nothing; probably a mode or line-ending change. I haven't edited .bazelrc in this session."
)
bz("git diff --summary .bazelrc; git ls-files -s .bazelrc; stat -c '%a %n' .bazelrc", " mode change 100644 => 100755 .bazelrc\n100644 8f3a2c1d9e0b7a6f5e4d3c2b1a0f9e8d7c6b5a49 0\t.bazelrc\n755 .bazelrc\n")
s.assistant("it's a mode change: `.bazelrc` became executable (644 → 755), not by me as far as I can tell (I never ran chmod). I'd restore 644 and leave it out of the commit.")
bz("git log -1 --format='%h %an %ar' -- .bazelrc", "0c6e9b8 Teo Marinescu 3 weeks ago\n")
s.user("chmod it back. commit everything except fence/.clang-tidy. message: fence/index: static STR rtree for FenceSet::Contains")
bz("chmod 644 .bazelrc && git status --short .bazelrc; git add fence/BUILD.bazel fence/fence_set.cc fence/fence_set.h fence/fence_set_test.cc fence/index tools/BUILD.bazel tools/fencecheck.cc tools/geojson_lite.cc && git commit -qm 'fence/index: static STR rtree for FenceSet::Contains' && git log --oneline -2 && git status --short", "2c7e9f4 fence/index: static STR rtree for FenceSet::Contains\nb41e0d7 fence_set: AlreadyExists on duplicate id\n?? fence/.clang-tidy\n")
s.assistant(
    "committed **2c7e9f4** on main (not pushed). fence/.clang-tidy stays untracked; .bazelrc back to 644.\n\n"
    "what's in it: //fence/index:rtree (STR bulk load, capacity 16, closed boxes), FenceSet builds it once under absl::call_once on the first Contains(), public API unchanged; polygon visible to //fence subpackages and //tools (fixes the //tools break from b41e0d7); berlin data test un-disabled via runfiles; rtree_bench; gcc9/asan/tidy fixes."
)

# ============================================================================================ turn 14
bz("git log --oneline -1 && git status --short | wc -l", "2c7e9f4 fence/index: static STR rtree for FenceSet::Contains\n1\n")
s.user("ingest team asks if 400k fences is ok memory-wise. dont change anything, just tell me, i'll reply tomorrow")
bz("bazel run -c opt //fence/index:rtree_bench -- --benchmark_filter='BM_Contains/400000' --benchmark_counters_tabular=true 2>&1 | tail -2; /usr/bin/time -v bazel-bin/fence/index/rtree_bench --benchmark_filter='BM_Contains/400000' 2>&1 | grep 'Maximum resident'", "BM_Contains/400000       1104 ns         1103 ns       634518\n\tMaximum resident set size (kbytes): 287412\n")
bz("/usr/bin/time -v bazel-bin/fence/index/rtree_bench --benchmark_filter='BM_Contains/40000$' 2>&1 | grep 'Maximum resident'", "\tMaximum resident set size (kbytes): 31204\n")
bz("/usr/bin/time -v bazel-bin/fence/index/rtree_bench --benchmark_filter='BM_ContainsLinear/40000' 2>&1 | grep 'Maximum resident'", "\tMaximum resident set size (kbytes): 29576\n")
s.assistant(
    "rough numbers from the bench (quadrilaterals, so real polygons with more vertices will be bigger):\n"
    "- 40k fences: ~30 MB peak RSS for the whole bench process; 400k: ~281 MB.\n"
    "- the index itself is small: per fence one Box (32 B) + one int in order_ + ~1/15 of a Node (48 B) ≈ 40 B, i.e. ~16 MB at 400k. most of the memory is the polygons and the hash map.\n"
    "- query at 400k: 1.10 µs; building the index at 400k should be ~10x the 8.7 ms, i.e. ~90-100 ms per config push (not measured).\n"
    "nothing changed. open for you: the reply to the ingest team, and pushing 2c7e9f4."
)

s.save(HERE / "session.jsonl")
