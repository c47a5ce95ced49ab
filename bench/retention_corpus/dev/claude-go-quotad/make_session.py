# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl (+ session/subagents/): a Claude Code session written by hand for the heldout5a split.

A terse lower-case user (no punctuation) has Claude Code fix a data race in a Go quota service's
usage tracker, after an Explore sub-agent maps where the counters are touched (Task, ~30-line
report). The user changes the locking design twice (one mutex, then sync.Map + atomics, then a
32-way sharded mutex). go test -race (race report with the salient frame in the middle), go vet
copylocks, golangci-lint, Go 1.21 language version. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.claude_writer import ClaudeSession  # noqa: E402

CWD = "/home/ren/code/quotad"
s = ClaudeSession(CWD, "2026-05-19T14:03:12", seed="quotad-race", branch="fix/usage-race")

TR = "internal/quota/tracker.go"
FL = "internal/quota/flusher.go"
TT = "internal/quota/tracker_test.go"
FT = "internal/quota/flusher_test.go"
PQ = "pkg/quota/quota.go"
GOMOD = "go.mod"
LINT = ".golangci.yml"
MAIN = "cmd/quotad/main.go"


def sh(cmd: str, out: str, code: int = 0, desc: str = "", text: str | None = None) -> None:
    s.bash(cmd, out, code=code, description=desc, text=text)


s.files.update({
    TR: """package quota

import "sync"

// Tracker counts usage per tenant since the last flush.
type Tracker struct {
	mu     sync.Mutex
	usage  map[string]int64
	limits map[string]int64
}

func NewTracker(limits map[string]int64) *Tracker {
	return &Tracker{usage: make(map[string]int64), limits: limits}
}

// Add records n units for tenant and reports whether the tenant is still within its limit.
func (t *Tracker) Add(tenant string, n int64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.usage[tenant] += n
	lim, ok := t.limits[tenant]
	return !ok || t.usage[tenant] <= lim
}

// Snapshot returns a copy of the current usage.
func (t *Tracker) Snapshot() map[string]int64 {
	out := make(map[string]int64, len(t.usage))
	for k, v := range t.usage {
		out[k] = v
	}
	return out
}

// Reset clears all usage.
func (t *Tracker) Reset() {
	t.mu.Lock()
	t.usage = make(map[string]int64)
	t.mu.Unlock()
}
""",
    FL: """package quota

import (
	"context"
	"log/slog"
	"time"
)

// Store persists usage deltas.
type Store interface {
	AddUsage(ctx context.Context, deltas map[string]int64) error
}

// RunFlusher writes the tracker's usage to the store every interval and resets it.
func RunFlusher(ctx context.Context, t *Tracker, st Store, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			snap := t.Snapshot()
			if err := st.AddUsage(ctx, snap); err != nil {
				slog.Error("flush usage", "err", err)
				continue
			}
			t.Reset()
		}
	}
}
""",
    TT: """package quota

import "testing"

func TestAddWithinLimit(t *testing.T) {
	tr := NewTracker(map[string]int64{"acme": 3})
	for i, want := range []bool{true, true, true, false} {
		if got := tr.Add("acme", 1); got != want {
			t.Fatalf("call %d: got %v want %v", i, got, want)
		}
	}
}

func TestUnknownTenantUnlimited(t *testing.T) {
	tr := NewTracker(nil)
	if !tr.Add("nobody", 1e9) {
		t.Fatal("unknown tenant should be unlimited")
	}
}
""",
    FT: """package quota

import (
	"context"
	"sync"
	"testing"
	"time"
)

type memStore struct {
	mu  sync.Mutex
	sum map[string]int64
}

func (m *memStore) AddUsage(_ context.Context, d map[string]int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, v := range d {
		m.sum[k] += v
	}
	return nil
}

func TestFlushWritesUsage(t *testing.T) {
	tr := NewTracker(nil)
	st := &memStore{sum: map[string]int64{}}
	ctx, cancel := context.WithCancel(context.Background())
	go RunFlusher(ctx, tr, st, 5*time.Millisecond)
	for i := 0; i < 100; i++ {
		tr.Add("acme", 1)
		time.Sleep(100 * time.Microsecond)
	}
	time.Sleep(20 * time.Millisecond)
	cancel()
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.sum["acme"] != 100 {
		t.Fatalf("flushed %d, want 100", st.sum["acme"])
	}
}
""",
    PQ: """// Package quota is the public quota API used by quotad's HTTP layer and by billing.
package quota

import (
	"context"
	"time"

	iq "github.com/fernline/quotad/internal/quota"
)

// Checker decides whether a tenant may spend cost units now.
type Checker interface {
	Allow(tenant string, cost int64) bool
}

type checker struct{ t *iq.Tracker }

func (c checker) Allow(tenant string, cost int64) bool { return c.t.Add(tenant, cost) }

// New starts the background flusher and returns a Checker.
func New(ctx context.Context, limits map[string]int64, st iq.Store, flushEvery time.Duration) Checker {
	t := iq.NewTracker(limits)
	go iq.RunFlusher(ctx, t, st, flushEvery)
	return checker{t}
}
""",
    GOMOD: """module github.com/fernline/quotad

go 1.21

toolchain go1.22.3

require (
	github.com/jackc/pgx/v5 v5.5.5
	google.golang.org/grpc v1.63.2
)
""",
    LINT: """run:
  timeout: 3m
linters:
  enable:
    - errcheck
    - govet
    - staticcheck
    - unused
    - gosimple
    - ineffassign
linters-settings:
  govet:
    enable:
      - copylocks
""",
})

