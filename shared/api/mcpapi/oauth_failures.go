package mcpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"aiwork/shared/auth"
	"aiwork/shared/httpx"
	"aiwork/shared/routes"
	"aiwork/shared/store"
)

// OAuthFailurePath reads why one of the caller's sign-ins failed
// (GET, {id} from the return address's detail_id).
const OAuthFailurePath = routes.MCPOAuthPrefix + "errors/{id}"

// The codes a sign-in's return address carries in oauth_error. The
// registry page has its own message for each (and one for any other), so
// the address never carries a text to show.
const (
	SignInInvalidState    = "invalid_state"         // not a state this site issued
	SignInUsed            = "state_used"            // used already, or never started here
	SignInOtherBrowser    = "other_browser"         // started in another browser
	SignInExpired         = "expired"               // took longer than the flow lives
	SignInSignedOut       = "signed_out"            // the session that started it ended
	SignInCancelled       = "access_denied"         // the user cancelled on the server's page
	SignInRefused         = "authorization_refused" // the authorization server refused (detail)
	SignInTokenRefused    = "token_refused"         // the code was not exchanged (detail)
	SignInHandshakeFailed = "handshake_failed"      // signed in, but the MCP handshake failed (detail)
	SignInServerError     = "server_error"          // the product's own failure
)

// signInFailureTTL is how long the page may read a failure's detail: it
// reads it as the browser lands.
const signInFailureTTL = 5 * time.Minute

// signInReturn sends the browser back after a sign-in: to the registry,
// or to the chat page (/llm-chat) for a sign-in a reply paused for (page,
// the flow's ReturnTo), with the same codes and ids either way.
type signInReturn struct {
	s    *Service
	w    http.ResponseWriter
	r    *http.Request
	page string
}

func (b signInReturn) connected(serverID string) {
	b.redirect(url.Values{"connected": {serverID}})
}

// failed: code says it all.
func (b signInReturn) failed(serverID, code string) {
	v := url.Values{"oauth_error": {code}}
	if serverID != "" {
		v.Set("server", serverID)
	}
	b.redirect(v)
}

// explained: code, and detail kept for uid (whose flow this was) under a
// fresh id the address carries. Without the detail (the store failed) the
// page says the code's own message.
func (b signInReturn) explained(uid, serverID, code, detail string) {
	v := url.Values{"oauth_error": {code}, "server": {serverID}}
	id := randomToken()
	err := b.s.st.PutSignInFailure(b.r.Context(), uid, hash(id), store.SignInFailure{ServerID: serverID, Code: code, Detail: detail,
		Expires: time.Now().Add(signInFailureTTL)})
	if err != nil {
		slog.ErrorContext(b.r.Context(), "mcp oauth failure detail", "err", err)
	} else {
		v.Set("detail_id", id)
	}
	b.redirect(v)
}

func (b signInReturn) redirect(v url.Values) {
	http.SetCookie(b.w, &http.Cookie{Name: oauthCookie, Value: "", Path: routes.MCPOAuthPrefix, MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	page := "/registry?"
	if b.page == returnChat {
		page = "/llm-chat?"
	}
	http.Redirect(b.w, b.r, page+v.Encode(), http.StatusFound)
}

type signInFailureView struct {
	Code     string `json:"code"`
	ServerID string `json:"server_id"`
	Detail   string `json:"detail"`
}

// signInFailure answers why one of the caller's sign-ins failed; another
// user's id, an expired one and a made-up one are all 404.
func (s *Service) signInFailure(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	id := r.PathValue("id")
	if id == "" || len(id) > 100 {
		return httpx.NotFound("This sign-in's details are no longer available.")
	}
	f, err := s.st.SignInFailure(r.Context(), uid, hash(id), time.Now())
	if errors.Is(err, store.ErrNotFound) {
		return httpx.NotFound("This sign-in's details are no longer available.")
	}
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, signInFailureView{Code: f.Code, ServerID: f.ServerID, Detail: f.Detail})
	return nil
}
