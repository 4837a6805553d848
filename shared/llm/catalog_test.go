package llm_test

import (
	"math"
	"slices"
	"testing"

	"aiwork/shared/config"
	"aiwork/shared/llm"
	"aiwork/shared/llm/providers"
)

// restoreCatalogue puts the catalogue back after a test that remaps it.
// Such tests are not parallel: the catalogue is process-wide.
func restoreCatalogue(t *testing.T) {
	t.Helper()
	saved := make([]llm.ProviderInfo, len(llm.Providers))
	for i, p := range llm.Providers {
		saved[i] = p
		saved[i].Models = slices.Clone(p.Models)
	}
	t.Cleanup(func() { llm.Providers = saved })
}

func TestCatalogueIsSPECs(t *testing.T) {
	want := map[string][]string{
		"openai":    {"gpt-4o-mini", "gpt-4o", "gpt-4-turbo", "gpt-3.5-turbo"},
		"meta":      {"llama-3.1-8b-instruct", "llama-3.1-70b-instruct", "llama-3.2-1b-instruct"},
		"anthropic": {"claude-3-5-sonnet", "claude-3-opus"},
		"google":    {"gemini-1.5-pro", "gemini-1.5-flash"},
	}
	var order []string
	for _, p := range llm.Providers {
		order = append(order, p.ID)
	}
	if got := []string{"openai", "meta", "anthropic", "google"}; !slices.Equal(order, got) {
		t.Errorf("providers = %v, want %v", order, got)
	}
	for id, models := range want {
		p, ok := llm.FindProvider(id)
		if !ok {
			t.Fatalf("FindProvider(%q) not found", id)
		}
		if p.ID != id || p.Label == "" {
			t.Errorf("provider %q = %+v", id, p)
		}
		if got := p.ModelNames(); !slices.Equal(got, models) {
			t.Errorf("%s models = %v, want %v", id, got, models)
		}
		for _, name := range models {
			m, ok := p.FindModel(name)
			if !ok || m.Name != name || m.APIID == "" || m.InputPerM <= 0 || m.OutputPerM <= 0 || m.MaxTokens <= 0 {
				t.Errorf("%s FindModel(%q) = %+v, %v", id, name, m, ok)
			}
		}
		if _, ok := p.FindModel("gpt-5-imaginary"); ok {
			t.Errorf("%s FindModel found a model it does not offer", id)
		}
	}
	for _, id := range []string{"", "mistral", "OpenAI", "message"} {
		if _, ok := llm.FindProvider(id); ok {
			t.Errorf("FindProvider(%q) found a provider", id)
		}
	}
	// A model of one provider is not offered by another.
	openai, _ := llm.FindProvider("openai")
	if _, ok := openai.FindModel("claude-3-opus"); ok {
		t.Error("openai offers claude-3-opus")
	}
}

func TestCost(t *testing.T) {
	t.Parallel()
	m := llm.Model{InputPerM: 0.15, OutputPerM: 0.60}
	tests := []struct {
		usage llm.Usage
		want  float64
	}{
		{llm.Usage{}, 0},
		{llm.Usage{InputTokens: 1_000_000}, 0.15},
		{llm.Usage{OutputTokens: 1_000_000}, 0.60},
		{llm.Usage{InputTokens: 1200, OutputTokens: 300}, 0.00018 + 0.00018},
	}
	for _, tt := range tests {
		if got := m.Cost(tt.usage); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Cost(%+v) = %v, want %v", tt.usage, got, tt.want)
		}
	}
}