RACE = """=== RUN   TestFlushWritesUsage
==================
WARNING: DATA RACE
Write at 0x00c0001b2090 by goroutine 9:
  runtime.mapassign_faststr()
      /usr/local/go/src/runtime/map_faststr.go:203 +0x0
  github.com/fernline/quotad/internal/quota.(*Tracker).Add()
      /builds/fernline/quotad/internal/quota/tracker.go:20 +0x10c
  github.com/fernline/quotad/internal/quota.TestFlushWritesUsage()
      /builds/fernline/quotad/internal/quota/flusher_test.go:30 +0x1b4
  testing.tRunner()
      /usr/local/go/src/testing/testing.go:1689 +0x21e
  testing.(*T).Run.gowrap1()
      /usr/local/go/src/testing/testing.go:1742 +0x44

Previous read at 0x00c0001b2090 by goroutine 10:
  runtime.mapiternext()
      /usr/local/go/src/runtime/map.go:867 +0x0
  github.com/fernline/quotad/internal/quota.(*Tracker).Snapshot()
      /builds/fernline/quotad/internal/quota/tracker.go:28 +0xe4
  github.com/fernline/quotad/internal/quota.RunFlusher()
      /builds/fernline/quotad/internal/quota/flusher.go:23 +0x1a8
  github.com/fernline/quotad/internal/quota.TestFlushWritesUsage.gowrap1()
      /builds/fernline/quotad/internal/quota/flusher_test.go:28 +0x5c

Goroutine 9 (running) created at:
  testing.(*T).Run()
      /usr/local/go/src/testing/testing.go:1742 +0x825
  testing.runTests.func1()
      /usr/local/go/src/testing/testing.go:2161 +0x85
  testing.tRunner()
      /usr/local/go/src/testing/testing.go:1689 +0x21e

Goroutine 10 (running) created at:
  github.com/fernline/quotad/internal/quota.TestFlushWritesUsage()
      /builds/fernline/quotad/internal/quota/flusher_test.go:28 +0x1a4
  testing.tRunner()
      /usr/local/go/src/testing/testing.go:1689 +0x21e
==================
    testing.go:1398: race detected during execution of test
--- FAIL: TestFlushWritesUsage (0.05s)
FAIL
FAIL	github.com/fernline/quotad/internal/quota	0.081s
"""

