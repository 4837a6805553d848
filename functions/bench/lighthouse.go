package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The lighthouse part: Lighthouse's four category scores of the public
// pages a first visit lands on, with its default mobile emulation and
// simulated throttling (a slow 4G phone, so the performance score does not
// depend on this machine's speed as much as a wall-clock row would), in
// the same Debian Chromium as the browser tests. Lighthouse is pinned in
// functions/bench/lighthouse (make bench installs it).
const lighthouseRuns = 3 // per page; each category's median is kept

var (
	lighthousePages = []string{"/", "/marketplace", "/registry"}
	// Each category's lowest acceptable score (0–100).
	lighthouseBudgets = []struct {
		category string
		min      float64
	}{
		{"performance", 90},
		{"accessibility", 98},
		{"best-practices", 98},
		{"seo", 98},
	}
)

// lighthouse starts the devserver as the browser tests do and scores each page.
func (b *bench) lighthouse(ctx context.Context) error {
	chromium := chromiumPath()
	cli := filepath.Join(b.root, "functions", "bench", "lighthouse", "node_modules", "lighthouse", "cli", "index.js")
	if err := needFiles(chromium, cli); err != nil {
		return err
	}
	base, stop, err := b.startDevserver(ctx)
	if err != nil {
		return err
	}
	defer stop()
	version := ""
	for _, page := range lighthousePages {
		scores := map[string][]float64{}
		for range lighthouseRuns {
			report, err := runLighthouse(ctx, cli, chromium, base+page)
			if err != nil {
				return fmt.Errorf("%s: %w", page, err)
			}
			version = report.LighthouseVersion
			for id, c := range report.Categories {
				if c.Score != nil {
					scores[id] = append(scores[id], *c.Score*100)
				}
			}
		}
		var notes []string
		for _, budget := range lighthouseBudgets {
			got := scores[budget.category]
			if len(got) == 0 {
				return fmt.Errorf("%s: no %s score", page, budget.category)
			}
			name := fmt.Sprintf("lighthouse %s %s", page, budget.category)
			if budget.category == "performance" {
				name += " (mobile)"
			}
			b.rows = append(b.rows, minRow(name, median(got), budget.min, "score"))
			notes = append(notes, fmt.Sprintf("%s %v", budget.category, got))
		}
		b.note("lighthouse %s: %s", page, strings.Join(notes, ", "))
	}
	b.note("lighthouse: version %s, mobile emulation with simulated throttling, %s, the median of %d runs per page",
		version, chromium, lighthouseRuns)
	return nil
}

type lighthouseReport struct {
	LighthouseVersion string `json:"lighthouseVersion"`
	Categories        map[string]struct {
		Score *float64 `json:"score"`
	} `json:"categories"`
}

// runLighthouse runs the CLI once on url, in a fresh Chromium profile.
func runLighthouse(ctx context.Context, cli, chromium, url string) (lighthouseReport, error) {
	cats := make([]string, len(lighthouseBudgets))
	for i, budget := range lighthouseBudgets {
		cats[i] = budget.category
	}
	cmd := exec.CommandContext(ctx, "node", cli, url, "--quiet", "--output=json", "--output-path=stdout",
		"--only-categories="+strings.Join(cats, ","),
		// DESIGN §12's flags for Chromium here.
		"--chrome-flags=--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run")
	cmd.Env = append(os.Environ(), "CHROME_PATH="+chromium)
	cmd.Stderr = os.Stderr
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	if err != nil {
		return lighthouseReport{}, fmt.Errorf("lighthouse: %w", err)
	}
	var report lighthouseReport
	if err := json.Unmarshal(out, &report); err != nil {
		return lighthouseReport{}, fmt.Errorf("lighthouse report: %w", err)
	}
	return report, nil
}

// minRow checks ours against a lowest acceptable value (a score).
func minRow(name string, ours, least float64, unit string) row {
	return row{name: name, ours: ours, ref: least, unit: unit,
		budget: fmt.Sprintf("≥ %s", num(least)), ok: ours >= least, refMissing: true}
}

func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
