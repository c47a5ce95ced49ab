# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout5b split.

A Korean-flavoured English user (constraints asked as questions) has Codex fix a leak reported by
the testing allocator in a Zig 0.13 statsd aggregator, remove the per-line allocation in the hot
loop, canonicalise tag order, fix a ReleaseSafe integer-overflow panic on empty timers, and add
zig fmt to CI. zig build / zig build test / zig build bench, compile errors with notes.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/jiwoo/src/pulsegate"
r = Rollout(CWD, "2026-04-14T01:12:05", seed="pulsegate-zig", repo_url="git@github.com:jiwoo-han/pulsegate.git")
PARSER = "src/parser.zig"
AGG = "src/aggregate.zig"
HIST = "src/histogram.zig"
MAIN = "src/main.zig"
BUILD = "build.zig"
ZON = "build.zig.zon"
CI = ".github/workflows/ci.yml"

r.files.update({
    PARSER: """const std = @import("std");

pub const Kind = enum { counter, gauge, timer, set };

pub const Tag = struct {
    key: []const u8,
    value: []const u8,
};

pub const Line = struct {
    name: []const u8,
    value: f64,
    kind: Kind,
    sample_rate: f64 = 1.0,
    tags: []Tag = &.{},

    pub fn deinit(self: Line, allocator: std.mem.Allocator) void {
        allocator.free(self.tags);
    }
};

pub const ParseError = error{ MissingValue, BadKind, BadNumber, InvalidTag, OutOfMemory };

fn parseKind(s: []const u8) ?Kind {
    if (std.mem.eql(u8, s, "c")) return .counter;
    if (std.mem.eql(u8, s, "g")) return .gauge;
    if (std.mem.eql(u8, s, "ms")) return .timer;
    if (std.mem.eql(u8, s, "s")) return .set;
    return null;
}

/// name:value|kind[|@rate][|#k:v,k2:v2]
pub fn parseLine(allocator: std.mem.Allocator, raw: []const u8) ParseError!Line {
    var parts = std.mem.splitScalar(u8, raw, '|');
    const head = parts.first();
    const colon = std.mem.indexOfScalar(u8, head, ':') orelse return error.MissingValue;
    var line = Line{
        .name = head[0..colon],
        .value = std.fmt.parseFloat(f64, head[colon + 1 ..]) catch return error.BadNumber,
        .kind = undefined,
    };
    const kind = parts.next() orelse return error.BadKind;
    line.kind = parseKind(kind) orelse return error.BadKind;
    while (parts.next()) |section| {
        if (section.len == 0) continue;
        switch (section[0]) {
            '@' => line.sample_rate = std.fmt.parseFloat(f64, section[1..]) catch return error.BadNumber,
            '#' => line.tags = try parseTags(allocator, section[1..]),
            else => {},
        }
    }
    return line;
}

fn parseTags(allocator: std.mem.Allocator, s: []const u8) ParseError![]Tag {
    const n = std.mem.count(u8, s, ",") + 1;
    const tags = try allocator.alloc(Tag, n);
    var it = std.mem.splitScalar(u8, s, ',');
    var i: usize = 0;
    while (it.next()) |pair| : (i += 1) {
        const c = std.mem.indexOfScalar(u8, pair, ':') orelse return error.InvalidTag;
        tags[i] = .{ .key = pair[0..c], .value = pair[c + 1 ..] };
    }
    return tags;
}

test "counter with rate" {
    const l = try parseLine(std.testing.allocator, "api.req:3|c|@0.5");
    defer l.deinit(std.testing.allocator);
    try std.testing.expectEqual(Kind.counter, l.kind);
    try std.testing.expectEqual(@as(f64, 0.5), l.sample_rate);
}

test "tags" {
    const l = try parseLine(std.testing.allocator, "api.req:1|c|#env:prod,host:a");
    defer l.deinit(std.testing.allocator);
    try std.testing.expectEqual(@as(usize, 2), l.tags.len);
    try std.testing.expectEqualStrings("host", l.tags[1].key);
}

test "bad tag is rejected" {
    try std.testing.expectError(error.InvalidTag, parseLine(std.testing.allocator, "api.req:1|c|#env:prod,broken"));
}
""",
    AGG: """const std = @import("std");
const parser = @import("parser.zig");
const Histogram = @import("histogram.zig").Histogram;

pub const Aggregator = struct {
    allocator: std.mem.Allocator,
    counters: std.StringHashMap(f64),
    gauges: std.StringHashMap(f64),
    timers: std.StringHashMap(Histogram),
    lines_seen: u64 = 0,

    pub fn init(allocator: std.mem.Allocator) Aggregator {
        return .{
            .allocator = allocator,
            .counters = std.StringHashMap(f64).init(allocator),
            .gauges = std.StringHashMap(f64).init(allocator),
            .timers = std.StringHashMap(Histogram).init(allocator),
        };
    }

    pub fn deinit(self: *Aggregator) void {
        freeKeys(self.allocator, f64, &self.counters);
        freeKeys(self.allocator, f64, &self.gauges);
        var it = self.timers.iterator();
        while (it.next()) |e| {
            self.allocator.free(e.key_ptr.*);
            e.value_ptr.deinit();
        }
        self.counters.deinit();
        self.gauges.deinit();
        self.timers.deinit();
    }

    pub fn add(self: *Aggregator, line: parser.Line) !void {
        self.lines_seen += 1;
        const key = try seriesKey(self.allocator, line);
        switch (line.kind) {
            .counter => {
                const gop = try self.counters.getOrPut(key);
                if (gop.found_existing) self.allocator.free(key) else gop.value_ptr.* = 0;
                gop.value_ptr.* += line.value / line.sample_rate;
            },
            .gauge => {
                const gop = try self.gauges.getOrPut(key);
                if (gop.found_existing) self.allocator.free(key);
                gop.value_ptr.* = line.value;
            },
            .timer => {
                const gop = try self.timers.getOrPut(key);
                if (gop.found_existing) self.allocator.free(key) else gop.value_ptr.* = Histogram.init(self.allocator);
                if (!std.math.isNan(line.value)) try gop.value_ptr.add(line.value);
            },
            .set => self.allocator.free(key), // sets are not aggregated yet
        }
    }

    pub fn flush(self: *Aggregator, out: anytype) !void {
        var cit = self.counters.iterator();
        while (cit.next()) |e| try out.print("{s} {d}\\n", .{ e.key_ptr.*, e.value_ptr.* });
        var git = self.gauges.iterator();
        while (git.next()) |e| try out.print("{s} {d}\\n", .{ e.key_ptr.*, e.value_ptr.* });
        var tit = self.timers.iterator();
        while (tit.next()) |e| {
            const h = e.value_ptr;
            try out.print("{s}.p50 {d:.3}\\n{s}.p90 {d:.3}\\n{s}.p99 {d:.3}\\n", .{
                e.key_ptr.*, h.percentile(0.50), e.key_ptr.*, h.percentile(0.90), e.key_ptr.*, h.percentile(0.99),
            });
        }
        self.counters.clearRetainingCapacity();
        self.gauges.clearRetainingCapacity();
        self.timers.clearRetainingCapacity();
    }
};

fn freeKeys(allocator: std.mem.Allocator, comptime V: type, map: *std.StringHashMap(V)) void {
    var it = map.keyIterator();
    while (it.next()) |k| allocator.free(k.*);
}

/// "name;k=v;k2=v2" in the order the tags came
fn seriesKey(allocator: std.mem.Allocator, line: parser.Line) ![]u8 {
    var list = std.ArrayList(u8).init(allocator);
    errdefer list.deinit();
    try list.appendSlice(line.name);
    for (line.tags) |t| {
        try list.append(';');
        try list.appendSlice(t.key);
        try list.append('=');
        try list.appendSlice(t.value);
    }
    return list.toOwnedSlice();
}

test "counter sums with sample rate" {
    var agg = Aggregator.init(std.testing.allocator);
    defer agg.deinit();
    const l = try parser.parseLine(std.testing.allocator, "api.req:1|c|@0.1");
    defer l.deinit(std.testing.allocator);
    try agg.add(l);
    try agg.add(l);
    try std.testing.expectEqual(@as(f64, 20), agg.counters.get("api.req").?);
}
""",
    HIST: """const std = @import("std");

/// Keeps every sample of a flush window; percentiles by nearest rank (as pulsegate-go).
pub const Histogram = struct {
    values: std.ArrayList(f64),
    sorted: bool = false,

    pub fn init(allocator: std.mem.Allocator) Histogram {
        return .{ .values = std.ArrayList(f64).init(allocator) };
    }

    pub fn deinit(self: *Histogram) void {
        self.values.deinit();
    }

    pub fn add(self: *Histogram, v: f64) !void {
        try self.values.append(v);
        self.sorted = false;
    }

    pub fn percentile(self: *Histogram, p: f64) f64 {
        if (!self.sorted) {
            std.mem.sort(f64, self.values.items, {}, std.sort.asc(f64));
            self.sorted = true;
        }
        const n: f64 = @floatFromInt(self.values.items.len);
        const rank: usize = @as(usize, @intFromFloat(@ceil(p * n))) - 1;
        return self.values.items[rank];
    }
};

test "nearest rank" {
    var h = Histogram.init(std.testing.allocator);
    defer h.deinit();
    for ([_]f64{ 15, 20, 35, 40, 50 }) |v| try h.add(v);
    try std.testing.expectEqual(@as(f64, 20), h.percentile(0.30));
    try std.testing.expectEqual(@as(f64, 50), h.percentile(0.99));
}
""",
    BUILD: """const std = @import("std");

pub fn build(b: *std.Build) void {
    const target = b.standardTargetOptions(.{});
    const optimize = b.standardOptimizeOption(.{});

    const exe = b.addExecutable(.{
        .name = "pulsegate",
        .root_source_file = b.path("src/main.zig"),
        .target = target,
        .optimize = optimize,
    });
    b.installArtifact(exe);

    const run = b.addRunArtifact(exe);
    if (b.args) |args| run.addArgs(args);
    b.step("run", "Run pulsegate").dependOn(&run.step);

    const tests = b.addTest(.{
        .root_source_file = b.path("src/main.zig"),
        .target = target,
        .optimize = optimize,
    });
    b.step("test", "Run unit tests").dependOn(&b.addRunArtifact(tests).step);

    const bench = b.addExecutable(.{
        .name = "bench",
        .root_source_file = b.path("bench/bench.zig"),
        .target = target,
        .optimize = optimize,
    });
    bench.root_module.addAnonymousImport("pulsegate", .{ .root_source_file = b.path("src/lib.zig") });
    const run_bench = b.addRunArtifact(bench);
    if (b.args) |args| run_bench.addArgs(args);
    b.step("bench", "Run the 1M-line benchmark").dependOn(&run_bench.step);
}
""",
    ZON: """.{
    .name = "pulsegate",
    .version = "0.4.2",
    .minimum_zig_version = "0.13.0",
    .dependencies = .{},
    .paths = .{ "build.zig", "build.zig.zon", "src", "bench" },
}
""",
    CI: """name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-22.04
    steps:
      - uses: actions/checkout@v4
      - uses: mlugg/setup-zig@v1
        with:
          version: 0.13.0
      - run: zig build test
      - run: zig build test -Doptimize=ReleaseSafe
""",
})