# ============================================================================================ turn 1
s.user(
    "quotad fails in ci with -race now and then log of pipeline 4412 is in ci-4412.txt\n"
    "send an agent first to map every place the usage counters get touched\n"
    "dont change the public api in pkg/quota billing imports it\n"
    "prod builds are go 1.21 so nothing newer in the code",
    pause=0,
)
(tid,) = s.assistant(
    "I'll have a sub-agent map the usage counters first.",
    calls=[("Task", {"description": "Map usage counter access in quotad", "prompt": "In /home/ren/code/quotad (Go service, module github.com/fernline/quotad), find every place where per-tenant usage counters are read, written or reset: internal/quota, pkg/quota, cmd/quotad, tests. Include the flusher and its timing, the public API in pkg/quota and who imports it (billing is an external importer), go.mod go/toolchain lines, CI config (which Go version, which test flags), .golangci.yml. Numbered findings with file:line, then risks. Do not change anything.", "subagent_type": "Explore"})],
)
AG = "b71e2c94"
s.user("In /home/ren/code/quotad (Go service, module github.com/fernline/quotad), find every place where per-tenant usage counters are read, written or reset ... Numbered findings with file:line, then risks. Do not change anything.", agent=AG)
s.bash("grep -rn 'usage\\|Snapshot\\|Reset' --include=*.go internal pkg cmd | grep -v _test", "internal/quota/tracker.go:5:// Tracker counts usage per tenant since the last flush.\ninternal/quota/tracker.go:8:\tusage  map[string]int64\ninternal/quota/tracker.go:13:\treturn &Tracker{usage: make(map[string]int64), limits: limits}\ninternal/quota/tracker.go:20:\tt.usage[tenant] += n\ninternal/quota/tracker.go:22:\treturn !ok || t.usage[tenant] <= lim\ninternal/quota/tracker.go:25:// Snapshot returns a copy of the current usage.\ninternal/quota/tracker.go:26:func (t *Tracker) Snapshot() map[string]int64 {\ninternal/quota/tracker.go:28:\tfor k, v := range t.usage {\ninternal/quota/tracker.go:34:// Reset clears all usage.\ninternal/quota/tracker.go:36:\tt.mu.Lock()\ninternal/quota/tracker.go:37:\tt.usage = make(map[string]int64)\ninternal/quota/flusher.go:23:\t\t\tsnap := t.Snapshot()\ninternal/quota/flusher.go:29:\t\t\tt.Reset()\ncmd/quotad/main.go:41:\tchk := quota.New(ctx, limits, store, 10*time.Second)\n", agent=AG)
s.bash("cat go.mod; grep -n 'go-version\\|go test\\|golangci' .github/workflows/ci.yml", "module github.com/fernline/quotad\n\ngo 1.21\n\ntoolchain go1.22.3\n\nrequire (\n\tgithub.com/jackc/pgx/v5 v5.5.5\n\tgoogle.golang.org/grpc v1.63.2\n)\n14:          go-version: '1.21.13'\n22:      - run: go test -race -count=3 ./...\n25:        uses: golangci/golangci-lint-action@v6\n27:          version: v1.58.1\n", agent=AG)
s.bash("grep -rn 'quota\\.' cmd internal/httpapi | head; ls internal/quota pkg/quota", "cmd/quotad/main.go:41:\tchk := quota.New(ctx, limits, store, 10*time.Second)\ninternal/httpapi/middleware.go:18:\t\tif !chk.Allow(tenantOf(r), costOf(r)) {\ninternal/httpapi/middleware.go:19:\t\t\thttp.Error(w, \"quota exceeded\", http.StatusTooManyRequests)\ninternal/quota:\nflusher.go\nflusher_test.go\npg_store.go\ntracker.go\ntracker_test.go\npkg/quota:\nquota.go\n", agent=AG)
s.bash("sed -n 1,40p internal/quota/pg_store.go | grep -n 'func\\|Exec\\|Close'", "9:func (s *PGStore) AddUsage(ctx context.Context, deltas map[string]int64) error {\n14:\tbatch := &pgx.Batch{}\n21:\tres := s.pool.SendBatch(ctx, batch)\n22:\tdefer res.Close()\n", agent=AG)
s.bash("grep -rln 'fernline/quotad/pkg/quota' ~/code --include=*.go | grep -v '^/home/ren/code/quotad'", "/home/ren/code/billing/internal/meter/meter.go\n/home/ren/code/billing/internal/meter/meter_test.go\n", agent=AG)
s.bash("cat ci-4412.txt | grep -n 'DATA RACE\\|FAIL\\|tracker.go\\|flusher.go'", "112:WARNING: DATA RACE\n117:      /builds/fernline/quotad/internal/quota/tracker.go:20 +0x10c\n128:      /builds/fernline/quotad/internal/quota/tracker.go:28 +0xe4\n130:      /builds/fernline/quotad/internal/quota/flusher.go:23 +0x1a8\n152:--- FAIL: TestFlushWritesUsage (0.05s)\n154:FAIL\tgithub.com/fernline/quotad/internal/quota\t0.081s\n", agent=AG)
REPORT = """Map of usage-counter access in quotad (nothing changed).

Findings
1. internal/quota/tracker.go:8 `usage map[string]int64`, guarded by `mu sync.Mutex` (line 7).
2. tracker.go:17-23 `Add` locks mu, increments usage[tenant], compares with limits[tenant]. Correct.
3. tracker.go:26-32 `Snapshot` ranges over t.usage WITHOUT taking mu. This is the read in the CI race (ci-4412.txt:128, tracker.go:28).
4. tracker.go:35-38 `Reset` swaps in a new map under mu.
5. internal/quota/flusher.go:23-29 `RunFlusher`: Snapshot, then store.AddUsage, then Reset, as three separate steps. Adds that land between Snapshot and Reset are wiped by Reset and never flushed (lost updates, even without the race).
6. If AddUsage fails the loop `continue`s without Reset, so the next flush resends the same totals plus new ones. That is fine (deltas accumulate), as long as Reset never runs after a failed write.
7. cmd/quotad/main.go:41 `quota.New(ctx, limits, store, 10*time.Second)`: flush interval 10 s.
8. internal/httpapi/middleware.go:18 calls `chk.Allow(tenantOf(r), costOf(r))` per request; 429 when false.
9. pkg/quota/quota.go: public `Checker` interface (Allow), `New(ctx, limits, st, flushEvery)`; `checker` wraps *iq.Tracker. Imported outside this repo by ../billing/internal/meter/meter.go (and its test).
10. internal/quota/pg_store.go:9-22 `AddUsage` sends one pgx batch; `defer res.Close()` ignores Close's error.
11. go.mod: `go 1.21`, `toolchain go1.22.3`. CI (.github/workflows/ci.yml:14) uses Go 1.21.13, runs `go test -race -count=3 ./...` (line 22).
12. golangci-lint v1.58.1 in CI; .golangci.yml enables errcheck, govet (copylocks), staticcheck, unused, gosimple, ineffassign.
13. Tests: tracker_test.go (limit logic, no concurrency), flusher_test.go `TestFlushWritesUsage` (Add in the test goroutine while the flusher runs every 5 ms: this is the racing test).
14. internal/quota has no benchmarks for Add; bench_test.go only holds BenchmarkPGStore (skipped without QUOTAD_TEST_PG).
15. ci-4412.txt: the race is reported once (lines 112-150), in TestFlushWritesUsage; all other packages passed.
16. cmd/quotad/main.go:31 dials billing with grpc.WithInsecure() (deprecated); unrelated to usage.
17. No other goroutine touches Tracker: httpapi only goes through pkg/quota.Checker.Allow.

Risks
- Fixing only Snapshot's lock leaves finding 5: Adds between Snapshot and Reset are lost. Snapshot and Reset need to be one atomic step (swap the map under the lock).
- limits is read without a lock in Add... it is only written in NewTracker, so fine today; any reload of limits would need the lock.
- Any lock held across store.AddUsage would block Allow on every request for the duration of a DB write.
- billing depends on pkg/quota's exported names and New's signature.
- A test that really stresses the flush window needs many goroutines and a short interval; TestFlushWritesUsage only adds from one goroutine.
"""
s.assistant(REPORT, agent=AG)
s.result(tid, [{"type": "text", "text": REPORT}], {"status": "completed", "prompt": "In /home/ren/code/quotad ...", "agentId": AG, "content": [{"type": "text", "text": REPORT}], "totalDurationMs": 38120, "totalTokens": 17604, "totalToolUseCount": 9})
s.reads([TR, FL])
s.read(PQ)
s.files["internal/httpapi/middleware.go"] = """package httpapi

import (
	"net/http"

	"github.com/fernline/quotad/pkg/quota"
)

// Quota rejects requests of tenants over their quota with 429.
func Quota(chk quota.Checker, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !chk.Allow(tenantOf(r), costOf(r)) {
			http.Error(w, "quota exceeded", http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}
"""
s.read("internal/httpapi/middleware.go")
sh("sed -n 30,48p cmd/quotad/main.go", "\taddr := cfg.BillingAddr\n\tconn, err := grpc.Dial(addr, grpc.WithInsecure())\n\tif err != nil {\n\t\treturn err\n\t}\n\tdefer conn.Close()\n\tlimits, err := loadLimits(cfg.LimitsFile)\n\tif err != nil {\n\t\treturn err\n\t}\n\tstore := &iq.PGStore{pool: pool}\n\tchk := quota.New(ctx, limits, store, 10*time.Second)\n\tsrv := &http.Server{Addr: cfg.Listen, Handler: httpapi.Quota(chk, api)}\n", desc="Where quota.New is wired")
sh("go test ./... 2>&1 | tail -5", "?   \tgithub.com/fernline/quotad/cmd/quotad\t[no test files]\nok  \tgithub.com/fernline/quotad/internal/httpapi\t0.214s\nok  \tgithub.com/fernline/quotad/internal/quota\t0.118s\n?   \tgithub.com/fernline/quotad/pkg/quota\t[no test files]\n", desc="Tests without -race")
sh("sed -n 1,30p .github/workflows/ci.yml", "name: ci\non:\n  push:\n    branches: [main]\n  pull_request:\njobs:\n  test:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        go: ['1.21.13']\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-go@v5\n        with:\n          go-version: '1.21.13'\n      - run: go vet ./...\n      - run: go test -race -count=3 ./...\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: golangci/golangci-lint-action@v6\n        with:\n          version: v1.58.1\n          only-new-issues: true\n", desc="CI workflow")
sh("ls; wc -l ci-4412.txt", "LICENSE\nMakefile\nREADME.md\nci-4412.txt\ncmd\ngo.mod\ngo.sum\ninternal\npkg\n171 ci-4412.txt\n", desc="Repo root")
sh("sed -n 105,160p ci-4412.txt", RACE.split("\n", 1)[1], desc="Race report from CI")
sh("go version; git log --oneline -5", "go version go1.22.3 linux/amd64\n9c1f7e2 httpapi: 429 body text\n4ad0b18 flusher: log store errors\n2e7716a pg store: batch inserts\n81c03fd pkg/quota: public Checker\ne5a2d40 tracker: per-tenant limits\n", desc="Go version and history")
sh("go test -race -count=20 -run TestFlush ./internal/quota/ 2>&1 | tail -25", RACE.split("==================\n    testing.go")[0].split("Goroutine 9 (running)")[0] + "...\n--- FAIL: TestFlushWritesUsage (0.04s)\nFAIL\nFAIL\tgithub.com/fernline/quotad/internal/quota\t0.913s\nFAIL\n", code=1, desc="Reproduce the race locally")
s.assistant(
    "Reproduced locally. The salient part of the report is the middle block: `Previous read ... (*Tracker).Snapshot() tracker.go:28`, called from `RunFlusher` (flusher.go:23), racing with `Add` at tracker.go:20. Snapshot ranges over the map without the mutex.\n\n"
    "And the agent found a second bug next to it: the flusher does Snapshot, write, Reset in three steps, so every Add between Snapshot and Reset is wiped and never billed. Fixing only the lock would keep that.\n\n"
    "Plan: replace Snapshot + Reset with one `Drain()` that swaps the map under the lock and returns the old one; the flusher writes the drained map and, if the write fails, merges it back. pkg/quota stays as it is. How do you want the counters protected: keep the one mutex (simplest), or something with less contention?"
)

