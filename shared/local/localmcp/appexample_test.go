package localmcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"aiwork/shared/local/localmcp"
	"aiwork/shared/local/localmcp/localmcptest"
	"aiwork/shared/seeddata"
)

// The MCP App example answers on loopback with no key: get-time declares
// its view, the view reads as an MCP App's HTML, and the tool answers.
func TestAppExample(t *testing.T) {
	endpoint := localmcptest.AppExample(t)
	if !strings.HasPrefix(endpoint, "http://127.0.0.1:") || !strings.HasSuffix(endpoint, "/mcp") {
		t.Fatalf("endpoint %q", endpoint)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	session := connectSDK(t, endpoint, "")
	checkAppExample(ctx, t, session)
	if got := callText(t, session, localmcp.AppExampleTool); !strings.HasPrefix(got, "20") || !strings.Contains(got, "T") {
		t.Errorf("get-time = %q, want an ISO 8601 time", got)
	}
}

// checkAppExample asserts what the chat relies on: get-time's
// _meta.ui.resourceUri names the view, and resources/read of it answers
// HTML of the MCP App type.
func checkAppExample(ctx context.Context, t *testing.T, session *mcp.ClientSession) {
	t.Helper()
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var view string
	for _, tool := range tools.Tools {
		if tool.Name != localmcp.AppExampleTool {
			continue
		}
		var meta struct {
			UI struct {
				ResourceURI string `json:"resourceUri"`
			} `json:"ui"`
		}
		b, _ := json.Marshal(tool.Meta)
		if err := json.Unmarshal(b, &meta); err != nil {
			t.Fatalf("get-time _meta %s: %v", b, err)
		}
		view = meta.UI.ResourceURI
	}
	if view != localmcp.AppExampleView {
		t.Fatalf("tools %+v: get-time's view %q, want %q", tools.Tools, view, localmcp.AppExampleView)
	}
	res, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: view})
	if err != nil {
		t.Fatalf("read %s: %v", view, err)
	}
	if len(res.Contents) != 1 || res.Contents[0].MIMEType != localmcp.AppExampleViewMIME ||
		!strings.Contains(strings.ToLower(res.Contents[0].Text), "<html") {
		t.Errorf("read %s: %d contents, first %.200v", view, len(res.Contents), res.Contents)
	}
}

// The catalogue entry names the example's installed (and pinned) version.
func TestAppExampleVersionIsPinned(t *testing.T) {
	script, err := localmcp.FindAppExample()
	if err != nil {
		t.Fatal(err)
	}
	pkgDir := filepath.Join(filepath.Dir(script), "..")
	var installed struct {
		Version string `json:"version"`
	}
	b, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err == nil {
		err = json.Unmarshal(b, &installed)
	}
	if err != nil || installed.Version != seeddata.LocalMCPAppVersion {
		t.Errorf("installed server-basic-react %q (%v), catalogue says %s", installed.Version, err, seeddata.LocalMCPAppVersion)
	}
	var pkg struct {
		DevDependencies map[string]string `json:"devDependencies"`
	}
	b, err = os.ReadFile(filepath.Join(pkgDir, "..", "..", "..", "package.json"))
	if err == nil {
		err = json.Unmarshal(b, &pkg)
	}
	if got := pkg.DevDependencies["@modelcontextprotocol/server-basic-react"]; err != nil || got != seeddata.LocalMCPAppVersion {
		t.Errorf("webapp/package.json pins server-basic-react %q (%v), catalogue says %s", got, err, seeddata.LocalMCPAppVersion)
	}
}

func TestStartAppExampleSaysWhatIsMissing(t *testing.T) {
	t.Setenv("MCP_APP_EXAMPLE_JS", filepath.Join(t.TempDir(), "missing.js"))
	if _, err := localmcp.StartAppExample(context.Background()); err == nil || !strings.Contains(err.Error(), "missing.js") {
		t.Fatalf("start with a missing script: %v", err)
	}
}
