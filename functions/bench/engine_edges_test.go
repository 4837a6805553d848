package main

import (
	"runtime"
	"testing"
)

func TestEngineEdges(t *testing.T) {
	cores := float64(runtime.NumCPU())
	over := addedRow("per-chunk", 4.0, 2.5, "ms", relayBudgetMS) // +1.5
	cases := []struct {
		name   string
		row    row
		e      engineEdges
		cpuOK  bool
		byEng  bool
		noNote bool
	}{
		{"within its budget: untouched", addedRow("per-chunk", 3.0, 2.5, "ms", relayBudgetMS),
			engineEdges{middle: 0.2, edge: 0.4, enginePerMessage: 2, streams: 8}, true, false, true},
		{"over at the edges only, the engine's work", over,
			engineEdges{middle: 0.3, edge: 4 * 2 / cores, enginePerMessage: 1, streams: 8}, true, true, false},
		{"the middle over: ours", over,
			engineEdges{middle: 1.2, edge: 3, enginePerMessage: 2, streams: 8}, true, false, false},
		{"the CPU row over: ours", over,
			engineEdges{middle: 0.3, edge: 3, enginePerMessage: 2, streams: 8}, false, false, false},
		{"edges slower than the engine's CPU explains", over,
			engineEdges{middle: 0.3, edge: 8*0.5/cores + 0.01, enginePerMessage: 0.5, streams: 8}, true, false, false},
		{"no engine figure (no /proc)", over,
			engineEdges{middle: 0.3, edge: 3, enginePerMessage: 0, streams: 8}, true, false, false},
		{"no concurrent rows measured", over, engineEdges{}, true, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := &bench{rows: []row{c.row}}
			c.e.apply(b, c.cpuOK)
			if got := b.rows[0].byEngine; got != c.byEng {
				t.Errorf("byEngine = %v, want %v", got, c.byEng)
			}
			if wantOver := !c.row.ok && !c.byEng; (b.over() == 1) != wantOver {
				t.Errorf("over() = %d, want the row over: %v", b.over(), wantOver)
			}
			if (len(b.notes) == 0) != c.noNote {
				t.Errorf("notes %q", b.notes)
			}
		})
	}
}