def ztest(out: str, code: int = 0, cmd: str = "zig build test --summary all", reasoning: str | None = None, secs: float = 6.1) -> None:
    r.run(cmd, out, code=code, secs=secs, reasoning=reasoning)


LEAK1 = """error: 'parser.test.bad tag is rejected' leaked: [gpa] (err): memory address 0x7f3e9c6a1000 leaked:
/home/jiwoo/src/pulsegate/src/parser.zig:53:40: 0x104d1b7 in parseTags (test)
    const tags = try allocator.alloc(Tag, n);
                                       ^
/home/jiwoo/src/pulsegate/src/parser.zig:46:43: 0x104d6a2 in parseLine (test)
            '#' => line.tags = try parseTags(allocator, section[1..]),
                                          ^
/home/jiwoo/src/pulsegate/src/parser.zig:78:64: 0x104e0c1 in test.bad tag is rejected (test)
    try std.testing.expectError(error.InvalidTag, parseLine(std.testing.allocator, "api.req:1|c|#env:prod,broken"));
                                                               ^
/usr/lib/zig/0.13.0/lib/compiler/test_runner.zig:157:25: 0x105a3f8 in mainTerminal (test)
        if (test_fn.func()) |_| {
                        ^

Build Summary: 2/4 steps succeeded; 1 failed; 5/6 tests passed; 1 leaked
test transitive failure
└─ run test 5/6 passed, 1 leaked
error: the following build command failed with exit code 1:
/home/jiwoo/src/pulsegate/.zig-cache/o/4b1f0a9d2e6c81f3a7d05c2e9b14f6aa/build /usr/lib/zig/0.13.0/zig /home/jiwoo/src/pulsegate /home/jiwoo/src/pulsegate/.zig-cache /home/jiwoo/.cache/zig --seed 0x8c41d2e7 -Z6b0e2f3a9c1d4e85 test --summary all
"""

# ============================================================================================ turn 1
r.user(
    "Hello. This is pulsegate, our statsd line aggregator, we are porting from the Go version (pulsegate-go) to Zig. "
    "`zig build test` is failing on CI with memory leak from testing allocator, only one test. Can you find and fix please? "
    "CI is Zig 0.13.0 and also my laptop, so can we stay with 0.13 API only, no 0.14 things? "
    "And we don't want any dependency in build.zig.zon, it must stay empty, ok?",
    pause=0,
)
r.run("ls -la && git log --oneline -5", "total 40\ndrwxr-xr-x  7 jiwoo jiwoo 4096 Apr 14 10:02 .\ndrwxr-xr-x 12 jiwoo jiwoo 4096 Apr  2 18:40 ..\ndrwxr-xr-x  8 jiwoo jiwoo 4096 Apr 14 10:02 .git\ndrwxr-xr-x  3 jiwoo jiwoo 4096 Mar 28 09:11 .github\n-rw-r--r--  1 jiwoo jiwoo   34 Mar 28 09:11 .gitignore\n-rw-r--r--  1 jiwoo jiwoo  812 Apr  9 21:30 README.md\ndrwxr-xr-x  3 jiwoo jiwoo 4096 Apr 11 16:02 bench\n-rw-r--r--  1 jiwoo jiwoo 1390 Apr 11 16:02 build.zig\n-rw-r--r--  1 jiwoo jiwoo  172 Mar 28 09:11 build.zig.zon\ndrwxr-xr-x  2 jiwoo jiwoo 4096 Apr 11 16:02 captures\ndrwxr-xr-x  2 jiwoo jiwoo 4096 Apr 13 22:17 src\n0e7a1c4 tags in series key\n9b2f6d0 timers: nearest-rank percentiles like pulsegate-go\n51c8e3a bench: 1M line file\n2ad94f7 flush to stdout\nc3d10e8 initial port of parser\n", reasoning="**Getting oriented**\n\nLook at the tree and recent commits first.")
r.run("zig version && ls src bench captures", "0.13.0\nsrc:\naggregate.zig\nhistogram.zig\nlib.zig\nmain.zig\nparser.zig\n\nbench:\nbench.zig\ndata\n\ncaptures:\nprod-2026-04-11.statsd\n")
r.cat(ZON)
r.cat(BUILD)
r.cat(CI)
ztest(LEAK1, code=1)
r.cat(PARSER, reasoning="**Reading the parser**\n\nThe leak is in parseTags, allocation on line 53.")
r.say(
    "Found it. `parseTags` allocates the `tags` slice and then returns `error.InvalidTag` from inside the loop when a pair has no `:`, "
    "so the slice is never freed. The same can happen one level up: if `#tags` comes before a bad `@rate`, `parseLine` returns `BadNumber` after the tags were allocated. "
    "I'll add `errdefer allocator.free(tags)` in `parseTags` and `errdefer line.deinit(allocator)` in `parseLine` (freeing the empty default slice is a no-op)."
)
r.patch([("update", PARSER, [
    ("    const tags = try allocator.alloc(Tag, n);\n", "    const tags = try allocator.alloc(Tag, n);\n    errdefer allocator.free(tags);\n"),
    ("    const kind = parts.next() orelse return error.BadKind;\n", "    errdefer line.deinit(allocator);\n    const kind = parts.next() orelse return error.BadKind;\n"),
    ("test \"bad tag is rejected\" {\n    try std.testing.expectError(error.InvalidTag, parseLine(std.testing.allocator, \"api.req:1|c|#env:prod,broken\"));\n}\n",
     "test \"bad tag is rejected\" {\n    try std.testing.expectError(error.InvalidTag, parseLine(std.testing.allocator, \"api.req:1|c|#env:prod,broken\"));\n}\n\ntest \"bad rate after tags does not leak\" {\n    try std.testing.expectError(error.BadNumber, parseLine(std.testing.allocator, \"api.req:1|c|#env:prod|@x\"));\n}\n"),
])])
ztest("""Build Summary: 3/3 steps succeeded; 7/7 tests passed
test success
└─ run test 7/7 passed 4ms MaxRSS:2M
   └─ zig test Debug native success 5s MaxRSS:212M
""")
ztest("""Build Summary: 3/3 steps succeeded; 7/7 tests passed
test success
└─ run test 7/7 passed 2ms MaxRSS:2M
   └─ zig test ReleaseSafe native success 14s MaxRSS:301M
""", cmd="zig build test -Doptimize=ReleaseSafe --summary all", secs=14.8)
r.run("git diff --stat", " src/parser.zig | 6 ++++++\n 1 file changed, 6 insertions(+)\n")
r.say(
    "Fixed. Two `errdefer`s in src/parser.zig: `errdefer allocator.free(tags)` in parseTags and `errdefer line.deinit(allocator)` in parseLine, plus a test for the second path "
    "(`api.req:1|c|#env:prod|@x`). `zig build test`: 7/7 in Debug and ReleaseSafe (the two CI jobs). build.zig.zon untouched, no dependency."
)

