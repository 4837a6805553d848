package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"aiwork/shared/chat"
	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/store"
	"aiwork/shared/testbed/devproc"
)

// The chat length part: in headless Chromium, a conversation of 1,000
// messages (plain text, markdown with code blocks, replies with tool
// blocks), seeded straight into the devserver's table, against one of 10
// made the same way. Two rows:
//   - opening it: from the click on its tab to its last message shown (a
//     frame after it is in the conversation's view), alternating with the
//     10-message one, the median of each;
//   - streaming a reply into it at 100 chunks a second (an OpenAI-format
//     upstream in this process): the longest task the page's Long Tasks API
//     saw from the send to the reply's end, the median over the streams,
//     beside the same streams into the 10-message one.
//
// The seeded text stays within what the chat sends as a message's context
// (chatapi.MaxContextChars, 120,000 characters): a conversation a user can
// still write in, which is what the stream row needs.
const (
	chatLengthLong      = 1000
	chatLengthShort     = 10
	chatLengthOpenRuns  = 7
	chatLengthStreams   = 5
	chatLengthOpenRatio = 2.0  // docs/benchmarks.md
	chatLengthTaskMS    = 50.0 // the Long Tasks API's own threshold
	// chatLengthChunks at chatLengthGap: 100 chunks a second for 3 s.
	chatLengthChunks = 300
	chatLengthGap    = 10 * time.Millisecond
	chatLengthModel  = "gpt-4o-mini"
	// chatLengthScript follows browserScriptHead.
	chatLengthScript = `const convs = JSON.parse(process.env.CONVERSATIONS);
const openRuns = Number(process.env.OPEN_RUNS);
const streams = Number(process.env.STREAMS);

// Clicks the conversation's tab and answers the ms until its last message
// (the one holding marker) is in the conversation's view and visible
// (a list may lay messages out hidden while it places them), a frame later.
const openTab = (page, c) => page.evaluate(([title, marker]) => new Promise((res, rej) => {
  const tab = [...document.querySelectorAll('[role="tab"]')].find((t) => t.textContent.includes(title));
  if (!tab) return rej(new Error('no tab ' + title));
  const t0 = performance.now();
  tab.click();
  const check = () => {
    const box = document.querySelector('[data-testid="messages"]');
    const all = box ? box.querySelectorAll('[data-testid="message"]') : [];
    const last = all[all.length - 1];
    if (last && last.textContent.includes(marker)) {
      const a = last.getBoundingClientRect(), b = box.getBoundingClientRect();
      const seen = a.height > 0 && a.bottom > b.top && a.top < b.bottom && last.checkVisibility({ visibilityProperty: true, opacityProperty: true });
      if (seen) return requestAnimationFrame(() => res(performance.now() - t0));
    }
    if (performance.now() - t0 > 30000) return rej(new Error('last message of ' + title + ' never shown'));
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}), [c.title, c.marker]);

// Sends a message in the active tab and answers the longest task (ms) seen
// from the send to a frame after the reply ended, and how many tasks.
async function streamOnce(page, text) {
  await page.evaluate(() => {
    window.__tasks = [];
    window.__obs?.disconnect();
    window.__obs = new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__tasks.push(e.duration); });
    window.__obs.observe({ type: 'longtask' });
  });
  // By CSS: a query by label walks every element of the page, in the measured window.
  const box = page.locator('textarea.chat-input__box');
  await box.fill(text);
  await page.evaluate(() => { window.__tasks = []; });
  await box.press('Enter');
  // Over when the last two messages are this one and its finished reply.
  await page.waitForFunction((sent) => {
    const all = document.querySelectorAll('[data-testid="messages"] [data-testid="message"]');
    const [asked, reply] = [all[all.length - 2], all[all.length - 1]];
    return asked && asked.textContent.includes(sent) && reply.getAttribute('data-role') === 'assistant'
      && reply.getAttribute('data-complete') === 'true' && reply.textContent.includes('END OF REPLY');
  }, text, { timeout: 60000, polling: 100 });
  const tasks = await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => setTimeout(() => {
    window.__obs.disconnect();
    res(window.__tasks);
  }, 100))));
  const err = await page.locator('[data-testid="message-error"]').count();
  if (err) throw new Error('the reply failed: ' + await page.locator('[data-testid="message-error"]').last().textContent());
  return { longest: tasks.length ? Math.max(...tasks) : 0, count: tasks.length };
}

(async () => {
  const browser = await launch();
  const out = { open: { long: [], short: [] }, stream: { long: [], short: [] }, counts: { long: [], short: [] } };
  try {
    const context = await signedIn(browser, { baseURL: process.env.OURS_URL, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto('/llm-chat');
    for (const c of [convs.long, convs.short]) await page.getByRole('tab', { name: c.title }).waitFor({ timeout: 30000 });
    // Warm-up: each tab's messages come from the server once, then from memory.
    for (const c of [convs.long, convs.short, convs.long, convs.short]) await openTab(page, c);
    for (let i = 0; i < openRuns; i++) {
      out.open.long.push(await openTab(page, convs.long));
      out.open.short.push(await openTab(page, convs.short));
    }
    for (let i = 0; i < streams; i++) {
      for (const [key, c] of [['long', convs.long], ['short', convs.short]]) {
        await openTab(page, { title: c.title, marker: '' }); // its last message is a reply streamed here now
        const r = await streamOnce(page, 'Stream ' + key + ' ' + (i + 1) + ': tell me more about this.');
        out.stream[key].push(r.longest);
        out.counts[key].push(r.count);
      }
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`
)

