package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/leakcheck"
)

// secretURLPlugin is a plugin whose page writes its fixtures.json dev
// secret into fetch URLs percent-encoded (both cases), in base64url, in
// the base64 of a Basic "user:secret" and in hex, never as it is; the
// fixture-unmatched and fixture-unused diagnostics quote those URLs.
const secretURLPlugin = pluginsDir + "/fixtures-secret-in-url"

// devSecret reads the one dev secret of a plugin's fixtures.json.
func devSecret(t *testing.T, dir string) (name, value string) {
	t.Helper()
	var fx struct{ Secrets map[string]string }
	b, err := os.ReadFile(filepath.Join(dir, "fixtures.json"))
	if err == nil {
		err = json.Unmarshal(b, &fx)
	}
	if err != nil || len(fx.Secrets) != 1 {
		t.Fatalf("fixtures.json: %v, %d secrets", err, len(fx.Secrets))
	}
	for k, v := range fx.Secrets {
		name, value = k, v
	}
	return name, value
}

// check's text, JSON and SARIF output quote the URLs with the secret
// replaced by its marker: the judge (leakcheck, which decodes every
// encoding the scrubber claims, chained) finds no form of it. The judge
// does see it in each URL of the page, none of which holds the value as
// it is: replacing the exact value (the redaction check used before the
// scrubber) hides nothing here.
func TestCheckHidesEncodedSecrets(t *testing.T) {
	name, secret := devSecret(t, secretURLPlugin)
	src, err := os.ReadFile(filepath.Join(secretURLPlugin, "code", "search.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ToLower(string(src)), strings.ToLower(secret)) {
		t.Fatal("the page holds the secret as it is: the test would not tell the scrubber from exact replacement")
	}
	urls := 0
	for _, line := range strings.Split(string(src), "\n") {
		if !strings.Contains(line, "http.fetch(") {
			continue
		}
		urls++
		if len(leakcheck.Find([]byte(line), secret)) == 0 {
			t.Errorf("the judge does not see the secret in %s", line)
		}
	}
	if urls < 5 {
		t.Fatalf("%d fetch URLs in the page, want 5", urls)
	}
	marker := "••••(" + name + ")"
	// Every quoted URL is there, with the marker: one per fixture-unmatched
	// message (one per fetch); the text also shows the fix titles (one
	// per fetch, and the fixture-unused's, which names the fixture's URL).
	wantMarkers := map[string]int{"text": 2*urls + 1, "json": urls, "sarif": urls}
	for _, format := range []string{"text", "json", "sarif"} {
		_, out, errs := run(t, "check", "--format", format, secretURLPlugin)
		if found := leakcheck.Find([]byte(out+errs), secret); len(found) > 0 {
			t.Errorf("check --format %s shows the secret:\n%s\n%s", format, strings.Join(found, "\n"), out)
		}
		if format != "text" && !json.Valid([]byte(out)) {
			t.Fatalf("check --format %s: not JSON:\n%s", format, out)
		}
		if n := strings.Count(out, marker); n < wantMarkers[format] {
			t.Errorf("check --format %s: %d markers, want %d and more:\n%s", format, n, wantMarkers[format], out)
		}
		if !strings.Contains(out, "fixture-unmatched") {
			t.Errorf("check --format %s: no fixture-unmatched:\n%s", format, out)
		}
	}
}
