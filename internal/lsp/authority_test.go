package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/tstypes"
	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// outsideSecret is planted in the outside plugin's fixtures.json; no
// answer of the server may carry it.
const outsideSecret = "SECRET-of-the-outside-plugin-7f3a"

// hostileWorkspace is a workspace folder holding one plugin (books) and
// two ways out of it, beside a plugin outside the workspace:
//
//	base/ws/books            the plugin the author works on
//	base/ws/linked   -> base/outside/evil   (a symlinked plugin)
//	base/ws/sub      -> base/outside        (a symlinked parent folder)
//	base/outside/evil        a plugin with a planted secret and stale types
type hostileWorkspace struct {
	base, ws, inside, outside string
}

func newHostileWorkspace(t *testing.T) *hostileWorkspace {
	t.Helper()
	base := t.TempDir()
	w := &hostileWorkspace{base: base, ws: filepath.Join(base, "ws")}
	src := filepath.Join("..", "..", "testdata", "example", "books")
	w.inside = copyTree(t, src, filepath.Join(w.ws, "books"))
	w.outside = copyTree(t, src, filepath.Join(base, "outside", "evil"))
	fx := filepath.Join(w.outside, checker.FixturesName)
	writeFile(t, fx, strings.Replace(mustRead(t, fx), "dev-ol-4f9c2e7a1b", outsideSecret, 1))
	// Stale types of ours: a server that regenerates them would write.
	writeFile(t, filepath.Join(w.outside, tstypes.TypesPath), tstypes.Header+"// stale\n")
	for link, target := range map[string]string{"linked": w.outside, "sub": filepath.Dir(w.outside)} {
		if err := os.Symlink(target, filepath.Join(w.ws, link)); err != nil {
			t.Skipf("symlinks: %v", err)
		}
	}
	return w
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// treeHash is the identity of everything under dir: each path with its
// type and mode, a file's content, a symlink's target. A write anywhere
// below dir changes it.
func treeHash(t testing.TB, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		line := p + " " + fi.Mode().String()
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			line += " " + hex.EncodeToString(sum[:])
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:])
}

// leakyRunner returns, as the result of every tool, the fixtures.json of
// the plugin it was handed (a tool that leaks its secrets), and
// remembers every plugin directory it ran.
type leakyRunner struct {
	mu   sync.Mutex
	dirs []string
}

func (r *leakyRunner) Run(ctx context.Context, req runner.Request) (*record.Record, error) {
	r.mu.Lock()
	r.dirs = append(r.dirs, req.Plugin.Dir)
	r.mu.Unlock()
	if req.Tool == "searchBooks" {
		return searchRunner(500).Run(ctx, req)
	}
	fx, _ := req.Plugin.ReadFile(checker.FixturesName)
	res, _ := json.Marshal(string(fx.Text))
	rec := hobbitRecord(req)
	rec.Result = res
	return rec, nil
}

func (r *leakyRunner) ran() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.dirs...)
}

// leakyReview is a review card that quotes the plugin's fixtures.json.
func leakyReview(p *checker.Plugin) (any, error) {
	fx, _ := p.ReadFile(checker.FixturesName)
	return map[string]any{"dir": p.Dir, "fixtures": string(fx.Text)}, nil
}

// snapshotCase is the example's snapshot case in tests/search-books.json.
const snapshotCase = "hobbit: titles, authors and cover status"

// everyCommand is each command of the server with the argument that names
// a plugin by field (dir or uri) = v.
func everyCommand(field, v string) map[string]map[string]any {
	arg := func(extra map[string]any) map[string]any {
		m := map[string]any{field: v}
		for k, x := range extra {
			m[k] = x
		}
		return m
	}
	return map[string]map[string]any{
		CommandRunTool:        arg(map[string]any{"tool": "lookupBook"}),
		CommandRunTests:       arg(nil),
		CommandAcceptSnapshot: arg(map[string]any{"name": snapshotCase}),
		CommandGenerateTypes:  arg(nil),
		CommandPin:            arg(map[string]any{"confirm": true}),
		CommandReviewCard:     arg(nil),
		CommandNativeTool:     arg(map[string]any{"tool": "tg.sendMessage"}),
	}
}