func TestApplyOverrides(t *testing.T) {
	restoreCatalogue(t)
	err := llm.ApplyOverrides(`{"anthropic":{"claude-3-5-sonnet":{"api_id":"claude-sonnet-4-5","input_per_m":3.5}},"google":{"gemini-1.5-flash":{"output_per_m":0.4}}}`)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := llm.FindProvider("anthropic")
	m, _ := a.FindModel("claude-3-5-sonnet")
	if m.APIID != "claude-sonnet-4-5" || m.InputPerM != 3.5 || m.OutputPerM != 15 || m.MaxTokens != 4096 {
		t.Errorf("remapped sonnet = %+v, want new id and input price, other fields kept", m)
	}
	g, _ := llm.FindProvider("google")
	f, _ := g.FindModel("gemini-1.5-flash")
	if f.APIID != "gemini-1.5-flash" || f.InputPerM != 0.075 || f.OutputPerM != 0.4 {
		t.Errorf("remapped flash = %+v, want only the output price changed", f)
	}
	o, _ := a.FindModel("claude-3-opus")
	if o.APIID != "claude-3-opus-latest" {
		t.Errorf("opus changed: %+v", o)
	}
	if err := llm.ApplyOverrides(""); err != nil {
		t.Errorf("empty map: %v", err)
	}
}

func TestApplyOverridesRefusesBadMaps(t *testing.T) {
	restoreCatalogue(t)
	for _, raw := range []string{
		`{"anthropic":`,
		`["claude"]`,
		`{"anthropic":{"claude-3-5-sonnet":{"api_id":7}}}`,
		`{"mistral":{"large":{"api_id":"x"}}}`,
		`{"openai":{"gpt-9":{"api_id":"x"}}}`,
	} {
		if err := llm.ApplyOverrides(raw); err == nil {
			t.Errorf("ApplyOverrides(%s) = nil, want an error", raw)
		}
	}
	// A bad map is refused at start-up too.
	if _, err := providers.RegistryFromConfig(t.Context(), config.Chat{Providers: config.Providers{ModelMap: `{"x":`}}); err == nil {
		t.Error("RegistryFromConfig accepted a malformed LLM_MODEL_MAP")
	}
}

func TestRegistryFromConfig(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")

	r, err := providers.RegistryFromConfig(t.Context(), config.Chat{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range llm.Providers {
		a, demo, ok := r.Adapter(p.ID)
		if _, isDemo := a.(*llm.Demo); !ok || !demo || !isDemo {
			t.Errorf("no keys: %s = %T demo %v, want the demo model", p.ID, a, demo)
		}
	}

	r, err = providers.RegistryFromConfig(t.Context(), config.Chat{
		Base:      config.Base{Store: config.Store{Region: "us-west-2"}},
		Providers: config.Providers{OpenAIKey: "sk-o", AnthropicKey: "sk-a", GeminiKey: "g-key", MetaBedrock: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]func(llm.Provider) bool{
		"openai":    func(p llm.Provider) bool { _, ok := p.(*providers.OpenAI); return ok },
		"anthropic": func(p llm.Provider) bool { _, ok := p.(*providers.Anthropic); return ok },
		"google":    func(p llm.Provider) bool { _, ok := p.(*providers.OpenAI); return ok }, // Gemini's OpenAI-compatible API
		"meta":      func(p llm.Provider) bool { _, ok := p.(*providers.Bedrock); return ok },
	}
	for id, isReal := range checks {
		a, demo, _ := r.Adapter(id)
		if demo || !isReal(a) {
			t.Errorf("configured: %s = %T demo %v, want its real adapter", id, a, demo)
		}
	}
}

func TestRegistryUse(t *testing.T) {
	t.Parallel()
	r := llm.NewRegistry(0)
	fake := &llm.Demo{Provider: "fake"}
	r.Use("google", fake)
	if a, demo, ok := r.Adapter("google"); a != fake || demo || !ok {
		t.Errorf("after Use: %v %v %v", a, demo, ok)
	}
	if _, demo, ok := r.Adapter("openai"); !demo || !ok {
		t.Error("openai is not the demo model")
	}
	if _, _, ok := r.Adapter("mistral"); ok {
		t.Error("an unknown provider has an adapter")
	}
}
