package lambdalocal

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"
)

// Stage is the API's stage name (infra/stack.StageName): CloudFront
// reaches the API at /<stage>/..., which the request context's path shows.
const Stage = "prod"

// apiID is the local REST API's id, as in <apiID>.execute-api.<region>.amazonaws.com.
const apiID = "local"

// resource is the API Gateway resource a path matched: its template
// ("/api/v1/auth/{proxy+}") and its path parameters.
type resource struct {
	template string
	params   map[string]string
}

// ProxyEvent builds the REST API (v1) Lambda proxy event API Gateway sends
// for r, as a proxy integration on res does: single- and multi-value
// headers and query strings (the single-value maps hold the last value),
// the path parameters, the request context with the stage in its path, and
// the body as text, or base64 with isBase64Encoded when it is not UTF-8
// (the API declares no binary media types, so text bodies pass unchanged).
func proxyEvent(r *http.Request, res resource, body []byte, sourceIP, requestID string, now time.Time) events.APIGatewayProxyRequest {
	ev := events.APIGatewayProxyRequest{
		Resource:       res.template,
		Path:           r.URL.Path,
		HTTPMethod:     r.Method,
		PathParameters: res.params,
		RequestContext: events.APIGatewayProxyRequestContext{
			AccountID:        "000000000000",
			ResourceID:       resourceID(res.template),
			Stage:            Stage,
			RequestID:        requestID,
			ResourcePath:     res.template,
			HTTPMethod:       r.Method,
			APIID:            apiID,
			Path:             "/" + Stage + r.URL.Path,
			Protocol:         r.Proto,
			DomainName:       r.Host,
			RequestTime:      now.UTC().Format("02/Jan/2006:15:04:05 -0700"),
			RequestTimeEpoch: now.UnixMilli(),
			Identity: events.APIGatewayRequestIdentity{
				SourceIP:  sourceIP,
				UserAgent: r.UserAgent(),
			},
		},
	}
	if len(r.Header) > 0 || r.Host != "" {
		ev.Headers = map[string]string{}
		ev.MultiValueHeaders = map[string][]string{}
		for name, values := range r.Header {
			ev.Headers[name] = values[len(values)-1]
			ev.MultiValueHeaders[name] = append([]string(nil), values...)
		}
		if r.Host != "" {
			ev.Headers["Host"] = r.Host
			ev.MultiValueHeaders["Host"] = []string{r.Host}
		}
	}
	if r.URL.RawQuery != "" {
		if q, err := url.ParseQuery(r.URL.RawQuery); err == nil && len(q) > 0 {
			ev.QueryStringParameters = map[string]string{}
			ev.MultiValueQueryStringParameters = map[string][]string{}
			for name, values := range q {
				ev.QueryStringParameters[name] = values[len(values)-1]
				ev.MultiValueQueryStringParameters[name] = values
			}
		}
	}
	if len(body) > 0 {
		if utf8.Valid(body) {
			ev.Body = string(body)
		} else {
			ev.Body, ev.IsBase64Encoded = base64.StdEncoding.EncodeToString(body), true
		}
	}
	return ev
}

// resourceID is a stable short id per resource, as API Gateway's.
func resourceID(template string) string {
	var h uint32 = 2166136261
	for i := 0; i < len(template); i++ {
		h = (h ^ uint32(template[i])) * 16777619
	}
	return strconv.FormatUint(uint64(h)%2176782336, 36) // up to 6 base-36 characters
}

// writeProxyResponse writes a buffered proxy response as API Gateway does:
// both header maps (multi-value first, then single values not in it), the
// body decoded from base64 when isBase64Encoded. A payload that is not a
// proxy response is the error API Gateway reports as a 502.
func writeProxyResponse(w http.ResponseWriter, payload []byte) error {
	var resp events.APIGatewayProxyResponse
	if err := json.Unmarshal(payload, &resp); err != nil {
		return fmt.Errorf("Malformed Lambda proxy response: %v", err)
	}
	if resp.StatusCode < 100 || resp.StatusCode > 599 {
		return fmt.Errorf("Malformed Lambda proxy response: statusCode %d", resp.StatusCode)
	}
	body := []byte(resp.Body)
	if resp.IsBase64Encoded {
		b, err := base64.StdEncoding.DecodeString(resp.Body)
		if err != nil {
			return fmt.Errorf("Malformed Lambda proxy response: body is not base64: %v", err)
		}
		body = b
	}
	copyHeaders(w.Header(), resp.Headers, resp.MultiValueHeaders)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(body)
	return nil
}

// streamPrelude is the head of a streamed response (aws-lambda-go's
// events.APIGatewayProxyStreamingResponse).
type streamPrelude struct {
	StatusCode        int                 `json:"statusCode"`
	Headers           map[string]string   `json:"headers"`
	MultiValueHeaders map[string][]string `json:"multiValueHeaders"`
	Cookies           []string            `json:"cookies"`
}

// writeStreamHead writes a streamed response's status and headers.
func writeStreamHead(w http.ResponseWriter, prelude []byte) error {
	var p streamPrelude
	if err := json.Unmarshal(prelude, &p); err != nil {
		return fmt.Errorf("Malformed streaming prelude: %v", err)
	}
	if p.StatusCode == 0 {
		p.StatusCode = http.StatusOK
	}
	if p.StatusCode < 100 || p.StatusCode > 599 {
		return fmt.Errorf("Malformed streaming prelude: statusCode %d", p.StatusCode)
	}
	copyHeaders(w.Header(), p.Headers, p.MultiValueHeaders)
	for _, c := range p.Cookies {
		w.Header().Add("Set-Cookie", c)
	}
	w.WriteHeader(p.StatusCode)
	return nil
}

func copyHeaders(dst http.Header, single map[string]string, multi map[string][]string) {
	for name, values := range multi {
		for _, v := range values {
			dst.Add(name, v)
		}
	}
	for name, v := range single {
		if _, ok := multi[name]; ok {
			continue
		}
		if dst.Get(name) == "" {
			dst.Set(name, v)
		}
	}
}

// matchResource finds the resource of path in the API the stack builds from
// shared/routes: a subtree prefix "/x/" has the resource /x and
// /x/{proxy+}; an exact path has its own resource.
func matchResource(prefix, path string) resource {
	if !strings.HasSuffix(prefix, "/") {
		return resource{template: prefix}
	}
	root := strings.TrimSuffix(prefix, "/")
	rest := strings.TrimPrefix(path, prefix)
	if path == root || rest == "" {
		return resource{template: root}
	}
	return resource{template: root + "/{proxy+}", params: map[string]string{"proxy": rest}}
}