# ============================================================================================ turn 2
r.user(
    "Thanks! Next thing, performance. In aggregate.zig `add()` calls seriesKey, it allocates new string for every line, and then free it again when the key is existing. "
    "This is the hot loop, 200k lines per second on prod box. Can we avoid allocating in the hot loop? Only allocate when the series is new, I think. "
    "Metric names plus tags are never longer than 200 bytes in our system (we limit it at the client library)."
)
r.cat(AGG)
r.cat(HIST)
r.run("cat bench/bench.zig | head -40", "const std = @import(\"std\");\nconst pg = @import(\"pulsegate\");\n\n/// zig build bench -Doptimize=ReleaseFast -- <file>\npub fn main() !void {\n    var gpa = std.heap.GeneralPurposeAllocator(.{}){};\n    defer _ = gpa.deinit();\n    var counting = CountingAllocator{ .child = gpa.allocator() };\n    const allocator = counting.allocator();\n    const args = try std.process.argsAlloc(allocator);\n    defer std.process.argsFree(allocator, args);\n    const file = try std.fs.cwd().openFile(args[1], .{});\n    defer file.close();\n    var br = std.io.bufferedReader(file.reader());\n    var agg = pg.Aggregator.init(allocator);\n    defer agg.deinit();\n    var buf: [512]u8 = undefined;\n    var timer = try std.time.Timer.start();\n    var n: usize = 0;\n    while (try br.reader().readUntilDelimiterOrEof(&buf, '\\n')) |raw| : (n += 1) {\n        const line = pg.parseLine(allocator, raw) catch continue;\n        defer line.deinit(allocator);\n        try agg.add(line);\n    }\n    const ns = timer.read();\n    std.debug.print(\"lines: {d}  time: {d:.1} ms  allocs: {d}  peak: {d:.1} MiB\\n\", .{\n        n, @as(f64, @floatFromInt(ns)) / 1e6, counting.allocs, @as(f64, @floatFromInt(counting.peak)) / (1024 * 1024),\n    });\n}\n")
r.run("ls -la bench/data && head -3 bench/data/1m.statsd", "total 52144\ndrwxr-xr-x 2 jiwoo jiwoo     4096 Apr 11 16:02 .\ndrwxr-xr-x 3 jiwoo jiwoo     4096 Apr 11 16:02 ..\n-rw-r--r-- 1 jiwoo jiwoo 53382917 Apr 11 16:02 1m.statsd\napi.req:1|c|#env:prod,route:/v1/items,host:web-07\ndb.query:12.4|ms|#env:prod,table:orders\ncache.hit:1|c|@0.1|#env:prod,host:web-02\n")
r.run("zig build bench -Doptimize=ReleaseFast -- bench/data/1m.statsd", "lines: 1000000  time: 412.6 ms  allocs: 1836211  peak: 41.3 MiB\n", secs=31.2, reasoning="**Baseline**\n\nMeasure before changing anything.")
r.say(
    "Baseline with ReleaseFast on bench/data/1m.statsd: **412.6 ms, 1,836,211 allocations** (about one key per line plus the tags slice from the parser), peak 41.3 MiB. "
    "Plan: build the series key into a 256-byte stack buffer (your limit is 200, so there is room), look it up with `getOrPut`, and only `dupe` it into the map when the series is new. "
    "What should happen if a key does not fit in 256 bytes anyway (client bug)? For now I return `error.KeyTooLong`."
)
r.patch([("update", AGG, [
    ("""    pub fn add(self: *Aggregator, line: parser.Line) !void {
        self.lines_seen += 1;
        const key = try seriesKey(self.allocator, line);
        switch (line.kind) {
            .counter => {
                const gop = try self.counters.getOrPut(key);
                if (gop.found_existing) self.allocator.free(key) else gop.value_ptr.* = 0;
                gop.value_ptr.* += line.value / line.sample_rate;
            },
            .gauge => {
                const gop = try self.gauges.getOrPut(key);
                if (gop.found_existing) self.allocator.free(key);
                gop.value_ptr.* = line.value;
            },
            .timer => {
                const gop = try self.timers.getOrPut(key);
                if (gop.found_existing) self.allocator.free(key) else gop.value_ptr.* = Histogram.init(self.allocator);
                if (!std.math.isNan(line.value)) try gop.value_ptr.add(line.value);
            },
            .set => self.allocator.free(key), // sets are not aggregated yet
        }
    }
""", """    pub fn add(self: *Aggregator, line: parser.Line) !void {
        self.lines_seen += 1;
        var buf: [max_key_len]u8 = undefined;
        var key = try seriesKeyInto(&buf, line);
        switch (line.kind) {
            .counter => {
                const gop = try self.counters.getOrPut(key);
                if (!gop.found_existing) {
                    gop.key_ptr.* = try self.allocator.dupe(u8, key);
                    gop.value_ptr.* = 0;
                }
                gop.value_ptr.* += line.value / line.sample_rate;
            },
            .gauge => {
                const gop = try self.gauges.getOrPut(key);
                if (!gop.found_existing) gop.key_ptr.* = try self.allocator.dupe(u8, key);
                gop.value_ptr.* = line.value;
            },
            .timer => {
                const gop = try self.timers.getOrPut(key);
                if (!gop.found_existing) {
                    gop.key_ptr.* = try self.allocator.dupe(u8, key);
                    gop.value_ptr.* = Histogram.init(self.allocator);
                }
                if (!std.math.isNan(line.value)) try gop.value_ptr.add(line.value);
            },
            .set => {}, // sets are not aggregated yet
        }
    }
"""),
    ("""/// "name;k=v;k2=v2" in the order the tags came
fn seriesKey(allocator: std.mem.Allocator, line: parser.Line) ![]u8 {
    var list = std.ArrayList(u8).init(allocator);
    errdefer list.deinit();
    try list.appendSlice(line.name);
    for (line.tags) |t| {
        try list.append(';');
        try list.appendSlice(t.key);
        try list.append('=');
        try list.appendSlice(t.value);
    }
    return list.toOwnedSlice();
}
""", """pub const max_key_len = 256;

/// "name;k=v;k2=v2" in the order the tags came, written into buf (no allocation)
fn seriesKeyInto(buf: *[max_key_len]u8, line: parser.Line) ![]const u8 {
    var fbs = std.io.fixedBufferStream(buf);
    var w = fbs.writer();
    w.writeAll(line.name) catch return error.KeyTooLong;
    for (line.tags) |t| {
        w.print(";{s}={s}", .{ t.key, t.value }) catch return error.KeyTooLong;
    }
    return fbs.getWritten();
}
"""),
])], reasoning="**Stack key**\n\nfixedBufferStream over a 256-byte array; dupe only on insert.")
ztest("""test
└─ run test
   └─ zig test Debug native 2 errors
src/aggregate.zig:37:13: error: local variable is never mutated
        var key = try seriesKeyInto(&buf, line);
            ^~~
src/aggregate.zig:37:13: note: consider using 'const'
src/aggregate.zig:90:9: error: local variable is never mutated
    var w = fbs.writer();
        ^
src/aggregate.zig:90:9: note: consider using 'const'
error: the following command failed with 2 compilation errors:
/usr/lib/zig/0.13.0/zig test /home/jiwoo/src/pulsegate/src/main.zig --cache-dir /home/jiwoo/src/pulsegate/.zig-cache --global-cache-dir /home/jiwoo/.cache/zig --name test --listen=-
Build Summary: 0/3 steps succeeded; 1 failed
test transitive failure
└─ run test transitive failure
   └─ zig test Debug native 2 errors
error: the following build command failed with exit code 1:
/home/jiwoo/src/pulsegate/.zig-cache/o/4b1f0a9d2e6c81f3a7d05c2e9b14f6aa/build /usr/lib/zig/0.13.0/zig /home/jiwoo/src/pulsegate /home/jiwoo/src/pulsegate/.zig-cache /home/jiwoo/.cache/zig --seed 0x1f7a3b90 -Z6b0e2f3a9c1d4e85 test --summary all
""", code=1)
r.patch([("update", AGG, [
    ("        var key = try seriesKeyInto(&buf, line);\n", "        const key = try seriesKeyInto(&buf, line);\n"),
    ("    var w = fbs.writer();\n", "    const w = fbs.writer();\n"),
])])
ztest("""Build Summary: 3/3 steps succeeded; 7/7 tests passed
test success
└─ run test 7/7 passed 3ms MaxRSS:2M
   └─ zig test Debug native success 5s MaxRSS:214M
""")
r.run("zig build bench -Doptimize=ReleaseFast -- bench/data/1m.statsd", "lines: 1000000  time: 236.9 ms  allocs: 839512  peak: 38.8 MiB\n", secs=28.7)
r.run("grep -c '|#' bench/data/1m.statsd", "836298\n")
r.say(
    "Keys no longer allocate: 412.6 ms → 236.9 ms. The remaining 839,512 allocations are the parser's `tags` slice (836,298 lines have tags) plus map/histogram growth. "
    "`parseTags` could also parse into a fixed array; a line with more than 16 tags is very unusual, so a `[16]Tag` buffer in the caller would remove that allocation too. Should I do it?"
)

