package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func copyTestPlugin(t *testing.T, name string) string {
	t.Helper()
	return copyTree(t, filepath.Join(pluginsDir, name))
}

func TestCheckDiffAndFix(t *testing.T) {
	dir := copyTestPlugin(t, "fix-domain-typo")
	manifest := filepath.Join(dir, "plugin.json")
	before, _ := os.ReadFile(manifest)

	code, out, errs := run(t, "check", "--diff", dir)
	shown := filepath.ToSlash(manifest)
	want := "--- a/" + shown + "\n+++ b/" + shown + "\n@@ -7,7 +7,7 @@\n" +
		"   ],\n   \"capabilities\": {\n     \"host\": [\"http.fetch\"],\n" +
		"-    \"fetch\": [\"wether.example.com\"],\n+    \"fetch\": [\"weather.example.com\"],\n" +
		"     \"credentials\": [\n"
	if code != 0 || !strings.HasPrefix(out, want) || errs != "" {
		t.Fatalf("--diff: exit %d\nstdout:\n%s\nstderr:\n%s\nwant stdout to start with:\n%s", code, out, errs, want)
	}
	if after, _ := os.ReadFile(manifest); string(after) != string(before) {
		t.Fatal("--diff wrote the file")
	}
	if git, err := exec.LookPath("git"); err == nil {
		// The patch applies as printed: a/ and b/ before the path given
		// (absolute here, so from the root).
		cmd := exec.Command(git, "apply", "--check", "--unsafe-paths", "-p1", "-")
		cmd.Dir = "/"
		cmd.Stdin = strings.NewReader(strings.NewReplacer("a//", "a/", "b//", "b/").Replace(out))
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("git apply --check: %v\n%s", err, b)
		}
	}

	code, out, errs = run(t, "check", "--fix", dir)
	if code != 0 || out != "" || !strings.Contains(errs, `fixed [fetch-undeclared-domain]: Rename "wether.example.com" to "weather.example.com" in capabilities.fetch (plugin.json)`) ||
		!strings.HasSuffix(errs, "1 plugin checked: 0 errors, 0 warnings, 0 infos\n") {
		t.Fatalf("--fix: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	after, _ := os.ReadFile(manifest)
	if !strings.Contains(string(after), `"fetch": ["weather.example.com"]`) {
		t.Errorf("not fixed:\n%s", after)
	}
	// Nothing left to do: a second --fix changes nothing.
	if code, _, errs := run(t, "check", "--fix", dir); code != 0 || strings.Contains(errs, "fixed") {
		t.Errorf("second --fix: %d %s", code, errs)
	}
	if code, _, errs := run(t, "check", "--fix", "--diff", dir); code != 2 || !strings.Contains(errs, "exclude each other") {
		t.Errorf("--fix --diff: %d %s", code, errs)
	}
}

// --fix never widens the reach towards a host that only looks like a
// declared one, an IP address or a port, and never removes anything.
func TestCheckFixLeavesSuspiciousHosts(t *testing.T) {
	dir := copyTestPlugin(t, "page-hosts")
	code, _, errs := run(t, "check", "--fix", dir)
	if code != 1 {
		t.Errorf("exit %d, want 1 (errors remain)", code)
	}
	text, _ := os.ReadFile(filepath.Join(dir, "plugin.json"))
	for _, h := range []string{"api.x.org.evil.example", "evil.example", "10.0.0.8", "[::1]", "api.x.org:9443"} {
		if strings.Contains(string(text), `"`+h+`"`) {
			t.Errorf("--fix added %s:\n%s\n%s", h, text, errs)
		}
	}
}
