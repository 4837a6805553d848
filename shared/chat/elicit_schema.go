package chat

import (
	"encoding/json"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"
)

// A form's schema, as the MCP spec allows it for elicitation: a flat object
// whose fields are strings (with the formats email, uri, date, date-time),
// numbers, integers, booleans, or single and multi select enums (titled
// or not), each with a title, description and default (SEP-1034).
type formSchema struct {
	Properties map[string]formField
	Required   []string
}

type formField struct {
	Type      string
	Format    string
	Enum      []string // the choices (a single select's, or a multi select's items)
	Multi     bool
	MinLength *int
	MaxLength *int
	Minimum   *float64
	Maximum   *float64
	MinItems  *int
	MaxItems  *int
}

// rawField is a field of the schema as the server wrote it.
type rawField struct {
	Type       any                        `json:"type"`
	Format     string                     `json:"format"`
	Enum       []any                      `json:"enum"`
	OneOf      []map[string]any           `json:"oneOf"`
	AnyOf      []map[string]any           `json:"anyOf"`
	Items      *rawField                  `json:"items"`
	Properties map[string]json.RawMessage `json:"properties"`
	MinLength  *int                       `json:"minLength"`
	MaxLength  *int                       `json:"maxLength"`
	Minimum    *float64                   `json:"minimum"`
	Maximum    *float64                   `json:"maximum"`
	MinItems   *int                       `json:"minItems"`
	MaxItems   *int                       `json:"maxItems"`
}

// allowedFormats are the string formats the spec allows in a form.
var allowedFormats = []string{"", "email", "uri", "date", "date-time"}

