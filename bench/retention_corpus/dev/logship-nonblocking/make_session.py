# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Codex CLI rollout, written by hand for the held-out retention corpus.

A non-native English speaker has Codex make a Go audit-log ingest service stop blocking on its
slow sink: a bounded queue with workers, a channel experiment that loses to the mutex, retries,
env config, /healthz, a byte limit, and graceful shutdown left half done.
Run: python make_session.py (from anywhere)
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))  # the corpus: its writers are in synth/

import files as F  # noqa: E402
from synth.codex_writer import Rollout, git_diff  # noqa: E402

r = Rollout("/home/okan/src/logship", "2025-11-20T07:41:10", seed="logship-nonblocking", repo_url="git@github.com:okanb/logship.git")
r.files.update(
    {
        "go.mod": F.GO_MOD,
        "cmd/logship/main.go": F.MAIN,
        "internal/config/config.go": F.CONFIG,
        "internal/sink/sink.go": F.SINK,
        "internal/ingest/handler.go": F.HANDLER,
        "internal/ingest/handler_test.go": F.HANDLER_TEST,
    }
)
committed = dict(r.files)
PKG = "github.com/okanb/logship"


def verbose(tests: dict[str, list[tuple[str, str]]]) -> str:
    """`go test -race -count=1 -v ./...` output for these passing tests per package."""
    out = [f"?   \t{PKG}/cmd/logship\t[no test files]"]
    for pkg, names in tests.items():
        for name, secs in names:
            out += [f"=== RUN   {name}", f"--- PASS: {name} ({secs}s)"]
        out += ["PASS", f"ok  \t{PKG}/internal/{pkg}\t1.{len(names) * 7 + 10:03d}s"]
    return "\n".join(out) + "\n"


CONFIG_TESTS = [("TestFromEnvDefaults", "0.00"), ("TestSinkURLRequired", "0.00"), ("TestSinkTimeoutParse", "0.00"), ("TestMaxEventBytesPositive", "0.00")]
SINK_TESTS = [("TestWriteOK", "0.00"), ("TestWriteStatusError", "0.00"), ("TestWriteTimeout", "0.51"), ("TestWriteSetsContentType", "0.00")]
INGEST_TESTS = [("TestAcceptsValidEvent", "0.01"), ("TestRejectsInvalidJSON", "0.00"), ("TestHandlerDoesNotBlock", "0.00"), ("TestRejectsTooLarge", "0.00"), ("TestRetriesOn5xx", "0.00"), ("TestNoRetryOn4xx", "0.00"), ("TestGivesUpAfterFourAttempts", "0.00"), ("TestQueueDropsOldestWhenFull", "0.00")]