# ============================================================================================ turn 3
r.user(
    "Yes please, parse tags into fixed array also. Our client lib allows max 10 tags, so 16 is safe. But can we keep parseLine signature for tests? Actually no, change is fine, only bench and main call it."
)
r.run("grep -rn 'parseLine' src bench", "src/parser.zig:36:pub fn parseLine(allocator: std.mem.Allocator, raw: []const u8) ParseError!Line {\nsrc/parser.zig:74:    const l = try parseLine(std.testing.allocator, \"api.req:3|c|@0.5\");\nsrc/parser.zig:80:    const l = try parseLine(std.testing.allocator, \"api.req:1|c|#env:prod,host:a\");\nsrc/parser.zig:87:    try std.testing.expectError(error.InvalidTag, parseLine(std.testing.allocator, \"api.req:1|c|#env:prod,broken\"));\nsrc/parser.zig:91:    try std.testing.expectError(error.BadNumber, parseLine(std.testing.allocator, \"api.req:1|c|#env:prod|@x\"));\nsrc/aggregate.zig:111:    const l = try parser.parseLine(std.testing.allocator, \"api.req:1|c|@0.1\");\nsrc/main.zig:31:        const line = pg.parseLine(allocator, raw) catch |err| {\nbench/bench.zig:21:        const line = pg.parseLine(allocator, raw) catch continue;\n")
r.cat(MAIN) if MAIN in r.files else None
r.files[MAIN] = """const std = @import("std");
const pg = @import("lib.zig");

pub fn main() !void {
    var gpa = std.heap.GeneralPurposeAllocator(.{}){};
    defer _ = gpa.deinit();
    const allocator = gpa.allocator();

    var agg = pg.Aggregator.init(allocator);
    defer agg.deinit();

    const stdin = std.io.getStdIn();
    var br = std.io.bufferedReader(stdin.reader());
    const stdout = std.io.getStdOut().writer();
    var bw = std.io.bufferedWriter(stdout);
    var buf: [512]u8 = undefined;
    var bad: u64 = 0;
    var last_flush = std.time.milliTimestamp();

    while (try br.reader().readUntilDelimiterOrEof(&buf, '\\n')) |raw| {
        const line = pg.parseLine(allocator, raw) catch |err| {
            bad += 1;
            if (bad % 10_000 == 1) std.log.warn("bad line ({s}): {s}", .{ @errorName(err), raw });
            continue;
        };
        defer line.deinit(allocator);
        try agg.add(line);
        if (std.time.milliTimestamp() - last_flush >= 10_000) {
            try agg.flush(bw.writer());
            try bw.flush();
            last_flush = std.time.milliTimestamp();
        }
    }
    try agg.flush(bw.writer());
    try bw.flush();
}

test {
    std.testing.refAllDecls(@This());
    _ = @import("parser.zig");
    _ = @import("aggregate.zig");
    _ = @import("histogram.zig");
}
"""
r.cat(MAIN)
r.patch([("update", PARSER, [
    ("""pub const Line = struct {
    name: []const u8,
    value: f64,
    kind: Kind,
    sample_rate: f64 = 1.0,
    tags: []Tag = &.{},

    pub fn deinit(self: Line, allocator: std.mem.Allocator) void {
        allocator.free(self.tags);
    }
};

pub const ParseError = error{ MissingValue, BadKind, BadNumber, InvalidTag, OutOfMemory };
""", """pub const max_tags = 16;

pub const Line = struct {
    name: []const u8,
    value: f64,
    kind: Kind,
    sample_rate: f64 = 1.0,
    tag_buf: [max_tags]Tag = undefined,
    n_tags: usize = 0,

    pub fn tags(self: *const Line) []const Tag {
        return self.tag_buf[0..self.n_tags];
    }
};

pub const ParseError = error{ MissingValue, BadKind, BadNumber, InvalidTag, TooManyTags };
"""),
    ("pub fn parseLine(allocator: std.mem.Allocator, raw: []const u8) ParseError!Line {\n", "pub fn parseLine(raw: []const u8) ParseError!Line {\n"),
    ("    errdefer line.deinit(allocator);\n", ""),
    ("            '#' => line.tags = try parseTags(allocator, section[1..]),\n", "            '#' => line.n_tags = try parseTags(&line.tag_buf, section[1..]),\n"),
    ("""fn parseTags(allocator: std.mem.Allocator, s: []const u8) ParseError![]Tag {
    const n = std.mem.count(u8, s, ",") + 1;
    const tags = try allocator.alloc(Tag, n);
    errdefer allocator.free(tags);
    var it = std.mem.splitScalar(u8, s, ',');
    var i: usize = 0;
    while (it.next()) |pair| : (i += 1) {
        const c = std.mem.indexOfScalar(u8, pair, ':') orelse return error.InvalidTag;
        tags[i] = .{ .key = pair[0..c], .value = pair[c + 1 ..] };
    }
    return tags;
}
""", """/// fills out, returns how many tags; no allocation
fn parseTags(out: *[max_tags]Tag, s: []const u8) ParseError!usize {
    var it = std.mem.splitScalar(u8, s, ',');
    var i: usize = 0;
    while (it.next()) |pair| : (i += 1) {
        if (i == max_tags) return error.TooManyTags;
        const c = std.mem.indexOfScalar(u8, pair, ':') orelse return error.InvalidTag;
        out[i] = .{ .key = pair[0..c], .value = pair[c + 1 ..] };
    }
    return i;
}
"""),
    ("""    const l = try parseLine(std.testing.allocator, "api.req:3|c|@0.5");
    defer l.deinit(std.testing.allocator);
""", """    const l = try parseLine("api.req:3|c|@0.5");
"""),
    ("""    const l = try parseLine(std.testing.allocator, "api.req:1|c|#env:prod,host:a");
    defer l.deinit(std.testing.allocator);
    try std.testing.expectEqual(@as(usize, 2), l.tags.len);
    try std.testing.expectEqualStrings("host", l.tags[1].key);
""", """    const l = try parseLine("api.req:1|c|#env:prod,host:a");
    try std.testing.expectEqual(@as(usize, 2), l.tags().len);
    try std.testing.expectEqualStrings("host", l.tags()[1].key);
"""),
    ("parseLine(std.testing.allocator, \"api.req:1|c|#env:prod,broken\")", "parseLine(\"api.req:1|c|#env:prod,broken\")"),
    ("parseLine(std.testing.allocator, \"api.req:1|c|#env:prod|@x\")", "parseLine(\"api.req:1|c|#env:prod|@x\")"),
])])
r.patch([
    ("update", AGG, [
        ("    for (line.tags) |t| {\n", "    for (line.tags()) |t| {\n"),
        ("""    const l = try parser.parseLine(std.testing.allocator, "api.req:1|c|@0.1");
    defer l.deinit(std.testing.allocator);
""", """    const l = try parser.parseLine("api.req:1|c|@0.1");
"""),
    ]),
    ("update", MAIN, [
        ("        const line = pg.parseLine(allocator, raw) catch |err| {\n", "        const line = pg.parseLine(raw) catch |err| {\n"),
        ("        defer line.deinit(allocator);\n", ""),
    ]),
])
r.run("sed -i 's/pg.parseLine(allocator, raw) catch continue;/pg.parseLine(raw) catch continue;/; /defer line.deinit(allocator);/d' bench/bench.zig && grep -n parseLine bench/bench.zig", "21:        const line = pg.parseLine(raw) catch continue;\n")
ztest("""test
└─ run test
   └─ zig test Debug native 1 errors
src/aggregate.zig:91:21: error: expected type '[]const u8', found '*const fn (*const parser.Line) []const parser.Tag'
    for (line.tags()) |t| {
         ~~~~^~~~~
src/aggregate.zig:85:44: note: parameter type declared here
fn seriesKeyInto(buf: *[max_key_len]u8, line: parser.Line) ![]const u8 {
                                        ~~~~~^~~~~~~~~~~~
src/parser.zig:18:5: note: 'tags' is a method; did you mean to call it with '&line'?
error: the following command failed with 1 compilation errors:
/usr/lib/zig/0.13.0/zig test /home/jiwoo/src/pulsegate/src/main.zig --cache-dir /home/jiwoo/src/pulsegate/.zig-cache --global-cache-dir /home/jiwoo/.cache/zig --name test --listen=-
Build Summary: 0/3 steps succeeded; 1 failed
test transitive failure
error: the following build command failed with exit code 1:
/home/jiwoo/src/pulsegate/.zig-cache/o/4b1f0a9d2e6c81f3a7d05c2e9b14f6aa/build /usr/lib/zig/0.13.0/zig /home/jiwoo/src/pulsegate /home/jiwoo/src/pulsegate/.zig-cache /home/jiwoo/.cache/zig --seed 0x52b7e010 -Z6b0e2f3a9c1d4e85 test --summary all
""", code=1, reasoning="**Compile**")
r.say("`line` is passed by value into `seriesKeyInto` and `tags()` takes `*const Line`; passing the Line by const pointer fixes the call and also avoids copying the 16-tag buffer (16 × 32 bytes) per line.")
r.patch([("update", AGG, [
    ("        const key = try seriesKeyInto(&buf, line);\n", "        const key = try seriesKeyInto(&buf, &line);\n"),
    ("fn seriesKeyInto(buf: *[max_key_len]u8, line: parser.Line) ![]const u8 {\n", "fn seriesKeyInto(buf: *[max_key_len]u8, line: *const parser.Line) ![]const u8 {\n"),
])])
ztest("""Build Summary: 3/3 steps succeeded; 7/7 tests passed
test success
└─ run test 7/7 passed 3ms MaxRSS:2M
   └─ zig test Debug native success 5s MaxRSS:213M
""")
r.run("zig build bench -Doptimize=ReleaseFast -- bench/data/1m.statsd", "lines: 1000000  time: 171.4 ms  allocs: 3214  peak: 36.9 MiB\n", secs=27.9)
r.run("zig build bench -Doptimize=ReleaseFast -- bench/data/1m.statsd", "lines: 1000000  time: 169.8 ms  allocs: 3214  peak: 36.9 MiB\n", secs=27.1)
r.say(
    "Done: tags are parsed into a `[16]Tag` array inside `Line` (`parseLine(raw)` no longer takes an allocator; more than 16 tags is `error.TooManyTags`). "
    "Bench: **412.6 ms → ~170 ms, allocations 1,836,211 → 3,214** (only new series and histogram growth). Tests 7/7."
)

