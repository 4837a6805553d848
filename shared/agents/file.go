package agents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"aiwork/shared/domain"
	"aiwork/shared/llm"
)

// The agent file: an agent as it is exported and imported, documented in
// docs/agents.md. Its instructions are in it, so a paid agent's file goes
// to its creator alone.
const (
	FileFormat        = "aiwork.agent"
	FileFormatVersion = 1
	// MaxFileBytes bounds an imported file.
	MaxFileBytes = 1 << 20
)

// File is the agent file.
type File struct {
	Format        string               `json:"format"`
	FormatVersion int                  `json:"format_version"`
	Name          string               `json:"name"`
	Description   string               `json:"description"`
	Instructions  string               `json:"instructions"`
	Provider      string               `json:"provider"`
	Model         string               `json:"model"`
	Servers       []domain.AgentServer `json:"servers"`
	Starters      []string             `json:"starters"`
	CategoryID    string               `json:"category_id"`
	Price         float64              `json:"price"`
}

// Export is a's file (its live version).
func Export(a domain.Agent) File {
	servers := make([]domain.AgentServer, len(a.Servers))
	for i, s := range a.Servers {
		servers[i] = domain.AgentServer{ServerID: s.ServerID, Tools: append([]string{}, s.Tools...)}
	}
	return File{Format: FileFormat, FormatVersion: FileFormatVersion, Name: a.Name, Description: a.Description,
		Instructions: a.Instructions, Provider: a.Provider, Model: a.Model, Servers: servers,
		Starters: append([]string{}, a.Starters...), CategoryID: a.CategoryID, Price: a.Price}
}

// ImportError is a file that cannot be imported (not JSON, or neither
// format): its message is the client's 400.
type ImportError struct{ Message string }

func (e *ImportError) Error() string { return e.Message }

// MsgNotJSON answers a file that is not JSON.
const MsgNotJSON = "The file is not JSON."

// Import reads an agent file or a LobeChat agent file (the
// lobe-chat-agents format) into the Input of a new draft, with the fields
// it did not take as dotted paths (sorted). The draft is then held to the
// rules as any new agent (New); a missing category is the caller's to
// fill.
func Import(data []byte) (Input, []string, error) {
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil || dec.More() {
		return Input{}, nil, &ImportError{MsgNotJSON}
	}
	if doc == nil {
		return Input{}, nil, &ImportError{MsgNotJSON}
	}
	if f, ok := doc["format"]; ok {
		if f != FileFormat {
			return Input{}, nil, &ImportError{fmt.Sprintf("The file's format is %v: an agent file has \"format\": %q.", f, FileFormat)}
		}
		return importOwn(data, doc)
	}
	if cfg, ok := doc["config"].(map[string]any); ok {
		if _, ok := cfg["systemRole"].(string); ok {
			return importLobe(doc, cfg)
		}
		return Input{}, nil, &ImportError{"The file is not an agent file: a LobeChat agent file needs config.systemRole (the instructions)."}
	}
	return Input{}, nil, &ImportError{fmt.Sprintf("The file is not an agent file: it needs \"format\": %q, or config.systemRole as a LobeChat agent file has.", FileFormat)}
}

var ownFields = []string{"format", "format_version", "name", "description", "instructions", "provider", "model", "servers", "starters", "category_id", "price"}

func importOwn(data []byte, doc map[string]any) (Input, []string, error) {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return Input{}, nil, &ImportError{"The agent file has a field of the wrong type: " + typeErrorField(err) + "."}
	}
	if f.FormatVersion != FileFormatVersion {
		return Input{}, nil, &ImportError{fmt.Sprintf("The agent file's format_version is %d: this site reads version %d.", f.FormatVersion, FileFormatVersion)}
	}
	ignored := []string{}
	for k := range doc {
		if !slices.Contains(ownFields, k) {
			ignored = append(ignored, k)
		}
	}
	slices.Sort(ignored)
	in := Input{Name: &f.Name, Description: &f.Description, Instructions: &f.Instructions, Provider: &f.Provider, Model: &f.Model,
		Price: &f.Price}
	if f.Servers != nil {
		in.Servers = &f.Servers
	}
	if f.Starters != nil {
		in.Starters = &f.Starters
	}
	if f.CategoryID != "" {
		in.CategoryID = &f.CategoryID
	}
	return in, ignored, nil
}

func typeErrorField(err error) string {
	if te, ok := err.(*json.UnmarshalTypeError); ok && te.Field != "" {
		return te.Field
	}
	return "see the documented format"
}

// The LobeChat fields an import maps (the rest are listed as ignored).
var lobeMapped = map[string]bool{"meta.title": true, "meta.description": true, "config.systemRole": true,
	"config.model": true, "config.provider": true, "config.openingQuestions": true}

func importLobe(doc, cfg map[string]any) (Input, []string, error) {
	ignored := []string{}
	for k, v := range doc {
		sub, isObj := v.(map[string]any)
		if (k == "meta" || k == "config") && isObj {
			for sk := range sub {
				if p := k + "." + sk; !lobeMapped[p] {
					ignored = append(ignored, p)
				}
			}
			continue
		}
		ignored = append(ignored, k)
	}
	meta, _ := doc["meta"].(map[string]any)
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	name := strings.TrimSpace(str(meta, "title"))
	if name == "" {
		name = strings.TrimSpace(str(doc, "identifier"))
	}
	description := str(meta, "description")
	instructions := str(cfg, "systemRole")
	provider, model := lobeModel(str(cfg, "provider"), str(cfg, "model"))
	if _, given := cfg["model"]; given && (model != str(cfg, "model")) {
		ignored = append(ignored, "config.model")
	}
	if _, given := cfg["provider"]; given && provider != str(cfg, "provider") {
		ignored = append(ignored, "config.provider")
	}
	starters := []string{}
	if qs, ok := cfg["openingQuestions"].([]any); ok {
		for i, q := range qs {
			s, isStr := q.(string)
			if !isStr || len(starters) == MaxStarters || strings.TrimSpace(s) == "" {
				ignored = append(ignored, fmt.Sprintf("config.openingQuestions[%d]", i))
				continue
			}
			starters = append(starters, s)
		}
	} else if _, given := cfg["openingQuestions"]; given {
		ignored = append(ignored, "config.openingQuestions")
	}
	slices.Sort(ignored)
	servers := []domain.AgentServer{}
	return Input{Name: &name, Description: &description, Instructions: &instructions, Provider: &provider, Model: &model,
		Starters: &starters, Servers: &servers}, ignored, nil
}

// lobeModel is the catalogue's provider and model for a LobeChat model
// (and provider, when the file names one): the model where the catalogue
// has it, else the first provider's first model.
func lobeModel(provider, model string) (string, string) {
	if p, ok := llm.FindProvider(provider); ok && slices.Contains(p.ModelNames(), model) {
		return p.ID, model
	}
	for _, p := range llm.Providers {
		if slices.Contains(p.ModelNames(), model) {
			return p.ID, model
		}
	}
	first := llm.Providers[0]
	return first.ID, first.Models[0].Name
}