# ------------------------------------------------------------------ turn 1: not block
r.user(
    "hello. we have a problem in logship: when the sink (elastic behind the proxy) is slow, the "
    "POST /events handler is waiting for it, and the clients timeout after 3s and send the event "
    "again so we get duplicates. please you make the handler not block, is important. the "
    "exported API of package sink must stay same, billing service import it.",
    pause=0,
)
r.run(
    "git ls-files && go version",
    "cmd/logship/main.go\ngo.mod\ngo.sum\ninternal/config/config.go\ninternal/config/config_test.go\n"
    "internal/ingest/handler.go\ninternal/ingest/handler_test.go\ninternal/sink/sink.go\n"
    "internal/sink/sink_test.go\ntestdata/sample_events.jsonl\ngo version go1.22.5 linux/amd64\n",
    reasoning="**Exploring the repository**\n\nI'll list the files and read the handler and the sink first.",
)
r.cat("go.mod")
r.cat("internal/ingest/handler.go")
r.cat("internal/sink/sink.go")
r.cat("internal/config/config.go")
r.cat("cmd/logship/main.go")
r.cat("internal/ingest/handler_test.go")
r.run(
    "go test ./...",
    f"?   \t{PKG}/cmd/logship\t[no test files]\nok  \t{PKG}/internal/config\t0.004s\n"
    f"ok  \t{PKG}/internal/ingest\t0.011s\nok  \t{PKG}/internal/sink\t0.019s\n",
    secs=4.1,
)
r.say(
    "The handler calls `h.sink.Write(r.Context(), body)` inline, so every request waits for the "
    "sink (up to `SinkTimeout`, 10s). Plan: accept the event into an in-memory queue, answer 202 "
    "at once, and let background workers write to the sink. Package `sink` stays as it is; all "
    "the change is in `internal/ingest`. First a test that shows the blocking.",
    reasoning="**Planning non-blocking ingest**\n\nA bounded queue plus worker goroutines; test with a sink that blocks.",
)
r.patch(
    [
        (
            "update",
            "internal/ingest/handler_test.go",
            [
                (
                    'import (\n\t"context"\n\t"net/http"\n\t"net/http/httptest"\n\t"strings"\n\t"sync"\n\t"testing"\n)\n',
                    'import (\n\t"context"\n\t"net/http"\n\t"net/http/httptest"\n\t"strings"\n\t"sync"\n\t"testing"\n\t"time"\n)\n',
                ),
                (
                    'func TestRejectsTooLarge(t *testing.T) {',
                    "// blockingSink never returns until release is closed: a sink that hangs.\n"
                    "type blockingSink struct{ release chan struct{} }\n\n"
                    "func (b *blockingSink) Write(ctx context.Context, _ []byte) error {\n"
                    "\tselect {\n\tcase <-b.release:\n\tcase <-ctx.Done():\n\t}\n\treturn nil\n}\n\n"
                    "func TestHandlerDoesNotBlock(t *testing.T) {\n"
                    "\ts := &blockingSink{release: make(chan struct{})}\n"
                    "\tdefer close(s.release)\n"
                    "\th := NewHandler(s, 1<<20)\n"
                    "\tdone := make(chan int, 1)\n"
                    "\tgo func() { done <- post(t, h, `{\"actor\":\"okan\"}`).Code }()\n"
                    "\tselect {\n"
                    "\tcase code := <-done:\n"
                    "\t\tif code != http.StatusAccepted {\n\t\t\tt.Fatalf(\"status %d, want 202\", code)\n\t\t}\n"
                    "\tcase <-time.After(2 * time.Second):\n"
                    "\t\tt.Fatalf(\"POST still waiting after 2s with a hanging sink, want an answer at once\")\n"
                    "\t}\n}\n\n"
                    "func TestRejectsTooLarge(t *testing.T) {",
                ),
            ],
        )
    ]
)
r.run(
    "go test ./internal/ingest/ -v -count=1",
    "=== RUN   TestAcceptsValidEvent\n--- PASS: TestAcceptsValidEvent (0.00s)\n"
    "=== RUN   TestRejectsInvalidJSON\n--- PASS: TestRejectsInvalidJSON (0.00s)\n"
    "=== RUN   TestHandlerDoesNotBlock\n"
    "    handler_test.go:72: POST still waiting after 2s with a hanging sink, want an answer at once\n"
    "--- FAIL: TestHandlerDoesNotBlock (2.00s)\n"
    "=== RUN   TestRejectsTooLarge\n--- PASS: TestRejectsTooLarge (0.00s)\n"
    f"FAIL\nFAIL\t{PKG}/internal/ingest\t2.014s\nFAIL\n",
    code=1,
    secs=3.2,
)
QUEUE_V1 = """\
package ingest

import (
	"sync"
	"time"
)

// Event is one accepted event waiting for the sink.
type Event struct {
	Body     []byte
	Received time.Time
}

// Queue is an unbounded FIFO of events shared by the handler and the workers.
type Queue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []Event
	closed bool
}

func NewQueue() *Queue {
	q := &Queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Push adds an event and wakes one worker.
func (q *Queue) Push(ev Event) {
	q.mu.Lock()
	q.items = append(q.items, ev)
	q.mu.Unlock()
	q.cond.Signal()
}

// pop blocks until there is an event or the queue is closed and empty.
func (q *Queue) pop() (Event, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.items) == 0 {
		return Event{}, false
	}
	n := len(q.items)
	ev := q.items[0]
	q.items = q.items[1:]
	return ev, true
}

// Len is the number of events waiting.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}

// Close wakes every worker; Pop returns false once the queue is empty.
func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}
"""
r.patch(
    [
        ("add", "internal/ingest/queue.go", QUEUE_V1),
        (
            "update",
            "internal/ingest/handler.go",
            [
                (
                    '\t"log/slog"\n\t"net/http"\n',
                    '\t"context"\n\t"log/slog"\n\t"net/http"\n\t"time"\n',
                ),
                (
                    "type Handler struct {\n\tsink     sink.Sink\n\tmaxBytes int64\n}\n\n"
                    "func NewHandler(s sink.Sink, maxBytes int64) *Handler {\n"
                    "\treturn &Handler{sink: s, maxBytes: maxBytes}\n}\n",
                    "type Handler struct {\n\tsink     sink.Sink\n\tmaxBytes int64\n\tqueue    *Queue\n}\n\n"
                    "// NewHandler starts the workers that write queued events to s.\n"
                    "func NewHandler(s sink.Sink, maxBytes int64) *Handler {\n"
                    "\th := &Handler{sink: s, maxBytes: maxBytes, queue: NewQueue()}\n"
                    "\tfor i := 0; i < 4; i++ {\n\t\tgo h.worker()\n\t}\n"
                    "\treturn h\n}\n",
                ),
                (
                    "\treceived.Inc()\n"
                    "\tif err := h.sink.Write(r.Context(), body); err != nil {\n"
                    "\t\tfailed.Inc()\n"
                    "\t\tslog.Error(\"sink write failed\", \"err\", err)\n"
                    "\t\thttp.Error(w, \"sink unavailable\", http.StatusBadGateway)\n"
                    "\t\treturn\n\t}\n"
                    "\tw.WriteHeader(http.StatusAccepted)\n}\n",
                    "\treceived.Inc()\n"
                    "\tev := &Event{Body: body, Received: time.Now()}\n"
                    "\th.queue.Push(ev)\n"
                    "\tw.WriteHeader(http.StatusAccepted)\n}\n\n"
                    "// worker writes queued events to the sink until the queue is closed.\n"
                    "func (h *Handler) worker() {\n"
                    "\tfor {\n"
                    "\t\tev, ok := h.queue.Pop()\n"
                    "\t\tif !ok {\n\t\t\treturn\n\t\t}\n"
                    "\t\t// The request is gone: the write gets its own context.\n"
                    "\t\tif err := h.sink.Write(context.Background(), ev.Body); err != nil {\n"
                    "\t\t\tfailed.Inc()\n"
                    "\t\t\tslog.Error(\"sink write failed\", \"err\", err, \"age\", time.Since(ev.Received))\n"
                    "\t\t}\n\t}\n}\n",
                ),
            ],
        ),
    ],
    reasoning="**Adding the queue and workers**\n\nA mutex-protected slice with a sync.Cond; 4 workers for now.",
)
r.run(
    "go vet ./... && go test ./...",
    f"# {PKG}/internal/ingest\n"
    "internal/ingest/queue.go:46:2: declared and not used: n\n"
    "internal/ingest/handler.go:66:16: cannot use ev (variable of type *Event) as Event value in argument to h.queue.Push\n"
    "internal/ingest/handler.go:74:20: h.queue.Pop undefined (type *Queue has no field or method Pop, but does have method pop)\n"
    f"FAIL\t{PKG}/internal/ingest [build failed]\n",
    code=1,
    secs=1.6,
)
r.patch(
    [
        ("update", "internal/ingest/queue.go", [
            ("\tn := len(q.items)\n\tev := q.items[0]\n", "\tev := q.items[0]\n"),
            ("// pop blocks until there is an event or the queue is closed and empty.\nfunc (q *Queue) pop()", "// Pop blocks until there is an event or the queue is closed and empty.\nfunc (q *Queue) Pop()"),
        ]),
        ("update", "internal/ingest/handler.go", [
            ("\tev := &Event{Body: body, Received: time.Now()}\n", "\tev := Event{Body: body, Received: time.Now()}\n"),
        ]),
    ],
    reasoning="**Fixing the build**\n\nPush takes an Event value; Pop must be exported for the handler file? Same package, but the name is Pop in the call.",
)
r.run(
    "go vet ./... && go test -race -count=1 ./...",
    f"?   \t{PKG}/cmd/logship\t[no test files]\nok  \t{PKG}/internal/config\t1.021s\n"
    f"ok  \t{PKG}/internal/ingest\t1.043s\nok  \t{PKG}/internal/sink\t1.058s\n",
    secs=9.8,
)
r.say(
    "Done, the handler does not wait for the sink any more:\n\n"
    "- `internal/ingest/queue.go` (new): `Queue`, a FIFO protected by a mutex with a `sync.Cond`; "
    "`Push`, `Pop` (blocks), `Len`, `Close`.\n"
    "- `internal/ingest/handler.go`: `ServeHTTP` validates, pushes the event and answers **202** "
    "at once; `NewHandler` starts 4 worker goroutines that call `sink.Write` with their own "
    "context.\n"
    "- The build first failed (`cannot use ev (variable of type *Event) as Event value in argument "
    "to h.queue.Push`): fixed by pushing the value and exporting `Pop`.\n"
    "- `TestHandlerDoesNotBlock` passes; `go test -race ./...` is green. Package `sink` is "
    "unchanged.\n\n"
    "Open question: the queue has no limit yet, so a sink that is down for long makes memory grow."
)

