package stack_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Managed CloudFront cache policy CachingOptimized: its cache key holds the
// viewer's gzip and brotli support (AWS documentation, "Use managed policies").
const cachingOptimized = "658327ea-f89d-4fab-a63d-7e88639e58f6"

// CloudFront compresses the app itself (gzip and brotli, per viewer), so the
// build's precompressed copies are not deployed.
func TestSiteIsCompressedByCloudFront(t *testing.T) {
	tp := synth(t, mainStack)
	_, cfg := distribution(t, tp)
	def := cfg["DefaultCacheBehavior"].(map[string]any)
	if def["Compress"] != true || def["CachePolicyId"] != cachingOptimized {
		t.Errorf("default behaviour: Compress %v, CachePolicyId %v; want true, CachingOptimized (gzip and brotli)", def["Compress"], def["CachePolicyId"])
	}
	staged := stagedFiles(t, mainStack)
	var found bool
	for _, f := range staged {
		found = found || strings.HasSuffix(f, "/assets/index-abc.js")
		if strings.HasSuffix(f, ".br") || strings.HasSuffix(f, ".gz") {
			t.Errorf("deployed: %s (a precompressed copy for the devserver only)", f)
		}
	}
	if !found {
		t.Fatalf("the web app's files are not staged: %v", staged)
	}
}

// robots.txt and sitemap.xml are written by the deploy for the site's
// address: the own domain, else the distribution's (a deploy-time value).
func TestSiteGetsRobotsTxtAndSitemapForItsAddress(t *testing.T) {
	read := func(name string) string {
		for _, f := range stagedFiles(t, mainStack) {
			if filepath.Base(f) == name {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				return string(b)
			}
		}
		t.Fatalf("no %s deployed", name)
		return ""
	}
	robots := read("robots.txt")
	for _, line := range []string{"Disallow: /api/", "Disallow: /dashboard", "Disallow: /admin", "Disallow: /dev/", "Sitemap: https://" + testDomain + "/sitemap.xml"} {
		if !strings.Contains(robots, line+"\n") {
			t.Errorf("robots.txt lacks %q:\n%s", line, robots)
		}
	}
	if sitemap := read("sitemap.xml"); !strings.Contains(sitemap, "<loc>https://"+testDomain+"/marketplace</loc>") {
		t.Errorf("sitemap.xml:\n%s", sitemap)
	}

	plain := synth(t, plainStack)
	dist, _ := distribution(t, plain)
	var markers string
	for _, id := range plain.ofType("Custom::CDKBucketDeployment") {
		markers += flat(props(plain.Resources[id], "SourceMarkers"))
	}
	if !strings.Contains(markers, dist) || !strings.Contains(markers, "DomainName") {
		t.Errorf("without a domain the deploy writes no distribution address into the files: markers %s", markers)
	}
}

// stagedFiles lists the files the synthesis of a stack staged as assets.
func stagedFiles(t *testing.T, name string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join(assetDir, name+".out"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(path, "/asset.") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
