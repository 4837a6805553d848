package agents_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"aiwork/shared/agents"
	"aiwork/shared/domain"
)

// A LobeChat agent file (lobe-chat-agents) maps what maps and lists the
// rest.
func TestImportLobeChat(t *testing.T) {
	file := `{"author":"arvinxx","config":{"systemRole":"You are a careful editor.","model":"gpt-4o","openingQuestions":["One?","Two?","Three?","Four?","Five?"],"openingMessage":"Hello","plugins":["web"],"params":{"temperature":0.2}},
	"createdAt":"2024-01-01","homepage":"https://x","identifier":"editor","meta":{"avatar":"x","tags":["a"],"title":"Editor","description":"Edits."},"schemaVersion":1}`
	in, ignored, err := agents.Import([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if *in.Name != "Editor" || *in.Description != "Edits." || *in.Instructions != "You are a careful editor." || *in.Provider != "openai" || *in.Model != "gpt-4o" {
		t.Errorf("mapped %q %q %q %q %q", *in.Name, *in.Description, *in.Instructions, *in.Provider, *in.Model)
	}
	if !reflect.DeepEqual(*in.Starters, []string{"One?", "Two?", "Three?", "Four?"}) {
		t.Errorf("starters %v", *in.Starters)
	}
	want := []string{"author", "config.openingMessage", "config.openingQuestions[4]", "config.params", "config.plugins", "createdAt", "homepage", "identifier", "meta.avatar", "meta.tags", "schemaVersion"}
	if !reflect.DeepEqual(ignored, want) {
		t.Errorf("ignored %v\nwant %v", ignored, want)
	}
	// A model the catalogue does not know: the first provider's first
	// model, and the model listed.
	in, ignored, _ = agents.Import([]byte(`{"config":{"systemRole":"x","model":"mistral-large"},"meta":{"title":"M"}}`))
	if *in.Provider != "openai" || *in.Model != "gpt-4o-mini" || !reflect.DeepEqual(ignored, []string{"config.model"}) {
		t.Errorf("unknown model: %s %s %v", *in.Provider, *in.Model, ignored)
	}
}

// The site's own file comes back as it was exported; unknown fields are
// listed.
func TestExportImportRoundTrip(t *testing.T) {
	a := domain.Agent{Name: "N", Description: "D", Instructions: "I", Provider: "anthropic", Model: "claude-3-opus",
		Servers: []domain.AgentServer{{ServerID: "s", Tools: []string{"t"}}}, Starters: []string{"go"}, CategoryID: "business", Price: 2.5}
	f := agents.Export(a)
	raw, _ := json.Marshal(f)
	var doc map[string]any
	_ = json.Unmarshal(raw, &doc)
	doc["extra"] = true
	raw, _ = json.Marshal(doc)
	in, ignored, err := agents.Import(raw)
	if err != nil {
		t.Fatal(err)
	}
	var back domain.Agent
	in.Apply(&back)
	if !reflect.DeepEqual(back, a) || !reflect.DeepEqual(ignored, []string{"extra"}) {
		t.Errorf("back %+v, ignored %v", back, ignored)
	}
}

// A file that is not JSON, or neither format, is refused with what is
// missing.
func TestImportRefusals(t *testing.T) {
	for _, tt := range []struct{ file, message string }{
		{`not json`, agents.MsgNotJSON},
		{`{"a":1} {"b":2}`, agents.MsgNotJSON},
		{`[1,2]`, agents.MsgNotJSON},
		{`null`, agents.MsgNotJSON},
		{`{"name":"x"}`, `The file is not an agent file: it needs "format": "aiwork.agent", or config.systemRole as a LobeChat agent file has.`},
		{`{"config":{"model":"gpt-4o"}}`, "The file is not an agent file: a LobeChat agent file needs config.systemRole (the instructions)."},
		{`{"format":"other"}`, `The file's format is other: an agent file has "format": "aiwork.agent".`},
		{`{"format":"aiwork.agent","format_version":2}`, "The agent file's format_version is 2: this site reads version 1."},
		{`{"format":"aiwork.agent","format_version":1,"servers":"x"}`, "The agent file has a field of the wrong type: servers."},
	} {
		_, _, err := agents.Import([]byte(tt.file))
		var bad *agents.ImportError
		if !errors.As(err, &bad) || bad.Message != tt.message {
			t.Errorf("%s: %v; want %q", tt.file, err, tt.message)
		}
	}
}