# ------------------------------------------------------------------ turn 2: size and workers
r.user(
    "ok good. 4 workers is ok for now. queue max 1000 events, when is full we drop the oldest one "
    "and log it, and also a metric for dropped please. newest events are more important for us"
)
r.patch(
    [
        ("update", "internal/ingest/queue.go", [
            ("import (\n\t\"sync\"\n\t\"time\"\n)\n", "import (\n\t\"log/slog\"\n\t\"sync\"\n\t\"time\"\n\n\t\"github.com/prometheus/client_golang/prometheus\"\n)\n\nvar dropped = prometheus.NewCounter(prometheus.CounterOpts{\n\tName: \"logship_events_dropped_total\",\n\tHelp: \"Events dropped because the queue was full (oldest first).\",\n})\n\nfunc init() { prometheus.MustRegister(dropped) }\n"),
            ("// Queue is an unbounded FIFO of events shared by the handler and the workers.\ntype Queue struct {\n\tmu     sync.Mutex\n\tcond   *sync.Cond\n\titems  []Event\n\tclosed bool\n}\n\nfunc NewQueue() *Queue {\n\tq := &Queue{}\n",
             "// Queue is a bounded FIFO of events shared by the handler and the workers. When it is full,\n// Push drops the oldest event: newer audit events matter more.\ntype Queue struct {\n\tmu     sync.Mutex\n\tcond   *sync.Cond\n\titems  []Event\n\tmax    int\n\tclosed bool\n}\n\nfunc NewQueue(max int) *Queue {\n\tq := &Queue{max: max}\n"),
            ("// Push adds an event and wakes one worker.\nfunc (q *Queue) Push(ev Event) {\n\tq.mu.Lock()\n\tq.items = append(q.items, ev)\n",
             "// Push adds an event and wakes one worker; a full queue first drops its oldest event.\nfunc (q *Queue) Push(ev Event) {\n\tq.mu.Lock()\n\tif len(q.items) >= q.max {\n\t\told := q.items[0]\n\t\tq.items = q.items[1:]\n\t\tdropped.Inc()\n\t\tslog.Warn(\"queue full, dropped oldest event\", \"max\", q.max, \"age\", time.Since(old.Received))\n\t}\n\tq.items = append(q.items, ev)\n"),
        ]),
        ("update", "internal/ingest/handler.go", [
            ("queue: NewQueue()}", "queue: NewQueue(1000)}"),
        ]),
        ("add", "internal/ingest/queue_test.go", "package ingest\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestQueueDropsOldestWhenFull(t *testing.T) {\n\tq := NewQueue(3)\n\tfor _, s := range []string{\"a\", \"b\", \"c\", \"d\"} {\n\t\tq.Push(Event{Body: []byte(s), Received: time.Now()})\n\t}\n\tif q.Len() != 3 {\n\t\tt.Fatalf(\"len %d, want 3\", q.Len())\n\t}\n\tev, _ := q.Pop()\n\tif string(ev.Body) != \"b\" {\n\t\tt.Fatalf(\"first event %q, want b (a was the oldest and is dropped)\", ev.Body)\n\t}\n}\n"),
    ],
    reasoning="**Bounding the queue**\n\nCap at 1000, drop oldest with a warning and a counter logship_events_dropped_total.",
)
r.run(
    "go test -race -count=1 ./internal/ingest/ -v 2>&1 | grep -E '^(---|ok|FAIL)'",
    "--- PASS: TestAcceptsValidEvent (0.01s)\n--- PASS: TestRejectsInvalidJSON (0.00s)\n"
    "--- PASS: TestHandlerDoesNotBlock (0.00s)\n--- PASS: TestRejectsTooLarge (0.00s)\n"
    f"--- PASS: TestQueueDropsOldestWhenFull (0.00s)\nok  \t{PKG}/internal/ingest\t1.052s\n",
    secs=6.0,
)
r.say(
    "Queue is bounded at **1000** events; when full, `Push` drops the oldest, logs `queue full, "
    "dropped oldest event` (with its age) and increments `logship_events_dropped_total`. 4 workers. "
    "New `TestQueueDropsOldestWhenFull` passes with `-race`."
)

# ------------------------------------------------------------------ turn 3: channel experiment
r.user(
    "can you try also with channel instead of mutex+slice? my colleague Deniz say channel is more "
    "idiomatic in go. but measure it, i want numbers not opinions"
)
r.cat("internal/ingest/queue.go", reasoning="**Before the experiment**\n\nRe-read the current queue.")
r.run("cp internal/ingest/queue.go /tmp/queue_mutex.go", "")
MUTEX_QUEUE = r.files["internal/ingest/queue.go"]
r.patch(
    [
        ("add", "internal/ingest/queue_bench_test.go", "package ingest\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\n// BenchmarkQueuePush pushes into a queue that stays full, so every push also drops.\nfunc BenchmarkQueuePush(b *testing.B) {\n\tq := NewQueue(1000)\n\tev := Event{Body: make([]byte, 2048), Received: time.Now()}\n\tb.ReportAllocs()\n\tfor i := 0; i < b.N; i++ {\n\t\tq.Push(ev)\n\t}\n}\n\n// BenchmarkQueuePushPop is one producer and 4 consumers.\nfunc BenchmarkQueuePushPop(b *testing.B) {\n\tq := NewQueue(1000)\n\tev := Event{Body: make([]byte, 2048), Received: time.Now()}\n\tfor w := 0; w < 4; w++ {\n\t\tgo func() {\n\t\t\tfor {\n\t\t\t\tif _, ok := q.Pop(); !ok {\n\t\t\t\t\treturn\n\t\t\t\t}\n\t\t\t}\n\t\t}()\n\t}\n\tb.ResetTimer()\n\tfor i := 0; i < b.N; i++ {\n\t\tq.Push(ev)\n\t}\n\tq.Close()\n}\n"),
        ("update", "internal/ingest/queue.go", [
            ("type Queue struct {\n\tmu     sync.Mutex\n\tcond   *sync.Cond\n\titems  []Event\n\tmax    int\n\tclosed bool\n}\n\nfunc NewQueue(max int) *Queue {\n\tq := &Queue{max: max}\n\tq.cond = sync.NewCond(&q.mu)\n\treturn q\n}\n",
             "type Queue struct {\n\tch     chan Event\n\tmax    int\n\tclosed chan struct{}\n\tonce   sync.Once\n}\n\nfunc NewQueue(max int) *Queue {\n\treturn &Queue{ch: make(chan Event, max), max: max, closed: make(chan struct{})}\n}\n"),
        ]),
    ],
    reasoning="**Channel variant**\n\nMutex version saved in /tmp; benchmarks first (they run against whichever Queue is compiled), then the channel version.",
)
r.patch(
    [
        ("update", "internal/ingest/queue.go", [
            (r.files["internal/ingest/queue.go"][r.files["internal/ingest/queue.go"].index("// Push adds an event"):],
             "// Push adds an event; a full channel first drops its oldest event (receive, then send).\nfunc (q *Queue) Push(ev Event) {\n\tfor {\n\t\tselect {\n\t\tcase q.ch <- ev:\n\t\t\treturn\n\t\tdefault:\n\t\t}\n\t\tselect {\n\t\tcase old := <-q.ch:\n\t\t\tdropped.Inc()\n\t\t\tslog.Warn(\"queue full, dropped oldest event\", \"max\", q.max, \"age\", time.Since(old.Received))\n\t\tdefault:\n\t\t}\n\t}\n}\n\n// Pop blocks until there is an event or the queue is closed and empty.\nfunc (q *Queue) Pop() (Event, bool) {\n\tselect {\n\tcase ev := <-q.ch:\n\t\treturn ev, true\n\tcase <-q.closed:\n\t\tselect {\n\t\tcase ev := <-q.ch:\n\t\t\treturn ev, true\n\t\tdefault:\n\t\t\treturn Event{}, false\n\t\t}\n\t}\n}\n\n// Len is the number of events waiting.\nfunc (q *Queue) Len() int { return len(q.ch) }\n\n// Close wakes every worker; Pop returns false once the queue is empty.\nfunc (q *Queue) Close() { q.once.Do(func() { close(q.closed) }) }\n"),
        ]),
    ]
)
r.run(
    "go test ./internal/ingest/ -run '^$' -bench Queue -benchmem -count=3 && cp internal/ingest/queue.go /tmp/queue_chan.go && cp /tmp/queue_mutex.go internal/ingest/queue.go && go test ./internal/ingest/ -run '^$' -bench Queue -benchmem -count=3",
    "goos: linux\ngoarch: amd64\npkg: github.com/okanb/logship/internal/ingest\ncpu: AMD Ryzen 7 PRO 5850U with Radeon Graphics\n"
    "BenchmarkQueuePush-16       \t 9846214\t       121.8 ns/op\t       0 B/op\t       0 allocs/op\n"
    "BenchmarkQueuePush-16       \t 9911052\t       119.4 ns/op\t       0 B/op\t       0 allocs/op\n"
    "BenchmarkQueuePush-16       \t 9790377\t       122.6 ns/op\t       0 B/op\t       0 allocs/op\n"
    "BenchmarkQueuePushPop-16    \t 3902155\t       306.2 ns/op\n"
    "BenchmarkQueuePushPop-16    \t 3876420\t       311.9 ns/op\n"
    "BenchmarkQueuePushPop-16    \t 3951007\t       304.7 ns/op\n"
    "PASS\nok  \tgithub.com/okanb/logship/internal/ingest\t9.284s\n"
    "goos: linux\ngoarch: amd64\npkg: github.com/okanb/logship/internal/ingest\ncpu: AMD Ryzen 7 PRO 5850U with Radeon Graphics\n"
    "BenchmarkQueuePush-16       \t28304415\t        42.3 ns/op\t      81 B/op\t       0 allocs/op\n"
    "BenchmarkQueuePush-16       \t28776302\t        41.6 ns/op\t      80 B/op\t       0 allocs/op\n"
    "BenchmarkQueuePush-16       \t28517190\t        41.9 ns/op\t      80 B/op\t       0 allocs/op\n"
    "BenchmarkQueuePushPop-16    \t 6119850\t       188.4 ns/op\n"
    "BenchmarkQueuePushPop-16    \t 6240218\t       191.0 ns/op\n"
    "BenchmarkQueuePushPop-16    \t 6087733\t       186.9 ns/op\n"
    "PASS\nok  \tgithub.com/okanb/logship/internal/ingest\t8.911s\n",
    secs=19.5,
)
r.files["internal/ingest/queue.go"] = MUTEX_QUEUE
r.say(
    "Numbers (same benchmark file on both versions, `-count=3`):\n\n"
    "| benchmark | channel | mutex + slice |\n"
    "|---|---|---|\n"
    "| QueuePush (always full, drops) | ~121 ns/op | ~42 ns/op |\n"
    "| QueuePushPop (1 producer, 4 workers) | ~308 ns/op | ~189 ns/op |\n\n"
    "The channel version is about 2.9x slower when full: dropping the oldest needs a receive plus a "
    "retry loop of two `select`s, and `Close` needs a second channel. It is shorter in `Pop`, but "
    "the drop-oldest rule does not fit a channel well. The mutex version allocates a little (80 "
    "B/op) when the slice is re-sliced. Both pass the tests. `queue.go` is the mutex version again; "
    "the channel version is saved in /tmp/queue_chan.go.",
    reasoning="**Comparing**\n\nChannel slower both ways; explain why.",
)

