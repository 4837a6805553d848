// Package chat is the chat engine, without HTTP: it answers one message
// with a stream of frames. Engine.Run is its one entry; the HTTP layer
// (chatapi) decodes and validates a request, then calls Run with a Sink
// (its SSE writer) to write to. A message goes, file by file:
//
//   - admission.go: the checks before any model call (the session, the
//     connection, the user's meter and stream slots), the "sure" start of
//     a message the last verdicts say will pass, the tools offered and the
//     conversation the reply is kept with;
//   - relay.go: the model calls, each streamed to the sink, until one asks
//     for no tool; then the usage, recorded and sent;
//   - tools.go: the tools offered (named for the models) and each tool
//     call on the user's MCP server;
//   - approval.go: a reply paused for the user's approval of a tool call
//     (a single-use token), and its resumption;
//   - keep.go: a reply kept with its conversation as it streams, which
//     outlives its client.
//   - agents.go: a message run as a marketplace agent: its instructions,
//     model and tool allow-list applied here, its reads beside the
//     admission's.
//
// Replies (replies.go) re-attaches to a kept reply and stops it, from any
// instance: what the conversation routes need of the engine.
package chat

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"aiwork/shared/config"
	"aiwork/shared/domain"
	"aiwork/shared/llm"
	"aiwork/shared/mcp"
	"aiwork/shared/store"
)

// Options tune the engine.
type Options struct {
	// StallTimeout ends a stream that got no upstream chunk for this long.
	StallTimeout time.Duration
	// Limits meter each user's chat (zero fields: no limit). LoadChat gives
	// the defaults: 3 streams, 20 messages a minute, 200,000 tokens a day.
	Limits config.ChatLimits
	// MaxStreamDuration ends a stream that runs this long, so that it gives
	// back its slot and records its usage before the chat Lambda's 5 min
	// timeout could kill it; a stream slot's lease outlasts it (slotLease).
	MaxStreamDuration time.Duration
	// Now is the clock (tests move it across days).
	Now func() time.Time
	// SureChecksAfter is when a sure message's checks, and the writes of a
	// message kept in a known conversation, start at the latest (zero:
	// DefaultSureChecksAfter); see reply.stream.
	SureChecksAfter time.Duration
	// Tools lets replies call the tools of users' MCP servers.
	Tools ToolOptions
}

// DefaultSureChecksAfter is when a sure message's checks start at the
// latest: soon enough that a refusal stops a provider that is slow to
// answer before it spent much, late enough to stay out of a quick first
// frame's way.
const DefaultSureChecksAfter = 20 * time.Millisecond

// DefaultMaxStreamDuration leaves the chat Lambda (5 min timeout, see
// infra/stack.ChatTimeoutSeconds) time to record usage and free the slot.
const DefaultMaxStreamDuration = 4*time.Minute + 40*time.Second

// DefaultStallTimeout ends a stream whose provider went quiet.
const DefaultStallTimeout = 30 * time.Second

