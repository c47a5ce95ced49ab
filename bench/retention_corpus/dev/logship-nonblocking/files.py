# ruff: noqa: E501
"""The logship repository as the session finds it."""

GO_MOD = """\
module github.com/okanb/logship

go 1.22

require github.com/prometheus/client_golang v1.19.1
"""

MAIN = """\
package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/okanb/logship/internal/config"
	"github.com/okanb/logship/internal/ingest"
	"github.com/okanb/logship/internal/sink"
)

func main() {
	cfg, err := config.FromEnv()
	if err != nil {
		slog.Error("config", "err", err)
		os.Exit(2)
	}
	s := sink.NewHTTPSink(cfg.SinkURL, cfg.SinkTimeout)
	h := ingest.NewHandler(s, cfg.MaxEventBytes)

	mux := http.NewServeMux()
	mux.Handle("POST /events", h)
	mux.HandleFunc("GET /metrics", ingest.MetricsHandler)

	srv := &http.Server{Addr: cfg.Addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		slog.Info("logship listening", "addr", cfg.Addr, "sink", cfg.SinkURL)
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("listen", "err", err)
			os.Exit(1)
		}
	}()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdownCtx)
}
"""

CONFIG = """\
// Package config reads logship's settings from the environment.
package config

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

type Config struct {
	Addr          string
	SinkURL       string
	SinkTimeout   time.Duration
	MaxEventBytes int64
}

func FromEnv() (Config, error) {
	c := Config{
		Addr:          getenv("LOGSHIP_ADDR", ":8090"),
		SinkURL:       os.Getenv("LOGSHIP_SINK_URL"),
		SinkTimeout:   10 * time.Second,
		MaxEventBytes: 1 << 20,
	}
	if c.SinkURL == "" {
		return c, fmt.Errorf("LOGSHIP_SINK_URL is required")
	}
	if v := os.Getenv("LOGSHIP_SINK_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return c, fmt.Errorf("LOGSHIP_SINK_TIMEOUT: %w", err)
		}
		c.SinkTimeout = d
	}
	if v := os.Getenv("LOGSHIP_MAX_EVENT_BYTES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("LOGSHIP_MAX_EVENT_BYTES: want a positive integer, got %q", v)
		}
		c.MaxEventBytes = n
	}
	return c, nil
}

func getenv(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
"""

SINK = """\
// Package sink delivers audit events to the downstream store. The billing service imports this
// package too, so its exported API is shared.
package sink

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Sink stores one event (a JSON document).
type Sink interface {
	Write(ctx context.Context, event []byte) error
}

// StatusError is returned when the store answers with a non-2xx status.
type StatusError struct {
	Code int
	Body string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("sink answered %d: %s", e.Code, e.Body)
}

// HTTPSink posts each event to URL.
type HTTPSink struct {
	URL    string
	Client *http.Client
}

func NewHTTPSink(url string, timeout time.Duration) *HTTPSink {
	return &HTTPSink{URL: url, Client: &http.Client{Timeout: timeout}}
}

func (s *HTTPSink) Write(ctx context.Context, event []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, bytes.NewReader(event))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return &StatusError{Code: resp.StatusCode, Body: string(body)}
	}
	return nil
}
"""

HANDLER = """\
// Package ingest receives audit events over HTTP and hands them to the sink.
package ingest

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"

	"github.com/okanb/logship/internal/sink"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

var (
	received = prometheus.NewCounter(prometheus.CounterOpts{Name: "logship_events_received_total"})
	failed   = prometheus.NewCounter(prometheus.CounterOpts{Name: "logship_events_failed_total"})
)

func init() { prometheus.MustRegister(received, failed) }

// MetricsHandler serves the Prometheus metrics.
var MetricsHandler = promhttp.Handler().ServeHTTP

// Handler accepts POST /events with one JSON event per request.
type Handler struct {
	sink     sink.Sink
	maxBytes int64
}

func NewHandler(s sink.Sink, maxBytes int64) *Handler {
	return &Handler{sink: s, maxBytes: maxBytes}
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.maxBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "event too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "cannot read body", http.StatusBadRequest)
		return
	}
	if !json.Valid(body) {
		http.Error(w, "event is not valid JSON", http.StatusBadRequest)
		return
	}
	received.Inc()
	if err := h.sink.Write(r.Context(), body); err != nil {
		failed.Inc()
		slog.Error("sink write failed", "err", err)
		http.Error(w, "sink unavailable", http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}
"""

HANDLER_TEST = """\
package ingest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

type memSink struct {
	mu     sync.Mutex
	events [][]byte
	err    error
}

func (m *memSink) Write(_ context.Context, e []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return m.err
	}
	m.events = append(m.events, e)
	return nil
}

func post(t *testing.T, h http.Handler, body string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/events", strings.NewReader(body)))
	return rec
}

func TestAcceptsValidEvent(t *testing.T) {
	s := &memSink{}
	rec := post(t, NewHandler(s, 1<<20), `{"actor":"okan","action":"login"}`)
	if rec.Code != http.StatusAccepted {
		t.Fatalf("status %d, want 202", rec.Code)
	}
	if len(s.events) != 1 {
		t.Fatalf("sink got %d events, want 1", len(s.events))
	}
}

func TestRejectsInvalidJSON(t *testing.T) {
	rec := post(t, NewHandler(&memSink{}, 1<<20), `{"actor":`)
	if rec.Code != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", rec.Code)
	}
}

func TestRejectsTooLarge(t *testing.T) {
	rec := post(t, NewHandler(&memSink{}, 16), `{"actor":"okan","action":"login"}`)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", rec.Code)
	}
}
"""