# ============================================================================================ turn 4
r.user(
    "Wow, good. Now correctness. We compare output with the Go version using golden file: `tests/golden/in_50k.statsd` and `tests/golden/out_50k.txt`, produced by pulsegate-go. "
    "Output must be byte-identical with Go, this is how we validate the port before switching prod. Can you run the compare? I think tag order is a problem."
)
r.run("ls tests/golden && wc -l tests/golden/*", "in_50k.statsd\nout_50k.txt\n   50000 tests/golden/in_50k.statsd\n    4127 tests/golden/out_50k.txt\n   54127 total\n")
r.run("zig build -Doptimize=ReleaseSafe && ./zig-out/bin/pulsegate < tests/golden/in_50k.statsd > /tmp/pg_out.txt; wc -l /tmp/pg_out.txt; diff <(sort /tmp/pg_out.txt) <(sort tests/golden/out_50k.txt) | head -20", """4391 /tmp/pg_out.txt
1c1
< api.req;env=prod;host=web-01;route=/v1/items 1
---
> api.req;env=prod;host=web-01;route=/v1/cart 3
3,4d2
< api.req;host=web-01;env=prod;route=/v1/items 2
< api.req;route=/v1/items;env=prod;host=web-01 1
12c10
< cache.hit;env=prod;host=web-02 3990
---
> cache.hit;env=prod;host=web-02 3990.0000000000005
""", secs=19.4)
r.run("grep -c ';' /tmp/pg_out.txt; head -5 tests/golden/out_50k.txt", "4388\napi.req;env=prod;host=web-01;route=/v1/cart 3\napi.req;env=prod;host=web-01;route=/v1/items 4\napi.req;env=prod;host=web-02;route=/v1/items 7\ncache.hit;env=prod;host=web-01 4120\ncache.hit;env=prod;host=web-02 3990.0000000000005\n")
r.run("cd ../pulsegate-go && grep -n 'sort\\|FormatFloat\\|%g' internal/agg/*.go", "internal/agg/key.go:14:\tsort.Slice(tags, func(i, j int) bool { return tags[i].Key < tags[j].Key })\ninternal/agg/flush.go:22:\tkeys := make([]string, 0, len(m))\ninternal/agg/flush.go:26:\tsort.Strings(keys)\ninternal/agg/flush.go:31:\t\tfmt.Fprintf(w, \"%s %s\\n\", k, strconv.FormatFloat(v, 'g', -1, 64))\ninternal/agg/flush.go:44:\t\tfmt.Fprintf(w, \"%s.p%d %.3f\\n\", k, p, h.Percentile(float64(p)/100))\n")
r.say(
    "Three differences against the Go output:\n"
    "1. **Tag order**: pulsegate-go sorts tags by key before building the series key (internal/agg/key.go:14); we keep arrival order, so `host=…;env=…` and `env=…;host=…` become different series (4391 lines instead of 4127).\n"
    "2. **Line order**: Go sorts the keys at flush (flush.go:26); our hash map iterates in random order.\n"
    "3. **Number format**: Go prints counters with `FormatFloat(v, 'g', -1, 64)`, the shortest repr that round-trips, e.g. `3990.0000000000005` (from summing 0.1-rate samples); Zig's `{d}` rounds differently. Percentiles are `%.3f` in both.\n"
    "I'll sort tags in seriesKeyInto (insertion sort on the ≤16 tags, no allocation), sort keys at flush, and format counters/gauges with the shortest round-trip form."
)
r.patch([("update", AGG, [
    ("""    var fbs = std.io.fixedBufferStream(buf);
    const w = fbs.writer();
    w.writeAll(line.name) catch return error.KeyTooLong;
    for (line.tags()) |t| {
""", """    var sorted: [parser.max_tags]parser.Tag = undefined;
    const tags = sorted[0..line.n_tags];
    @memcpy(tags, line.tags());
    std.sort.insertion(parser.Tag, line.tags(), {}, tagLess);
    var fbs = std.io.fixedBufferStream(buf);
    const w = fbs.writer();
    w.writeAll(line.name) catch return error.KeyTooLong;
    for (tags) |t| {
"""),
    ("""fn freeKeys(""", """fn tagLess(_: void, a: parser.Tag, b: parser.Tag) bool {
    return std.mem.lessThan(u8, a.key, b.key);
}

fn freeKeys("""),
])], reasoning="**Sorting tags**\n\nCopy into a stack array and sort that.")
ztest("""test
└─ run test
   └─ zig test Debug native 1 errors
src/aggregate.zig:92:39: error: expected type '[]parser.Tag', found '[]const parser.Tag'
    std.sort.insertion(parser.Tag, line.tags(), {}, tagLess);
                                   ~~~~~~~~~^~
src/aggregate.zig:92:39: note: cast discards const qualifier
/usr/lib/zig/0.13.0/lib/std/sort.zig:23:5: note: parameter type declared here
    items: []T,
    ^~~~~~~~~~
error: the following command failed with 1 compilation errors:
/usr/lib/zig/0.13.0/zig test /home/jiwoo/src/pulsegate/src/main.zig --cache-dir /home/jiwoo/src/pulsegate/.zig-cache --global-cache-dir /home/jiwoo/.cache/zig --name test --listen=-
Build Summary: 0/3 steps succeeded; 1 failed
test transitive failure
error: the following build command failed with exit code 1:
/home/jiwoo/src/pulsegate/.zig-cache/o/4b1f0a9d2e6c81f3a7d05c2e9b14f6aa/build /usr/lib/zig/0.13.0/zig /home/jiwoo/src/pulsegate /home/jiwoo/src/pulsegate/.zig-cache /home/jiwoo/.cache/zig --seed 0x0c93ad51 -Z6b0e2f3a9c1d4e85 test --summary all
""", code=1)
r.say("My typo: I sorted `line.tags()` (the const original) instead of the local copy `tags`. The compiler was right to refuse; sorting the copy.")
r.patch([("update", AGG, [("    std.sort.insertion(parser.Tag, line.tags(), {}, tagLess);\n", "    std.sort.insertion(parser.Tag, tags, {}, tagLess);\n")])])
r.patch([("update", AGG, [
    ("""    pub fn flush(self: *Aggregator, out: anytype) !void {
        var cit = self.counters.iterator();
        while (cit.next()) |e| try out.print("{s} {d}\\n", .{ e.key_ptr.*, e.value_ptr.* });
        var git = self.gauges.iterator();
        while (git.next()) |e| try out.print("{s} {d}\\n", .{ e.key_ptr.*, e.value_ptr.* });
        var tit = self.timers.iterator();
        while (tit.next()) |e| {
            const h = e.value_ptr;
""", """    /// keys sorted like pulsegate-go's flush; numbers in Go's FormatFloat(v, 'g', -1, 64) form
    pub fn flush(self: *Aggregator, out: anytype) !void {
        try writeSorted(self.allocator, &self.counters, out);
        try writeSorted(self.allocator, &self.gauges, out);
        var names = try self.allocator.alloc([]const u8, self.timers.count());
        defer self.allocator.free(names);
        var i: usize = 0;
        var kit = self.timers.keyIterator();
        while (kit.next()) |k| : (i += 1) names[i] = k.*;
        std.sort.pdq([]const u8, names, {}, strLess);
        for (names) |name| {
            const h = self.timers.getPtr(name).?;
"""),
    ("""                e.key_ptr.*, h.percentile(0.50), e.key_ptr.*, h.percentile(0.90), e.key_ptr.*, h.percentile(0.99),
""", """                name, h.percentile(0.50), name, h.percentile(0.90), name, h.percentile(0.99),
"""),
    ("""fn tagLess(""", """fn strLess(_: void, a: []const u8, b: []const u8) bool {
    return std.mem.lessThan(u8, a, b);
}

fn writeSorted(allocator: std.mem.Allocator, map: *std.StringHashMap(f64), out: anytype) !void {
    const names = try allocator.alloc([]const u8, map.count());
    defer allocator.free(names);
    var i: usize = 0;
    var it = map.keyIterator();
    while (it.next()) |k| : (i += 1) names[i] = k.*;
    std.sort.pdq([]const u8, names, {}, strLess);
    for (names) |name| {
        var nbuf: [32]u8 = undefined;
        try out.print("{s} {s}\\n", .{ name, goFloat(&nbuf, map.get(name).?) });
    }
}

/// shortest round-trip repr, like Go's strconv.FormatFloat(v, 'g', -1, 64) for our range
fn goFloat(buf: *[32]u8, v: f64) []const u8 {
    return std.fmt.formatFloat(buf, v, .{ .mode = .decimal }) catch unreachable;
}

fn tagLess("""),
])])
ztest("""Build Summary: 3/3 steps succeeded; 7/7 tests passed
test success
└─ run test 7/7 passed 3ms MaxRSS:2M
   └─ zig test Debug native success 6s MaxRSS:214M
""")
r.run("zig build -Doptimize=ReleaseSafe && ./zig-out/bin/pulsegate < tests/golden/in_50k.statsd > /tmp/pg_out.txt; wc -l /tmp/pg_out.txt; cmp /tmp/pg_out.txt tests/golden/out_50k.txt && echo IDENTICAL", """thread 41877 panic: integer overflow
/home/jiwoo/src/pulsegate/src/histogram.zig:28:62: 0x1046c1e in percentile (pulsegate)
        const rank: usize = @as(usize, @intFromFloat(@ceil(p * n))) - 1;
                                                             ^
/home/jiwoo/src/pulsegate/src/aggregate.zig:84:79: 0x1047a30 in flush__anon_4127 (pulsegate)
                name, h.percentile(0.50), name, h.percentile(0.90), name, h.percentile(0.99),
                                                                              ^
/home/jiwoo/src/pulsegate/src/main.zig:35:19: 0x1049d12 in main (pulsegate)
    try agg.flush(bw.writer());
                  ^
/usr/lib/zig/0.13.0/lib/std/start.zig:524:37: 0x1041a55 in posixCallMainWithArgs (pulsegate)
            const result = root.main() catch |err| {
                                    ^
/usr/lib/zig/0.13.0/lib/std/start.zig:266:5: 0x10414f1 in _start (pulsegate)
    asm volatile (switch (native_arch) {
    ^
???:?:?: 0x0 in ??? (???)
Aborted (core dumped)
0 /tmp/pg_out.txt
""", code=134, secs=18.2)
r.run("grep -n 'nan\\|NaN' tests/golden/in_50k.statsd | head -5; grep -c 'db.lock_wait' tests/golden/out_50k.txt", "18233:db.lock_wait:nan|ms|#env:prod,table:orders\n18234:db.lock_wait:NaN|ms|#env:prod,table:orders\n0\n")
r.say(
    "ReleaseSafe caught a real bug: `panic: integer overflow` in histogram.zig:28 `percentile`, called from flush. The golden input has timer lines with value `nan` (line 18233, `db.lock_wait`). "
    "`add()` creates the timer entry but skips NaN samples, so the histogram is empty, `ceil(p * 0) - 1` underflows usize. In Debug the tests never hit it. "
    "The Go golden output has no `db.lock_wait` line at all, so Go drops timers with no samples. I'll do the same: skip empty histograms at flush, and `percentile` asserts n > 0."
)
r.patch([("update", AGG, [
    ("""            const h = self.timers.getPtr(name).?;
""", """            const h = self.timers.getPtr(name).?;
            if (h.values.items.len == 0) continue; // pulsegate-go omits timers without samples
"""),
])])
r.patch([("update", HIST, [
    ("""        const n: f64 = @floatFromInt(self.values.items.len);
""", """        std.debug.assert(self.values.items.len > 0);
        const n: f64 = @floatFromInt(self.values.items.len);
"""),
    ("""test "nearest rank" {""", """test "timer with only NaN samples is omitted" {
    const Aggregator = @import("aggregate.zig").Aggregator;
    const parser = @import("parser.zig");
    var agg = Aggregator.init(std.testing.allocator);
    defer agg.deinit();
    try agg.add(try parser.parseLine("db.lock_wait:nan|ms"));
    var out = std.ArrayList(u8).init(std.testing.allocator);
    defer out.deinit();
    try agg.flush(out.writer());
    try std.testing.expectEqualStrings("", out.items);
}

test "nearest rank" {"""),
])])
ztest("""error: 'histogram.test.timer with only NaN samples is omitted' leaked: [gpa] (err): memory address 0x7f0b2a4c2000 leaked:
/usr/lib/zig/0.13.0/lib/std/mem/Allocator.zig:319:40: 0x1050a51 in dupe__anon_3318 (test)
    const new_buf = try allocator.alloc(T, m.len);
                                       ^
/home/jiwoo/src/pulsegate/src/aggregate.zig:55:68: 0x1051c2e in add (test)
                    gop.key_ptr.* = try self.allocator.dupe(u8, key);
                                                                   ^
/home/jiwoo/src/pulsegate/src/histogram.zig:38:16: 0x10528b7 in test.timer with only NaN samples is omitted (test)
    try agg.add(try parser.parseLine("db.lock_wait:nan|ms"));
               ^
/usr/lib/zig/0.13.0/lib/compiler/test_runner.zig:157:25: 0x105a3f8 in mainTerminal (test)
        if (test_fn.func()) |_| {
                        ^

Build Summary: 2/4 steps succeeded; 1 failed; 7/8 tests passed; 1 leaked
test transitive failure
└─ run test 7/8 passed, 1 leaked
error: the following build command failed with exit code 1:
/home/jiwoo/src/pulsegate/.zig-cache/o/4b1f0a9d2e6c81f3a7d05c2e9b14f6aa/build /usr/lib/zig/0.13.0/zig /home/jiwoo/src/pulsegate /home/jiwoo/src/pulsegate/.zig-cache /home/jiwoo/.cache/zig --seed 0x99e03a1c -Z6b0e2f3a9c1d4e85 test --summary all
""", code=1)
r.sed(AGG, 60, 90, reasoning="**Second leak**\n\nThe key dup'd in add() is lost somewhere between flush and deinit.")
r.say(
    "New leak, and it is from my change in turn 2: keys are now `dupe`d into the maps, but `flush()` ends with `clearRetainingCapacity()`, which drops the entries without freeing the owned keys (and, for timers, the histograms). "
    "Before, deinit freed everything still in the maps, but after a flush the maps are empty, so those keys are lost. Fix: free keys (and histogram buffers) before clearing in flush."
)
r.patch([("update", AGG, [
    ("""        self.counters.clearRetainingCapacity();
        self.gauges.clearRetainingCapacity();
        self.timers.clearRetainingCapacity();
""", """        self.reset();
    }

    /// frees owned keys and histograms, keeps the maps' capacity
    fn reset(self: *Aggregator) void {
        freeKeys(self.allocator, f64, &self.counters);
        freeKeys(self.allocator, f64, &self.gauges);
        var it = self.timers.iterator();
        while (it.next()) |e| {
            self.allocator.free(e.key_ptr.*);
            e.value_ptr.deinit();
        }
        self.counters.clearRetainingCapacity();
        self.gauges.clearRetainingCapacity();
        self.timers.clearRetainingCapacity();
"""),
])])
ztest("""Build Summary: 3/3 steps succeeded; 8/8 tests passed
test success
└─ run test 8/8 passed 4ms MaxRSS:2M
   └─ zig test Debug native success 6s MaxRSS:215M
""")
r.run("zig build -Doptimize=ReleaseSafe && ./zig-out/bin/pulsegate < tests/golden/in_50k.statsd > /tmp/pg_out.txt; wc -l /tmp/pg_out.txt; cmp /tmp/pg_out.txt tests/golden/out_50k.txt && echo IDENTICAL", "4127 /tmp/pg_out.txt\n/tmp/pg_out.txt tests/golden/out_50k.txt differ: byte 88213, line 2291\n", code=1, secs=18.0)
r.run("diff /tmp/pg_out.txt tests/golden/out_50k.txt", "2291c2291\n< queue.depth;env=prod;queue=billing 1e+06\n---\n> queue.depth;env=prod;queue=billing 1e+06\n", code=1)
r.run("sed -n '2291p' /tmp/pg_out.txt | od -c | head -3; sed -n '2291p' tests/golden/out_50k.txt | od -c | head -3", "0000000   q   u   e   u   e   .   d   e   p   t   h   ;   e   n   v   =\n0000020   p   r   o   d   ;   q   u   e   u   e   =   b   i   l   l   i\n0000040   n   g       1   0   0   0   0   0   0  \\n\n0000000   q   u   e   u   e   .   d   e   p   t   h   ;   e   n   v   =\n0000020   p   r   o   d   ;   q   u   e   u   e   =   b   i   l   l   i\n0000040   n   g       1   e   +   0   6  \\n\n")
r.say(
    "Down to one byte difference in 4127 lines: gauge `queue.depth;env=prod;queue=billing` is `1e+06` in Go and `1000000` in ours. Go's 'g' format with -1 precision switches to exponent form when the exponent is < -4 or >= 21 ... "
    "no, for 'g' with shortest precision the switch is exponent >= 21 only for 'f'-like; for 'g' it uses exponent form when exp < -4 || exp >= eprec, where eprec is the number of digits (here 1, so `1e+06`). "
    "So the rule: use scientific when the decimal exponent is >= max(digits, 21)? I need to reproduce Go's rule exactly: `eprec = digs.nd; if shortest { eprec = 6 }; if exp < -4 || exp >= eprec { %e }`. With shortest, eprec = 6, so any value >= 1e6 or < 1e-4 prints in exponent form with at least two exponent digits."
)
r.patch([("update", AGG, [
    ("""/// shortest round-trip repr, like Go's strconv.FormatFloat(v, 'g', -1, 64) for our range
fn goFloat(buf: *[32]u8, v: f64) []const u8 {
    return std.fmt.formatFloat(buf, v, .{ .mode = .decimal }) catch unreachable;
}
""", """/// Go's strconv.FormatFloat(v, 'g', -1, 64): shortest digits; exponent form when the
/// decimal exponent is < -4 or >= 6 (Go's eprec for shortest), with a 2-digit exponent minimum
fn goFloat(buf: *[32]u8, v: f64) []const u8 {
    const a = @abs(v);
    if (v != 0 and (a < 1e-4 or a >= 1e6)) {
        var tmp: [32]u8 = undefined;
        const sci = std.fmt.formatFloat(&tmp, v, .{ .mode = .scientific }) catch unreachable;
        // Zig writes "1e6" / "1.5e-5"; Go writes "1e+06" / "1.5e-05"
        const e = std.mem.indexOfScalar(u8, sci, 'e').?;
        const neg = sci[e + 1] == '-';
        const digits = sci[e + 1 + @intFromBool(neg) ..];
        return std.fmt.bufPrint(buf, "{s}e{c}{s}{s}", .{ sci[0..e], @as(u8, if (neg) '-' else '+'), if (digits.len < 2) "0" else "", digits }) catch unreachable;
    }
    return std.fmt.formatFloat(buf, v, .{ .mode = .decimal }) catch unreachable;
}

test "goFloat matches Go's 'g', -1" {
    var b: [32]u8 = undefined;
    try std.testing.expectEqualStrings("1e+06", goFloat(&b, 1e6));
    try std.testing.expectEqualStrings("999999", goFloat(&b, 999999));
    try std.testing.expectEqualStrings("3990.0000000000005", goFloat(&b, 3990.0000000000005));
    try std.testing.expectEqualStrings("1.5e-05", goFloat(&b, 0.000015));
    try std.testing.expectEqualStrings("0.0001", goFloat(&b, 0.0001));
    try std.testing.expectEqualStrings("1.25e+07", goFloat(&b, 12500000));
}
"""),
])])
ztest("""Build Summary: 3/3 steps succeeded; 9/9 tests passed
test success
└─ run test 9/9 passed 4ms MaxRSS:2M
   └─ zig test Debug native success 6s MaxRSS:215M
""")
r.run("zig build -Doptimize=ReleaseSafe && ./zig-out/bin/pulsegate < tests/golden/in_50k.statsd > /tmp/pg_out.txt; wc -l /tmp/pg_out.txt; cmp /tmp/pg_out.txt tests/golden/out_50k.txt && echo IDENTICAL", "4127 /tmp/pg_out.txt\nIDENTICAL\n", secs=18.3)
r.run("zig build bench -Doptimize=ReleaseFast -- bench/data/1m.statsd", "lines: 1000000  time: 178.2 ms  allocs: 3214  peak: 36.9 MiB\n", secs=27.6)
r.say(
    "Golden file is now **byte-identical** with pulsegate-go (4127 lines). What changed:\n"
    "- tags sorted by key in the series key (stack copy, insertion sort, no allocation);\n"
    "- keys sorted at flush;\n"
    "- counters/gauges formatted like Go's `FormatFloat(v, 'g', -1, 64)` (`goFloat`: exponent form below 1e-4 and from 1e6, `1e+06` style);\n"
    "- timers with only NaN samples are skipped at flush (Go omits them), which was the ReleaseSafe `integer overflow` panic in `percentile`;\n"
    "- a second leak I introduced (flush's `clearRetainingCapacity` dropped the duped keys) is fixed with `reset()`.\n"
    "Bench is 178.2 ms now (sorting tags costs ~8 ms). Tests 9/9."
)