# ============================================================================================ turn 2
s.user("one mutex for everything simplest first\nregression test for the lost adds too\nno testify plain testing")
s.edit(TR, """// Snapshot returns a copy of the current usage.
func (t *Tracker) Snapshot() map[string]int64 {
	out := make(map[string]int64, len(t.usage))
	for k, v := range t.usage {
		out[k] = v
	}
	return out
}

// Reset clears all usage.
func (t *Tracker) Reset() {
	t.mu.Lock()
	t.usage = make(map[string]int64)
	t.mu.Unlock()
}
""", """// Drain returns the usage since the last drain and starts a new period, in one step under
// the lock, so no Add can fall between reading and clearing.
func (t *Tracker) Drain() map[string]int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.usage
	t.usage = make(map[string]int64, len(out))
	return out
}

// Restore adds back usage that could not be flushed.
func (t *Tracker) Restore(d map[string]int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for k, v := range d {
		t.usage[k] += v
	}
}
""")
s.edit(FL, """			snap := t.Snapshot()
			if err := st.AddUsage(ctx, snap); err != nil {
				slog.Error("flush usage", "err", err)
				continue
			}
			t.Reset()""", """			d := t.Drain()
			if len(d) == 0 {
				continue
			}
			if err := st.AddUsage(ctx, d); err != nil {
				slog.Error("flush usage", "err", err, "tenants", len(d))
				t.Restore(d) // keep it for the next tick
			}""")
sh("go build ./... && go vet ./...", "", desc="Build and vet")
sh("grep -rn 'Snapshot()\\|Reset()' --include=*.go . ../billing", "", desc="No callers of the removed methods left")
sh("go test -race -count=20 -run TestFlush ./internal/quota/ 2>&1 | tail -2", "ok  \tgithub.com/fernline/quotad/internal/quota\t1.402s\n", desc="The racing test, 20 runs")
s.read(FT)
s.edit(FT, """func TestFlushWritesUsage(t *testing.T) {""", """// Adds from many goroutines while the flusher drains every millisecond: nothing may be lost.
func TestFlushKeepsConcurrentAdds(t *testing.T) {
	tr := NewTracker(nil)
	st := &memStore{sum: map[string]int64{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { RunFlusher(ctx, tr, st, time.Millisecond); close(done) }()
	var wg sync.WaitGroup
	for g := 0; g < 50; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				tr.Add("acme", 1)
			}
		}()
	}
	wg.Wait()
	cancel()
	<-done
	if err := st.AddUsage(context.Background(), tr.Drain()); err != nil {
		t.Fatal(err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.sum["acme"] != 100000 {
		t.Fatalf("flushed %d, want 100000", st.sum["acme"])
	}
}

func TestFlushWritesUsage(t *testing.T) {""")
sh("git stash -q -- internal/quota/tracker.go internal/quota/flusher.go 2>/dev/null; git stash list | head -2", "stash@{0}: On fix/usage-race: internal/quota/tracker.go internal/quota/flusher.go\n", desc="Check the new test against the old code")
sh("sed -i 's/tr.Drain()/tr.Snapshot()/' internal/quota/flusher_test.go && go test -count=5 -run TestFlushKeepsConcurrentAdds ./internal/quota/ 2>&1 | tail -6; git checkout -q internal/quota/flusher_test.go 2>/dev/null; git stash pop -q", "--- FAIL: TestFlushKeepsConcurrentAdds (0.03s)\n    flusher_test.go:53: flushed 99873, want 100000\n--- FAIL: TestFlushKeepsConcurrentAdds (0.03s)\n    flusher_test.go:53: flushed 99941, want 100000\nFAIL\nFAIL\tgithub.com/fernline/quotad/internal/quota\t0.204s\n", code=1, desc="Old code loses adds (without -race)")
s.assistant("Hm, `git checkout` of the test file threw away my new test too (it was an uncommitted change in that file). Re-adding it.")
sh("git diff --stat", " internal/quota/flusher.go | 12 ++++++++----\n internal/quota/tracker.go | 21 ++++++++++++---------\n 2 files changed, 20 insertions(+), 13 deletions(-)\n", desc="What is still changed")
s.write(FT, s.files[FT], text="Writing flusher_test.go back with the regression test.")
sh("go test -race -count=20 ./internal/quota/ 2>&1 | tail -3", "ok  \tgithub.com/fernline/quotad/internal/quota\t3.418s\n", desc="Race tests, 20 runs")
sh("git diff -- internal/quota/flusher.go", """diff --git a/internal/quota/flusher.go b/internal/quota/flusher.go
index 5be0c21..a83f6d9 100644
--- a/internal/quota/flusher.go
+++ b/internal/quota/flusher.go
@@ -20,12 +20,15 @@ func RunFlusher(ctx context.Context, t *Tracker, st Store, every time.Duration) {
 		case <-ctx.Done():
 			return
 		case <-tick.C:
-			snap := t.Snapshot()
-			if err := st.AddUsage(ctx, snap); err != nil {
-				slog.Error("flush usage", "err", err)
-				continue
+			d := t.Drain()
+			if len(d) == 0 {
+				continue
 			}
-			t.Reset()
+			if err := st.AddUsage(ctx, d); err != nil {
+				slog.Error("flush usage", "err", err, "tenants", len(d))
+				t.Restore(d) // keep it for the next tick
+			}
 		}
 	}
 }
""", desc="Flusher diff")
sh("go test -race -count=3 ./... 2>&1 | tail -8", "?   \tgithub.com/fernline/quotad/cmd/quotad\t[no test files]\nok  \tgithub.com/fernline/quotad/internal/httpapi\t1.212s\nok  \tgithub.com/fernline/quotad/internal/quota\t0.662s\n?   \tgithub.com/fernline/quotad/pkg/quota\t[no test files]\n", desc="Full suite like CI")
s.assistant(
    "Done with one mutex:\n\n"
    "- `Tracker.Drain()` swaps the map under the lock and returns the old one; `Restore()` merges back a batch the store rejected. `Snapshot`/`Reset` are gone (internal only; pkg/quota unchanged).\n"
    "- New `TestFlushKeepsConcurrentAdds` (50 goroutines x 2000 adds, flusher every 1 ms, expects exactly 100000). Against the old code it loses adds: flushed 99873 and 99941 of 100000.\n"
    "- `go test -race -count=20 ./internal/quota/` and `go test -race -count=3 ./...` pass. Plain `testing` only.\n\n"
    "Careful, I made a mess for a moment: `git checkout` of the test file while checking the old code dropped the new test, so I wrote it back."
)

