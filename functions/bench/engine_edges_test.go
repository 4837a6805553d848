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
			edgesOf(0.2, 0.4, 2), true, false, true},
		{"over at the edges only, the engine's work", over,
			edgesOf(0.3, 4*2/cores, 1), true, true, false},
		{"the middle over: ours", over,
			edgesOf(1.2, 3, 2), true, false, false},
		{"the CPU row over: ours", over,
			edgesOf(0.3, 3, 2), false, false, false},
		{"edges slower than the engine's CPU explains", over,
			edgesOf(0.3, 8*0.5/cores+0.01, 0.5), true, false, false},
		{"no engine figure (no /proc)", over,
			edgesOf(0.3, 3, 0), true, false, false},
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

// edgesOf is a round of 8 streams whose middle adds middle ms at p99, whose
// slower edge adds edge ms, with engine ms of the engine's CPU a message.
func edgesOf(middle, edge, engine float64) engineEdges {
	return engineEdges{ours: [3]float64{2.5 + edge, 2.5 + middle, 2.5}, ref: [3]float64{2.5, 2.5, 2.5},
		enginePerMessage: engine, streams: 8}
}
