package rules

import (
	"path/filepath"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// loadManifest loads the plugin in dir with plugin.json's text replaced by
// manifest, the way the language server loads an unsaved buffer (an
// overlay over fsys, the disk when fsys is nil); the other files are read
// through fsys.
func loadManifest(t testing.TB, fsys checker.FS, dir string, manifest []byte) *checker.Plugin {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	overlay := &checker.Overlay{Files: map[string][]byte{filepath.Join(abs, checker.ManifestName): manifest}, Base: fsys}
	p, err := checker.Load(overlay, abs)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