# ============================================================================================ turn 3
s.user("lint")
sh("golangci-lint --version", "golangci-lint has version 1.58.1 built with go1.22.2 from 1b4d1f7c on 2024-05-08T09:31:26Z\n", desc="Lint version")
s.read(LINT)
sh("golangci-lint run ./... 2>&1 | tail -12", """internal/quota/pg_store.go:19:15: Error return value of `res.Close` is not checked (errcheck)
	defer res.Close()
	             ^
cmd/quotad/main.go:33:26: SA1019: grpc.WithInsecure is deprecated: use WithTransportCredentials and insecure.NewCredentials() instead. Will be supported throughout 1.x.  (staticcheck)
	conn, err := grpc.Dial(addr, grpc.WithInsecure())
	                        ^
2 issues:
* errcheck: 1
* staticcheck: 1
""", code=1, desc="golangci-lint")
sh("git stash -q && golangci-lint run ./... 2>&1 | tail -3; git stash pop -q", "2 issues:\n* errcheck: 1\n* staticcheck: 1\n", desc="Same lint on the base commit")
s.assistant(
    "Two issues, both older than this branch (the base commit has the same two):\n\n"
    "1. pg_store.go:19 `defer res.Close()` ignores the batch error (errcheck). That one matters for us: a failed batch would look like a successful flush, and then `Restore` never runs.\n"
    "2. cmd/quotad/main.go:33 `grpc.WithInsecure` deprecated (SA1019). Unrelated to quotas.\n\n"
    "Shall I fix 1 and leave 2?"
)
s.user("yes fix 1\nleave the grpc one its in ticket QD-88 with the tls work")
s.files["internal/quota/pg_store.go"] = """package quota

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

type PGStore struct{ pool *pgxpool.Pool }

func (s *PGStore) AddUsage(ctx context.Context, deltas map[string]int64) error {
	batch := &pgx.Batch{}
	for tenant, n := range deltas {
		batch.Queue(`INSERT INTO usage (tenant, units) VALUES ($1, $2)
			ON CONFLICT (tenant) DO UPDATE SET units = usage.units + EXCLUDED.units`, tenant, n)
	}
	res := s.pool.SendBatch(ctx, batch)
	defer res.Close()
	return nil
}
"""
s.read("internal/quota/pg_store.go")
s.edit("internal/quota/pg_store.go", """	res := s.pool.SendBatch(ctx, batch)
	defer res.Close()
	return nil
}""", """	// Close reports the first error of the batch; without it a failed insert looked like a flush.
	return s.pool.SendBatch(ctx, batch).Close()
}""")
sh("golangci-lint run ./... 2>&1 | tail -6", """cmd/quotad/main.go:33:26: SA1019: grpc.WithInsecure is deprecated: use WithTransportCredentials and insecure.NewCredentials() instead. Will be supported throughout 1.x.  (staticcheck)
	conn, err := grpc.Dial(addr, grpc.WithInsecure())
	                        ^
1 issues:
* staticcheck: 1
""", code=1, desc="Lint again")
sh("go test -race -count=3 ./... 2>&1 | tail -4", "ok  \tgithub.com/fernline/quotad/internal/httpapi\t1.198s\nok  \tgithub.com/fernline/quotad/internal/quota\t0.671s\n?   \tgithub.com/fernline/quotad/pkg/quota\t[no test files]\n", desc="Tests")
s.assistant("pg_store now returns the batch's `Close()` error, so a failed insert goes through `Restore`. Only the SA1019 grpc warning is left, as agreed (QD-88). Tests pass with -race.")

