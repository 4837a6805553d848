package lambdalocal

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"aiwork/shared/httpx"
	"aiwork/shared/routes"
)

// Limits of API Gateway's REST API.
const (
	// IntegrationTimeout is a buffered integration's limit (29 s).
	IntegrationTimeout = 29 * time.Second
	// MaxRequestBody is API Gateway's payload limit (10 MB).
	MaxRequestBody = 10 << 20
)

// The answers API Gateway gives itself, as the stack configures them
// (infra/stack.GatewayErrors; a test there checks they agree).
const (
	NotFoundBody    = `{"detail":"Not found.","code":"not_found"}`
	Default5xxBody  = `{"detail":"The service is unavailable. Try again in a moment.","code":"upstream"}`
	TooLargeBody    = `{"detail":"Request Too Long","code":"invalid"}`
	gatewayJSONType = "application/json"
)

// Gateway is CloudFront's /api/* behaviour and API Gateway's REST API in
// front of the functions: it adds the origin secret and the viewer's
// address as the distribution does, routes by shared/routes as the stack
// builds its resources, turns each request into a REST proxy event and
// each answer back (streamed for a streaming route), and answers by itself
// what API Gateway answers by itself (unknown path, body too large,
// integration timeout, a function's failure). Other paths go to Site.
type Gateway struct {
	// Functions by name (routes.Group.Function); a group without one
	// answers 502 (its function is missing).
	Functions map[string]*Function
	// OriginSecret is sent as httpx.OriginSecretHeader (CloudFront's custom
	// origin header).
	OriginSecret string
	// Site serves every path outside /api/ (the web app, as CloudFront's
	// S3 origin); nil: 404.
	Site http.Handler
	// Methods limits exact-path routes to one method (routes.ExactPathMethods).
	Methods map[string]string
	// Timeout of buffered integrations (default IntegrationTimeout).
	Timeout time.Duration
	Log     *slog.Logger
}

func (g *Gateway) log() *slog.Logger {
	if g.Log == nil {
		return slog.Default()
	}
	return g.Log
}

func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, "/api/") {
		if g.Site == nil {
			gatewayError(w, http.StatusNotFound, NotFoundBody)
			return
		}
		g.Site.ServeHTTP(w, r)
		return
	}
	group, prefix, ok := routes.MatchPrefix(r.URL.Path)
	if method, exact := g.Methods[prefix]; ok && exact && !strings.EqualFold(method, r.Method) {
		ok = false // API Gateway: no such method on the resource
	}
	if !ok {
		gatewayError(w, http.StatusNotFound, NotFoundBody)
		return
	}
	fn := g.Functions[group.Function]
	if fn == nil {
		g.log().Error("lambda: no function for the route group", "function", group.Function, "path", r.URL.Path)
		gatewayError(w, http.StatusBadGateway, Default5xxBody)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxRequestBody+1))
	if err != nil {
		return // the client went away
	}
	if len(body) > MaxRequestBody {
		gatewayError(w, http.StatusRequestEntityTooLarge, TooLargeBody)
		return
	}
	requestID := newRequestID()
	ev := proxyEvent(g.viaCloudFront(r), matchResource(prefix, r.URL.Path), body, "127.0.0.1", requestID, time.Now())
	payload, err := json.Marshal(ev)
	if err != nil {
		gatewayError(w, http.StatusInternalServerError, Default5xxBody)
		return
	}
	ctx := r.Context()
	if !group.Streaming {
		timeout := g.Timeout
		if timeout <= 0 {
			timeout = IntegrationTimeout
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	start := time.Now()
	res, err := fn.Invoke(ctx, payload)
	call := slog.Group("lambda", "function", fn.Name, "request_id", requestID, "method", r.Method, "path", r.URL.Path)
	switch {
	case errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil:
		g.log().Error("lambda: integration timed out", call, "after", time.Since(start).Round(time.Millisecond))
		gatewayError(w, http.StatusGatewayTimeout, Default5xxBody)
		return
	case err != nil:
		if r.Context().Err() == nil {
			g.log().Error("lambda: invoke failed", call, "err", err)
			gatewayError(w, http.StatusBadGateway, Default5xxBody)
		}
		return
	case res.Err != nil:
		g.log().Error("lambda: function failed", call, "cold", res.Cold, "error_type", res.Err.Type, "error", res.Err.Message, "event", eventSummary(ev))
		gatewayError(w, http.StatusBadGateway, Default5xxBody)
		return
	}
	status := g.answer(w, res, ev)
	g.log().Info("lambda", call, "status", status, "cold", res.Cold,
		"init_ms", ms(res.Timing.Init), "took_ms", ms(res.Timing.Took))
}

// answer writes res; it answers the status sent.
func (g *Gateway) answer(w http.ResponseWriter, res *Result, ev events.APIGatewayProxyRequest) int {
	rec := &statusRecorder{ResponseWriter: w}
	if res.Stream == nil {
		if err := writeProxyResponse(rec, res.Payload); err != nil {
			g.log().Error("lambda: bad response", "function", res.Function, "err", err, "event", eventSummary(ev))
			gatewayError(w, http.StatusBadGateway, Default5xxBody)
			return http.StatusBadGateway
		}
		return rec.status
	}
	defer res.Stream.Body.Close()
	if err := writeStreamHead(rec, res.Stream.Prelude); err != nil {
		g.log().Error("lambda: bad stream", "function", res.Function, "err", err, "event", eventSummary(ev))
		gatewayError(w, http.StatusBadGateway, Default5xxBody)
		return http.StatusBadGateway
	}
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	buf := make([]byte, 32<<10)
	for {
		n, err := res.Stream.Body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return rec.status // the client went away; Close drains the rest
			}
			_ = rc.Flush()
		}
		if err != nil {
			break
		}
	}
	if fe := res.Stream.Err(); fe != nil {
		// The function failed mid-stream: the connection is cut, not
		// ended cleanly, so the client sees an incomplete response.
		g.log().Error("lambda: stream ended with the function's error", "function", res.Function, "error_type", fe.Type, "error", fe.Message, "event", eventSummary(ev))
		panic(http.ErrAbortHandler)
	}
	return rec.status
}