func (h *harness) command(name string, arg any) (json.RawMessage, error) {
	raw, err := json.Marshal(arg)
	if err != nil {
		h.t.Fatal(err)
	}
	out, err := h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: name, Arguments: []protocol.LSPAny{raw}})
	return json.RawMessage(out), err
}

// TestCommandsRefuseOutsideTheWorkspace names the outside plugin in every
// way a client (or a command: link) can: a dir URI, a plain path, a
// relative path, '..' (plain, in a URI, percent-encoded), a symlinked
// plugin, a symlinked parent folder, and the uri of its plugin.json,
// fixtures.json or test file. Every command refuses each one with
// InvalidParams saying it is outside the workspace; nothing below the
// outside folder changes; no answer carries its secret; the runner never
// sees it. The inside plugin then works for every command.
func TestCommandsRefuseOutsideTheWorkspace(t *testing.T) {
	w := newHostileWorkspace(t)
	guard := filepath.Dir(w.outside)
	before := treeHash(t, guard)
	run := &leakyRunner{}
	h := newHarness(t, Options{Runner: run, Review: leakyReview})
	h.initialize(w.ws, protocol.ClientCapabilities{})
	h.waitChecked(w.inside)
	cwd, _ := os.Getwd()
	relFromCwd, err := filepath.Rel(cwd, w.outside)
	if err != nil {
		t.Fatal(err)
	}
	dotdot := filepath.Join(w.inside) + "/../../outside/evil"
	forms := []struct{ field, v string }{
		{"dir", string(uri.File(w.outside))},
		{"dir", w.outside},
		{"dir", relFromCwd},
		{"dir", "../outside/evil"},
		{"dir", "evil"},
		{"dir", dotdot},
		{"dir", "file://" + dotdot},
		{"dir", "file://" + w.inside + "/%2e%2e/%2E%2E/outside/evil"},
		{"dir", string(uri.File(filepath.Join(w.ws, "linked")))},
		{"dir", filepath.Join(w.ws, "sub", "evil")},
		{"dir", "file://localhost" + w.outside},
		{"dir", "vscode-remote://host" + w.outside},
		{"uri", string(uri.File(filepath.Join(w.outside, checker.ManifestName)))},
		{"uri", string(uri.File(filepath.Join(w.outside, checker.FixturesName)))},
		{"uri", string(uri.File(filepath.Join(w.outside, "tests", "search-books.json")))},
		{"uri", filepath.Join(w.outside, checker.FixturesName)},
		{"uri", string(uri.File(filepath.Join(w.ws, "linked", checker.FixturesName)))},
		{"uri", string(uri.File(filepath.Join(w.ws, "linked", checker.ManifestName)))},
		{"uri", string(uri.File(filepath.Join(w.ws, "sub", "evil", "tests", "search-books.json")))},
		{"uri", dotdot + "/" + checker.ManifestName},
		{"uri", "../outside/evil/plugin.json"},
	}
	for _, f := range forms {
		for name, arg := range everyCommand(f.field, f.v) {
			out, err := h.command(name, arg)
			if err == nil {
				t.Errorf("%s %s=%s: accepted, answered %s", name, f.field, f.v, out)
				continue
			}
			if rpcCode(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "outside the workspace") {
				t.Errorf("%s %s=%s: %v (code %d), want InvalidParams saying it is outside the workspace", name, f.field, f.v, err, rpcCode(err))
			}
			if strings.Contains(err.Error(), outsideSecret) || strings.Contains(string(out), outsideSecret) {
				t.Errorf("%s %s=%s: the answer carries the outside secret: %v %s", name, f.field, f.v, err, out)
			}
		}
	}
	if ran := run.ran(); len(ran) != 0 {
		t.Errorf("the runner ran %v", ran)
	}
	if after := treeHash(t, guard); after != before {
		t.Errorf("a refused command wrote below %s", guard)
	}

	// The inside plugin works for every command, named by dir URI, path
	// or the uri of one of its files.
	tests := filepath.Join(w.inside, "tests", "search-books.json")
	if _, err := h.command(CommandRunTests, map[string]any{"uri": string(uri.File(tests)), "name": snapshotCase}); err != nil {
		t.Fatalf("runTests inside: %v", err)
	}
	snap := filepath.Join(w.inside, "tests", "__snapshots__", "search-books.snap.json")
	snapBefore := mustRead(t, snap)
	if err := os.Remove(filepath.Join(w.inside, tstypes.TypesPath)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		arg  map[string]any
		want string // in the answer
	}{
		{CommandRunTool, map[string]any{"dir": string(uri.File(w.inside)), "tool": "lookupBook"}, `"ok":true`},
		{CommandRunTool, map[string]any{"dir": w.inside, "tool": "lookupBook"}, "dev-ol-4f9c2e7a1b"},
		{CommandRunTests, map[string]any{"uri": string(uri.File(filepath.Join(w.inside, checker.ManifestName)))}, `"plugin":` + dump(w.inside)},
		{CommandAcceptSnapshot, map[string]any{"uri": string(uri.File(tests)), "name": snapshotCase}, `"status":"pass"`},
		{CommandGenerateTypes, map[string]any{"dir": string(uri.File(w.inside))}, tstypes.TypesPath},
		{CommandPin, map[string]any{"dir": w.inside, "confirm": true}, `"pinned":true`},
		{CommandReviewCard, map[string]any{"uri": string(uri.File(filepath.Join(w.inside, "code", "lookup-book.ts")))}, "dev-ol-4f9c2e7a1b"},
	} {
		out, err := h.command(c.name, c.arg)
		if err != nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%s %v inside the workspace: %v, answered %.300s; want %q in it", c.name, c.arg, err, out, c.want)
		}
	}
	if mustRead(t, snap) == snapBefore {
		t.Error("acceptSnapshot inside the workspace did not write the snapshot")
	}
	for _, f := range []string{tstypes.TypesPath, "plugin.lock.json"} {
		if _, err := os.Stat(filepath.Join(w.inside, f)); err != nil {
			t.Errorf("inside plugin: %v", err)
		}
	}
	for _, d := range run.ran() {
		if d != w.inside {
			t.Errorf("the runner ran %s", d)
		}
	}
	if after := treeHash(t, guard); after != before {
		t.Errorf("a command on the inside plugin wrote below %s", guard)
	}
	h.client.mu.Lock()
	said := strings.Join(append(append([]string{}, h.client.logs...), h.client.shown...), "\n")
	h.client.mu.Unlock()
	if strings.Contains(said, outsideSecret) {
		t.Errorf("the server told the client the outside secret: %s", said)
	}
}

