package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// The LCP part: largest contentful paint of the product's home page on
// localhost in headless Chromium (playwright-core, as the browser tests),
// against a one-heading static page in the same browser.
const (
	lcpRuns    = 5
	lcpBudget  = 8.0 // ratio of medians to the static page's (docs/benchmarks.md)
	lcpRefPage = `<!doctype html><html><head><meta charset="utf-8"><title>ref</title></head>` +
		`<body><h1>Reference page</h1><p>One heading and a line of text.</p></body></html>`
	// lcpScript is CommonJS so playwright-core loads from an absolute path.
	lcpScript = `const { chromium } = require(process.env.PLAYWRIGHT_CORE);
const runs = Number(process.env.RUNS);
async function lcp(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'networkidle', timeout: 15000 });
  await page.waitForTimeout(300);
  const ms = await page.evaluate(() => new Promise((res) => {
    new PerformanceObserver((list) => {
      const es = list.getEntries();
      res(es.length ? es[es.length - 1].startTime : -1);
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    setTimeout(() => res(-1), 2000);
  }));
  await context.close();
  return ms;
}
(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const out = { ours: [], ref: [] };
  try {
    await lcp(browser, process.env.OURS_URL); // warm-up: first start of the browser
    for (let i = 0; i < runs; i++) {
      out.ours.push(await lcp(browser, process.env.OURS_URL));
      out.ref.push(await lcp(browser, process.env.REF_URL));
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`
)

// lcp starts the devserver as the browser tests do and measures its home page.
func (b *bench) lcp(ctx context.Context) error {
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium-headless-shell"
	}
	pw := filepath.Join(b.root, "webapp", "node_modules", "playwright-core")
	for _, p := range []string{chromium, pw} {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("needs %s (make deps; chromium as `make test` installs it): %w", p, err)
		}
	}
	base, stop, err := b.startDevserver(ctx)
	if err != nil {
		return err
	}
	defer stop()
	ref := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, lcpRefPage)
	}))
	defer ref.Close()

	dir, err := os.MkdirTemp("", "bench-lcp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "lcp.cjs")
	if err := os.WriteFile(script, []byte(lcpScript), 0o644); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "node", script)
	cmd.Env = append(os.Environ(), "PLAYWRIGHT_CORE="+pw, "CHROMIUM_PATH="+chromium,
		"OURS_URL="+base+"/", "REF_URL="+ref.URL+"/", fmt.Sprintf("RUNS=%d", lcpRuns))
	cmd.Stderr = os.Stderr
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("node lcp script: %w", err)
	}
	var res struct{ Ours, Ref []float64 }
	if err := json.Unmarshal(out, &res); err != nil {
		return fmt.Errorf("lcp result %q: %w", out, err)
	}
	ours, refMS := medianMS(res.Ours), medianMS(res.Ref)
	if ours <= 0 || refMS <= 0 {
		return fmt.Errorf("no LCP entry (ours %v, reference %v)", res.Ours, res.Ref)
	}
	b.rows = append(b.rows, ratioRow("LCP home page (median)", ours, refMS, "ms", lcpBudget))
	b.note("LCP: headless Chromium, %d first visits each (fresh context, home tour as a visitor gets it) after a warm-up: ours %v ms, reference %v ms",
		lcpRuns, rounded(res.Ours), rounded(res.Ref))
	return nil
}

func medianMS(vs []float64) float64 {
	ds := make([]time.Duration, len(vs))
	for i, v := range vs {
		ds[i] = time.Duration(v * float64(time.Millisecond))
	}
	return ms(percentile(ds, 50))
}

func rounded(vs []float64) []int {
	out := make([]int, len(vs))
	for i, v := range vs {
		out[i] = int(v + 0.5)
	}
	return out
}