# ============================================================================================ turn 4
s.user("billing did a load test against staging\np99 of allow went from 0.4ms to 3ms at 40k rps all goroutines wait on that one mutex\nactually use sync.Map with an atomic int64 per tenant no global lock")
(wid,) = s.assistant("First a benchmark of the contended path, so we can compare.", calls=[("Write", {"file_path": s.abs("internal/quota/bench_test.go"), "content": "package quota\n\n// BenchmarkAddParallel ...\n"})])
s.result(wid, "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>", "Error: File has not been read yet. Read it first before writing to it.", is_error=True)
s.files["internal/quota/bench_test.go"] = """package quota

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// BenchmarkPGStore needs QUOTAD_TEST_PG; skipped otherwise.
func BenchmarkPGStore(b *testing.B) {
	dsn := os.Getenv("QUOTAD_TEST_PG")
	if dsn == "" {
		b.Skip("QUOTAD_TEST_PG not set")
	}
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	st := &PGStore{pool: pool}
	d := map[string]int64{"acme": 1, "globex": 2}
	for i := 0; i < b.N; i++ {
		if err := st.AddUsage(context.Background(), d); err != nil {
			b.Fatal(err)
		}
	}
}
"""
s.read("internal/quota/bench_test.go")
s.write("internal/quota/tracker_bench_test.go", """package quota

import (
	"strconv"
	"testing"
)

// 512 tenants, all goroutines adding at once: the contended path of Allow.
func BenchmarkAddParallel(b *testing.B) {
	tr := NewTracker(nil)
	tenants := make([]string, 512)
	for i := range tenants {
		tenants[i] = "t" + strconv.Itoa(i)
	}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			tr.Add(tenants[i%len(tenants)], 1)
			i++
		}
	})
}
""", text="bench_test.go already exists and holds `BenchmarkPGStore` (needs QUOTAD_TEST_PG), so my benchmark goes into a new tracker_bench_test.go.")
sh("go test -run '^$' -bench AddParallel -benchtime 2s -cpu 16 -mutexprofile /tmp/mutex.out ./internal/quota/ >/dev/null && go tool pprof -top -nodecount=4 /tmp/mutex.out 2>/dev/null | tail -5", "Showing nodes accounting for 2.41s, 100% of 2.41s total\n      flat  flat%   sum%        cum   cum%\n     2.41s   100%   100%      2.41s   100%  sync.(*Mutex).Unlock\n         0     0%   100%      2.41s   100%  github.com/fernline/quotad/internal/quota.(*Tracker).Add\n         0     0%   100%      2.41s   100%  github.com/fernline/quotad/internal/quota.BenchmarkAddParallel.func1\n", desc="Mutex profile")
sh("go test -run '^$' -bench AddParallel -benchtime 2s -cpu 16 ./internal/quota/", "goos: linux\ngoarch: amd64\npkg: github.com/fernline/quotad/internal/quota\ncpu: AMD Ryzen 9 7950X 16-Core Processor\nBenchmarkAddParallel-16    \t40712388\t        61.2 ns/op\nPASS\nok  \tgithub.com/fernline/quotad/internal/quota\t2.771s\n", desc="Baseline: one mutex")
s.read(TR)
s.write(TR, """package quota

import (
	"sync"
	"sync/atomic"
)

// Tracker counts usage per tenant since the last drain. Counters are *atomic.Int64 in a
// sync.Map, so Add takes no global lock.
type Tracker struct {
	usage  sync.Map // tenant -> *atomic.Int64
	limits map[string]int64
}

func NewTracker(limits map[string]int64) *Tracker {
	return &Tracker{limits: limits}
}

// Add records n units for tenant and reports whether the tenant is still within its limit.
func (t *Tracker) Add(tenant string, n int64) bool {
	v, ok := t.usage.Load(tenant)
	if !ok {
		v, _ = t.usage.LoadOrStore(tenant, new(atomic.Int64))
	}
	total := v.Add(n)
	lim, limited := t.limits[tenant]
	return !limited || total <= lim
}

// Drain returns the usage since the last drain and removes the tenants it read.
func (t *Tracker) Drain() map[string]int64 {
	out := make(map[string]int64)
	t.usage.Range(func(k, v any) bool {
		out[k.(string)] = v.(*atomic.Int64).Load()
		t.usage.Delete(k)
		return true
	})
	return out
}

// Restore adds back usage that could not be flushed.
func (t *Tracker) Restore(d map[string]int64) {
	for k, n := range d {
		t.Add(k, n)
	}
}
""", text="Now the sync.Map version.")
sh("go build ./...", "# github.com/fernline/quotad/internal/quota\ninternal/quota/tracker.go:25:13: v.Add undefined (type any has no field or method Add)\n", code=1, desc="Build")
s.edit(TR, """	total := v.Add(n)""", """	total := v.(*atomic.Int64).Add(n)""")
sh("go build ./... && go vet ./... && go test -race -count=20 ./internal/quota/ 2>&1 | tail -6", "--- FAIL: TestFlushKeepsConcurrentAdds (0.04s)\n    flusher_test.go:52: flushed 99958, want 100000\n--- FAIL: TestFlushKeepsConcurrentAdds (0.03s)\n    flusher_test.go:52: flushed 99991, want 100000\nFAIL\nFAIL\tgithub.com/fernline/quotad/internal/quota\t3.117s\n", code=1, desc="Build, vet, race tests")
s.assistant(
    "No race report, but the regression test catches lost adds again (99958 and 99991 of 100000). My `Drain` does `Load` then `Delete`: an `Add` that already holds the counter pointer increments it after the `Load`, and then the counter is deleted with that increment in it. "
    "The safe form is `Swap(0)` on each counter and leaving the entry in the map."
)
s.edit(TR, """// Drain returns the usage since the last drain and removes the tenants it read.
func (t *Tracker) Drain() map[string]int64 {
	out := make(map[string]int64)
	t.usage.Range(func(k, v any) bool {
		out[k.(string)] = v.(*atomic.Int64).Load()
		t.usage.Delete(k)
		return true
	})
	return out
}""", """// Drain returns the usage since the last drain; each counter is swapped to zero atomically.
// Entries stay in the map: deleting them could lose an Add that already holds the pointer.
func (t *Tracker) Drain() map[string]int64 {
	out := make(map[string]int64)
	t.usage.Range(func(k, v any) bool {
		if n := v.(*atomic.Int64).Swap(0); n != 0 {
			out[k.(string)] = n
		}
		return true
	})
	return out
}""")
sh("go test -race -count=20 ./internal/quota/ 2>&1 | tail -3 && go test -run '^$' -bench AddParallel -benchtime 2s -cpu 16 ./internal/quota/ | grep Benchmark", "ok  \tgithub.com/fernline/quotad/internal/quota\t3.902s\nBenchmarkAddParallel-16    \t63120544\t        38.4 ns/op\n", desc="Race tests and bench")
sh("go test -run '^$' -bench AddParallel -benchtime 1s -cpu 1,4,16 ./internal/quota/ | grep Benchmark", "BenchmarkAddParallel      \t41820375\t        28.6 ns/op\nBenchmarkAddParallel-4    \t52114870\t        23.0 ns/op\nBenchmarkAddParallel-16   \t31840112\t        38.1 ns/op\n", desc="sync.Map bench at 1, 4, 16 CPUs")
s.assistant(
    "sync.Map version in: counters are `*atomic.Int64` in a `sync.Map`, `Drain` swaps each to 0, `Restore` re-adds. No global lock in `Add`. Race tests pass (20 runs).\n\n"
    "Bench (16 goroutines, 512 tenants): 38.4 ns/op vs 61.2 ns/op with the one mutex. Two caveats: tenants are never removed from the sync.Map (a drained tenant keeps its zero counter forever), and `Drain` is not one atomic snapshot across tenants, only per counter; for billing totals that is fine since no add is lost."
)

# ============================================================================================ turn 5
s.user("hmm tenants never removed is bad we have trial tenants churning 20k a day\nno go back to a mutex but shard it 32 ways by fnv hash of the tenant\ndrain swaps all shard maps")
s.read(TR)
s.write(TR, """package quota

import (
	"hash/fnv"
	"sync"
)

const shardCount = 32

type shard struct {
	mu    sync.Mutex
	usage map[string]int64
}

// Tracker counts usage per tenant since the last drain, in shardCount maps chosen by an FNV-1a
// hash of the tenant, each with its own mutex: Adds for different tenants rarely wait.
type Tracker struct {
	shards [shardCount]shard
	limits map[string]int64
}

func NewTracker(limits map[string]int64) *Tracker {
	t := &Tracker{limits: limits}
	for i := range shardCount {
		t.shards[i].usage = make(map[string]int64)
	}
	return t
}

func (t *Tracker) shardFor(tenant string) *shard {
	h := fnv.New32a()
	h.Write([]byte(tenant))
	return &t.shards[h.Sum32()%shardCount]
}

// Add records n units for tenant and reports whether the tenant is still within its limit.
func (t *Tracker) Add(tenant string, n int64) bool {
	sh := t.shardFor(tenant)
	sh.mu.Lock()
	sh.usage[tenant] += n
	total := sh.usage[tenant]
	sh.mu.Unlock()
	lim, ok := t.limits[tenant]
	return !ok || total <= lim
}

// Drain swaps every shard's map for an empty one and returns the union of the old ones.
// Tenants drop out of the maps at each drain, so churned tenants do not accumulate.
func (t *Tracker) Drain() map[string]int64 {
	out := make(map[string]int64)
	for _, sh := range t.shards {
		sh.mu.Lock()
		old := sh.usage
		sh.usage = make(map[string]int64, len(old))
		sh.mu.Unlock()
		for k, v := range old {
			out[k] = v
		}
	}
	return out
}

// Restore adds back usage that could not be flushed.
func (t *Tracker) Restore(d map[string]int64) {
	for k, n := range d {
		t.Add(k, n)
	}
}
""", text="Back to mutexes, 32 shards by FNV-1a.")
sh("go build ./... && go vet ./...", "# github.com/fernline/quotad/internal/quota\ninternal/quota/tracker.go:25:17: cannot range over shardCount (untyped int constant 32): requires go1.22 or later (-lang was set to go1.21; check go.mod)\n", code=1, desc="Build and vet")
s.assistant("My mistake: `for i := range shardCount` is Go 1.22 range-over-int, and go.mod says `go 1.21` (prod builds are 1.21, as you said). Back to a classic loop.")
s.edit(TR, """	for i := range shardCount {""", """	for i := 0; i < shardCount; i++ {""")
sh("go build ./... && go vet ./...", "# github.com/fernline/quotad/internal/quota\n# [github.com/fernline/quotad/internal/quota]\ninternal/quota/tracker.go:48:9: range var sh copies lock: github.com/fernline/quotad/internal/quota.shard contains sync.Mutex\n", code=1, desc="Build and vet")
s.assistant("go vet (copylocks) is right, and this one is a real bug, not style: `for _, sh := range t.shards` copies each shard, so Drain would lock a copy's mutex and swap the copy's map, and the real shards would never be drained. Iterating by index with a pointer.")
s.edit(TR, """	for _, sh := range t.shards {
		sh.mu.Lock()""", """	for i := range t.shards {
		sh := &t.shards[i]
		sh.mu.Lock()""")