// completed fills the defaults in.
func (o Options) completed() Options {
	if o.StallTimeout <= 0 {
		o.StallTimeout = DefaultStallTimeout
	}
	if o.MaxStreamDuration <= 0 {
		o.MaxStreamDuration = DefaultMaxStreamDuration
	}
	if o.SureChecksAfter <= 0 {
		o.SureChecksAfter = DefaultSureChecksAfter
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	t := &o.Tools
	t.MaxRounds = cmp.Or(t.MaxRounds, config.DefaultMaxToolRounds)
	t.CallTimeout = cmp.Or(t.CallTimeout, config.DefaultToolCallTimeout)
	t.ConnectTimeout = cmp.Or(t.ConnectTimeout, config.DefaultConnectTimeout)
	t.AppCallsPerMinute = cmp.Or(t.AppCallsPerMinute, DefaultAppCallsPerMinute)
	return o
}

// slotLease is how long a stream slot is held at most when its stream never
// gives it back (a crash): longer than any stream plus its clean-up.
func (o Options) slotLease() time.Duration { return o.MaxStreamDuration + time.Minute }

// OptionsFromConfig is the engine's options from the chat function's
// configuration: the sealer that opens users' server keys, and one pool of
// sessions to their servers under the outbound rules.
func OptionsFromConfig(cfg config.Chat) (Options, error) {
	sealer, err := mcp.NewSealer(cfg.Tools.KeyEncryptionKey)
	if err != nil {
		return Options{}, err
	}
	policy, err := mcp.PolicyFor(cfg.Tools.Outbound)
	if err != nil {
		return Options{}, err
	}
	callTimeout := cmp.Or(cfg.Tools.CallTimeout, config.DefaultToolCallTimeout)
	// A tool may take up to the call timeout before its answer's headers.
	client := policy.ClientWithLimits(mcp.Limits{ResponseHeader: callTimeout})
	return Options{StallTimeout: cfg.StallTimeout, Limits: cfg.Limits, Tools: ToolOptions{
		Sealer: sealer, Pool: mcp.NewPool(client, cmp.Or(cfg.Tools.SessionIdle, config.DefaultSessionIdle), maxSessions),
		MaxRounds: cfg.Tools.MaxRounds, CallTimeout: callTimeout, ConnectTimeout: cfg.Tools.ConnectTimeout,
		LoopbackURLs: policy.AllowLoopback,
	}}, nil
}

// maxSessions is how many warm MCP sessions a process keeps open (each is
// closed after cfg.Tools.SessionIdle unused).
const maxSessions = 256

// Engine answers messages. It keeps, per process, what makes the next
// message quicker: the last admissions' verdicts, the conversations lately
// written to, the warm sessions to MCP servers.
type Engine struct {
	st       *store.Store
	registry *llm.Registry
	opts     Options
	tools    *toolbox
	verdicts *verdicts
	known    *knownConversations
	asks     *askWaiters
	agents   *agents
}

// New makes the engine; registry serves the models.
func New(st *store.Store, registry *llm.Registry, opts Options) *Engine {
	opts = opts.completed()
	return &Engine{st: st, registry: registry, opts: opts, tools: &toolbox{st: st, opts: opts.Tools, now: opts.Now},
		verdicts: newVerdicts(), known: newKnownConversations(), asks: &askWaiters{}, agents: newAgents(st)}
}

// Request is one message to answer, or a paused reply to resume, as the
// caller validated it: ConnectionID set; Messages ending with the user's
// new message, unless Approval resumes a reply; at most
// MaxMCPConnections MCP connection ids, each once.
type Request struct {
	UserID string
	// SessionID is the session the message came in (a sure verdict is for
	// one session).
	SessionID string
	// ConfirmSession answers the session's check, which runs beside the
	// admission's other checks: nil, or its refusal (an *Error is told to
	// the user, whenever it comes). Nil: the session was checked before.
	ConfirmSession func() error
	ConnectionID   string
	// Model, when set, must be the connection's.
	Model string
	// Messages is the conversation to answer, the new message last.
	Messages []llm.Message
	// MCPConnectionIDs: the caller's MCP connections whose tools the model
	// may call.
	MCPConnectionIDs []string
	// ConfirmReadOnly: ask before read-only tools too.
	ConfirmReadOnly bool
	// Approval resumes a reply paused for a tool call.
	Approval *Approval
	// Elicitation resumes a reply paused on a server's question asked
	// through request state (a question held by an open call is answered
	// by AnswerElicitation instead).
	Elicitation *ElicitationAnswer
	// SignIn resumes a reply paused until its user signed in to a tool
	// call's server (signin.go).
	SignIn *SignIn
	// ConversationID keeps the message and its reply with the caller's
	// conversation (keep.go): the reply is saved as it streams and goes on
	// when the client leaves.
	ConversationID string
	// Attachments are resources of the caller's MCP connections given to
	// the model with the new message (at most MaxAttachments;
	// attachments.go).
	Attachments []AttachmentRef
	// AgentID runs the message as that marketplace agent (agents.go); a
	// conversation bound to an agent runs as its own whatever this says,
	// and refuses another.
	AgentID string

	// attached names what Attachments read, for the kept user message.
	attached []domain.MessageAttachment
}

// Approval is the user's decision on the tool call a reply paused for.
type Approval struct {
	// Token is the one the tool_approval event gave; ID names the same
	// approval as history shows it (the token's hash, pauseKey): either
	// does, in the caller's own partition.
	Token    string
	ID       string
	Decision string // Approve, AlwaysAllow or Deny
}

// Decisions on a paused tool call.
const (
	Approve     = "approve"
	AlwaysAllow = "always"
	Deny        = "deny"
)

// Sink is what a reply is written to, frame by frame (DESIGN §4), from one
// goroutine at a time. A write error means the client is gone: the reply
// stops, unless it is kept with its conversation (then it goes on, and is
// saved).
type Sink interface {
	// Content is a delta of the reply's text.
	Content(text string) error
	// Data is a data frame: v as JSON (a json.RawMessage as it is).
	Data(v any) error
	// Event is a named event (the tool_approval that pauses a reply, a
	// server's elicitation).
	Event(name string, v any) error
	// Error ends the stream saying why.
	Error(detail string) error
	// Done ends a complete reply.
	Done() error
	// Comment is a line clients ignore: it keeps a quiet stream alive.
	Comment(text string) error
}

// The data frames a reply writes besides its content.
type (
	usageFrame struct {
		Usage struct {
			InputTokens  int     `json:"input_tokens"`
			OutputTokens int     `json:"output_tokens"`
			CostUSD      float64 `json:"cost_usd"`
			// Demo: the local demo model answered; its tokens are
			// estimated and cost nothing.
			Demo bool `json:"demo,omitempty"`
		} `json:"usage"`
	}
	toolCallFrame struct {
		ToolCall toolCallView `json:"tool_call"`
	}
	toolResultFrame struct {
		ToolResult toolResultView `json:"tool_result"`
	}
	noticeFrame struct {
		Notice string `json:"notice"`
	}
	// messageIDsFrame opens a stream kept with its conversation.
	messageIDsFrame struct {
		MessageIDs struct {
			User      string `json:"user,omitempty"`
			Assistant string `json:"assistant"`
		} `json:"message_ids"`
	}
)

// Error is a refusal the user is told: Detail is shown as written; Kind is
// what the HTTP layer answers it with.
type Error struct {
	Kind   Kind
	Detail string
	// RetryAfterSeconds is when a refused message may pass (RateLimited).
	RetryAfterSeconds int
}

func (e *Error) Error() string { return e.Detail }

// Kind is a class of refusal.
type Kind int

const (
	Invalid      Kind = iota + 1 // the request cannot be answered as it is
	Unauthorized                 // the session is not (or no longer) valid
	NotFound                     // a connection, conversation, message or approval the caller does not have
	Conflict                     // an approval already used, expired, or for another connection
	RateLimited                  // a limit of the user's chat
	// Unprocessable: a server's answer the chat will not use as it is (an
	// MCP App view refused: its type, size or CSP).
	Unprocessable
	// ApprovalRequired: a view's tool call waits for the user's approval.
	ApprovalRequired
	// Upstream: the user's MCP server failed or refused; Timeout: it did
	// not answer in time.
	Upstream
	Timeout
	// Forbidden: an agent the caller must buy before chatting with it.
	Forbidden
)

func refuse(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Detail: fmt.Sprintf(format, args...)}
}

// Run answers one message with a stream written to sink, or resumes the
// reply req.Approval names. Every message passes the same admission
// before its first model call (admission.go), and every stream that
// reached a model records its usage and gives back its slot when it ends,
// however it ends (relay.go). A message offering MCP tools, or resuming a
// paused reply, may call tools (tools.go, approval.go); one with a
// ConversationID is kept with it (keep.go) and outlives ctx.
//
// The error is a refusal before anything was written: an *Error, the
// session check's, or an internal one. Once the sink got a frame, Run
// answers nil and ends the stream itself: [DONE], an error frame, or the
// tool_approval event of a paused reply.
func (e *Engine) Run(ctx context.Context, req Request, sink Sink) error {
	r, err := e.admit(ctx, req)
	if err != nil {
		return err
	}
	return r.stream(sink)
}
