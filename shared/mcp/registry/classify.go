package registry

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// ModelTypes are the catalogue's filter values, each with an emoji in the
// UI; FallbackModelType is what an entry no keyword fits gets.
var ModelTypes = []string{"documentation", "code", "search", "cloud", "productivity", "payments", "data", "reference"}

// FallbackModelType is the model type of an entry nothing else fits.
const FallbackModelType = "tools"

// modelTypeSynonyms maps categories other registries use onto ours.
var modelTypeSynonyms = map[string]string{
	"docs": "documentation", "knowledge": "documentation",
	"developer": "code", "development": "code", "devtools": "code", "developer-tools": "code",
	"software-development": "code", "coding": "code",
	"web-search":     "search",
	"infrastructure": "cloud", "devops": "cloud", "hosting": "cloud",
	"database": "data", "databases": "data", "analytics": "data",
	"finance": "payments", "billing": "payments", "commerce": "payments",
	"project-management": "productivity", "collaboration": "productivity",
}

var slugPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`) })

// normalizeModelType accepts this product's own annotation: any short slug
// (SPEC leaves the values open), other registries' words mapped onto ours.
func normalizeModelType(s string) string {
	s = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "_", "-")
	if m, ok := modelTypeSynonyms[s]; ok {
		return m
	}
	if slugPattern().MatchString(s) {
		return s
	}
	return ""
}

// publisherModelType reads a category from the publisher-provided metadata
// ("model_type" or "category"); only values that map onto ours are taken,
// since publishers use words of their own.
func publisherModelType(serverMeta map[string]json.RawMessage) string {
	var pub map[string]any
	if metaValue(serverMeta, PublisherMetaKey, &pub) != nil {
		return ""
	}
	for _, k := range []string{"model_type", "category"} {
		v, _ := pub[k].(string)
		if v == "" {
			continue
		}
		if mt := normalizeModelType(v); isKnownModelType(mt) {
			return mt
		}
	}
	return ""
}

func isKnownModelType(mt string) bool { return slices.Contains(ModelTypes, mt) }

// keywords per model type; on a tie the earlier type wins (a docs server
// about AWS is documentation, a code host's issues are code).
var keywords = []struct {
	modelType string
	words     []string
}{
	{"documentation", []string{"docs", "documentation", "wiki", "knowledge", "manual", "manuals", "guides", "tutorials"}},
	{"payments", []string{"payment", "payments", "pay", "invoice", "invoices", "checkout", "billing", "refund", "refunds", "stripe", "paypal", "subscriptions", "merchant", "transactions"}},
	{"code", []string{"code", "github", "gitlab", "bitbucket", "git", "repository", "repositories", "repo", "repos", "commit", "commits", "pull", "merge", "ci", "sentry", "debugging", "lint", "semgrep", "programming"}},
	{"data", []string{"database", "databases", "sql", "postgres", "postgresql", "mysql", "sqlite", "mongodb", "redis", "analytics", "dataset", "datasets", "warehouse", "bigquery", "snowflake", "airtable"}},
	{"cloud", []string{"cloud", "aws", "azure", "gcp", "cloudflare", "vercel", "netlify", "kubernetes", "k8s", "deploy", "deploys", "deployment", "deployments", "serverless", "workers", "hosting", "infrastructure", "dns", "cdn"}},
	{"search", []string{"search", "web", "crawl", "crawling", "scrape", "scraping", "browse", "news", "exa", "tavily", "brave", "perplexity"}},
	{"productivity", []string{"notion", "calendar", "email", "mail", "gmail", "tasks", "task", "todo", "notes", "slack", "jira", "confluence", "linear", "asana", "trello", "projects", "project", "issues", "meetings", "spreadsheet", "workspace"}},
}

// Classify guesses a model type from an entry's words: the server part of
// its registry name (not the namespace, where "io.github" says nothing),
// title and description. The type with most keyword hits wins; with none,
// FallbackModelType.
func Classify(registryName, title, description string) string {
	if i := strings.IndexByte(registryName, '/'); i >= 0 {
		registryName = registryName[i+1:]
	}
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(registryName+" "+title+" "+description), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		words[w] = true
	}
	best, bestHits := FallbackModelType, 0
	for _, k := range keywords {
		hits := 0
		for _, w := range k.words {
			if words[w] {
				hits++
			}
		}
		if hits > bestHits {
			best, bestHits = k.modelType, hits
		}
	}
	return best
}