sh("go build ./... && go vet ./... && echo vet ok", "vet ok\n", desc="Build and vet")
sh("GOTOOLCHAIN=go1.21.13 go build ./... && GOTOOLCHAIN=go1.21.13 go vet ./... && GOTOOLCHAIN=go1.21.13 go version", "go version go1.21.13 linux/amd64\n", desc="Build and vet with the prod Go version")
sh("""cat > /tmp/shards.go <<'EOF'
package main

import (
	"fmt"
	"hash/fnv"
)

func main() {
	var n [32]int
	for i := 0; i < 20000; i++ {
		h := fnv.New32a()
		h.Write([]byte(fmt.Sprintf("trial-%08d", i)))
		n[h.Sum32()%32]++
	}
	lo, hi := n[0], n[0]
	for _, c := range n {
		lo, hi = min(lo, c), max(hi, c)
	}
	fmt.Println("min", lo, "max", hi)
}
EOF
go run /tmp/shards.go""", "min 581 max 671\n", desc="FNV spread of 20k trial tenant ids over 32 shards")
sh("go test -race -count=20 ./internal/quota/ 2>&1 | tail -3", "ok  \tgithub.com/fernline/quotad/internal/quota\t3.655s\n", desc="Race tests")
sh("go test -run '^$' -bench AddParallel -benchtime 2s -cpu 16 -count 3 ./internal/quota/ | grep Benchmark", "BenchmarkAddParallel-16    \t247815090\t         9.71 ns/op\nBenchmarkAddParallel-16    \t251004338\t         9.64 ns/op\nBenchmarkAddParallel-16    \t244420918\t         9.88 ns/op\n", desc="Bench sharded")
sh("go test -run '^$' -bench AddParallel -benchmem -cpu 16 ./internal/quota/ | grep Benchmark", "BenchmarkAddParallel-16   \t123908551\t         9.77 ns/op\t       0 B/op\t       0 allocs/op\n", desc="Allocations")
sh("go test -cover ./internal/quota/", "ok  \tgithub.com/fernline/quotad/internal/quota\t0.131s\tcoverage: 88.9% of statements\n", desc="Coverage")
sh("golangci-lint run ./... 2>&1 | tail -6", """internal/quota/tracker.go:33:9: Error return value of `h.Write` is not checked (errcheck)
	h.Write([]byte(tenant))
	       ^
cmd/quotad/main.go:33:26: SA1019: grpc.WithInsecure is deprecated: use WithTransportCredentials and insecure.NewCredentials() instead. Will be supported throughout 1.x.  (staticcheck)
	conn, err := grpc.Dial(addr, grpc.WithInsecure())
	                        ^
2 issues:
* errcheck: 2
""", code=1, desc="Lint")
s.edit(TR, """	h.Write([]byte(tenant))""", """	_, _ = h.Write([]byte(tenant)) // hash.Hash.Write never returns an error""")
sh("golangci-lint run ./... 2>&1 | tail -3", "\tconn, err := grpc.Dial(addr, grpc.WithInsecure())\n\t                        ^\n1 issues:\n* staticcheck: 1\n", code=1, desc="Lint again")
s.edit(TT, """func TestUnknownTenantUnlimited(t *testing.T) {""", """func TestDrainForgetsTenants(t *testing.T) {
	tr := NewTracker(nil)
	for i := 0; i < 1000; i++ {
		tr.Add("trial-"+string(rune('a'+i%26))+string(rune('a'+i/26%26)), 1)
	}
	if got := len(tr.Drain()); got == 0 {
		t.Fatal("first drain returned nothing")
	}
	n := 0
	for i := range tr.shards {
		n += len(tr.shards[i].usage)
	}
	if n != 0 {
		t.Fatalf("%d tenants left in shards after drain", n)
	}
}

func TestUnknownTenantUnlimited(t *testing.T) {""")
sh("go test -race -count=50 -run 'TestFlushKeepsConcurrentAdds|TestDrainForgetsTenants' ./internal/quota/ 2>&1 | tail -2", "ok  \tgithub.com/fernline/quotad/internal/quota\t4.877s\n", desc="Regression tests, 50 runs")
sh("go test -race -count=3 ./... 2>&1 | tail -4", "ok  \tgithub.com/fernline/quotad/internal/httpapi\t1.204s\nok  \tgithub.com/fernline/quotad/internal/quota\t0.702s\n?   \tgithub.com/fernline/quotad/pkg/quota\t[no test files]\n", desc="Full suite")
s.assistant(
    "Sharded version in:\n\n"
    "- 32 shards (`shardCount`), each a `sync.Mutex` + `map[string]int64`, chosen by FNV-1a of the tenant. `Drain` swaps every shard's map, so drained tenants disappear (new test `TestDrainForgetsTenants`).\n"
    "- Two errors on the way: range-over-int needs Go 1.22 (go.mod is 1.21), and go vet copylocks caught `range t.shards` copying the shards, which would have drained copies. Both fixed; builds with GOTOOLCHAIN=go1.21.13.\n"
    "- Bench: 9.64-9.88 ns/op (was 38.4 with sync.Map, 61.2 with one mutex).\n"
    "- golangci-lint: only the grpc SA1019 left (QD-88). -race suite passes."
)