// TestOpeningOutsideManifestWritesNothing opens, edits and saves the
// manifest of the outside plugin, directly and through the symlinked
// plugin inside the workspace, with a buffer whose types differ from the
// stale .plugin/types.d.ts: the documents are checked (diagnostics are
// read-only), and no byte below the outside folder changes.
func TestOpeningOutsideManifestWritesNothing(t *testing.T) {
	w := newHostileWorkspace(t)
	guard := filepath.Dir(w.outside)
	before := treeHash(t, guard)
	h := newHarness(t, Options{})
	h.initialize(w.ws, protocol.ClientCapabilities{})
	for _, manifest := range []string{filepath.Join(w.outside, checker.ManifestName), filepath.Join(w.ws, "linked", checker.ManifestName)} {
		text := strings.Replace(mustRead(t, manifest), `"properties": { "isbn": { "type": "string" } }`, `"properties": { "isbn": { "type": "string" }, "evil": { "type": "integer" } }`, 1)
		h.openText(manifest, text)
		h.waitChecked(filepath.Dir(manifest))
		h.change(manifest, 2, text+" ")
		h.waitChecked(filepath.Dir(manifest))
		if err := h.server.DidSave(h.ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}}); err != nil {
			t.Fatal(err)
		}
		h.sync()
		h.waitTypes()
		h.waitChecked(filepath.Dir(manifest))
	}
	if after := treeHash(t, guard); after != before {
		t.Errorf("opening, editing or saving an outside manifest wrote below %s", guard)
	}
	h.typesMu.Lock()
	started := h.typesStarted
	h.typesMu.Unlock()
	if started != 0 {
		t.Errorf("%d types regenerations started for plugins outside the workspace", started)
	}
}

