package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
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
	// lcpScript follows browserScriptHead.
	lcpScript = `const runs = Number(process.env.RUNS);
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
  const browser = await launch();
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

	var res struct{ Ours, Ref []float64 }
	if err := b.runBrowserScript(ctx, "lcp", lcpScript, []string{"OURS_URL=" + base + "/", "REF_URL=" + ref.URL + "/", fmt.Sprintf("RUNS=%d", lcpRuns)}, &res); err != nil {
		return err
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
