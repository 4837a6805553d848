package devstack

import (
	"net"
	"net/http"
	"time"

	"aiwork/shared/config"
	"aiwork/shared/httpx"
	"aiwork/shared/httpx/secheaders"
)

// Serving is where and how the devserver listens.
type Serving struct {
	// Host is the address to listen on (HOST): loopback by default, so the
	// local stack (its outbox, its test checkout, its generated secrets) is
	// not offered to the network. HOST=0.0.0.0 opens it on purpose.
	Host string
	Port string // PORT
	// ReadHeaderTimeout and ReadTimeout bound how long a client may take to
	// send a request's headers, and the whole request with its body
	// (READ_HEADER_TIMEOUT, READ_TIMEOUT): a body trickled in byte by byte
	// cannot hold a connection open. Responses are not bounded (chat
	// replies stream for minutes).
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	// Analytics widens the Content-Security-Policy for Google Analytics,
	// for a web app built with VITE_ANALYTICS_ID (as CloudFront's does).
	Analytics bool
}

// Defaults of Serving.
const (
	DefaultHost              = "127.0.0.1"
	DefaultPort              = "8080"
	DefaultReadHeaderTimeout = 5 * time.Second
	DefaultReadTimeout       = 15 * time.Second
)

// LoadServing reads HOST, PORT, READ_HEADER_TIMEOUT, READ_TIMEOUT and
// VITE_ANALYTICS_ID.
func LoadServing() (Serving, error) {
	s := Serving{
		Host:      config.Env("HOST", DefaultHost),
		Port:      config.Env("PORT", DefaultPort),
		Analytics: config.Env("VITE_ANALYTICS_ID", "") != "",
	}
	var err error
	if s.ReadHeaderTimeout, err = config.EnvDuration("READ_HEADER_TIMEOUT", DefaultReadHeaderTimeout); err != nil {
		return Serving{}, err
	}
	if s.ReadTimeout, err = config.EnvDuration("READ_TIMEOUT", DefaultReadTimeout); err != nil {
		return Serving{}, err
	}
	return s, nil
}

// Addr is the listen address, host:port.
func (s Serving) Addr() string { return net.JoinHostPort(s.Host, s.Port) }

// URL is where a browser on this machine reaches the server.
func (s Serving) URL() string {
	host := s.Host
	if ip := net.ParseIP(host); host == "" || ip != nil && (ip.IsLoopback() || ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, s.Port)
}

// NewServer serves h the way the devserver does: every response with the
// security headers CloudFront adds in AWS (secheaders, one definition for
// both), one access log line per request, and the read timeouts.
func NewServer(s Serving, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              s.Addr(),
		Handler:           secheaders.Handler(httpx.AccessLog(h), s.Analytics),
		ReadHeaderTimeout: s.ReadHeaderTimeout,
		ReadTimeout:       s.ReadTimeout,
	}
}
