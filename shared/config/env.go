// Package config reads each function's settings from the environment, once,
// at start, and fails fast on bad values.
package config

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Env reads a variable with a default.
func Env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && strings.TrimSpace(v) != "" {
		return strings.TrimSpace(v)
	}
	return def
}

// EnvInt reads a positive integer.
func EnvInt(name string, def int) (int, error) {
	raw := Env(name, "")
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s must be a non-negative integer, got %q", name, raw)
	}
	return n, nil
}

// EnvBool reads true/false (also 1/0, yes/no).
func EnvBool(name string, def bool) (bool, error) {
	switch strings.ToLower(Env(name, "")) {
	case "":
		return def, nil
	case "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%s must be true or false, got %q", name, Env(name, ""))
}

// EnvDuration reads a Go duration such as "24h" or "30s".
func EnvDuration(name string, def time.Duration) (time.Duration, error) {
	raw := Env(name, "")
	if raw == "" {
		return def, nil
	}
	d, err := time.ParseDuration(raw)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s must be a positive duration like 24h, got %q", name, raw)
	}
	return d, nil
}

// EnvList reads a comma-separated list, trimmed, without empty entries.
func EnvList(name string) []string {
	var out []string
	for _, part := range strings.Split(Env(name, ""), ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// LoadDotEnv sets variables from a KEY=VALUE file that are not already set.
// A missing file is not an error: the file is optional.
func LoadDotEnv(path string) error {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		text = strings.TrimPrefix(text, "export ")
		key, value, ok := strings.Cut(text, "=")
		if !ok {
			return fmt.Errorf("%s:%d: expected KEY=VALUE", path, line)
		}
		key = strings.TrimSpace(key)
		value = strings.Trim(strings.TrimSpace(value), `"'`)
		if _, set := os.LookupEnv(key); !set {
			os.Setenv(key, value)
		}
	}
	return sc.Err()
}