# ------------------------------------------------------------------ turn 4: keep mutex
r.user(
    "so we keep the mutex: channels made it slower, and drop-oldest with channel is ugly. throw "
    "away the channel version. but keep the benchmark file, is useful"
)
r.run(
    "rm /tmp/queue_chan.go /tmp/queue_mutex.go && git status --short",
    " M internal/ingest/handler.go\n M internal/ingest/handler_test.go\n"
    "?? internal/ingest/queue.go\n?? internal/ingest/queue_bench_test.go\n?? internal/ingest/queue_test.go\n",
)
r.run(
    "go test -race -count=1 ./... && go test ./internal/ingest/ -run '^$' -bench QueuePush$ -count=1",
    f"?   \t{PKG}/cmd/logship\t[no test files]\nok  \t{PKG}/internal/config\t1.019s\n"
    f"ok  \t{PKG}/internal/ingest\t1.061s\nok  \t{PKG}/internal/sink\t1.047s\n"
    "goos: linux\ngoarch: amd64\npkg: github.com/okanb/logship/internal/ingest\ncpu: AMD Ryzen 7 PRO 5850U with Radeon Graphics\n"
    "BenchmarkQueuePush-16    \t28411876\t        42.0 ns/op\nPASS\n"
    f"ok  \t{PKG}/internal/ingest\t1.642s\n",
    secs=12.0,
)
r.say(
    "Channel version deleted; `queue.go` stays the mutex queue, and "
    "`internal/ingest/queue_bench_test.go` (BenchmarkQueuePush, BenchmarkQueuePushPop). Tests green "
    "with -race, BenchmarkQueuePush 42.0 ns/op."
)

