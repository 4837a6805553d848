package httpx

import (
	"strconv"
	"strings"
)

// preferredEncoding picks, among the content codings available for a file
// (in the server's order of preference), the one the client's
// Accept-Encoding header ranks highest: "" means the identity (no header,
// or nothing available acceptable). A coding with q=0 is refused; "*"
// stands for every coding the header does not name (RFC 9110 §12.5.3).
func preferredEncoding(header string, available []string) string {
	if strings.TrimSpace(header) == "" {
		return ""
	}
	named := map[string]float64{}
	star := -1.0
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		if coding == "x-gzip" {
			coding = "gzip"
		}
		q, ok := qValue(params)
		if !ok {
			continue // an unreadable entry is ignored, not taken as q=1
		}
		if coding == "*" {
			star = q
		} else {
			named[coding] = q
		}
	}
	best, bestQ := "", 0.0
	for _, coding := range available {
		q, ok := named[coding]
		if !ok {
			q = max(star, 0)
		}
		if q > bestQ { // ties keep the server's preference
			best, bestQ = coding, q
		}
	}
	return best
}

// qValue reads the weight of one Accept-Encoding entry ("q=0.5"; absent: 1).
func qValue(params string) (float64, bool) {
	for _, p := range strings.Split(params, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(p), "=")
		if !strings.EqualFold(strings.TrimSpace(name), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || q < 0 || q > 1 {
			return 0, false
		}
		return q, true
	}
	return 1, true
}
