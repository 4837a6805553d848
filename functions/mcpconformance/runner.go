package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"aiwork/shared/testbed/devproc"
)

// suiteCLI is the suite's command line inside its npm package.
const suiteCLI = "node_modules/@modelcontextprotocol/conformance/dist/index.js"

// runSuite runs the suite's client scenarios (every one but the
// extensions', unless -scenario names some) one adapter each, prints a
// table of the outcomes, and fails when a scenario fails that the
// expected-failures file does not list, or passes while it is listed.
func runSuite(ctx context.Context, args []string) error {
	fl := flag.NewFlagSet("run", flag.ExitOnError)
	root := fl.String("root", ".", "repository root")
	devserver := fl.String("devserver", ".bin/devserver", "devserver binary, relative to root unless absolute")
	node := fl.String("node", ".bin/node22/bin/node", "Node 22 binary the suite runs on, relative to root unless absolute")
	suiteDir := fl.String("suite", "functions/mcpconformance/suite", "the suite's npm folder (package.json, node_modules), relative to root unless absolute")
	expected := fl.String("expected", "functions/mcpconformance/expected-failures.yml", "expected failures, relative to root unless absolute")
	only := fl.String("scenario", "", "comma-separated scenarios to run (default: every client scenario but the extensions')")
	api := fl.String("api", "", "a running product's URL to test instead of starting a devserver")
	parallel := fl.Int("parallel", 3, "scenarios run at once")
	outDir := fl.String("out", ".bin/conformance", "where the suite writes each scenario's checks, relative to root unless absolute")
	_ = fl.Parse(args)
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(*root, p)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	r := suiteRun{node: abs(*node), cli: filepath.Join(abs(*suiteDir), suiteCLI), self: self, out: abs(*outDir)}
	scenarios, err := r.clientScenarios(ctx)
	if err != nil {
		return err
	}
	if *only != "" {
		scenarios = strings.Split(*only, ",")
	}
	baseline, err := readExpected(abs(*expected))
	if err != nil {
		return err
	}
	if r.api = *api; r.api == "" {
		d, err := devproc.Start(ctx, devproc.Options{Bin: abs(*devserver), Root: abs(*root), Env: devserverEnv})
		if err != nil {
			return err
		}
		defer d.Stop()
		r.api = d.Base
	}
	if err := os.RemoveAll(r.out); err != nil {
		return err
	}
	results := r.runAll(ctx, scenarios, max(1, *parallel))
	return report(os.Stdout, results, baseline)
}

// devserverEnv is the product as `make run` starts it, with every user
// free to register from loopback, no provider key (the demo model answers),
// the connect limits out of the way of a few dozen scenarios a minute, and
// an admin for the scenarios that need an operator (operator_client.go).
var devserverEnv = []string{
	"REGISTER_LIMIT_PER_IP=0",
	"ADMIN_EMAILS=" + conformanceAdminEmail,
	"OPENAI_API_KEY=", "OPENAI_BASE_URL=",
	"MCP_CONNECTS_PER_MINUTE=1000", "MCP_HOST_CONNECTS_PER_MINUTE=1000",
	// A scenario's server stops only once the product's warm session to it
	// (and the standalone stream it listens on) is closed.
	"MCP_SESSION_IDLE=1s",
	// The site's Client ID Metadata Document as the suite publishes one for
	// its client (a local run has no https address of its own): an
	// operator setting, as for a site that publishes it elsewhere.
	"MCP_OAUTH_CLIENT_METADATA_URL=" + suiteClientMetadataURL,
}

// suiteClientMetadataURL is the client_id the suite's CIMD scenario wants.
const suiteClientMetadataURL = "https://conformance-test.local/client-metadata.json"

type suiteRun struct {
	node, cli, self, out, api string
}

// clientScenarios lists the suite's client scenarios, but the extensions'.
func (r suiteRun) clientScenarios(ctx context.Context) ([]string, error) {
	out, err := exec.CommandContext(ctx, r.node, r.cli, "list").Output()
	if err != nil {
		return nil, fmt.Errorf("list the suite's scenarios (%s %s): %w", r.node, r.cli, err)
	}
	var names []string
	inClient := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "Client scenarios"):
			inClient = true
		case !strings.HasPrefix(line, " "):
			inClient = false
		case inClient && strings.HasPrefix(strings.TrimSpace(line), "- "):
			name, tags, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(line), "- "), " ")
			if !strings.Contains(tags, "extension") {
				names = append(names, name)
			}
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("the suite lists no client scenarios:\n%s", out)
	}
	return names, nil
}

// outcome is one scenario's run.
type outcome struct {
	scenario string
	checks   []check
	err      error // the suite could not run it
	took     time.Duration
}

type check struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage"`
	Details      any    `json:"details"`
}

func (o outcome) failed() []check {
	return slices.DeleteFunc(slices.Clone(o.checks), func(c check) bool { return c.Status != "FAILURE" && c.Status != "WARNING" })
}

