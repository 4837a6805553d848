package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"aiwork/shared/routes"
)

// Budgets of docs/benchmarks.md for sizes.
const (
	bootstrapBudgetMB = 20
	// chatBootstrapBudgetMB: chat links the providers' official SDKs.
	chatBootstrapBudgetMB = 40
	initialJSBudgetKB     = 170
	initialCSSBudgetKB    = 30
)

// sizes reports each Lambda bootstrap (dist/lambda/<fn>/bootstrap of `make
// build`) and the web app's initial JS and CSS, gzipped.
func (b *bench) sizes(context.Context) error {
	for _, g := range routes.Groups {
		path := filepath.Join(b.root, "dist", "lambda", g.Function, "bootstrap")
		fi, err := os.Stat(path)
		if err != nil {
			b.note("size %s: %v (run `make build`)", g.Function, err)
			continue
		}
		limit := float64(bootstrapBudgetMB)
		if g.Function == "chat" {
			limit = chatBootstrapBudgetMB
		}
		b.rows = append(b.rows, limitRow("bootstrap "+g.Function, float64(fi.Size())/(1<<20), limit, "MB"))
	}
	kb, err := initialJSGzipKB(filepath.Join(b.root, "webapp", "dist"))
	if err != nil {
		return fmt.Errorf("initial JS: %w (run `make webapp`)", err)
	}
	b.rows = append(b.rows, limitRow("webapp initial JS (gzip)", kb, initialJSBudgetKB, "KB"))
	kb, err = initialCSSGzipKB(filepath.Join(b.root, "webapp", "dist"))
	if err != nil {
		return fmt.Errorf("initial CSS: %w (run `make webapp`)", err)
	}
	b.rows = append(b.rows, limitRow("webapp initial CSS (gzip)", kb, initialCSSBudgetKB, "KB"))
	return nil
}

// htmlStylesheet: a stylesheet index.html links. The build puts the CSS of
// everything loaded before any lazy route there (render-blocking); a lazy
// page's CSS comes with its chunk.
var htmlStylesheet = regexp.MustCompile(`<link[^>]*rel="stylesheet"[^>]*href="/(assets/[^"]+\.css)"`)

func initialCSSGzipKB(dist string) (float64, error) {
	html, err := os.ReadFile(filepath.Join(dist, "index.html"))
	if err != nil {
		return 0, err
	}
	matches := htmlStylesheet.FindAllStringSubmatch(string(html), -1)
	if len(matches) == 0 {
		return 0, fmt.Errorf("no stylesheet in %s/index.html", dist)
	}
	total := 0
	for _, m := range matches {
		css, err := os.ReadFile(filepath.Join(dist, m[1]))
		if err != nil {
			return 0, err
		}
		n, err := gzipSize(css)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return float64(total) / 1024, nil
}

// The same definition as webapp/scripts/initial-js-size.mjs: the scripts and
// modulepreloads index.html names, plus their static imports (lazy import()
// chunks excluded), each gzipped.
var (
	htmlAsset    = regexp.MustCompile(`(?:src|href)="/(assets/[^"]+\.js)"`)
	staticImport = regexp.MustCompile(`(?:^|[;\n}])\s*import\s*(?:[^'"()]*?from\s*)?["']\./([^"']+\.js)["']`)
)

func initialJSGzipKB(dist string) (float64, error) {
	html, err := os.ReadFile(filepath.Join(dist, "index.html"))
	if err != nil {
		return 0, err
	}
	var queue []string
	for _, m := range htmlAsset.FindAllStringSubmatch(string(html), -1) {
		queue = append(queue, m[1])
	}
	if len(queue) == 0 {
		return 0, fmt.Errorf("no script in %s/index.html", dist)
	}
	seen := map[string]bool{}
	total := 0
	for len(queue) > 0 {
		file := queue[0]
		queue = queue[1:]
		if seen[file] {
			continue
		}
		seen[file] = true
		code, err := os.ReadFile(filepath.Join(dist, file))
		if err != nil {
			return 0, err
		}
		for _, m := range staticImport.FindAllStringSubmatch(string(code), -1) {
			queue = append(queue, "assets/"+m[1])
		}
		n, err := gzipSize(code)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return float64(total) / 1024, nil
}

func gzipSize(b []byte) (int, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return 0, err
	}
	if _, err := zw.Write(b); err != nil {
		return 0, err
	}
	if err := zw.Close(); err != nil {
		return 0, err
	}
	return buf.Len(), nil
}
