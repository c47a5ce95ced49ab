# ruff: noqa: E501
"""Labels for claude-go-quotad, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "quotad (Go quota service): data race and lost adds in the usage tracker/flusher; locking changed twice (one mutex, sync.Map + atomics, 32-way sharded mutex)",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout5a test split",
    "voice": "terse lower-case, no punctuation, one instruction per line, changes the locking design twice",
    "toolchain": "Go 1.22.3 toolchain with go 1.21 language version (prod/CI Go 1.21.13), go test -race, go vet (copylocks), golangci-lint 1.58.1, pgx, gh (Explore sub-agent via Task, ~30-line report)",
}
COMPACTIONS = [
    ("Done with one mutex:", 900),
    ("sync.Map version in:", 1200),
    ("Sharded version in:", 1500),
]
FACTS = [
    f("g01", "request", "must", "quotad fails in ci with -race now and then", "Fix the intermittent -race failure in CI (pipeline 4412, log in ci-4412.txt).", [r"race", r"4412|\bci\b|flak|fail"], "done"),
    f("g02", "constraint", "must", "dont change the public api in pkg/quota billing imports it", "Do not change the public API of pkg/quota: the billing repo imports it.", [r"pkg/quota|public api", r"billing|don.?t|unchanged|keep|stays?"]),
    f("g03", "constraint", "must", "prod builds are go 1.21 so nothing newer in the code", "Prod builds use Go 1.21: no language or library features newer than 1.21 (go.mod says go 1.21).", [r"1\.21", r"prod|nothing newer|newer|1\.22|range"]),
    f("g04", "finding", "must", "Reproduced locally. The salient part of the report", "Race cause: Tracker.Snapshot ranged over the usage map without taking the mutex (tracker.go:28, called from RunFlusher) while Add wrote it (tracker.go:20).", [r"Snapshot", r"without (the )?(mutex|lock)|unlocked|no lock|tracker\.go:28"]),
    f("g05", "finding", "must", "And the agent found a second bug next to it", "Second bug: the flusher did Snapshot, store write, Reset as separate steps, so Adds between Snapshot and Reset were wiped and never billed (lost adds).", [r"lost|wiped|never (billed|flushed)", r"Reset|between|Snapshot"]),
    f("g06", "error", "should", "FAIL\tgithub.com/fernline/quotad/internal/quota\t0.913s", "go test -race: WARNING: DATA RACE, write in (*Tracker).Add tracker.go:20 vs previous read in (*Tracker).Snapshot tracker.go:28 via RunFlusher; TestFlushWritesUsage failed.", [r"DATA RACE|race", r"Snapshot|tracker\.go:2[08]|mapiternext"], "fixed"),
    f("g07", "decision", "should", "one mutex for everything simplest first", "First locking choice: one mutex for everything; replaced after billing's load test (then sync.Map, then sharding).", [r"one (global )?mutex|single mutex|one lock", r"simpl|first|everything"], "reversed"),
    f("g08", "fix", "must", "Done with one mutex:", "Tracker.Drain() swaps the usage map under the lock and returns the old one; Restore() merges back a batch the store rejected; Snapshot/Reset removed (internal only).", [r"Drain", r"swap|under the lock|Restore"]),
    f("g09", "request", "should", "regression test for the lost adds too", "Regression test for the lost adds: TestFlushKeepsConcurrentAdds (50 goroutines x 2000 adds, flusher every 1 ms, expects exactly 100000).", [r"regression test|TestFlushKeepsConcurrentAdds", r"lost adds?|100 ?000"], "done"),
    f("g10", "preference", "should", "no testify plain testing", "Tests use the plain testing package, no testify.", [r"testify", r"\bno\b|plain|only|standard"]),
    f("g11", "value", "nice", "flusher_test.go:53: flushed 99873, want 100000", "Against the old code the regression test flushed 99873 and 99941 of 100000 adds.", [r"99873|99941", r"100000|lost|flushed"]),
    f("g12", "fix", "should", "pg_store now returns the batch's `Close()` error", "pg_store AddUsage now returns SendBatch(...).Close()'s error (errcheck), so a failed insert triggers Restore instead of looking like a flush.", [r"pg_?store|Close", r"error|errcheck|return"]),
    f("g13", "constraint", "should", "leave the grpc one its in ticket QD-88", "Leave the golangci-lint SA1019 grpc.WithInsecure warning in cmd/quotad/main.go: ticket QD-88 with the TLS work.", [r"QD-88|grpc|WithInsecure|SA1019", r"leave|QD-88|ticket|tls"]),
    f("g14", "value", "nice", "only-new-issues: true", "CI: Go 1.21.13, go vet and go test -race -count=3 ./...; golangci-lint v1.58.1 with only-new-issues.", [r"1\.21\.13|count=3|1\.58\.1|only-new-issues", r"CI|race|golangci|go test"]),
    f("g15", "finding", "should", "p99 of allow went from 0.4ms to 3ms", "Billing's staging load test: p99 of Allow rose from 0.4 ms to 3 ms at 40k rps, all goroutines waiting on the single mutex.", [r"p99|3 ?ms|0\.4 ?ms|40k", r"allow|mutex|contention|load test"]),
    f("g16", "decision", "should", "actually use sync.Map with an atomic int64 per tenant", "Second locking choice: sync.Map with an atomic.Int64 per tenant, no global lock; reverted because tenants were never removed.", [r"sync\.Map", r"atomic|int64|no global lock"], "reversed"),
    f("g17", "error", "should", "No race report, but the regression test catches lost adds again", "The first sync.Map Drain (Load then Delete) lost adds (99958/99991 of 100000); fixed with Swap(0) per counter, keeping the entries.", [r"Load.{0,30}Delete|Delete|Swap\(0\)|99958|99991", r"lost|Swap|adds?"], "fixed"),
    f("g18", "value", "should", "Sharded version in:", "BenchmarkAddParallel (16 CPUs, 512 tenants): one mutex 61.2 ns/op, sync.Map 38.4 ns/op, 32-way sharded 9.64-9.88 ns/op (0 allocs).", [r"9\.[678]\d? ?ns|61\.2|38\.4", r"ns/op|bench|shard|mutex"]),
    f("g19", "finding", "should", "hmm tenants never removed is bad we have trial tenants churning 20k a day", "sync.Map kept every tenant forever; trial tenants churn ~20k a day, so that was rejected.", [r"never removed|churn|20k|grow", r"tenants?|sync\.Map"]),
    f("g20", "decision", "must", "no go back to a mutex but shard it 32 ways by fnv hash of the tenant", "Final locking: back to mutexes, sharded 32 ways (shardCount) by FNV-1a hash of the tenant; Drain swaps every shard's map, so drained tenants disappear.", [r"32 (ways|shards)|shard(ed|s)? .{0,20}32|shardCount", r"fnv|mutex|hash"]),
    f("g21", "error", "should", "cannot range over shardCount (untyped int constant 32)", "for i := range shardCount failed: range over int requires go1.22 (-lang go1.21 in go.mod); replaced by a classic loop; build checked with GOTOOLCHAIN=go1.21.13.", [r"range over|range-over-int|1\.22", r"shardCount|go\.mod|1\.21|requires"], "fixed"),
    f("g22", "error", "must", "range var sh copies lock", "go vet copylocks: range var sh copies lock in Drain; a real bug (Drain would lock and swap copies, never the real shards); fixed by indexing with a pointer (&t.shards[i]).", [r"copylocks|copies lock|cop(y|ies|ying) (the )?(lock|mutex|shards?)", r"range|shard|vet"], "fixed"),
    f("g23", "finding", "should", "Safe today: `limits` is written once", "limits is written once in NewTracker and only read afterwards (no reload path), so concurrent reads are safe; a future reload would need atomic.Pointer. Nothing changed.", [r"limits", r"safe|read-only|only read|written once|atomic\.Pointer"]),
    f("g24", "finding", "should", "Yes, in their tests:", "billing's meter_test.go (lines 19 and 41) calls quota.New with context.Background(), leaking one flusher goroutine each; the fix is on billing's side (cancel ctx in t.Cleanup); the user will tell them.", [r"leak|goroutines?", r"billing|meter_test|Background|flusher"]),
    f("g25", "path", "nice", "bench_test.go already exists and holds `BenchmarkPGStore`", "The contention benchmark is in internal/quota/tracker_bench_test.go; bench_test.go holds BenchmarkPGStore (needs QUOTAD_TEST_PG) and was left untouched.", [r"tracker_bench_test\.go|BenchmarkAddParallel", r"bench"]),
    f("g26", "command", "nice", "TestFlush ./internal/quota/ 2>&1 | tail -25", "Reproduce: go test -race -count=20 -run TestFlush ./internal/quota/.", [r"-race", r"count|TestFlush|internal/quota"]),
    f("g27", "value", "nice", "chk := quota.New(ctx, limits, store, 10*time.Second)\n\tsrv", "The flusher runs every 10 s in production (cmd/quotad/main.go: quota.New(..., 10*time.Second)).", [r"10 ?s\b|10\*time\.Second|10 seconds", r"flush|quota\.New"]),
    f("g28", "state", "must", "PR #217 is open", "Committed f3a09c1 (\"fix usage race and lost adds in flusher\") on fix/usage-race, pushed, PR #217 open; CI green.", [r"#?217|f3a09c1", r"PR|pull|commit|push"], "done"),
    f("g29", "request", "should", "then a prometheus counter for failed flushes but not today", "Next: a Prometheus counter for failed flushes; not today, not started.", [r"prometheus|metric|counter", r"failed flush|not today|later|open|next"], "open"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