func (o outcome) passed() bool { return o.err == nil && len(o.checks) > 0 && len(o.failed()) == 0 }

func (r suiteRun) runAll(ctx context.Context, scenarios []string, parallel int) []outcome {
	results := make([]outcome, len(scenarios))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, s := range scenarios {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = r.runOne(ctx, s)
			fmt.Fprintf(os.Stderr, "conformance: %s %s (%s)\n", s, verdict(results[i]), results[i].took.Round(time.Millisecond))
		})
	}
	wg.Wait()
	return results
}

func verdict(o outcome) string {
	if o.passed() {
		return "passed"
	}
	return "failed"
}

// runOne runs one scenario with the adapter as its client and reads the
// checks the suite wrote.
func (r suiteRun) runOne(ctx context.Context, scenario string) outcome {
	start := time.Now()
	dir := filepath.Join(r.out, strings.ReplaceAll(scenario, "/", "_"))
	cmd := exec.CommandContext(ctx, r.node, r.cli, "client", "--command", r.self+" adapt", "--scenario", scenario,
		"--output-dir", dir, "--timeout", "60000")
	cmd.Env = append(os.Environ(), apiVar+"="+r.api)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	runErr := cmd.Run()
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, "suite-output.txt"), logs.Bytes(), 0o644)
	o := outcome{scenario: scenario, took: time.Since(start)}
	o.checks, o.err = readChecks(dir)
	if o.err != nil && runErr != nil {
		o.err = fmt.Errorf("%w (the suite: %v)", o.err, runErr)
	}
	return o
}

// readChecks reads the checks.json the suite wrote under dir.
func readChecks(dir string) ([]check, error) {
	var found string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "checks.json" {
			found = p
			return fs.SkipAll
		}
		return nil
	})
	if found == "" {
		return nil, errors.New("the suite wrote no checks")
	}
	b, err := os.ReadFile(found)
	if err != nil {
		return nil, err
	}
	var checks []check
	if err := json.Unmarshal(b, &checks); err != nil {
		return nil, fmt.Errorf("%s: %w", found, err)
	}
	return checks, nil
}

// readExpected reads the expected failures: the suite's baseline format
// (`client:` then `- <scenario>` lines, a `#` comment giving the reason).
func readExpected(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	inClient := false
	for _, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "-"):
			inClient = trimmed == "client:"
		case inClient && strings.HasPrefix(trimmed, "- "):
			name, reason, _ := strings.Cut(strings.TrimPrefix(trimmed, "- "), "#")
			out[strings.Trim(strings.TrimSpace(name), `"'`)] = strings.TrimSpace(reason)
		}
	}
	return out, nil
}

// report prints the table and answers an error when the outcomes differ
// from the baseline.
func report(w *os.File, results []outcome, baseline map[string]string) error {
	slices.SortFunc(results, func(a, b outcome) int { return cmp.Compare(a.scenario, b.scenario) })
	width := len("SCENARIO")
	for _, o := range results {
		width = max(width, len(o.scenario))
	}
	fmt.Fprintf(w, "%-*s  %-8s  %-7s  %s\n", width, "SCENARIO", "RESULT", "CHECKS", "NOTE")
	var unexpected, stale []string
	passed := 0
	for _, o := range results {
		reason, listed := baseline[o.scenario]
		result, note := "PASS", ""
		switch {
		case o.passed() && listed:
			result, note = "PASS", "listed as an expected failure: remove it from the file"
			stale = append(stale, o.scenario)
		case o.passed():
		case listed:
			result, note = "EXPECTED", reason
		default:
			result, note = "FAIL", firstFailure(o)
			unexpected = append(unexpected, o.scenario)
		}
		if o.passed() {
			passed++
		}
		fmt.Fprintf(w, "%-*s  %-8s  %3d/%-3d  %s\n", width, o.scenario, result, len(o.checks)-len(o.failed()), len(o.checks), note)
	}
	fmt.Fprintf(w, "\n%d of %d client scenarios pass; %d expected failures listed\n", passed, len(results), len(baseline))
	var errs []error
	if len(unexpected) > 0 {
		errs = append(errs, fmt.Errorf("failed and not expected: %s (each scenario's output is under the -out folder)", strings.Join(unexpected, ", ")))
	}
	if len(stale) > 0 {
		errs = append(errs, fmt.Errorf("passed but listed as expected failures: %s", strings.Join(stale, ", ")))
	}
	return errors.Join(errs...)
}

func firstFailure(o outcome) string {
	if o.err != nil {
		return o.err.Error()
	}
	for _, c := range o.failed() {
		msg := cmp.Or(c.ErrorMessage, detailsText(c.Details), c.Name)
		msg = strings.Join(strings.Fields(msg), " ")
		if len(msg) > 160 {
			msg = msg[:160] + "…"
		}
		return c.ID + ": " + msg
	}
	return ""
}

func detailsText(d any) string {
	if d == nil {
		return ""
	}
	b, _ := json.Marshal(d)
	return string(b)
}