# ============================================================================================ turn 5
r.user(
    "Very nice. For the golden test, can we make it part of `zig build test`? I want CI to fail when output is not same as Go. "
    "But can we avoid shell in build.zig? Windows colleague (Minseo) also runs it."
)
r.patch([("update", BUILD, [
    ("""    b.step("test", "Run unit tests").dependOn(&b.addRunArtifact(tests).step);
""", """    const test_step = b.step("test", "Run unit tests and the golden comparison with pulsegate-go");
    test_step.dependOn(&b.addRunArtifact(tests).step);

    // golden: feed tests/golden/in_50k.statsd on stdin, compare stdout with out_50k.txt byte for byte
    const golden = b.addRunArtifact(exe);
    golden.setStdIn(.{ .lazy_path = b.path("tests/golden/in_50k.statsd") });
    golden.expectStdOutEqual(@embedFile("tests/golden/out_50k.txt"));
    test_step.dependOn(&golden.step);
"""),
])], reasoning="**Golden in build.zig**\n\nRun step with setStdIn and expectStdOutEqual, no shell.")
ztest("""build.zig:23:30: error: embedded file outside of package root: tests/golden/out_50k.txt
    golden.expectStdOutEqual(@embedFile("tests/golden/out_50k.txt"));
                             ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
referenced by:
    runBuild__anon_8921: /usr/lib/zig/0.13.0/lib/std/Build.zig:2117:27
    main: /usr/lib/zig/0.13.0/lib/compiler/build_runner.zig:301:29
    remaining reference traces hidden; use '-freference-trace' to see all reference traces
""", code=1)
r.say("`@embedFile` in build.zig cannot reach outside the build script's package path in 0.13. I'll read the expected file at configure time with `b.build_root.handle.readFileAlloc` instead (still no shell).")
r.patch([("update", BUILD, [
    ("""    golden.expectStdOutEqual(@embedFile("tests/golden/out_50k.txt"));
""", """    const expected = b.build_root.handle.readFileAlloc(b.allocator, "tests/golden/out_50k.txt", 16 << 20) catch @panic("tests/golden/out_50k.txt missing");
    golden.expectStdOutEqual(expected);
"""),
])])
ztest("""Build Summary: 5/5 steps succeeded; 9/9 tests passed
test success
├─ run test 9/9 passed 4ms MaxRSS:2M
│  └─ zig test Debug native success 6s MaxRSS:215M
└─ run pulsegate success 2s MaxRSS:9M
   └─ zig build-exe pulsegate Debug native success 7s MaxRSS:240M
""", secs=14.2)
r.run("printf 'x:1|c\\n' >> /tmp/dummy && cp tests/golden/out_50k.txt /tmp/keep && sed -i '1s/ 3$/ 4/' tests/golden/out_50k.txt && zig build test 2>&1 | head -12; cp /tmp/keep tests/golden/out_50k.txt", """test
└─ run pulsegate failure
error: stdout did not match the expected value
========= expected this stdout: =========
api.req;env=prod;host=web-01;route=/v1/cart 4
api.req;env=prod;host=web-01;route=/v1/items 4
...
========= but found: ====================
api.req;env=prod;host=web-01;route=/v1/cart 3
api.req;env=prod;host=web-01;route=/v1/items 4
...
""")
r.run("git diff --stat tests/golden; zig build test --summary none && echo OK", "OK\n", secs=9.5)
r.say(
    "`zig build test` now also runs the golden comparison: a Run step of the `pulsegate` exe with `setStdIn(tests/golden/in_50k.statsd)` and `expectStdOutEqual` on out_50k.txt (read in build.zig with `readFileAlloc`, no shell, so it works on Windows). "
    "I checked it fails when the expected file is changed (then restored it; `git diff` clean). Note the golden run uses the Debug exe in the plain `zig build test` job (~2 s)."
)