# ------------------------------------------------------------------ turn 5: retries
r.user(
    "now retries. if the sink return 5xx or timeout, retry 3 times with backoff 1s, 2s, 4s. for "
    "4xx no retry, is our bug then, only log it. after the last try we count it as failed"
)
r.sed("internal/ingest/handler.go", 60, 90)
r.patch(
    [
        ("update", "internal/ingest/handler.go", [
            ("type Handler struct {\n\tsink     sink.Sink\n\tmaxBytes int64\n\tqueue    *Queue\n}\n",
             "// retryDelays are the waits before the 2nd, 3rd and 4th attempt of a failed write.\nvar retryDelays = []time.Duration{1 * time.Second, 2 * time.Second, 4 * time.Second}\n\n"
             "type Handler struct {\n\tsink     sink.Sink\n\tmaxBytes int64\n\tqueue    *Queue\n\tdelays   []time.Duration\n\tsleep    func(time.Duration)\n}\n"),
            ("queue: NewQueue(1000)}", "queue: NewQueue(1000), delays: retryDelays, sleep: time.Sleep}"),
            ("\t\t// The request is gone: the write gets its own context.\n"
             "\t\tif err := h.sink.Write(context.Background(), ev.Body); err != nil {\n"
             "\t\t\tfailed.Inc()\n"
             "\t\t\tslog.Error(\"sink write failed\", \"err\", err, \"age\", time.Since(ev.Received))\n"
             "\t\t}\n\t}\n}\n",
             "\t\th.deliver(ev)\n\t}\n}\n\n"
             "// deliver writes one event, retrying 5xx answers and transport errors (timeouts) after each\n"
             "// of h.delays; a 4xx is our own bug and is not retried.\n"
             "func (h *Handler) deliver(ev Event) {\n"
             "\tfor attempt := 0; ; attempt++ {\n"
             "\t\t// The request is gone: the write gets its own context.\n"
             "\t\terr := h.sink.Write(context.Background(), ev.Body)\n"
             "\t\tif err == nil {\n\t\t\treturn\n\t\t}\n"
             "\t\tvar status *sink.StatusError\n"
             "\t\tif errors.As(err, &status) && status.Code < 500 {\n"
             "\t\t\tfailed.Inc()\n"
             "\t\t\tslog.Error(\"sink rejected event, not retried\", \"code\", status.Code, \"err\", err)\n"
             "\t\t\treturn\n\t\t}\n"
             "\t\tif attempt == len(h.delays) {\n"
             "\t\t\tfailed.Inc()\n"
             "\t\t\tslog.Error(\"sink write failed, giving up\", \"attempts\", attempt+1, \"err\", err, \"age\", time.Since(ev.Received))\n"
             "\t\t\treturn\n\t\t}\n"
             "\t\th.sleep(h.delays[attempt])\n\t}\n}\n"),
        ]),
        ("add", "internal/ingest/deliver_test.go", "package ingest\n\nimport (\n\t\"context\"\n\t\"testing\"\n\t\"time\"\n\n\t\"github.com/okanb/logship/internal/sink\"\n)\n\n// flakySink answers with the next error of errs, then nil.\ntype flakySink struct {\n\terrs  []error\n\tcalls int\n}\n\nfunc (f *flakySink) Write(context.Context, []byte) error {\n\tf.calls++\n\tif f.calls <= len(f.errs) {\n\t\treturn f.errs[f.calls-1]\n\t}\n\treturn nil\n}\n\nfunc newTestHandler(s sink.Sink) (*Handler, *[]time.Duration) {\n\tvar slept []time.Duration\n\th := &Handler{sink: s, maxBytes: 1 << 20, queue: NewQueue(10), delays: retryDelays}\n\th.sleep = func(d time.Duration) { slept = append(slept, d) }\n\treturn h, &slept\n}\n\nfunc TestRetriesOn5xx(t *testing.T) {\n\ts := &flakySink{errs: []error{&sink.StatusError{Code: 503}, &sink.StatusError{Code: 502}}}\n\th, slept := newTestHandler(s)\n\tgo h.deliver(Event{Body: []byte(`{}`)})\n\ttime.Sleep(10 * time.Millisecond)\n\tif s.calls != 3 {\n\t\tt.Fatalf(\"sink called %d times, want 3\", s.calls)\n\t}\n\tif len(*slept) != 2 || (*slept)[0] != time.Second || (*slept)[1] != 2*time.Second {\n\t\tt.Fatalf(\"slept %v, want [1s 2s]\", *slept)\n\t}\n}\n\nfunc TestNoRetryOn4xx(t *testing.T) {\n\ts := &flakySink{errs: []error{&sink.StatusError{Code: 400}}}\n\th, slept := newTestHandler(s)\n\th.deliver(Event{Body: []byte(`{}`)})\n\tif s.calls != 1 || len(*slept) != 0 {\n\t\tt.Fatalf(\"calls %d slept %v, want 1 call and no sleep\", s.calls, *slept)\n\t}\n}\n\nfunc TestGivesUpAfterFourAttempts(t *testing.T) {\n\terr := &sink.StatusError{Code: 500}\n\ts := &flakySink{errs: []error{err, err, err, err, err}}\n\th, slept := newTestHandler(s)\n\th.deliver(Event{Body: []byte(`{}`)})\n\tif s.calls != 4 || len(*slept) != 3 {\n\t\tt.Fatalf(\"calls %d slept %v, want 4 calls and 3 sleeps\", s.calls, *slept)\n\t}\n}\n"),
    ],
    reasoning="**Retry policy in the worker**\n\nKeep sink untouched; classify with sink.StatusError. Inject sleep so tests don't wait 7s.",
)
r.run(
    "go test -race -count=1 ./internal/ingest/",
    "==================\n"
    "WARNING: DATA RACE\n"
    "Read at 0x00c000122a38 by goroutine 9:\n"
    "  github.com/okanb/logship/internal/ingest.TestRetriesOn5xx()\n"
    "      /home/okan/src/logship/internal/ingest/deliver_test.go:37 +0x1e4\n"
    "  testing.tRunner()\n"
    "      /usr/local/go/src/testing/testing.go:1689 +0x21e\n"
    "  testing.(*T).Run.gowrap1()\n"
    "      /usr/local/go/src/testing/testing.go:1742 +0x44\n"
    "\n"
    "Previous write at 0x00c000122a38 by goroutine 10:\n"
    "  github.com/okanb/logship/internal/ingest.(*flakySink).Write()\n"
    "      /home/okan/src/logship/internal/ingest/deliver_test.go:18 +0x4a\n"
    "  github.com/okanb/logship/internal/ingest.(*Handler).deliver()\n"
    "      /home/okan/src/logship/internal/ingest/handler.go:88 +0x8c\n"
    "  github.com/okanb/logship/internal/ingest.TestRetriesOn5xx.gowrap1()\n"
    "      /home/okan/src/logship/internal/ingest/deliver_test.go:35 +0x3d\n"
    "\n"
    "Goroutine 9 (running) created at:\n"
    "  testing.(*T).Run()\n"
    "      /usr/local/go/src/testing/testing.go:1742 +0x825\n"
    "  testing.runTests.func1()\n"
    "      /usr/local/go/src/testing/testing.go:2161 +0x85\n"
    "==================\n"
    "--- FAIL: TestRetriesOn5xx (0.01s)\n"
    "    testing.go:1398: race detected during execution of test\n"
    f"FAIL\nFAIL\t{PKG}/internal/ingest\t1.088s\nFAIL\n",
    code=1,
    secs=7.4,
)
r.patch(
    [
        ("update", "internal/ingest/deliver_test.go", [
            ("\tgo h.deliver(Event{Body: []byte(`{}`)})\n\ttime.Sleep(10 * time.Millisecond)\n",
             "\th.deliver(Event{Body: []byte(`{}`)}) // synchronous: deliver returns after the last attempt\n"),
        ]),
    ],
    reasoning="**The race is in my test**\n\nI ran deliver in a goroutine and slept; deliver is synchronous, call it directly. No time.Sleep in tests.",
)
r.run(
    "go test -race -count=1 ./... ",
    f"?   \t{PKG}/cmd/logship\t[no test files]\nok  \t{PKG}/internal/config\t1.020s\n"
    f"ok  \t{PKG}/internal/ingest\t1.071s\nok  \t{PKG}/internal/sink\t1.049s\n",
    secs=10.2,
)
r.cat("internal/ingest/handler.go", reasoning="**Review**\n\nRead the whole handler once more after the retry change.")
r.say(
    "Retries are in the worker (`Handler.deliver` in handler.go), package `sink` untouched:\n\n"
    "- 5xx answers and transport errors (timeouts included) are retried after **1s, 2s, 4s** "
    "(`retryDelays`), so at most 4 attempts; then `logship_events_failed_total` +1 and an error "
    "log.\n"
    "- a 4xx (`sink.StatusError` with Code < 500) is logged and counted as failed at once, no "
    "retry.\n"
    "- the sleep is a field (`h.sleep`), so tests record the waits instead of sleeping.\n\n"
    "The first run found a DATA RACE, but in my test, not in the code: I called `deliver` in a "
    "goroutine and read `calls` after a `time.Sleep`. `deliver` is synchronous, so the test calls "
    "it directly now. `go test -race ./...` green."
)