// chatConv is what the script needs of a seeded conversation.
type chatConv struct {
	Title  string `json:"title"`
	Marker string `json:"marker"`
}

// chatLength starts the devserver with OpenAI pointed at a local upstream,
// seeds the two conversations of a fresh user and runs the script.
func (b *bench) chatLength(ctx context.Context) error {
	upstream := httptest.NewServer(http.HandlerFunc(chatLengthUpstream))
	defer upstream.Close()
	d, err := devproc.Start(ctx, devproc.Options{Bin: b.devserver, Root: b.root, Dynamo: b.dynamo,
		Env: []string{"OPENAI_API_KEY=sk-bench", "OPENAI_BASE_URL=" + upstream.URL + "/v1/"}})
	if err != nil {
		return err
	}
	defer d.Stop()
	client := &http.Client{Timeout: 30 * time.Second}
	user, token, err := benchUser(ctx, client, d.Base, "chatlength")
	if err != nil {
		return err
	}
	var who struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(user, &who); err != nil || who.ID == "" {
		return fmt.Errorf("registered user without an id: %s", user)
	}
	st, err := store.New(ctx, config.Store{TableName: "aiwork", Endpoint: b.dynamo, Region: "us-east-1"})
	if err != nil {
		return err
	}
	// The short one is older: the long one is the first tab.
	now := time.Now().Add(-time.Hour)
	long, short := chatConv{Title: "Long conversation", Marker: "LAST OF LONG"}, chatConv{Title: "Short conversation", Marker: "LAST OF SHORT"}
	for _, c := range []struct {
		conv chatConv
		n    int
		at   time.Time
	}{{short, chatLengthShort, now}, {long, chatLengthLong, now.Add(time.Minute)}} {
		if err := seedChat(ctx, st, who.ID, c.conv, c.n, c.at); err != nil {
			return err
		}
	}

	convs, _ := json.Marshal(map[string]chatConv{"long": long, "short": short})
	var res struct {
		Open   struct{ Long, Short []float64 }
		Stream struct{ Long, Short []float64 }
		Counts struct{ Long, Short []int }
	}
	if err := b.runBrowserScript(ctx, "chatlength", chatLengthScript, []string{"OURS_URL=" + d.Base, "USER_JSON=" + string(user), "TOKEN=" + token,
		"CONVERSATIONS=" + string(convs), fmt.Sprintf("OPEN_RUNS=%d", chatLengthOpenRuns), fmt.Sprintf("STREAMS=%d", chatLengthStreams)}, &res); err != nil {
		return err
	}
	openLong, openShort := medianMS(res.Open.Long), medianMS(res.Open.Short)
	if openLong <= 0 || openShort <= 0 {
		return fmt.Errorf("no open times (1,000: %v, 10: %v)", res.Open.Long, res.Open.Short)
	}
	taskLong, taskShort := medianMS(res.Stream.Long), medianMS(res.Stream.Short)
	b.rows = append(b.rows,
		ratioRow(fmt.Sprintf("chat open, %s messages (median)", thousands(chatLengthLong)), openLong, openShort, "ms", chatLengthOpenRatio),
		// An absolute budget, with the same streams beside 10 messages as the reference column.
		row{name: fmt.Sprintf("chat longest task while streaming beside %s messages", thousands(chatLengthLong)), ours: taskLong, ref: taskShort,
			unit: "ms", budget: fmt.Sprintf("≤ %s ms", num(chatLengthTaskMS)), ok: taskLong <= chatLengthTaskMS},
	)
	b.note("chat length: headless Chromium, 1280×800; opening a conversation (click on its tab to its last message in view, a frame later), %d times each after a warm-up, alternating: %s messages %v ms, %d messages %v ms",
		chatLengthOpenRuns, thousands(chatLengthLong), rounded(res.Open.Long), chatLengthShort, rounded(res.Open.Short))
	b.note("chat length: a reply of %d chunks at %s apart streamed into each, %d times: the longest task of each stream (Long Tasks API, tasks over 50 ms) beside %s messages %v ms (%v tasks), beside %d messages %v ms (%v tasks)",
		chatLengthChunks, chatLengthGap, chatLengthStreams, thousands(chatLengthLong), rounded(res.Stream.Long), res.Counts.Long, chatLengthShort, rounded(res.Stream.Short), res.Counts.Short)
	return nil
}