# ============================================================================================ turn 6
r.user(
    "Good. What happen when key is longer than 256 bytes now? Client lib limits 200 but old services still send without the lib. "
    "Can we not crash and not log every line? Just drop it and count. We need the count on the output as `pulsegate.dropped.key_too_long` counter, like Go does."
)
r.run("cd ../pulsegate-go && grep -rn 'dropped' internal/ | head", "internal/agg/agg.go:41:\t\ta.dropped[\"key_too_long\"]++\ninternal/agg/agg.go:58:\t\ta.dropped[\"parse_error\"]++\ninternal/agg/flush.go:51:\tfor reason, n := range a.dropped {\ninternal/agg/flush.go:52:\t\tfmt.Fprintf(w, \"pulsegate.dropped.%s %d\\n\", reason, n)\n")
r.run("cd ../pulsegate-go && sed -n '48,56p' internal/agg/flush.go", "\t// dropped counters last, only when non-zero, reset every flush\n\treasons := []string{\"key_too_long\", \"parse_error\"}\n\tfor _, reason := range reasons {\n\t\tif n := a.dropped[reason]; n > 0 {\n\t\t\tfmt.Fprintf(w, \"pulsegate.dropped.%s %d\\n\", reason, n)\n\t\t}\n\t}\n\ta.dropped = map[string]int{}\n")
r.run("grep -c 'pulsegate.dropped' tests/golden/out_50k.txt; grep 'pulsegate.dropped' tests/golden/out_50k.txt", "0\n", code=1)
r.say("In Go the dropped counters are printed last, only when non-zero, in fixed order key_too_long then parse_error, and reset every flush. The golden input has no such line, so the golden test does not cover it; I'll add unit tests.")
r.patch([("update", AGG, [
    ("""    lines_seen: u64 = 0,
""", """    lines_seen: u64 = 0,
    dropped_key_too_long: u64 = 0,
    dropped_parse_error: u64 = 0,
"""),
    ("""        const key = try seriesKeyInto(&buf, &line);
""", """        const key = seriesKeyInto(&buf, &line) catch {
            self.dropped_key_too_long += 1; // like pulsegate-go: count, do not log
            return;
        };
"""),
    ("""        self.reset();
    }
""", """        // like pulsegate-go: last, only when non-zero, fixed order
        if (self.dropped_key_too_long > 0) try out.print("pulsegate.dropped.key_too_long {d}\\n", .{self.dropped_key_too_long});
        if (self.dropped_parse_error > 0) try out.print("pulsegate.dropped.parse_error {d}\\n", .{self.dropped_parse_error});
        self.dropped_key_too_long = 0;
        self.dropped_parse_error = 0;
        self.reset();
    }
"""),
    ("""test "counter sums with sample rate" {""", """test "too long key is dropped and counted" {
    var agg = Aggregator.init(std.testing.allocator);
    defer agg.deinit();
    const long = "a" ** 300 ++ ":1|c";
    try agg.add(try parser.parseLine(long));
    try agg.add(try parser.parseLine("ok:1|c"));
    var out = std.ArrayList(u8).init(std.testing.allocator);
    defer out.deinit();
    try agg.flush(out.writer());
    try std.testing.expectEqualStrings("ok 1\\npulsegate.dropped.key_too_long 1\\n", out.items);
}

test "counter sums with sample rate" {"""),
])])
r.patch([("update", MAIN, [
    ("""        const line = pg.parseLine(raw) catch |err| {
            bad += 1;
            if (bad % 10_000 == 1) std.log.warn("bad line ({s}): {s}", .{ @errorName(err), raw });
            continue;
        };
""", """        const line = pg.parseLine(raw) catch {
            agg.dropped_parse_error += 1;
            continue;
        };
"""),
    ("    var bad: u64 = 0;\n", ""),
])])
ztest("""Build Summary: 5/5 steps succeeded; 10/10 tests passed
test success
├─ run test 10/10 passed 4ms MaxRSS:2M
│  └─ zig test Debug native success 6s MaxRSS:216M
└─ run pulsegate success 2s MaxRSS:9M
   └─ zig build-exe pulsegate Debug native success 7s MaxRSS:241M
""")
r.run("python3 -c \"print('x'*300+':1|c')\" | ./zig-out/bin/pulsegate", "pulsegate.dropped.key_too_long 1\n")
r.run("zig build -Doptimize=ReleaseSafe && ./zig-out/bin/pulsegate < captures/prod-2026-04-11.statsd | tail -3", "worker.rss;env=prod;host=web-09 4.718592e+08\npulsegate.dropped.key_too_long 37\npulsegate.dropped.parse_error 112\n", secs=24.9)
r.say(
    "Too-long keys (over 256 bytes) are now dropped and counted, no log line: `pulsegate.dropped.key_too_long N` printed after everything else, only when non-zero, reset per flush, same as Go. "
    "Parse errors go to `pulsegate.dropped.parse_error` too, and main.zig no longer logs every 10,000th bad line (Go does not log either). "
    "On the prod capture from 2026-04-11: 37 too-long keys and 112 parse errors in one run. Tests 10/10."
)