// checkFormSchema reads a form's schema, refusing what the spec does not
// allow (nested objects, arrays of objects, other types) with the reason
// the server is told; nothing of a refused schema reaches the browser.
func checkFormSchema(raw json.RawMessage) (formSchema, error) {
	var root struct {
		Type       any                        `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if len(raw) == 0 || string(raw) == "null" {
		return formSchema{}, fmt.Errorf("a form elicitation needs a requested schema")
	}
	if err := json.Unmarshal(raw, &root); err != nil {
		return formSchema{}, fmt.Errorf("the requested schema is not a JSON object")
	}
	if root.Type != "object" {
		return formSchema{}, fmt.Errorf("the requested schema must be of type object")
	}
	s := formSchema{Properties: map[string]formField{}, Required: root.Required}
	for name, p := range root.Properties {
		f, err := checkField(name, p)
		if err != nil {
			return formSchema{}, err
		}
		s.Properties[name] = f
	}
	for _, r := range root.Required {
		if _, ok := s.Properties[r]; !ok {
			return formSchema{}, fmt.Errorf("the required field %q is not in the schema's properties", r)
		}
	}
	return s, nil
}

func checkField(name string, raw json.RawMessage) (formField, error) {
	var p rawField
	if err := json.Unmarshal(raw, &p); err != nil {
		return formField{}, fmt.Errorf("field %q is not a schema object", name)
	}
	typ, _ := p.Type.(string)
	if len(p.Properties) > 0 || typ == "object" {
		return formField{}, fmt.Errorf("field %q is a nested object; a form allows only flat fields", name)
	}
	f := formField{Type: typ, MinLength: p.MinLength, MaxLength: p.MaxLength, Minimum: p.Minimum, Maximum: p.Maximum,
		MinItems: p.MinItems, MaxItems: p.MaxItems}
	switch typ {
	case "string":
		if !slices.Contains(allowedFormats, p.Format) {
			return formField{}, fmt.Errorf("field %q has the format %q, which a form does not allow", name, p.Format)
		}
		f.Format = p.Format
		choices, err := enumChoices(name, p.Enum, p.OneOf)
		if err != nil {
			return formField{}, err
		}
		f.Enum = choices
	case "number", "integer", "boolean":
	case "array":
		it := p.Items
		if it == nil {
			return formField{}, fmt.Errorf("field %q is an array without items; a form allows only multi select lists of strings", name)
		}
		if t, _ := it.Type.(string); t == "object" || len(it.Properties) > 0 {
			return formField{}, fmt.Errorf("field %q is an array of objects; a form allows only multi select lists of strings", name)
		}
		choices, err := enumChoices(name, it.Enum, it.AnyOf)
		if err != nil {
			return formField{}, err
		}
		if len(choices) == 0 {
			return formField{}, fmt.Errorf("field %q is an array without choices; a form allows only multi select lists of strings", name)
		}
		f.Enum, f.Multi = choices, true
	default:
		return formField{}, fmt.Errorf("field %q has the type %v, which a form does not allow", name, p.Type)
	}
	return f, nil
}

// enumChoices reads a select's choices: an enum of strings, or oneOf/anyOf
// entries of {const, title}.
func enumChoices(name string, enum []any, titled []map[string]any) ([]string, error) {
	var out []string
	for _, e := range enum {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("field %q has a choice that is not a string", name)
		}
		out = append(out, s)
	}
	for _, o := range titled {
		s, ok := o["const"].(string)
		if !ok {
			return nil, fmt.Errorf("field %q has a choice without a string const", name)
		}
		out = append(out, s)
	}
	return out, nil
}

// checkContent checks a form's answer against its schema; the error names
// the field.
func (s formSchema) checkContent(content map[string]any) error {
	names := make([]string, 0, len(content))
	for k := range content {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		f, ok := s.Properties[name]
		if !ok {
			return fmt.Errorf("content.%s: the form has no such field", name)
		}
		if err := f.check(content[name]); err != nil {
			return fmt.Errorf("content.%s: %s", name, err)
		}
	}
	for _, r := range s.Required {
		if _, ok := content[r]; !ok {
			return fmt.Errorf("content.%s: this field is required", r)
		}
	}
	return nil
}

func (f formField) check(v any) error {
	switch f.Type {
	case "string":
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("must be text")
		}
		n := len([]rune(s))
		if f.MinLength != nil && n < *f.MinLength {
			return fmt.Errorf("must be at least %d characters", *f.MinLength)
		}
		if f.MaxLength != nil && n > *f.MaxLength {
			return fmt.Errorf("must be at most %d characters", *f.MaxLength)
		}
		if len(f.Enum) > 0 && !slices.Contains(f.Enum, s) {
			return fmt.Errorf("must be one of %s", strings.Join(f.Enum, ", "))
		}
		return checkFormat(f.Format, s)
	case "number", "integer":
		x, ok := v.(float64)
		if !ok {
			return fmt.Errorf("must be a number")
		}
		if f.Type == "integer" && x != math.Trunc(x) {
			return fmt.Errorf("must be a whole number")
		}
		if f.Minimum != nil && x < *f.Minimum {
			return fmt.Errorf("must be at least %v", *f.Minimum)
		}
		if f.Maximum != nil && x > *f.Maximum {
			return fmt.Errorf("must be at most %v", *f.Maximum)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("must be true or false")
		}
	case "array":
		items, ok := v.([]any)
		if !ok {
			return fmt.Errorf("must be a list of choices")
		}
		for _, it := range items {
			s, ok := it.(string)
			if !ok || !slices.Contains(f.Enum, s) {
				return fmt.Errorf("must hold only the choices %s", strings.Join(f.Enum, ", "))
			}
		}
		if f.MinItems != nil && len(items) < *f.MinItems {
			return fmt.Errorf("must hold at least %d choices", *f.MinItems)
		}
		if f.MaxItems != nil && len(items) > *f.MaxItems {
			return fmt.Errorf("must hold at most %d choices", *f.MaxItems)
		}
	}
	return nil
}

func checkFormat(format, s string) error {
	switch format {
	case "email":
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			return fmt.Errorf("must be an email address")
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" {
			return fmt.Errorf("must be a URI")
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return fmt.Errorf("must be a date (YYYY-MM-DD)")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return fmt.Errorf("must be a date and time (RFC 3339)")
		}
	}
	return nil
}