// viaCloudFront is r as the API receives it through the distribution: the
// origin secret and the viewer's address set (whatever the client sent in
// those headers is replaced), the forwarding headers added, and the Host
// of the API's own domain.
func (g *Gateway) viaCloudFront(r *http.Request) *http.Request {
	out := r.Clone(r.Context())
	h := out.Header
	viewer, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		viewer = r.RemoteAddr
	}
	h.Set(httpx.OriginSecretHeader, g.OriginSecret)
	h.Set(httpx.ViewerAddressHeader, viewer)
	h.Set("X-Forwarded-For", viewer)
	h.Set(httpx.ForwardedHostHeader, r.Host)
	h.Set("X-Forwarded-Proto", "https")
	h.Set("X-Forwarded-Port", "443")
	h.Set("Via", "2.0 local.cloudfront.net (CloudFront)")
	h.Set("X-Amzn-Trace-Id", "Root=1-"+strings.ReplaceAll(newRequestID(), "-", "")[:32])
	out.Host = apiID + ".execute-api.us-east-1.amazonaws.com"
	return out
}

// eventSummary names an event in a log line, without its body or header
// values (they carry passwords, tokens and the origin secret).
func eventSummary(ev events.APIGatewayProxyRequest) string {
	names := make([]string, 0, len(ev.MultiValueHeaders))
	for name := range ev.MultiValueHeaders {
		names = append(names, name)
	}
	sort.Strings(names)
	b, _ := json.Marshal(struct {
		Method   string            `json:"httpMethod"`
		Path     string            `json:"path"`
		Resource string            `json:"resource"`
		Params   map[string]string `json:"pathParameters,omitempty"`
		Query    map[string]string `json:"queryStringParameters,omitempty"`
		Headers  []string          `json:"headerNames"`
		BodyLen  int               `json:"bodyLength"`
		Base64   bool              `json:"isBase64Encoded"`
	}{ev.HTTPMethod, ev.Path, ev.Resource, ev.PathParameters, ev.QueryStringParameters, names, len(ev.Body), ev.IsBase64Encoded})
	return string(b)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func gatewayError(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", gatewayJSONType)
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// StatsHandler answers every function's invocation counts and last cold
// and warm timings as JSON (the devserver of `make run-lambda` serves it
// at /dev/lambda).
func (g *Gateway) StatsHandler() http.Handler {
	type timing struct {
		InitMS float64 `json:"init_ms,omitempty"`
		TookMS float64 `json:"took_ms"`
	}
	type entry struct {
		Function string  `json:"function"`
		Cold     int     `json:"cold_starts"`
		Warm     int     `json:"warm_invocations"`
		LastCold *timing `json:"last_cold,omitempty"`
		LastWarm *timing `json:"last_warm,omitempty"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var out []entry
		for name, fn := range g.Functions {
			s := fn.Stats()
			e := entry{Function: name, Cold: s.Cold, Warm: s.Warm}
			if s.Cold > 0 {
				e.LastCold = &timing{InitMS: ms(s.LastCold.Init), TookMS: ms(s.LastCold.Took)}
			}
			if s.Warm > 0 {
				e.LastWarm = &timing{TookMS: ms(s.LastWarm.Took)}
			}
			out = append(out, e)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Function < out[j].Function })
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	})
}
