package mcpapi

import (
	"net"
	"net/url"
	"strings"
)

// overriddenHost is the host a connection shows beside its entry's name:
// endpoint's, when the user's override reached another host than the
// entry's default endpoint; "" when it is the same host (a path of the
// entry's own server is still that server).
func overriddenHost(endpoint, entryDefault string) string {
	if reached := readableHost(endpoint); reached != readableHost(entryDefault) {
		return reached
	}
	return ""
}

// defaultPorts are left out of a host as a user reads it.
var defaultPorts = map[string]string{"http": "80", "https": "443"}

// readableHost is endpoint's host in lower case, with its port unless the
// scheme's default ("127.0.0.1:18101", "api.example.com", "[::1]:8080").
func readableHost(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	if port := u.Port(); port != "" && port != defaultPorts[u.Scheme] {
		return net.JoinHostPort(host, port)
	}
	if strings.Contains(host, ":") {
		return "[" + host + "]"
	}
	return host
}
