package apitest

import (
	"bytes"
	"log/slog"
	"sync"
	"testing"
)

// LogBuffer collects log output written from several goroutines.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// CaptureLogs sends slog's default logger (JSON, every level) into a buffer
// for the rest of the test. The test must not run in parallel: the default
// logger is process-wide.
func CaptureLogs(t testing.TB) *LogBuffer {
	t.Helper()
	buf := &LogBuffer{}
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(prev) })
	return buf
}