# ============================================================================================ turn 6
s.user("good\nwhat about limits its a plain map read from every goroutine")
sh("grep -rn 'limits' --include=*.go . | grep -v _test", "./internal/quota/tracker.go:19:\tlimits map[string]int64\n./internal/quota/tracker.go:23:\tt := &Tracker{limits: limits}\n./internal/quota/tracker.go:44:\tlim, ok := t.limits[tenant]\n./pkg/quota/quota.go:21:func New(ctx context.Context, limits map[string]int64, st iq.Store, flushEvery time.Duration) Checker {\n./cmd/quotad/main.go:38:\tlimits, err := loadLimits(cfg.LimitsFile)\n", desc="Who touches limits")
sh("grep -n 'SIGHUP\\|reload' -r cmd internal | head", "", desc="Any reload path")
sh("grep -n 'func loadLimits' -A8 cmd/quotad/limits.go", "12:func loadLimits(path string) (map[string]int64, error) {\n13-\tb, err := os.ReadFile(path)\n14-\tif err != nil {\n15-\t\treturn nil, err\n16-\t}\n17-\tm := map[string]int64{}\n18-\treturn m, json.Unmarshal(b, &m)\n19-}\n", desc="How limits are loaded")
s.assistant(
    "Safe today: `limits` is written once in `NewTracker` and only read afterwards; concurrent reads of a Go map are fine. There is no reload path (no SIGHUP handler, nothing writes it). "
    "If limits ever become reloadable, they need an `atomic.Pointer[map[string]int64]` swap (Go 1.19+, fine for 1.21). Nothing to change now."
)

# ============================================================================================ turn 7
s.user("ok leave it\nbilling also calls New twice in their tests does that leak flusher goroutines")
sh("grep -n 'quota.New' ../billing/internal/meter/*.go", "../billing/internal/meter/meter.go:27:\tm.chk = quota.New(ctx, cfg.Limits, store, cfg.FlushEvery)\n../billing/internal/meter/meter_test.go:19:\tchk := quota.New(context.Background(), nil, fakeStore{}, time.Second)\n../billing/internal/meter/meter_test.go:41:\tchk := quota.New(context.Background(), nil, fakeStore{}, time.Second)\n", desc="billing's calls")
sh("sed -n 15,24p ../billing/internal/meter/meter_test.go", "func TestMeterCounts(t *testing.T) {\n\tst := fakeStore{}\n\t// TODO cancel\n\tchk := quota.New(context.Background(), nil, fakeStore{}, time.Second)\n\tm := &Meter{chk: chk}\n\tm.Record(\"acme\", 3)\n\tif st.n != 0 {\n\t\tt.Fatal(\"flushed too early\")\n\t}\n}\n", desc="billing test")
s.assistant(
    "Yes, in their tests: each `quota.New(context.Background(), ...)` starts a `RunFlusher` goroutine that only stops on ctx cancel, and Background is never cancelled, so meter_test.go:19 and :41 leak one flusher each for the rest of the test binary. In production meter.go:27 passes a real ctx, so it's fine there.\n\n"
    "Fix is on their side (pass a ctx they cancel in `t.Cleanup`); pkg/quota's API already allows it, so nothing changes here."
)
s.user("ill tell them\ncommit\nmessage fix usage race and lost adds in flusher")
sh("go mod tidy && git diff --exit-code go.mod go.sum && echo tidy", "tidy\n", desc="go.mod unchanged")
sh("git diff --stat", " internal/quota/flusher.go      | 13 +++++---\n internal/quota/flusher_test.go | 30 ++++++++++++++++++\n internal/quota/pg_store.go     |  5 ++-\n internal/quota/tracker.go      | 74 ++++++++++++++++++++++++++++------------\n internal/quota/tracker_test.go | 17 ++++++++++\n 5 files changed, 103 insertions(+), 36 deletions(-)\n", desc="Diff stat")
sh("git add -A internal && git status --short", "M  internal/quota/flusher.go\nM  internal/quota/flusher_test.go\nM  internal/quota/pg_store.go\nM  internal/quota/tracker.go\nA  internal/quota/tracker_bench_test.go\nM  internal/quota/tracker_test.go\n", desc="Stage")
sh("go vet ./... && go test -race -count=1 ./... 2>&1 | tail -3", "ok  \tgithub.com/fernline/quotad/internal/httpapi\t1.187s\nok  \tgithub.com/fernline/quotad/internal/quota\t0.433s\n?   \tgithub.com/fernline/quotad/pkg/quota\t[no test files]\n", desc="Vet and test")
sh("git commit -qm 'fix usage race and lost adds in flusher' && git log --oneline -2", "f3a09c1 fix usage race and lost adds in flusher\n9c1f7e2 httpapi: 429 body text\n", desc="Commit")
s.assistant("Committed f3a09c1 on fix/usage-race (not pushed). The contention benchmark is in tracker_bench_test.go; bench_test.go (BenchmarkPGStore) is untouched.")

# ============================================================================================ turn 8
s.user("push and open a pr\nthen a prometheus counter for failed flushes but not today")
sh("git log --oneline origin/main..HEAD", "f3a09c1 fix usage race and lost adds in flusher\n", desc="What will be pushed")
sh("git push -u origin fix/usage-race 2>&1 | tail -3", "To github.com:fernline/quotad.git\n * [new branch]      fix/usage-race -> fix/usage-race\nbranch 'fix/usage-race' set up to track 'origin/fix/usage-race'.\n", desc="Push")
sh("gh pr create --title 'fix usage race and lost adds in flusher' --body 'Drain swaps usage under the lock (no race, no lost adds); 32-way sharded mutex (9.7 ns/op vs 61.2); pg store returns batch Close error. grpc SA1019 left for QD-88.' 2>&1 | tail -1", "https://github.com/fernline/quotad/pull/217\n", desc="Open PR")
sh("sleep 150; gh pr checks 217", "golangci-lint\tpass\t1m04s\thttps://github.com/fernline/quotad/actions/runs/9177234512/job/25231998310\ntest (1.21.13)\tpass\t2m11s\thttps://github.com/fernline/quotad/actions/runs/9177234512/job/25231998127\n", desc="CI on the PR")
s.assistant("PR #217 is open: https://github.com/fernline/quotad/pull/217. The Prometheus counter for failed flushes is noted for later; not started. CI on the PR is green (test on Go 1.21.13 with -race: 2m11s; golangci-lint: pass, it reports only new issues).")

s.save(HERE / "session.jsonl")
