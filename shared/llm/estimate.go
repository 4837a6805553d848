package llm

import "unicode/utf8"

// EstimateTokens is the usual four-characters-per-token rule of thumb:
// ceil(characters / 4).
func EstimateTokens(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

// EstimateUsage is what a reply is counted as when its provider reports no
// usage (the demo model, a cancelled or failed stream): the prompt (the
// context and the new message, tool calls and results included, all
// characters together) and the reply, each
// by EstimateTokens. Every provider is estimated the same way.
func EstimateUsage(msgs []Message, reply string) Usage {
	chars := 0
	for _, m := range msgs {
		chars += utf8.RuneCountInString(m.Content)
		for _, c := range m.ToolCalls {
			chars += utf8.RuneCountInString(c.Name) + utf8.RuneCountInString(c.Arguments)
		}
		for _, r := range m.ToolResults {
			chars += utf8.RuneCountInString(r.Content)
		}
	}
	return Usage{InputTokens: (chars + 3) / 4, OutputTokens: EstimateTokens(reply)}
}

// Complete fills what the provider did not report: each count it left at
// zero is estimated from msgs and the reply relayed so far (EstimateUsage).
func (u Usage) Complete(msgs []Message, reply string) Usage {
	est := EstimateUsage(msgs, reply)
	if u.InputTokens <= 0 {
		u.InputTokens = est.InputTokens
	}
	if u.OutputTokens <= 0 {
		u.OutputTokens = est.OutputTokens
	}
	return u
}