# ------------------------------------------------------------------ turn 6: env config
r.user(
    "workers and queue size must come from env: LOGSHIP_WORKERS and LOGSHIP_QUEUE_SIZE, default 4 "
    "and 1000. same style like the other env in config.go"
)
r.patch(
    [
        ("update", "internal/config/config.go", [
            ("\tSinkTimeout   time.Duration\n\tMaxEventBytes int64\n}\n", "\tSinkTimeout   time.Duration\n\tMaxEventBytes int64\n\tWorkers       int\n\tQueueSize     int\n}\n"),
            ("\t\tMaxEventBytes: 1 << 20,\n\t}\n", "\t\tMaxEventBytes: 1 << 20,\n\t\tWorkers:       4,\n\t\tQueueSize:     1000,\n\t}\n"),
            ("\treturn c, nil\n}\n", "\tfor _, p := range []struct {\n\t\tkey string\n\t\tdst *int\n\t}{{\"LOGSHIP_WORKERS\", &c.Workers}, {\"LOGSHIP_QUEUE_SIZE\", &c.QueueSize}} {\n\t\tif v := os.Getenv(p.key); v != \"\" {\n\t\t\tn, err := strconv.Atoi(v)\n\t\t\tif err != nil || n <= 0 {\n\t\t\t\treturn c, fmt.Errorf(\"%s: want a positive integer, got %q\", p.key, v)\n\t\t\t}\n\t\t\t*p.dst = n\n\t\t}\n\t}\n\treturn c, nil\n}\n"),
        ]),
        ("update", "internal/ingest/handler.go", [
            ("// NewHandler starts the workers that write queued events to s.\nfunc NewHandler(s sink.Sink, maxBytes int64) *Handler {\n\th := &Handler{sink: s, maxBytes: maxBytes, queue: NewQueue(1000), delays: retryDelays, sleep: time.Sleep}\n\tfor i := 0; i < 4; i++ {",
             "// NewHandler starts `workers` goroutines that write queued events to s; the queue holds at\n// most queueSize events.\nfunc NewHandler(s sink.Sink, maxBytes int64, workers, queueSize int) *Handler {\n\th := &Handler{sink: s, maxBytes: maxBytes, queue: NewQueue(queueSize), delays: retryDelays, sleep: time.Sleep}\n\tfor i := 0; i < workers; i++ {"),
        ]),
        ("update", "cmd/logship/main.go", [
            ("\th := ingest.NewHandler(s, cfg.MaxEventBytes)\n", "\th := ingest.NewHandler(s, cfg.MaxEventBytes, cfg.Workers, cfg.QueueSize)\n"),
        ]),
    ],
    reasoning="**Config from env**\n\nSame pattern as LOGSHIP_MAX_EVENT_BYTES: positive integers, error otherwise.",
)
r.cat("internal/ingest/handler_test.go")
r.run(
    "sed -i 's/NewHandler(\\(.*\\), 1<<20)/NewHandler(\\1, 1<<20, 4, 1000)/; s/NewHandler(\\(.*\\), 16)/NewHandler(\\1, 16, 4, 1000)/' internal/ingest/handler_test.go && cat >> internal/config/config_test.go <<'EOF'\n\nfunc TestWorkersAndQueueFromEnv(t *testing.T) {\n\tt.Setenv(\"LOGSHIP_SINK_URL\", \"http://sink.invalid\")\n\tt.Setenv(\"LOGSHIP_WORKERS\", \"8\")\n\tt.Setenv(\"LOGSHIP_QUEUE_SIZE\", \"250\")\n\tc, err := FromEnv()\n\tif err != nil || c.Workers != 8 || c.QueueSize != 250 {\n\t\tt.Fatalf(\"got %+v, %v\", c, err)\n\t}\n}\n\nfunc TestWorkersMustBePositive(t *testing.T) {\n\tt.Setenv(\"LOGSHIP_SINK_URL\", \"http://sink.invalid\")\n\tt.Setenv(\"LOGSHIP_WORKERS\", \"0\")\n\tif _, err := FromEnv(); err == nil {\n\t\tt.Fatal(\"want an error for LOGSHIP_WORKERS=0\")\n\t}\n}\nEOF\ngo vet ./... && go test -race -count=1 -v ./...",
    verbose({"config": [*CONFIG_TESTS, ("TestWorkersAndQueueFromEnv", "0.00"), ("TestWorkersMustBePositive", "0.00")], "ingest": INGEST_TESTS, "sink": SINK_TESTS}),
    secs=10.9,
)
r.say(
    "`LOGSHIP_WORKERS` and `LOGSHIP_QUEUE_SIZE` are read in `config.FromEnv` (defaults 4 and 1000, "
    "a non-positive or non-number value is a config error, like `LOGSHIP_MAX_EVENT_BYTES`). "
    "`ingest.NewHandler(s, maxBytes, workers, queueSize)` takes them; main.go passes the config. "
    "Two config tests added, all green."
)

# ------------------------------------------------------------------ turn 7: healthz
r.user(
    "add also GET /healthz that return the queue length in json, we use it in the k8s readiness "
    "probe. when the queue is more than 90% full return 503, so k8s stop sending traffic to this pod"
)
r.patch(
    [
        ("update", "internal/ingest/handler.go", [
            ("// worker writes queued events", "// Healthz answers with the number of queued events, {\"queued\": n}: 200, or 503 when the\n// queue is more than 90% full so that the readiness probe takes the pod out of the service.\nfunc (h *Handler) Healthz(w http.ResponseWriter, _ *http.Request) {\n\tn := h.queue.Len()\n\tw.Header().Set(\"Content-Type\", \"application/json\")\n\tif n*10 > h.queue.max*9 {\n\t\tw.WriteHeader(http.StatusServiceUnavailable)\n\t}\n\t_ = json.NewEncoder(w).Encode(map[string]int{\"queued\": n})\n}\n\n// worker writes queued events"),
        ]),
        ("update", "cmd/logship/main.go", [
            ("\tmux.HandleFunc(\"GET /metrics\", ingest.MetricsHandler)\n", "\tmux.HandleFunc(\"GET /metrics\", ingest.MetricsHandler)\n\tmux.HandleFunc(\"GET /healthz\", h.Healthz)\n"),
        ]),
    ]
)
r.run(
    "go build -o /tmp/logship ./cmd/logship && (LOGSHIP_SINK_URL=http://127.0.0.1:9/ LOGSHIP_ADDR=127.0.0.1:8091 /tmp/logship & sleep 0.5; for i in 1 2 3; do curl -s -o /dev/null -w '%{http_code} ' -d '{\"actor\":\"okan\"}' http://127.0.0.1:8091/events; done; echo; curl -s http://127.0.0.1:8091/healthz; kill %1) 2>&1",
    "time=2025-11-20T09:12:41.102+03:00 level=INFO msg=\"logship listening\" addr=127.0.0.1:8091 sink=http://127.0.0.1:9/\n"
    "202 202 202 \n"
    "{\"queued\":3}\n",
    secs=2.3,
)
r.say(
    "`GET /healthz` returns `{\"queued\": <n>}`: 200, or **503** when more than 90% of the queue "
    "is used (`n*10 > max*9`). Tried it against a sink that refuses "
    "connections: the three POSTs got 202 immediately and /healthz shows the 3 events waiting "
    "while the workers retry. That also showed a gap: no test covers transport errors "
    "(refused, timeout) being retried, only 5xx. Adding one."
)
r.patch(
    [
        ("update", "internal/ingest/deliver_test.go", [
            ("func TestNoRetryOn4xx(t *testing.T) {", "func TestRetriesTransportErrors(t *testing.T) {\n\ts := &flakySink{errs: []error{errors.New(\"dial tcp: connection refused\")}}\n\th, slept := newTestHandler(s)\n\th.deliver(Event{Body: []byte(`{}`)})\n\tif s.calls != 2 || len(*slept) != 1 {\n\t\tt.Fatalf(\"calls %d slept %v, want a retry after a transport error\", s.calls, *slept)\n\t}\n}\n\nfunc TestNoRetryOn4xx(t *testing.T) {"),
            ("import (\n\t\"context\"\n", "import (\n\t\"context\"\n\t\"errors\"\n"),
        ]),
    ]
)
r.run(
    "go test -race -count=1 -run 'Retr|Gives' -v ./internal/ingest/ 2>&1 | tail -12",
    "=== RUN   TestRetriesOn5xx\n--- PASS: TestRetriesOn5xx (0.00s)\n"
    "=== RUN   TestRetriesTransportErrors\n--- PASS: TestRetriesTransportErrors (0.00s)\n"
    "=== RUN   TestGivesUpAfterFourAttempts\n--- PASS: TestGivesUpAfterFourAttempts (0.00s)\n"
    f"PASS\nok  \t{PKG}/internal/ingest\t1.031s\n",
    secs=4.0,
)
r.say("Transport errors are retried like 5xx: new `TestRetriesTransportErrors` passes (2 calls, one 1s wait).")

# ------------------------------------------------------------------ turn 8: memory question
r.user(
    "good. question: how much memory the queue use when is full? max event is 1MB "
    "(LOGSHIP_MAX_EVENT_BYTES) and pod limit is 512Mi"
)
r.run(
    "wc -lc testdata/sample_events.jsonl && awk '{ n++; s += length($0) } END { printf \"avg %.0f bytes, max\", s/n }' testdata/sample_events.jsonl && awk '{ if (length($0) > m) m = length($0) } END { print \" \" m \" bytes\" }' testdata/sample_events.jsonl",
    "  12000 21804113 testdata/sample_events.jsonl\navg 1817 bytes, max 48213 bytes\n",
)
r.say(
    "Worst case is too big for the pod: 1000 events × 1 MiB (`MaxEventBytes`) = **~1000 MiB**, "
    "about twice the 512Mi limit, and the OOM killer would take all queued events with it. "
    "Typical is small: the 12,000 sample events average **1,817 bytes** (max 48,213), so 1000 "
    "typical events are ~1.8 MB. The count limit alone does not protect memory; a limit on total "
    "bytes would."
)

