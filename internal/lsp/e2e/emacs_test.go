package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestEmacsEglotClient drives the server with batch Emacs and Debian's
// elpa-eglot (emacs/test.el), configured by the emacs snippet of
// docs/editors.md, which test.el loads as the user's init file.
func TestEmacsEglotClient(t *testing.T) {
	emacs, err := exec.LookPath("emacs")
	if err != nil {
		t.Fatalf("emacs is not installed; %s", setup)
	}
	if m, _ := filepath.Glob("/usr/share/emacs/site-lisp/elpa/eglot-*"); len(m) == 0 {
		t.Fatalf("eglot is not installed (no /usr/share/emacs/site-lisp/elpa/eglot-*); %s", setup)
	}
	s := snippet(t, "emacs")
	if s.lang != "elisp" {
		t.Fatalf("snippet emacs is ```%s, not ```elisp", s.lang)
	}
	init := filepath.Join(t.TempDir(), "init.el")
	if err := os.WriteFile(init, []byte(s.text), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(repoRoot(t), "internal", "lsp", "e2e", "emacs", "test.el")
	// Not -Q: the site start file (Debian's lists the elpa directory) is
	// part of what a user's Emacs loads; HOME is empty, so no user file is.
	runClientScript(t, "Emacs with the emacs snippet", []string{"PLUGIN_LSP_INIT=" + init, "HOME=" + t.TempDir()}, emacs, "--batch", "-l", script)
}
