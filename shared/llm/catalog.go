package llm

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Model is one entry of the fixed catalogue (SPEC §3): the name users pick,
// the API id it maps to today, and its price per million tokens in USD.
type Model struct {
	Name       string  `json:"name"`
	APIID      string  `json:"api_id"`
	InputPerM  float64 `json:"input_per_m"`
	OutputPerM float64 `json:"output_per_m"`
	MaxTokens  int     `json:"max_tokens"`
}

// ProviderInfo is a provider with its models in SPEC's order.
type ProviderInfo struct {
	ID     string  `json:"id"`
	Label  string  `json:"label"`
	Models []Model `json:"models"`
}

// Providers is SPEC §3's fixed catalogue. API ids and prices can be remapped
// without a release through LLM_MODEL_MAP (see ApplyOverrides).
var Providers = []ProviderInfo{
	{ID: "openai", Label: "OpenAI GPT", Models: []Model{
		{Name: "gpt-4o-mini", APIID: "gpt-4o-mini", InputPerM: 0.15, OutputPerM: 0.60, MaxTokens: 4096},
		{Name: "gpt-4o", APIID: "gpt-4o", InputPerM: 2.50, OutputPerM: 10.00, MaxTokens: 4096},
		{Name: "gpt-4-turbo", APIID: "gpt-4-turbo", InputPerM: 10.00, OutputPerM: 30.00, MaxTokens: 4096},
		{Name: "gpt-3.5-turbo", APIID: "gpt-3.5-turbo", InputPerM: 0.50, OutputPerM: 1.50, MaxTokens: 4096},
	}},
	{ID: "meta", Label: "Meta Llama", Models: []Model{
		{Name: "llama-3.1-8b-instruct", APIID: "meta.llama3-1-8b-instruct-v1:0", InputPerM: 0.22, OutputPerM: 0.22, MaxTokens: 2048},
		{Name: "llama-3.1-70b-instruct", APIID: "meta.llama3-1-70b-instruct-v1:0", InputPerM: 0.72, OutputPerM: 0.72, MaxTokens: 2048},
		{Name: "llama-3.2-1b-instruct", APIID: "us.meta.llama3-2-1b-instruct-v1:0", InputPerM: 0.10, OutputPerM: 0.10, MaxTokens: 2048},
	}},
	{ID: "anthropic", Label: "Anthropic Claude", Models: []Model{
		{Name: "claude-3-5-sonnet", APIID: "claude-3-5-sonnet-latest", InputPerM: 3.00, OutputPerM: 15.00, MaxTokens: 4096},
		{Name: "claude-3-opus", APIID: "claude-3-opus-latest", InputPerM: 15.00, OutputPerM: 75.00, MaxTokens: 4096},
	}},
	{ID: "google", Label: "Google Gemini", Models: []Model{
		{Name: "gemini-1.5-pro", APIID: "gemini-1.5-pro", InputPerM: 1.25, OutputPerM: 5.00, MaxTokens: 4096},
		{Name: "gemini-1.5-flash", APIID: "gemini-1.5-flash", InputPerM: 0.075, OutputPerM: 0.30, MaxTokens: 4096},
	}},
}

// FindProvider answers the provider with id.
func FindProvider(id string) (ProviderInfo, bool) {
	i := slices.IndexFunc(Providers, func(p ProviderInfo) bool { return p.ID == id })
	if i < 0 {
		return ProviderInfo{}, false
	}
	return Providers[i], true
}

// FindModel answers a provider's model by SPEC name.
func (p ProviderInfo) FindModel(name string) (Model, bool) {
	i := slices.IndexFunc(p.Models, func(m Model) bool { return m.Name == name })
	if i < 0 {
		return Model{}, false
	}
	return p.Models[i], true
}

// ModelNames lists the provider's SPEC model names.
func (p ProviderInfo) ModelNames() []string {
	names := make([]string, len(p.Models))
	for i, m := range p.Models {
		names[i] = m.Name
	}
	return names
}

// Cost is the price in USD of a reply's usage.
func (m Model) Cost(u Usage) float64 {
	return float64(u.InputTokens)*m.InputPerM/1e6 + float64(u.OutputTokens)*m.OutputPerM/1e6
}

// ApplyOverrides remaps API ids and prices from JSON such as
// {"anthropic":{"claude-3-5-sonnet":{"api_id":"claude-sonnet-4-5","input_per_m":3,"output_per_m":15}}}.
// Fields left out keep their value.
func ApplyOverrides(raw string) error {
	if raw == "" {
		return nil
	}
	var over map[string]map[string]struct {
		APIID      *string  `json:"api_id"`
		InputPerM  *float64 `json:"input_per_m"`
		OutputPerM *float64 `json:"output_per_m"`
	}
	if err := json.Unmarshal([]byte(raw), &over); err != nil {
		return fmt.Errorf("LLM_MODEL_MAP: %w", err)
	}
	for pid, models := range over {
		pi := slices.IndexFunc(Providers, func(p ProviderInfo) bool { return p.ID == pid })
		if pi < 0 {
			return fmt.Errorf("LLM_MODEL_MAP: unknown provider %q", pid)
		}
		for name, o := range models {
			mi := slices.IndexFunc(Providers[pi].Models, func(m Model) bool { return m.Name == name })
			if mi < 0 {
				return fmt.Errorf("LLM_MODEL_MAP: unknown model %q of %s", name, pid)
			}
			m := &Providers[pi].Models[mi]
			if o.APIID != nil {
				m.APIID = *o.APIID
			}
			if o.InputPerM != nil {
				m.InputPerM = *o.InputPerM
			}
			if o.OutputPerM != nil {
				m.OutputPerM = *o.OutputPerM
			}
		}
	}
	return nil
}
