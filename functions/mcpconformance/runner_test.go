package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadExpectedTakesTheClientListWithReasons(t *testing.T) {
	path := filepath.Join(t.TempDir(), "expected.yml")
	body := "# header\nserver:\n  - tools-call-with-progress\nclient:\n  - auth/pre-registration # no operator client ids\n  - \"sse-retry\"\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readExpected(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["auth/pre-registration"] != "no operator client ids" {
		t.Errorf("got %v", got)
	}
	if _, ok := got["sse-retry"]; !ok {
		t.Errorf("quoted name missing: %v", got)
	}
	if _, ok := got["tools-call-with-progress"]; ok {
		t.Error("a server scenario was taken as a client one")
	}
}

func TestReportFailsOnUnexpectedFailuresAndStaleLines(t *testing.T) {
	pass := []check{{ID: "a", Status: "SUCCESS"}}
	fail := []check{{ID: "a", Status: "SUCCESS"}, {ID: "b", Status: "FAILURE", ErrorMessage: "boom"}}
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	tests := []struct {
		name     string
		results  []outcome
		baseline map[string]string
		want     string // in the error; "" for none
	}{
		{"all pass", []outcome{{scenario: "x", checks: pass}}, nil, ""},
		{"listed failure", []outcome{{scenario: "x", checks: fail}}, map[string]string{"x": "why"}, ""},
		{"unlisted failure", []outcome{{scenario: "x", checks: fail}}, nil, "failed and not expected: x"},
		{"listed but passes", []outcome{{scenario: "x", checks: pass}}, map[string]string{"x": "why"}, "passed but listed"},
		{"no checks written", []outcome{{scenario: "x"}}, nil, "failed and not expected: x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := report(devnull, tt.results, tt.baseline)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}