// TestNoWorkspaceFolder: a client that sends no folder gets the plugin of
// its open document as the whole authority, read-only until the user runs
// a command on it: saves regenerate nothing before that, a plugin that no
// open document belongs to is refused, and after a command a save
// regenerates the types.
func TestNoWorkspaceFolder(t *testing.T) {
	w := newHostileWorkspace(t)
	guard := filepath.Dir(w.outside)
	before := treeHash(t, guard)
	h := newHarness(t, Options{Runner: &leakyRunner{}, Review: leakyReview})
	h.initialize("", protocol.ClientCapabilities{})
	typesPath := filepath.Join(w.inside, tstypes.TypesPath)
	writeFile(t, typesPath, tstypes.Header+"// stale\n")
	manifest := filepath.Join(w.inside, checker.ManifestName)
	if _, err := h.command(CommandGenerateTypes, map[string]any{"dir": w.inside}); err == nil || !strings.Contains(err.Error(), "no plugin document is open") {
		t.Errorf("a command before any document is open: %v", err)
	}
	h.open(manifest)
	h.waitChecked(w.inside)
	h.save(manifest, mustRead(t, manifest))
	if got := mustRead(t, typesPath); got != tstypes.Header+"// stale\n" {
		t.Errorf("a save wrote types before any command:\n%.200s", got)
	}
	for name, arg := range everyCommand("dir", w.outside) {
		if _, err := h.command(name, arg); rpcCode(err) != jsonrpc2.InvalidParams || !strings.Contains(err.Error(), "the plugins of the open documents") {
			t.Errorf("%s on a plugin no open document belongs to: %v", name, err)
		}
	}
	if _, err := h.command(CommandRunTool, map[string]any{"dir": w.inside, "tool": "lookupBook"}); err != nil {
		t.Fatalf("runTool on the open document's plugin: %v", err)
	}
	h.save(manifest, mustRead(t, manifest))
	if got := mustRead(t, typesPath); !strings.Contains(got, "lookupBook") {
		t.Errorf("after a command, a save did not regenerate the types:\n%.200s", got)
	}
	if after := treeHash(t, guard); after != before {
		t.Errorf("wrote below %s", guard)
	}
}

