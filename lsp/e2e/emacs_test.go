package e2e

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestEmacsEglotClient drives the server with batch Emacs and Debian's
// elpa-eglot (emacs/test.el).
func TestEmacsEglotClient(t *testing.T) {
	emacs, err := exec.LookPath("emacs")
	if err != nil {
		t.Fatalf("emacs is not installed; %s", setup)
	}
	if m, _ := filepath.Glob("/usr/share/emacs/site-lisp/elpa/eglot-*"); len(m) == 0 {
		t.Fatalf("eglot is not installed (no /usr/share/emacs/site-lisp/elpa/eglot-*); %s", setup)
	}
	script := filepath.Join(repoRoot(t), "lsp", "e2e", "emacs", "test.el")
	runClientScript(t, "the Emacs script", emacs, "--batch", "-Q", "-l", script)
}