func thousands(n int) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d,%03d", n/1000, n%1000)
}

// seedChat stores an open conversation of n messages for uid, user and
// assistant in turn; the last one holds c.Marker.
func seedChat(ctx context.Context, st *store.Store, uid string, c chatConv, n int, at time.Time) error {
	cid := fmt.Sprintf("cbench%012x", at.UnixNano()&0xffffffffffff)
	msgs := make([]domain.ConversationMessage, n)
	for i := range msgs {
		t := at.Add(time.Duration(i) * time.Millisecond)
		m := domain.ConversationMessage{ID: chat.NewMessageID(t), ConversationID: cid, CreatedAt: t, UpdatedAt: t, Complete: true}
		if i%2 == 0 {
			m.Role, m.Content = domain.RoleUser, chatUserText(i)
		} else {
			m.Role = domain.RoleAssistant
			m.Content, m.Blocks = chatReplyText(i)
			m.Usage = &domain.MessageUsage{InputTokens: 40 + i, OutputTokens: 60, CostUSD: 0.0001}
		}
		if i == n-1 {
			m.Content += "\n\n" + c.Marker
		}
		msgs[i] = m
	}
	conv := domain.Conversation{ID: cid, Title: c.Title, Provider: "openai", Model: chatLengthModel, CreatedAt: at, UpdatedAt: at.Add(time.Duration(n) * time.Millisecond)}
	if err := st.CreateConversation(ctx, uid, conv, msgs...); err != nil {
		return fmt.Errorf("seed %q: %w", c.Title, err)
	}
	return nil
}

// chatUserText is the i-th user message: a plain line or two.
func chatUserText(i int) string {
	switch i / 2 % 3 {
	case 0:
		return fmt.Sprintf("Question %d: how do I read a file line by line?", i/2+1)
	case 1:
		return fmt.Sprintf("Thanks. Now step %d: make it stop at the first empty line.", i/2+1)
	default:
		return fmt.Sprintf("Can you run the tool on item %d?", i/2+1)
	}
}

// chatReplyText is the i-th reply: markdown, markdown with a code block,
// or text around a tool call and its result (blocks, as the chat keeps
// them: each placed after `at` bytes of the text).
func chatReplyText(i int) (string, []domain.MessageBlock) {
	switch i / 2 % 3 {
	case 0:
		return fmt.Sprintf("Use **bufio.Scanner** (reply %d):\n\n- open the file\n- scan it\n- check `Err()`", i), nil
	case 1:
		return fmt.Sprintf("Like this (%d):\n\n```go\nfor s.Scan() {\n\tif s.Text() == \"\" {\n\t\tbreak\n\t}\n}\n```", i), nil
	default:
		before := "Running it."
		call, _ := json.Marshal(map[string]any{"tool_call": map[string]any{"id": fmt.Sprintf("call%d", i), "server_id": "bench",
			"server_name": "Bench tools", "tool": "lookup", "arguments": map[string]any{"item": i}}})
		result, _ := json.Marshal(map[string]any{"tool_result": map[string]any{"id": fmt.Sprintf("call%d", i), "is_error": false, "duration_ms": 12,
			"content": []map[string]string{{"type": "text", "text": fmt.Sprintf("item %d: %s", i, strings.Repeat("found; ", 20))}}}})
		return before + fmt.Sprintf(" Item %d is found.", i), []domain.MessageBlock{{At: len(before), Frame: call}, {At: len(before), Frame: result}}
	}
}

// chatLengthUpstream streams an OpenAI-format reply of chatLengthChunks
// pieces of markdown, chatLengthGap apart, ending in "END OF REPLY".
func chatLengthUpstream(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.NotFound(w, r)
		return
	}
	_, _ = io.Copy(io.Discard, r.Body)
	out := startOpenAIStream(w, "chatcmpl-bench")
	pieces := []string{"Here ", "is **", "more**", ": a ", "line ", "with `", "code`", ".\n\n", "```go\n", "x := ", "1\n", "```\n\n"}
	for i := range chatLengthChunks {
		if i > 0 {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(chatLengthGap):
			}
		}
		text := pieces[i%len(pieces)]
		if i == chatLengthChunks-1 {
			text += "\n\nEND OF REPLY" // after a closed code block
		}
		if out.content(text) != nil {
			return
		}
	}
	out.end("stop", chatLengthChunks)
}
