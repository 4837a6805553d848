package main

import "runtime"

// The per-chunk row at concurrency 8 may also pass another way: by showing,
// with the CPU row, that what stays over the budget is the table engine
// beside us, not our code. engineEdges checks that in every run, from the
// same run's figures, so a regression of ours still shows as OVER:
//
//   - the middle of a stream, where none of its table calls run, is within
//     the budget: relaying a chunk among 8 streams costs what it may;
//   - the CPU a message costs us (the CPU row) is within its budget;
//   - the slowest edge (a stream's first or last edgeGaps gaps, where the
//     streams' table calls run, all 8 at once) waits no longer than the
//     engine's own CPU for those 8 messages takes on these cores.
//
// Dynalite is one Node.js process on the same two cores; in production
// each stream has its own Lambda instance and the table is remote.
type engineEdges struct {
	row int // the per-chunk row's index in b.rows
	// ours and ref are the per-chunk p99 by place in a stream (gapsByPlace:
	// its first edgeGaps gaps, its middle, its last edgeGaps), ms.
	ours, ref        [3]float64
	enginePerMessage float64 // the engine's CPU per message, ms
	streams          int
}

// newEngineEdges reads f (a measureRelay at conc streams) for row.
func newEngineEdges(row, conc int, f relayFigures) engineEdges {
	e := engineEdges{row: row, enginePerMessage: f.perMessage(f.engineOurs - f.engineRef), streams: conc}
	ours, ref := gapsByPlace(f.gapOurs), gapsByPlace(f.gapRef)
	for place := range e.ours {
		e.ours[place], e.ref[place] = ms(percentile(ours[place], 99)), ms(percentile(ref[place], 99))
	}
	return e
}

// middle and edge are the p99 ours adds in the middle of a stream and at
// its slower edge, ms.
func (e engineEdges) middle() float64 { return e.ours[1] - e.ref[1] }
func (e engineEdges) edge() float64   { return max(e.ours[0]-e.ref[0], e.ours[2]-e.ref[2]) }

// engineQueue is how long the engine's CPU for one round's messages takes
// on this machine's cores, ms.
func (e engineEdges) engineQueue() float64 {
	return e.enginePerMessage * float64(e.streams) / float64(runtime.NumCPU())
}

// apply marks the row OK by the engine when it is over only as explained
// above (cpuOK: the CPU row's verdict), and notes why either way.
func (e engineEdges) apply(b *bench, cpuOK bool) {
	if e.streams == 0 {
		return // no concurrent rows were measured
	}
	r := &b.rows[e.row]
	if r.ok {
		return
	}
	explained := e.middle() <= relayBudgetMS && cpuOK && e.edge() <= e.engineQueue()
	verdict := "stays OVER"
	if explained {
		r.byEngine = true
		verdict = "is OK (engine)"
	}
	b.note("%s %s: over only at a stream's edges? the middle %+.3f ms (budget %+.3f), CPU per message within budget: %v, the slowest edge %+.3f ms against the engine's CPU for a round, %.3f ms per message × %d streams / %d cores = %.3f ms (what remains must be the engine beside us)",
		r.name, verdict, e.middle(), relayBudgetMS, cpuOK, e.edge(), e.enginePerMessage, e.streams, runtime.NumCPU(), e.engineQueue())
}
