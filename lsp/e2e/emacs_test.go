package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestEmacsEglotClient drives the server with batch Emacs and Debian's
// elpa-eglot (emacs/test.el).
func TestEmacsEglotClient(t *testing.T) {
	emacs, err := exec.LookPath("emacs")
	if err != nil {
		t.Fatalf("emacs is not installed; %s", setup)
	}
	if m, _ := filepath.Glob("/usr/share/emacs/site-lisp/elpa/eglot-*"); len(m) == 0 {
		if _, err := os.Stat(filepath.Join(os.Getenv("HOME"), ".emacs.d", "elpa")); err != nil {
			t.Fatalf("eglot is not installed; %s", setup)
		}
	}
	bin := buildServer(t)
	plugin := copyExample(t)
	results := filepath.Join(t.TempDir(), "results.txt")
	script := filepath.Join(repoRoot(t), "lsp", "e2e", "emacs", "test.el")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, emacs, "--batch", "-Q", "-l", script)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "PLUGIN_LSP_BIN="+bin, "PLUGIN_DIR="+plugin, "RESULTS="+results)
	out, err := cmd.CombinedOutput()
	if len(out) > 0 {
		t.Logf("emacs output:\n%s", out)
	}
	checkResults(t, "the Emacs script", results, err)
}