// TestWorkspaceFoldersChangeTheAuthority: a folder added by
// didChangeWorkspaceFolders admits its plugins; once removed, they are
// refused again.
func TestWorkspaceFoldersChangeTheAuthority(t *testing.T) {
	w := newHostileWorkspace(t)
	h := newHarness(t, Options{Review: leakyReview})
	h.initialize(w.ws, protocol.ClientCapabilities{})
	arg := map[string]any{"dir": string(uri.File(w.outside))}
	if _, err := h.command(CommandReviewCard, arg); !strings.Contains(errString(err), "outside the workspace") {
		t.Fatalf("before the folder is added: %v", err)
	}
	folder := []protocol.WorkspaceFolder{{URI: uri.File(filepath.Dir(w.outside)), Name: "outside"}}
	if err := h.server.DidChangeWorkspaceFolders(h.ctx, &protocol.DidChangeWorkspaceFoldersParams{Event: protocol.WorkspaceFoldersChangeEvent{Added: folder}}); err != nil {
		t.Fatal(err)
	}
	h.sync()
	if _, err := h.command(CommandReviewCard, arg); err != nil {
		t.Fatalf("after the folder is added: %v", err)
	}
	// Still not through the symlink in the other folder.
	if _, err := h.command(CommandReviewCard, map[string]any{"dir": filepath.Join(w.ws, "linked")}); !strings.Contains(errString(err), "symbolic link") {
		t.Errorf("through the symlinked plugin: %v", err)
	}
	if err := h.server.DidChangeWorkspaceFolders(h.ctx, &protocol.DidChangeWorkspaceFoldersParams{Event: protocol.WorkspaceFoldersChangeEvent{Removed: folder}}); err != nil {
		t.Fatal(err)
	}
	h.sync()
	if _, err := h.command(CommandReviewCard, arg); !strings.Contains(errString(err), "outside the workspace") {
		t.Errorf("after the folder is removed: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestWorkspaceFolderThroughASymlink: the folder the user opened may be a
// symlink (a workspace under a symlinked /tmp): its plugins are inside by
// the folder's path and by its real path; the outside plugin is not.
func TestWorkspaceFolderThroughASymlink(t *testing.T) {
	w := newHostileWorkspace(t)
	alias := filepath.Join(w.base, "alias")
	if err := os.Symlink(w.ws, alias); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Options{Review: leakyReview})
	h.initialize(alias, protocol.ClientCapabilities{})
	for _, dir := range []string{filepath.Join(alias, "books"), w.inside} {
		if _, err := h.command(CommandReviewCard, map[string]any{"dir": dir}); err != nil {
			t.Errorf("%s: %v", dir, err)
		}
	}
	for _, dir := range []string{w.outside, filepath.Join(alias, "linked")} {
		if _, err := h.command(CommandReviewCard, map[string]any{"dir": dir}); !strings.Contains(errString(err), "outside the workspace") {
			t.Errorf("%s: %v, want refused", dir, err)
		}
	}
}

// TestNoCreateActionThroughASymlink: a plugin whose code/ and native/ are
// symlinks out of it gets no "Create page" or "Create module" action for
// a missing page or module there (the client applying the edit would
// follow the symlink and write outside the plugin, with text taken from
// the manifest); the same plugin without the symlinks gets both.
func TestNoCreateActionThroughASymlink(t *testing.T) {
	w := newHostileWorkspace(t)
	h := newHarness(t, Options{})
	h.initialize(w.ws, protocol.ClientCapabilities{})
	actions := func() []string {
		manifest := filepath.Join(w.inside, checker.ManifestName)
		text := strings.Replace(mustRead(t, manifest), `"page": "code/save-favourite"`, `"page": "code/new-tool"`, 1)
		text = strings.Replace(text, `"native/telegram.js"`, `"native/chat.js"`, 1)
		h.openText(manifest, text)
		acts, err := h.server.CodeAction(h.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)},
			Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{protocol.CodeActionKindSource}}})
		if err != nil {
			t.Fatal(err)
		}
		_ = h.server.DidClose(h.ctx, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}})
		var titles []string
		for _, a := range acts {
			if ca, ok := a.(*protocol.CodeAction); ok && strings.HasPrefix(ca.Title, "Create ") {
				titles = append(titles, ca.Title)
			}
		}
		return titles
	}
	if got := strings.Join(actions(), "|"); got != "Create page code/new-tool.ts from a template|Create module native/chat.js from a template" {
		t.Fatalf("without symlinks: %q", got)
	}
	for _, d := range []string{"code", "native"} {
		real := filepath.Join(w.inside, d)
		if err := os.Rename(real, real+".real"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(w.outside, d), real); err != nil {
			t.Fatal(err)
		}
	}
	if got := actions(); len(got) != 0 {
		t.Errorf("through symlinked code/ and native/: %q", got)
	}
}

// TestSaveDoesNotRegenerateThroughASymlink: a plugin inside the workspace
// whose .plugin/types.d.ts, or whose .plugin/, links to the outside
// plugin's (generated, stale) types: saving its manifest leaves the
// outside file alone.
func TestSaveDoesNotRegenerateThroughASymlink(t *testing.T) {
	for _, link := range []string{tstypes.TypesPath, ".plugin"} {
		t.Run(link, func(t *testing.T) {
			w := newHostileWorkspace(t)
			guard := filepath.Dir(w.outside)
			at := filepath.Join(w.inside, filepath.FromSlash(link))
			if err := os.RemoveAll(at); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(w.outside, filepath.FromSlash(link)), at); err != nil {
				t.Fatal(err)
			}
			before := treeHash(t, guard)
			h := newHarness(t, Options{})
			h.initialize(w.ws, protocol.ClientCapabilities{})
			manifest := filepath.Join(w.inside, checker.ManifestName)
			h.open(manifest)
			h.waitChecked(w.inside)
			h.save(manifest, mustRead(t, manifest))
			if after := treeHash(t, guard); after != before {
				t.Errorf("saving the manifest wrote below %s through the symlinked %s", guard, link)
			}
		})
	}
}