# ------------------------------------------------------------------ turn 9: byte limit
r.user(
    "yes 1GB no way. make a limit in bytes also: max 64MB total in the queue, drop oldest when "
    "over, same like count. env LOGSHIP_QUEUE_BYTES default 64MB"
)
r.patch(
    [
        ("update", "internal/ingest/queue.go", [
            ("\titems  []Event\n\tmax    int\n\tclosed bool\n}\n\nfunc NewQueue(max int) *Queue {\n\tq := &Queue{max: max}\n",
             "\titems    []Event\n\tmax      int\n\tmaxBytes int\n\tbytes    int\n\tclosed   bool\n}\n\n// NewQueue holds at most max events and maxBytes bytes of event bodies.\nfunc NewQueue(max, maxBytes int) *Queue {\n\tq := &Queue{max: max, maxBytes: maxBytes}\n"),
            ("\tif len(q.items) >= q.max {\n\t\told := q.items[0]\n\t\tq.items = q.items[1:]\n\t\tdropped.Inc()\n\t\tslog.Warn(\"queue full, dropped oldest event\", \"max\", q.max, \"age\", time.Since(old.Received))\n\t}\n\tq.items = append(q.items, ev)\n",
             "\tif len(q.items) >= q.max || q.bytes > q.maxBytes {\n\t\told := q.items[0]\n\t\tq.items = q.items[1:]\n\t\tq.bytes -= len(old.Body)\n\t\tdropped.Inc()\n\t\tslog.Warn(\"queue full, dropped oldest event\", \"max\", q.max, \"bytes\", q.bytes, \"age\", time.Since(old.Received))\n\t}\n\tq.items = append(q.items, ev)\n\tq.bytes += len(ev.Body)\n"),
            ("\tev := q.items[0]\n\tq.items = q.items[1:]\n\treturn ev, true\n", "\tev := q.items[0]\n\tq.items = q.items[1:]\n\tq.bytes -= len(ev.Body)\n\treturn ev, true\n"),
        ]),
        ("update", "internal/ingest/queue_test.go", [
            ("\tq := NewQueue(3)\n", "\tq := NewQueue(3, 1<<20)\n"),
            ("\t\tt.Fatalf(\"first event %q, want b (a was the oldest and is dropped)\", ev.Body)\n\t}\n}\n",
             "\t\tt.Fatalf(\"first event %q, want b (a was the oldest and is dropped)\", ev.Body)\n\t}\n}\n\n"
             "func TestQueueByteLimit(t *testing.T) {\n\tconst mb = 1 << 20\n\tq := NewQueue(1000, 64*mb)\n\tfor i := 0; i < 100; i++ {\n\t\tq.Push(Event{Body: make([]byte, mb), Received: time.Now()})\n\t}\n\tif q.bytes > 64*mb {\n\t\tt.Fatalf(\"queue holds %d events (%d bytes), want total <= %d\", q.Len(), q.bytes, 64*mb)\n\t}\n}\n"),
        ]),
    ],
    reasoning="**Byte limit**\n\nTrack bytes in Push/Pop; drop oldest while over the limit.",
)
r.run(
    "grep -rln 'NewQueue(' --include=*.go . | xargs sed -i 's/NewQueue(1000)/NewQueue(1000, 64<<20)/; s/NewQueue(10)/NewQueue(10, 1<<20)/; s/NewQueue(queueSize)/NewQueue(queueSize, 64<<20)/' && go test -race -count=1 ./internal/ingest/ 2>&1 | tail -8",
    "--- FAIL: TestQueueByteLimit (0.09s)\n"
    "    queue_test.go:31: queue holds 65 events (68157440 bytes), want total <= 67108864\n"
    f"FAIL\nFAIL\t{PKG}/internal/ingest\t1.196s\nFAIL\n",
    code=1,
    secs=5.1,
)
for _path, _text in r.files.items():  # what the sed in the command above changed
    r.files[_path] = (
        _text.replace("NewQueue(1000)", "NewQueue(1000, 64<<20)")
        .replace("NewQueue(10)", "NewQueue(10, 1<<20)")
        .replace("NewQueue(queueSize)", "NewQueue(queueSize, 64<<20)")
    )
r.say(
    "`TestQueueByteLimit` fails: 65 events (68157440 bytes), one over. Two mistakes in `Push`: it "
    "checks the limit *before* adding the new event and with `>` instead of counting the new "
    "event, and it drops only one event, but one big event can need several old ones to go. It "
    "must drop oldest events in a loop until the new one fits."
)
r.patch(
    [
        ("update", "internal/ingest/queue.go", [
            ("\tif len(q.items) >= q.max || q.bytes > q.maxBytes {\n\t\told := q.items[0]\n",
             "\t// Drop oldest events until the new one fits both limits (one big event can need several).\n\tfor len(q.items) > 0 && (len(q.items) >= q.max || q.bytes+len(ev.Body) > q.maxBytes) {\n\t\told := q.items[0]\n"),
        ]),
    ]
)
r.run(
    "go test -race -count=1 ./... && go test ./internal/ingest/ -run '^$' -bench QueuePush$ -count=1 | grep Benchmark",
    f"?   \t{PKG}/cmd/logship\t[no test files]\nok  \t{PKG}/internal/config\t1.024s\n"
    f"ok  \t{PKG}/internal/ingest\t1.302s\nok  \t{PKG}/internal/sink\t1.052s\n"
    "BenchmarkQueuePush-16    \t27096120\t        44.1 ns/op\n",
    secs=13.0,
)
r.cat("internal/ingest/queue.go")
r.say(
    "Fixed: `Push` drops oldest events in a loop until the new event fits both limits. "
    "`TestQueueByteLimit` passes, all tests green with -race, BenchmarkQueuePush 44.1 ns/op (was "
    "42.0). Not done yet: the env variable `LOGSHIP_QUEUE_BYTES`: the 64MB is still hard-coded as "
    "`64<<20` in `NewHandler`. I do it next."
)
r.patch(
    [
        ("update", "internal/config/config.go", [
            ("\tWorkers       int\n\tQueueSize     int\n}\n", "\tWorkers       int\n\tQueueSize     int\n\tQueueBytes    int\n}\n"),
            ("\t\tQueueSize:     1000,\n\t}\n", "\t\tQueueSize:     1000,\n\t\tQueueBytes:    64 << 20,\n\t}\n"),
            ("{\"LOGSHIP_QUEUE_SIZE\", &c.QueueSize}}", "{\"LOGSHIP_QUEUE_SIZE\", &c.QueueSize}, {\"LOGSHIP_QUEUE_BYTES\", &c.QueueBytes}}"),
        ]),
        ("update", "internal/ingest/handler.go", [
            ("func NewHandler(s sink.Sink, maxBytes int64, workers, queueSize int) *Handler {", "func NewHandler(s sink.Sink, maxBytes int64, workers, queueSize, queueBytes int) *Handler {"),
            ("queue: NewQueue(queueSize, 64<<20)", "queue: NewQueue(queueSize, queueBytes)"),
        ]),
        ("update", "cmd/logship/main.go", [
            ("cfg.Workers, cfg.QueueSize)", "cfg.Workers, cfg.QueueSize, cfg.QueueBytes)"),
        ]),
    ]
)
r.run(
    "sed -i 's/, 4, 1000)/, 4, 1000, 64<<20)/' internal/ingest/handler_test.go && go vet ./... && go test -race -count=1 ./...",
    f"?   \t{PKG}/cmd/logship\t[no test files]\nok  \t{PKG}/internal/config\t1.021s\n"
    f"ok  \t{PKG}/internal/ingest\t1.298s\nok  \t{PKG}/internal/sink\t1.050s\n",
    secs=12.5,
)
r.say("`LOGSHIP_QUEUE_BYTES` (default 64 MiB = 67108864) is in config.go and passed through main.go to `NewHandler`. All green.")

