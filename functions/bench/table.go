package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// row is one measurement: ours next to its reference and the budget.
type row struct {
	name       string
	ours, ref  float64
	unit       string
	budget     string
	ok         bool
	refMissing bool // an absolute budget (sizes): no reference
	// byEngine: over its budget, but only by the table engine's work
	// (engineEdges); it counts as OK.
	byEngine bool
	// oursText and refText, when set, are printed as they are in place of
	// ours and ref (a row of two figures, or without a reference); the
	// ratio is still ours/ref when both are set, else "-".
	oursText, refText string
}

// ratioRow checks ours/ref against maxRatio.
func ratioRow(name string, ours, ref float64, unit string, maxRatio float64) row {
	return row{name: name, ours: ours, ref: ref, unit: unit,
		budget: fmt.Sprintf("ratio ≤ %.2g", maxRatio), ok: ref > 0 && ours/ref <= maxRatio}
}

// limitRow checks ours against an absolute limit (the reference column shows it).
func limitRow(name string, ours, limit float64, unit string) row {
	return row{name: name, ours: ours, ref: limit, unit: unit,
		budget: fmt.Sprintf("≤ %s %s", num(limit), unit), ok: ours <= limit, refMissing: true}
}

// addedRow checks ours-ref against maxAdded.
func addedRow(name string, ours, ref float64, unit string, maxAdded float64) row {
	return row{name: name, ours: ours, ref: ref, unit: unit,
		budget: fmt.Sprintf("added ≤ %s %s (got %+.3f)", num(maxAdded), unit, ours-ref), ok: ours-ref <= maxAdded}
}

func (b *bench) print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MEASUREMENT\tOURS\tREFERENCE\tRATIO\tBUDGET\tRESULT\t")
	for _, r := range b.rows {
		ref, ratio := num(r.ref)+" "+r.unit, "-"
		if r.refMissing && r.ok && strings.HasPrefix(r.budget, "peer") {
			ref = num(r.ref) + " " + r.unit + " (p99)"
		} else if r.refMissing {
			ref += " (limit)"
		}
		if r.ref > 0 && !strings.HasPrefix(r.budget, "peer") {
			ratio = fmt.Sprintf("%.2f", r.ours/r.ref)
		}
		verdict := "OK"
		switch {
		case r.byEngine:
			verdict = "OK (engine)"
		case !r.ok:
			verdict = "OVER"
		}
		ours := num(r.ours) + " " + r.unit
		if r.oursText != "" || r.refText != "" {
			ours, ref = r.oursText, r.refText
			if r.ours <= 0 || r.ref <= 0 {
				ratio = "-"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", r.name, ours, ref, ratio, r.budget, verdict)
	}
	tw.Flush()
	for _, n := range b.notes {
		fmt.Fprintln(w, "note:", n)
	}
}

func num(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.3f", v)
	}
}

// ms is a duration in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// percentile answers the p-th percentile (0..100, nearest rank) of ds.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(p/100*float64(len(s))+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}

func parseSkip(s string) map[string]bool {
	m := map[string]bool{}
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			m[p] = true
		}
	}
	return m
}
