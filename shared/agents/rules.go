// Package agents holds the rules of an agent whoever writes it (a creator,
// an import): the limits of its fields and the words that say which one is
// broken, the registry servers and tools it may name, the fields a writer
// may set and what makes a new version. Like the prompts package it knows
// nothing of HTTP or of the table: a route decodes its request into an
// Input and answers an *prompts.InvalidError as its own client error.
package agents

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/prompts"
)

// Limits of an agent's fields, in characters (not bytes).
const (
	MaxName         = 100
	MaxDescription  = 2000
	MaxInstructions = 50_000
	MaxServers      = 10
	MaxTools        = 100
	MaxToolName     = 128
	MaxStarters     = 4
	MaxStarter      = 300
	MaxChangeNote   = 300
)

// InvalidError is an agent that breaks a rule: the prompts' error, so a
// route answers both the same way (Field is the JSON name).
type InvalidError = prompts.InvalidError

func invalid(field, format string, args ...any) *InvalidError {
	return &InvalidError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// Registry answers a registry server by id (found false when there is
// none); an error is the registry's failure, answered as it is.
type Registry func(id string) (srv domain.MCPServer, found bool, err error)

// Check holds a to the rules: categories are the known ones (names by id),
// servers the registry. It answers the first rule broken (an
// *InvalidError), a registry failure, or nil. The registry is asked only
// once the counts are within their limits.
func Check(a domain.Agent, categories map[string]string, servers Registry) error {
	if err := checkText(a); err != nil {
		return err
	}
	if err := checkModel(a.Provider, a.Model); err != nil {
		return err
	}
	if err := checkStarters(a.Starters); err != nil {
		return err
	}
	if a.Price < 0 || a.Price != a.Price {
		return invalid("price", "price must be 0 (free) or more than 0 and at most %.2f", prompts.MaxPrice)
	}
	if a.Price != 0 {
		if err := prompts.CheckPrice(a.Price); err != nil {
			return err
		}
	}
	if _, ok := categories[a.CategoryID]; !ok {
		if a.CategoryID == "" {
			return invalid("category_id", "category_id is required")
		}
		return invalid("category_id", "category %q does not exist", a.CategoryID)
	}
	return checkServers(a.Servers, servers)
}

func checkText(a domain.Agent) error {
	switch n := utf8.RuneCountInString(a.Name); {
	case strings.TrimSpace(a.Name) == "":
		return invalid("name", "name is required")
	case n > MaxName:
		return invalid("name", "name must be at most %d characters", MaxName)
	case strings.IndexFunc(a.Name, unicode.IsControl) >= 0:
		return invalid("name", "name must not contain control characters")
	}
	if utf8.RuneCountInString(a.Description) > MaxDescription {
		return invalid("description", "description must be at most 2,000 characters")
	}
	switch n := utf8.RuneCountInString(a.Instructions); {
	case strings.TrimSpace(a.Instructions) == "":
		return invalid("instructions", "instructions are required")
	case n > MaxInstructions:
		return invalid("instructions", "instructions must be at most 50,000 characters (they have %d)", n)
	}
	return nil
}

// ProviderIDs lists the providers' ids in the catalogue's order.
func ProviderIDs() []string {
	ids := make([]string, len(llm.Providers))
	for i, p := range llm.Providers {
		ids[i] = p.ID
	}
	return ids
}

func checkModel(provider, model string) error {
	if provider == "" {
		return invalid("provider", "provider is required")
	}
	p, ok := llm.FindProvider(provider)
	if !ok {
		return invalid("provider", "provider: %s is not one of %s", provider, strings.Join(ProviderIDs(), ", "))
	}
	if model == "" {
		return invalid("model", "model is required")
	}
	if !slices.Contains(p.ModelNames(), model) {
		return invalid("model", "model: %s is not a model of %s", model, provider)
	}
	return nil
}

func checkStarters(starters []string) error {
	if len(starters) > MaxStarters {
		return invalid("starters", "starters: at most %d", MaxStarters)
	}
	for _, s := range starters {
		if n := utf8.RuneCountInString(s); strings.TrimSpace(s) == "" || n > MaxStarter {
			return invalid("starters", "starters: each must be 1 to %d characters", MaxStarter)
		}
	}
	return nil
}

// Usable reports whether an agent may name the registry server srv: listed
// (active) and not taken out by an admin.
func Usable(srv domain.MCPServer) bool { return srv.IsActive && !srv.AdminDisabled }

// shown is a name from a request as an error message quotes it: a long
// one cut short.
func shown(id string) string {
	const most = 64
	if utf8.RuneCountInString(id) <= most {
		return id
	}
	return string([]rune(id)[:most]) + "…"
}

func checkServers(list []domain.AgentServer, registry Registry) error {
	if len(list) > MaxServers {
		return invalid("servers", "servers: at most %d", MaxServers)
	}
	tools := 0
	for _, s := range list {
		tools += len(s.Tools)
	}
	if tools > MaxTools {
		return invalid("servers", "servers: at most %d tools in all", MaxTools)
	}
	seen := map[string]bool{}
	for _, s := range list {
		if s.ServerID == "" {
			return invalid("servers", "servers: each needs a server_id")
		}
		if seen[s.ServerID] {
			return invalid("servers", "servers: %s is listed twice", shown(s.ServerID))
		}
		seen[s.ServerID] = true
		named := map[string]bool{}
		for _, t := range s.Tools {
			switch {
			case t == "":
				return invalid("servers", "servers: %s has a tool with no name", s.ServerID)
			case utf8.RuneCountInString(t) > MaxToolName:
				return invalid("servers", "servers: a tool name of %s is longer than %d characters", shown(s.ServerID), MaxToolName)
			case named[t]:
				return invalid("servers", "servers: %s lists the tool %s twice", s.ServerID, t)
			}
			named[t] = true
		}
	}
	for _, s := range list {
		srv, found, err := registry(s.ServerID)
		if err != nil {
			return err
		}
		if !found {
			return invalid("servers", "servers: no server %s in the registry", shown(s.ServerID))
		}
		if !Usable(srv) {
			return invalid("servers", "servers: %s is disabled", s.ServerID)
		}
		if probed := srv.Health.Tools; len(probed) > 0 {
			for _, t := range s.Tools {
				if !slices.ContainsFunc(probed, func(pt domain.MCPTool) bool { return pt.Name == t }) {
					return invalid("servers", "servers: %s has no tool %s", s.ServerID, t)
				}
			}
		}
	}
	return nil
}

// Input is a writer's request about an agent: the fields they may set,
// each left out (nil) keeping what the agent has, and on an edit the
// version they read. Name, description, category, provider and model are
// trimmed of surrounding space, server ids, tool names and starters too;
// instructions are kept exactly as written.
type Input struct {
	Version      *int                  `json:"version"`
	Name         *string               `json:"name"`
	Description  *string               `json:"description"`
	Instructions *string               `json:"instructions"`
	Provider     *string               `json:"provider"`
	Model        *string               `json:"model"`
	Servers      *[]domain.AgentServer `json:"servers"`
	Starters     *[]string             `json:"starters"`
	CategoryID   *string               `json:"category_id"`
	Price        *float64              `json:"price"`
	// ChangeNote says what changed, for the buyers: required on an edit
	// of a published agent (its next version).
	ChangeNote *string `json:"change_note"`
}

// Apply sets on a the fields in gives.
func (in Input) Apply(a *domain.Agent) {
	trimmed := func(dst *string, v *string) {
		if v != nil {
			*dst = strings.TrimSpace(*v)
		}
	}
	trimmed(&a.Name, in.Name)
	trimmed(&a.Description, in.Description)
	if in.Instructions != nil {
		a.Instructions = *in.Instructions
	}
	trimmed(&a.Provider, in.Provider)
	trimmed(&a.Model, in.Model)
	trimmed(&a.CategoryID, in.CategoryID)
	if in.Price != nil {
		a.Price = *in.Price
	}
	if in.Servers != nil {
		a.Servers = make([]domain.AgentServer, len(*in.Servers))
		for i, s := range *in.Servers {
			tools := make([]string, len(s.Tools))
			for j, t := range s.Tools {
				tools[j] = strings.TrimSpace(t)
			}
			a.Servers[i] = domain.AgentServer{ServerID: strings.TrimSpace(s.ServerID), Tools: tools}
		}
	}
	if in.Starters != nil {
		a.Starters = make([]string, len(*in.Starters))
		for i, s := range *in.Starters {
			a.Starters[i] = strings.TrimSpace(s)
		}
	}
}

// FirstVersion is the version of a new agent.
const FirstVersion = 1

// New is the draft agent id that in makes at now, at FirstVersion, held
// to the rules.
func New(id string, in Input, now time.Time, categories map[string]string, servers Registry) (domain.Agent, error) {
	now = now.UTC()
	a := domain.Agent{ID: id, State: domain.PromptDraft, CreatedAt: now, UpdatedAt: now, Version: FirstVersion,
		Servers: []domain.AgentServer{}, Starters: []string{}}
	in.Apply(&a)
	if err := Check(a, categories, servers); err != nil {
		return domain.Agent{}, err
	}
	return a, nil
}

// VersionRead is the version an edit was made from: an *InvalidError when
// the request names none.
func (in Input) VersionRead() (int, error) {
	if in.Version == nil {
		return 0, invalid("version", "version is required (the version you read)")
	}
	return *in.Version, nil
}

// ErrStale: an edit made from a version the agent is no longer at.
var ErrStale = prompts.ErrStale

// Edit is cur with in applied at now: the next version, held to the rules.
// The edit names the version it was made from, which must be cur's.
func Edit(cur domain.Agent, in Input, now time.Time, categories map[string]string, servers Registry) (domain.Agent, error) {
	read, err := in.VersionRead()
	if err != nil {
		return domain.Agent{}, err
	}
	if read != cur.Version {
		return domain.Agent{}, ErrStale
	}
	next := cur
	in.Apply(&next)
	if err := Check(next, categories, servers); err != nil {
		return domain.Agent{}, err
	}
	next.Version, next.UpdatedAt = cur.Version+1, now.UTC()
	return next, nil
}

// ChangeNote is the note of an edit of a published agent: the one given,
// else the pending version's; required, at most MaxChangeNote characters.
func ChangeNote(given *string, pending *domain.AgentPending) (string, error) {
	note := ""
	if given != nil {
		note = strings.TrimSpace(*given)
	} else if pending != nil {
		note = pending.ChangeNote
	}
	if note == "" {
		return "", invalid("change_note", "change_note is required: say what changed, for your buyers.")
	}
	if utf8.RuneCountInString(note) > MaxChangeNote {
		return "", invalid("change_note", "change_note must be at most %d characters", MaxChangeNote)
	}
	return note, nil
}

// UnderReview is a as the version under review (or being edited) has it:
// its pending version's fields when a published agent has one.
func UnderReview(a domain.Agent) domain.Agent {
	if pv := a.Pending; a.State == domain.PromptPublished && pv != nil {
		a.Name, a.Description, a.Instructions, a.Provider, a.Model = pv.Name, pv.Description, pv.Instructions, pv.Provider, pv.Model
		a.Servers, a.Starters, a.CategoryID, a.Price = pv.Servers, pv.Starters, pv.CategoryID, pv.Price
	}
	return a
}

// Pending is the pending version a's fields make, with note, as a draft.
func Pending(a domain.Agent, note string) domain.AgentPending {
	return domain.AgentPending{Name: a.Name, Description: a.Description, Instructions: a.Instructions, Provider: a.Provider,
		Model: a.Model, Servers: a.Servers, Starters: a.Starters, CategoryID: a.CategoryID, Price: a.Price, ChangeNote: note,
		State: domain.PromptDraft}
}

// NewID is an agent id made of 12 hex digits (prompt ids never start
// with "a-").
func NewID(hex12 string) string { return "a-" + hex12 }

// IsAgentID reports whether id names an agent (not a prompt).
func IsAgentID(id string) bool { return strings.HasPrefix(id, "a-") }