# ============================================================================================ turn 7
r.user(
    "Hmm, 112 parse errors is a lot. What are they? But don't change the parser behaviour to accept them yet, Go also rejects them and we want same output. Just tell me."
)
r.run("grep -v -E '^[^:|]+:[^|]+\\|(c|g|ms|s)(\\|.*)?$' captures/prod-2026-04-11.statsd | cut -c1-70 | sort | uniq -c | sort -rn | head -8", "     64 checkout.latency:12.1|h|#env:prod,region:ap-northeast-2\n     31 search.qps:1|C|#env:prod\n      9 payment.retry:1|c|#env:prod,,attempt:2\n      5 :1|c\n      3 legacy.batch:7|c|@0.5|@0.5\n")
r.run("grep -c '|h|' captures/prod-2026-04-11.statsd; grep -rn '\"h\"' ../pulsegate-go/internal/ | head -3", "64\n", code=1)
r.say(
    "The 112 parse errors in the capture:\n"
    "- 64 × `|h` (histogram type, from checkout service, region ap-northeast-2): neither Go nor we accept `h`; DogStatsD treats it like `ms`.\n"
    "- 31 × `|C` (upper-case counter, search service).\n"
    "- 9 × empty tag from `,,` (payment service) → InvalidTag.\n"
    "- 5 × empty metric name `:1|c`.\n"
    "- 3 × rate given twice (legacy.batch): these actually parse (second `@` wins), so they are not in the 112 ... they are, `|@0.5|@0.5` matches my grep but not the error count; I counted 109 + 3 by mistake. Real errors: 64 + 31 + 9 + 5 = 109, plus 3 lines over 512 bytes that `readUntilDelimiterOrEof` … no, those would be an error.StreamTooLong and stop the program.\n"
    "Let me check the last 3 exactly."
)
r.run("awk 'length($0) > 480' captures/prod-2026-04-11.statsd | wc -l; grep -n 'legacy.batch' captures/prod-2026-04-11.statsd | head -2", "0\n9912:legacy.batch:7|c|@0.5|@0.5\n40188:legacy.batch:7|c|@0.5|@0.5\n")
r.run("grep -c -E ':[^|]*[a-zA-Z][^|]*\\|' captures/prod-2026-04-11.statsd; grep -E '^[^:]+:(inf|[0-9.]+[a-z])' captures/prod-2026-04-11.statsd | head -3", "3\nbatch.size:12k|g|#env:prod\nbatch.size:12k|g|#env:prod\nbatch.size:3k|g|#env:prod\n")
r.say(
    "Corrected count, 112 = 64 + 31 + 9 + 5 + 3:\n"
    "- 64 `|h` histogram type (checkout service)\n"
    "- 31 `|C` upper-case counter type (search service)\n"
    "- 9 empty tag `,,` (payment service)\n"
    "- 5 empty name `:1|c`\n"
    "- 3 `batch.size:12k|g` (value with a `k` suffix)\n"
    "The `legacy.batch` double rate lines parse fine (last `@` wins), same in Go. Nothing changed in the parser, as you asked."
)

# ============================================================================================ turn 8
r.user(
    "OK, I will tell the checkout team about `h`. Last: can we add `zig fmt --check` to CI? And please commit, message in English. Don't push, I push after review tomorrow."
)
r.run("zig fmt --check src build.zig bench", "src/aggregate.zig\n", code=1)
r.run("zig fmt src/aggregate.zig && git diff --stat src/aggregate.zig", " src/aggregate.zig | 167 +++++++++++++++++++++++++++++++++++++++++++++++++++++++++---------------\n 1 file changed, 131 insertions(+), 36 deletions(-)\n")
r.run("zig fmt --check src build.zig bench && echo fmt-ok", "fmt-ok\n")
r.patch([("update", CI, [
    ("""      - run: zig build test
""", """      - run: zig fmt --check src build.zig bench
      - run: zig build test
"""),
])])
ztest("""Build Summary: 5/5 steps succeeded; 10/10 tests passed
test success
├─ run test 10/10 passed 4ms MaxRSS:2M
│  └─ zig test Debug native success 6s MaxRSS:216M
└─ run pulsegate success 2s MaxRSS:9M
   └─ zig build-exe pulsegate Debug native success 7s MaxRSS:241M
""")
ztest("""Build Summary: 5/5 steps succeeded; 10/10 tests passed
test success
├─ run test 10/10 passed 2ms MaxRSS:2M
│  └─ zig test ReleaseSafe native success 15s MaxRSS:303M
└─ run pulsegate success 1s MaxRSS:9M
   └─ zig build-exe pulsegate ReleaseSafe native success 19s MaxRSS:330M
""", cmd="zig build test -Doptimize=ReleaseSafe --summary all", secs=36.0)
r.run("git status --short && git diff --stat build.zig.zon", " M .github/workflows/ci.yml\n M bench/bench.zig\n M build.zig\n M src/aggregate.zig\n M src/histogram.zig\n M src/main.zig\n M src/parser.zig\n")
r.run("git add -A && git commit -qm 'Fix testing-allocator leaks, no allocation per line, Go-identical output (sorted tags/keys, FormatFloat g), drop+count long keys, golden test in zig build test, zig fmt in CI' && git log --oneline -1", "7d3c9e2 Fix testing-allocator leaks, no allocation per line, Go-identical output (sorted tags/keys, FormatFloat g), drop+count long keys, golden test in zig build test, zig fmt in CI\n")
r.say(
    "Committed **7d3c9e2** on main, not pushed. CI now runs `zig fmt --check src build.zig bench` before the tests (aggregate.zig needed formatting). Both test jobs pass locally, build.zig.zon still has no dependencies, 0.13 API only.\n\n"
    "Open points for later:\n"
    "- `|h` type from the checkout service is counted as parse_error (you talk to the team; Go rejects it too).\n"
    "- Set metrics (`|s`) are parsed but still not aggregated (the `.set` branch in add() does nothing), and Go does count unique values per set.\n"
    "- The golden file has no set lines, so byte-identical output does not prove sets."
)

# ============================================================================================ turn 9
r.user("Ah, sets. Yes we need sets before switching prod. Can you do it next session? Use a hash of the value, not storing the string, can we avoid per-member allocation there too? Today no, I am going home.")
r.say(
    "Noted for next session: implement `|s` sets (unique count per series per flush, output like Go), storing a 64-bit hash of each member instead of the string so there is no per-member string allocation; needs new golden lines or unit tests since the golden file has no sets. Nothing changed now; 7d3c9e2 is the last commit."
)

r.save(HERE / "session.jsonl")
