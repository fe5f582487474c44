package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestLibFileEdit: a page imports code/lib/client.ts; typing an
// undeclared host into the lib file (unsaved) reports it at the fetch in
// the lib file and at the import in the page, and fetch-unused-domain
// never asks to remove the host the lib file fetches.
func TestLibFileEdit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "code", "lib"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(`{"name": "p", "version": "1.0.0",
  "tools": [{ "name": "list", "page": "code/list.ts", "description": "List" }],
  "capabilities": { "host": ["http.fetch"], "fetch": ["api.example.com"] }}`), 0o644))
	must(os.WriteFile(filepath.Join(dir, "fixtures.json"), []byte(`{"fnFetch": [{"url": "https://api.example.com/items", "body": []}]}`), 0o644))
	page := filepath.Join(dir, "code", "list.ts")
	lib := filepath.Join(dir, "code", "lib", "client.ts")
	must(os.WriteFile(page, []byte("import { api } from \"./lib/client\";\n\nexport default async () => (await api(\"/items\")).json();\n"), 0o644))
	libText := "const BASE = \"https://api.example.com\";\nexport const api = (path: string) => http.fetch(BASE + path);\n"
	must(os.WriteFile(lib, []byte(libText), 0o644))

	h := newHarness(t, Options{})
	h.initialize(dir, protocol.ClientCapabilities{})
	h.open(filepath.Join(dir, "plugin.json"))
	h.open(page)
	h.open(lib)
	h.waitChecked(dir)
	for _, f := range []string{page, lib, filepath.Join(dir, "plugin.json")} {
		h.client.mu.Lock()
		p := h.client.diags[string(uri.File(f))]
		h.client.mu.Unlock()
		if p != nil && len(p.Diagnostics) > 0 {
			t.Fatalf("%s: want no diagnostic (api.example.com is used in the lib file), got %s", f, dump(p))
		}
	}
	h.change(lib, 2, strings.Replace(libText, "api.example.com", "api.example.net", 1))
	d := h.waitDiags(lib, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "fetch-undeclared-domain") })
	if !strings.Contains(dump(d), "api.example.net") || d.Diagnostics[0].Range.Start.Line != 1 {
		t.Errorf("lib file: %s", dump(d))
	}
	d = h.waitDiags(page, func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "fetch-undeclared-domain") })
	if !strings.Contains(dump(d), "code/lib/client.ts fetches it") || d.Diagnostics[0].Range.Start.Line != 0 {
		t.Errorf("page: %s", dump(d))
	}
	m := h.waitDiags(filepath.Join(dir, "plugin.json"), func(p *protocol.PublishDiagnosticsParams) bool { return hasCode(p, "fetch-unused-domain") })
	if !strings.Contains(dump(m), "api.example.com") {
		t.Errorf("manifest: %s", dump(m))
	}
}
