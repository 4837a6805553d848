package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// The browser parts (lcp, mcpapp, chatlength) drive headless Chromium with
// playwright-core, as the browser tests do, from a Node script each: the
// part gives its script's body, which starts after browserScriptHead, and
// reads back the JSON the script prints.

// browserScriptHead is CommonJS, so that playwright-core loads from an
// absolute path. It gives the body launch() and signedIn(browser, options):
// a context whose web app finds the user of USER_JSON and TOKEN signed in.
const browserScriptHead = `const { chromium } = require(process.env.PLAYWRIGHT_CORE);
const launch = () => chromium.launch({
  executablePath: process.env.CHROMIUM_PATH, headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
async function signedIn(browser, options) {
  const context = await browser.newContext(options);
  await context.addInitScript(([user, token]) => {
    if (!localStorage.getItem('auth-storage')) localStorage.setItem('auth-storage', JSON.stringify({ user, token, isAuthenticated: true }));
  }, [JSON.parse(process.env.USER_JSON || 'null'), process.env.TOKEN || '']);
  return context;
}
`

// chromiumPath is the headless Chromium the browser parts drive (CHROMIUM,
// else the one `make test` installs).
func chromiumPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	return "/usr/bin/chromium-headless-shell"
}

// needFiles says which of paths is missing, and how to get it.
func needFiles(paths ...string) error {
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("needs %s (make deps; chromium as `make test` installs it): %w", p, err)
		}
	}
	return nil
}

// runBrowserScript runs body after browserScriptHead with node, env added
// to this process's, and decodes the JSON it prints into out.
func (b *bench) runBrowserScript(ctx context.Context, name, body string, env []string, out any) error {
	chromium := chromiumPath()
	pw := filepath.Join(b.root, "webapp", "node_modules", "playwright-core")
	if err := needFiles(chromium, pw); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "bench-"+name+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, name+".cjs")
	if err := os.WriteFile(script, []byte(browserScriptHead+body), 0o644); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "node", script)
	cmd.Env = append(append(os.Environ(), "PLAYWRIGHT_CORE="+pw, "CHROMIUM_PATH="+chromium), env...)
	cmd.Stderr = os.Stderr
	cmd.WaitDelay = 5 * time.Second
	printed, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("node %s script: %w", name, err)
	}
	if err := json.Unmarshal(printed, out); err != nil {
		return fmt.Errorf("%s result %q: %w", name, printed, err)
	}
	return nil
}

// benchUser registers a new user (its name starting with prefix): the
// user as the web app keeps it, and its token.
func benchUser(ctx context.Context, client *http.Client, base, prefix string) (user json.RawMessage, token string, err error) {
	id := time.Now().UnixNano()
	var reg struct {
		AccessToken string          `json:"access_token"`
		User        json.RawMessage `json:"user"`
	}
	if err := postJSON(ctx, client, base+"/api/v1/auth/register", "", map[string]string{
		"email": fmt.Sprintf("%s%d@example.com", prefix, id), "username": fmt.Sprintf("%s%d", prefix, id),
		"full_name": "Bench User", "password": "bench-password-1",
	}, &reg); err != nil {
		return nil, "", fmt.Errorf("register: %w", err)
	}
	return reg.User, reg.AccessToken, nil
}