# ------------------------------------------------------------------ turn 10: graceful shutdown
r.user(
    "first a change: in /healthz remove the 503, always 200 with the number. i forgot our k8s "
    "restart the pod when readiness fail for long time, and then we lose all the queue. then last "
    "big thing: graceful shutdown. on SIGTERM we stop accept new events, then wait the queue "
    "is empty but max 20s, then exit. k8s terminationGracePeriod is 30s so 20 is safe"
)
r.patch(
    [
        ("update", "internal/ingest/handler.go", [
            ("// Healthz answers with the number of queued events, {\"queued\": n}: 200, or 503 when the\n// queue is more than 90% full so that the readiness probe takes the pod out of the service.\n",
             "// Healthz always answers 200 with the number of queued events, {\"queued\": n}. No 503 when\n// the queue is full: a failing readiness probe gets the pod restarted, which loses the queue.\n"),
            ("\tif n*10 > h.queue.max*9 {\n\t\tw.WriteHeader(http.StatusServiceUnavailable)\n\t}\n", ""),
        ]),
    ],
    reasoning="**Healthz back to always 200**\n\nRemove the 90% rule first, then shutdown.",
)
r.cat("cmd/logship/main.go")
r.sed("internal/ingest/handler.go", 1, 60)
r.patch(
    [
        ("update", "internal/ingest/handler.go", [
            ("// worker writes queued events", "// Drain closes the queue and waits until the workers have written every queued event, or\n// until ctx ends; it returns how many events were still queued then.\nfunc (h *Handler) Drain(ctx context.Context) int {\n\th.queue.Close()\n\tdone := make(chan struct{})\n\tgo func() { h.workers.Wait(); close(done) }()\n\tselect {\n\tcase <-done:\n\t\treturn 0\n\tcase <-ctx.Done():\n\t\treturn h.queue.Len()\n\t}\n}\n\n// worker writes queued events"),
            ("\tdelays   []time.Duration\n\tsleep    func(time.Duration)\n}\n", "\tdelays   []time.Duration\n\tsleep    func(time.Duration)\n\tworkers  sync.WaitGroup\n}\n"),
            ("\tfor i := 0; i < workers; i++ {\n\t\tgo h.worker()\n\t}\n", "\tfor i := 0; i < workers; i++ {\n\t\th.workers.Add(1)\n\t\tgo func() { defer h.workers.Done(); h.worker() }()\n\t}\n"),
            ("\t\"net/http\"\n\t\"time\"\n", "\t\"net/http\"\n\t\"sync\"\n\t\"time\"\n"),
        ]),
        ("update", "cmd/logship/main.go", [
            ("\tshutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)\n\tdefer cancel()\n\t_ = srv.Shutdown(shutdownCtx)\n}\n",
             "\t// Stop accepting first, then give the queue up to 20s to drain (k8s allows 30s).\n\tshutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)\n\tdefer cancel()\n\t_ = srv.Shutdown(shutdownCtx)\n\tdrainCtx, cancelDrain := context.WithTimeout(context.Background(), 20*time.Second)\n\tdefer cancelDrain()\n\tif left := h.Drain(drainCtx); left > 0 {\n\t\tslog.Error(\"shutdown: events lost, queue not drained in 20s\", \"left\", left)\n\t\tos.Exit(1)\n\t}\n\tslog.Info(\"shutdown: queue drained\")\n}\n"),
        ]),
    ],
    reasoning="**Drain on shutdown**\n\nWaitGroup for workers; Close makes Pop return false when empty.",
)
r.run(
    "go vet ./... && go build ./... && go test -race -count=1 -v ./...",
    verbose({"config": [*CONFIG_TESTS, ("TestWorkersAndQueueFromEnv", "0.00"), ("TestWorkersMustBePositive", "0.00")], "ingest": [*INGEST_TESTS, ("TestRetriesTransportErrors", "0.00"), ("TestQueueByteLimit", "0.09")], "sink": SINK_TESTS}),
    secs=13.4,
)
r.say(
    "Shutdown is implemented, not tested yet:\n\n"
    "- SIGTERM/SIGINT: `srv.Shutdown` (stop accepting, 5s for in-flight requests), then "
    "`h.Drain(ctx)` with a **20s** timeout: closes the queue, waits for the workers (a "
    "`sync.WaitGroup`), returns how many events were left.\n"
    "- events left after 20s: error log `shutdown: events lost, queue not drained in 20s` and exit "
    "code 1; otherwise `shutdown: queue drained`.\n\n"
    "Caveat: a worker in the middle of its retry sleeps (up to 1+2+4s) delays the drain; with a "
    "dead sink, 20s can pass. There is no test for `Drain` yet."
)

# ------------------------------------------------------------------ turn 11: what is missing
r.user(
    "ok enough for today, thanks. tomorrow we do the test for shutdown and update the README with "
    "the new env variables. please write me short what is done and what is missing, i put it in "
    "the PR description"
)
r.run(
    "git diff -- cmd internal/config/config.go internal/ingest/handler.go",
    git_diff(committed, r.files, ["cmd/logship/main.go", "internal/config/config.go", "internal/ingest/handler.go"]),
    reasoning="**Summary for the PR**\n\nRead the full diff before writing what is done.",
)
r.run(
    "git status --short && git diff --stat",
    " M cmd/logship/main.go\n M internal/config/config.go\n M internal/config/config_test.go\n"
    " M internal/ingest/handler.go\n M internal/ingest/handler_test.go\n?? internal/ingest/deliver_test.go\n"
    "?? internal/ingest/queue.go\n?? internal/ingest/queue_bench_test.go\n?? internal/ingest/queue_test.go\n"
    " cmd/logship/main.go             | 14 ++++++-\n internal/config/config.go       | 22 ++++++++++-\n"
    " internal/config/config_test.go  | 20 ++++++++++\n internal/ingest/handler.go      | 97 +++++++++++++++++++++++++++++------\n"
    " internal/ingest/handler_test.go | 30 +++++++++++--\n 5 files changed, 166 insertions(+), 17 deletions(-)\n",
)
r.say(
    "**Done**\n"
    "- POST /events answers 202 at once; events go to a bounded in-memory queue (mutex + slice, "
    "`internal/ingest/queue.go`), written to the sink by worker goroutines.\n"
    "- Limits: `LOGSHIP_QUEUE_SIZE` (1000 events) and `LOGSHIP_QUEUE_BYTES` (64 MiB); when full "
    "the oldest events are dropped, logged and counted in `logship_events_dropped_total`.\n"
    "- `LOGSHIP_WORKERS` (4).\n"
    "- Retries: 5xx and transport errors after 1s, 2s, 4s; 4xx not retried; then "
    "`logship_events_failed_total`.\n"
    "- `GET /healthz` → `{\"queued\": n}`, always 200 (the 503-when-90%-full rule was removed).\n"
    "- Graceful shutdown: stop accepting, drain up to 20s, exit 1 if events are left.\n"
    "- Package `sink` unchanged. Channel queue measured and rejected (2.9x slower).\n\n"
    "**Missing**\n"
    "- a test for the shutdown drain (`Handler.Drain`).\n"
    "- README: the new env variables LOGSHIP_WORKERS, LOGSHIP_QUEUE_SIZE, LOGSHIP_QUEUE_BYTES and /healthz.\n"
    "- nothing is committed yet."
)

r.save(HERE / "session.jsonl")
print(f"wrote {HERE / 'session.jsonl'}: {len(r.lines)} records, {r.calls} calls")
