package runner

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// TestCorporaAnnotationsMatchRuns is the ground truth of testdata/corpus-b
// and testdata/corpus-c: every tool runs in the sandbox, once per input
// drawn from its inputJsonSchema (each example, each enum value of each
// property, booleans both ways, optional properties absent), against a
// loopback TLS server that answers every declared host with a small JSON
// body. The broker records every host it was asked for, refused ones (the
// undeclared hosts) too. Then:
//
//   - every host the broker saw for a tool is annotated (//@hosts) on a
//     line of a file the tool's page reaches through its imports, or it is
//     built from the input (it contains one of the input's strings) and
//     one of those files has a //@hosts(DYNAMIC) line;
//   - every annotated host of a file was seen by some run of a tool whose
//     page reaches that file (annotations are not invented);
//   - corpus.txt's "unused: host" lines are exactly the declared hosts no
//     run reached.
func TestCorporaAnnotationsMatchRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox")
	}
	for _, c := range []string{"corpus-b", "corpus-c"} {
		t.Run(c, func(t *testing.T) { runCorpus(t, filepath.Join("..", "..", "testdata", c)) })
	}
}

// annotation is one //@hosts line.
type annotation struct {
	file    string // slash path inside the plugin
	line    int
	hosts   []string
	dynamic bool
	// mayReach: the hosts a DYNAMIC call may reach, path.Match patterns
	// ("DYNAMIC *.my.salesforce.com"; a bare DYNAMIC is "*").
	mayReach []string
}

// reachable reports whether a host built from the input may come from
// this DYNAMIC line.
func (a annotation) reachable(host string) bool {
	for _, pat := range a.mayReach {
		if ok, _ := path.Match(pat, host); ok {
			return true
		}
	}
	return false
}

var corporaHosts = regexp.MustCompile(`//@hosts\(([^)]*)\)`)

// corporaImport finds the relative module specifiers of a file: import …
// from, export … from, bare imports and import("…").
var corporaImport = regexp.MustCompile(`(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+)["']`)

func runCorpus(t *testing.T, root string) {
	cache := os.Getenv("PLUGIN_LSP_TEST_CACHE")
	if cache == "" {
		cache = "-"
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var plugins []*checker.Plugin
	var names, certHosts []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p, err := checker.Load(nil, filepath.Join(root, e.Name()))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		plugins = append(plugins, p)
		names = append(names, e.Name())
		certHosts = append(certHosts, capability.FromManifest(p.Manifest).Domains()...)
		// the probe below declares undeclared hosts one by one
		for _, a := range corporaAnnotations(t, filepath.Join(root, e.Name())) {
			for _, h := range a.hosts {
				if name, _, ok := strings.Cut(h, ":"); ok {
					h = name // the certificate names hosts, not ports
				}
				certHosts = append(certHosts, h)
			}
		}
	}
	if len(plugins) < 5 {
		t.Errorf("%s has %d plugins; want at least 5", root, len(plugins))
	}
	srv, pool, err := tlsServer(certHosts, http.HandlerFunc(corporaAnswer))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var d net.Dialer
	secrets := func(k string) string {
		if strings.HasPrefix(k, "PLUGIN_SECRET_") {
			return "test-secret"
		}
		return ""
	}
	r, err := New(Config{CacheDir: cache, Env: secrets,
		Network: broker.NetworkOptions{RootCAs: pool, DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, srv.Listener.Addr().String())
		}}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()

	var calls, undeclared, unused, dynamic, runs, lineChecked, pairs, pairsConfirmed int
	for i, p := range plugins {
		name := names[i]
		dir := filepath.Join(root, name)
		anns := corporaAnnotations(t, dir)
		byLine := map[string]annotation{}
		for _, a := range anns {
			byLine[a.file+":"+strconv.Itoa(a.line)] = a
		}
		declared := map[string]bool{}
		for _, h := range capability.FromManifest(p.Manifest).Domains() {
			declared[h] = true
		}
		for _, a := range anns {
			calls++
			if a.dynamic {
				dynamic++
			}
		}
		undeclaredHosts := map[string]bool{}
		for _, a := range anns {
			for _, h := range a.hosts {
				if !declared[h] {
					undeclaredHosts[h] = true
				}
			}
		}
		undeclared += len(undeclaredHosts)
		confirmed := map[string]bool{} // file:line + " " + host, placed there by the probe
		seenIn := map[string]bool{}    // file + " " + host, for runs whose page reaches file
		seenAny := map[string]bool{}   // host
		for _, tool := range p.Manifest.Tools {
			tn, _ := checker.Str(tool.Name)
			page, _ := checker.Str(tool.Page)
			reach := corporaReach(t, dir, page)
			annotated := map[string]bool{}
			var dynamicLines []annotation
			for _, a := range anns {
				if !reach[a.file] {
					continue
				}
				if a.dynamic {
					dynamicLines = append(dynamicLines, a)
				}
				for _, h := range a.hosts {
					annotated[h] = true
				}
			}
			mayReach := func(host string) bool {
				for _, a := range dynamicLines {
					if a.reachable(host) {
						return true
					}
				}
				return false
			}
			inputs := corporaInputs(tool)
			for _, in := range inputs {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				rec, err := r.Run(ctx, Request{Plugin: p, Tool: tn, Input: in, Providers: "real", Timeout: 20 * time.Second})
				cancel()
				if err != nil {
					t.Fatalf("%s/%s %s: %v", name, tn, in, err)
				}
				runs++
				if rec.Error != nil && rec.Error.Name == "InputError" {
					t.Errorf("%s/%s: generated input %s is refused: %s", name, tn, in, rec.Error.Message)
				}
				var saw []string
				for _, f := range rec.Fetches {
					saw = append(saw, f.Host)
					if f.Host == "" {
						continue
					}
					seenAny[f.Host] = true
					for file := range reach {
						seenIn[file+" "+f.Host] = true
					}
					if annotated[f.Host] {
						continue
					}
					if !fromInput(f.Host, in) || !mayReach(f.Host) {
						t.Errorf("%s/%s input %s: the broker saw %s (%s), which no //@hosts line of %v names (nor a DYNAMIC line's pattern, for a host from the input)", name, tn, in, f.Host, f.URL, corporaKeys(reach))
					}
				}
				errMsg := ""
				if rec.Error != nil {
					errMsg = " error: " + rec.Error.Message
					// An uncaught refusal is placed at the http.fetch call
					// (the top mapped frame): that line must name the host.
					if h, ok := refusedHost(rec.Error.Message); ok && rec.Error.File != "" {
						at := rec.Error.File + ":" + strconv.Itoa(rec.Error.Line)
						errMsg += " at " + at
						if a, ok := byLine[at]; !ok {
							t.Errorf("%s/%s input %s: refused %s at %s, a line without //@hosts", name, tn, in, h, at)
						} else if !slices.Contains(a.hosts, h) && !(a.dynamic && a.reachable(h)) {
							t.Errorf("%s/%s input %s: refused %s at %s, whose //@hosts%v does not name it", name, tn, in, h, at, a.hosts)
						}
						lineChecked++
					}
				}
				t.Logf("%s/%s %s: ok=%v saw %v%s", name, tn, in, rec.OK, saw, errMsg)
				for _, c := range probeLines(t, r, dir, name, tn, in, byLine) {
					confirmed[c] = true
				}
			}
		}
		for _, a := range anns {
			for _, h := range a.hosts {
				pairs++
				if confirmed[a.file+":"+strconv.Itoa(a.line)+" "+h] {
					pairsConfirmed++
				} else {
					t.Logf("%s/%s:%d: %s is confirmed for the file, not at the line (a caught refusal or a branch the probe does not reach)", name, a.file, a.line, h)
				}
			}
		}
		for _, a := range anns {
			for _, h := range a.hosts {
				if !seenIn[a.file+" "+h] {
					t.Errorf("%s/%s:%d: annotated host %s is reached by no run of a tool whose page imports that file", name, a.file, a.line, h)
				}
			}
		}
		// corpus.txt: exactly the declared hosts no run reached.
		want := map[string]bool{}
		if b, err := os.ReadFile(filepath.Join(dir, "corpus.txt")); err != nil {
			t.Errorf("%s: %v", name, err)
		} else {
			for _, ln := range strings.Split(string(b), "\n") {
				if h, ok := strings.CutPrefix(strings.TrimSpace(ln), "unused:"); ok {
					want[strings.TrimSpace(h)] = true
				}
			}
		}
		unused += len(want)
		for h := range declared {
			if !seenAny[h] && !want[h] {
				t.Errorf("%s: declared host %s is reached by no run and corpus.txt does not list it as unused", name, h)
			}
		}
		for h := range want {
			if !declared[h] {
				t.Errorf("%s: corpus.txt lists %s as unused but capabilities.fetch does not declare it", name, h)
			} else if seenAny[h] {
				t.Errorf("%s: corpus.txt lists %s as unused but a run reached it", name, h)
			}
		}
	}
	t.Logf("%s: %d plugins, %d runs, %d annotated calls (%d dynamic), %d undeclared hosts, %d unused declared hosts; %d refusals checked at their line; %d/%d annotated (line, host) pairs confirmed at their line by the probe",
		filepath.Base(root), len(plugins), runs, calls, dynamic, undeclared, unused, lineChecked, pairsConfirmed, pairs)
}

// probeLines ties hosts to lines. It runs the tool on a copy of the
// plugin that declares no host: the first fetch is refused, and when the
// refusal goes uncaught the runner places it at the http.fetch call, whose
// //@hosts must name that host (or be DYNAMIC, for a host built from the
// input). Then it declares that host and runs again, until the run needs
// no further host, a refusal is caught, or the host comes from the input.
// It returns the "file:line host" pairs it placed.
func probeLines(t *testing.T, r *Runner, dir, name, tool string, in json.RawMessage, byLine map[string]annotation) []string {
	t.Helper()
	var placed []string
	var declared []string
	for step := 0; step < 12; step++ {
		p := corporaCopy(t, dir, declared)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		rec, err := r.Run(ctx, Request{Plugin: p, Tool: tool, Input: in, Providers: "real", Timeout: 20 * time.Second})
		cancel()
		if err != nil {
			t.Fatalf("%s/%s %s (probe): %v", name, tool, in, err)
		}
		more := false
		if rec.Error != nil {
			if h, ok := refusedHost(rec.Error.Message); ok && rec.Error.File != "" {
				at := rec.Error.File + ":" + strconv.Itoa(rec.Error.Line)
				a, annotated := byLine[at]
				if !annotated {
					// A refusal placed on a line inside the call's
					// arguments (a JSON.stringify in the init) belongs to
					// the call that starts on an annotated line above.
					for up := 1; up <= 6 && !annotated; up++ {
						if prev, ok := byLine[rec.Error.File+":"+strconv.Itoa(rec.Error.Line-up)]; ok {
							a, annotated, at = prev, true, rec.Error.File+":"+strconv.Itoa(rec.Error.Line-up)
							t.Logf("%s/%s (probe): the refusal of %s is placed %d line(s) below the call at %s", name, tool, h, up, at)
						}
					}
				}
				switch {
				case !annotated:
					t.Errorf("%s/%s input %s (probe): %s is fetched at %s, a line without //@hosts", name, tool, in, h, at)
				case slices.Contains(a.hosts, h):
					placed = append(placed, at+" "+h)
				case a.dynamic && fromInput(h, in) && a.reachable(h):
				default:
					t.Errorf("%s/%s input %s (probe): %s is fetched at %s, whose //@hosts%v does not name it", name, tool, in, h, at, a.hosts)
				}
				if fromInput(h, in) && !(annotated && slices.Contains(a.hosts, h)) {
					return placed // a host from the input: the test's certificate cannot name it
				}
				declared = append(declared, h)
				more = true
			}
		}
		// refusals the page caught: declare them too (no line is known)
		for _, f := range rec.Fetches {
			if f.Refused != "" && f.Host != "" && !slices.Contains(declared, f.Host) && !fromInput(f.Host, in) {
				declared = append(declared, f.Host)
				more = true
			}
		}
		if !more {
			return placed
		}
	}
	return placed
}

// corporaCopy copies a plugin into a temporary directory with
// capabilities.fetch replaced by hosts.
func corporaCopy(t *testing.T, dir string, hosts []string) *checker.Plugin {
	t.Helper()
	tmp := t.TempDir()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(tmp, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == "plugin.json" {
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				return err
			}
			caps, _ := m["capabilities"].(map[string]any)
			if caps == nil {
				caps = map[string]any{}
				m["capabilities"] = caps
			}
			caps["fetch"] = append([]string{}, hosts...)
			if b, err = json.MarshalIndent(m, "", "  "); err != nil {
				return err
			}
		}
		return os.WriteFile(filepath.Join(tmp, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := checker.Load(nil, tmp)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// refusedHost is the host of a "fetch refused: host H is not in
// capabilities.fetch" message.
func refusedHost(msg string) (string, bool) {
	rest, ok := strings.CutPrefix(msg, "fetch refused: host ")
	if !ok {
		return "", false
	}
	h, _, ok := strings.Cut(rest, " ")
	return h, ok
}

// fromInput reports whether host is built from one of the input's strings.
func fromInput(host string, in json.RawMessage) bool {
	var v any
	if json.Unmarshal(in, &v) != nil {
		return false
	}
	found := false
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if s := strings.ToLower(strings.TrimSpace(v)); len(s) >= 2 && strings.Contains(host, strings.TrimPrefix(strings.TrimPrefix(s, "https://"), "http://")) {
				found = true
			} else if len(s) >= 2 && strings.Contains(s, host) {
				found = true
			}
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return found
}

// corporaAnswer answers every request with a JSON body carrying the
// fields API clients commonly read (a token, an id, empty lists, no next
// page).
func corporaAnswer(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"ok":true,"id":"1","status":"ok","access_token":"tok","token":"tok","expires_in":3600,` +
		`"data":[],"items":[],"results":[],"entries":[],"records":[],"next":null,"has_more":false}`))
}

// corporaAnnotations reads every //@hosts line of the plugin's .ts and .js files.
func corporaAnnotations(t *testing.T, dir string) []annotation {
	t.Helper()
	var out []annotation
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".js")) {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for n := 1; sc.Scan(); n++ {
			m := corporaHosts.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			a := annotation{file: filepath.ToSlash(rel), line: n}
			for _, h := range strings.Split(m[1], ",") {
				h = strings.TrimSpace(h)
				if rest, ok := strings.CutPrefix(h, "DYNAMIC"); ok && (rest == "" || rest[0] == ' ') {
					a.dynamic = true
					if rest = strings.TrimSpace(rest); rest == "" {
						rest = "*"
					}
					a.mayReach = append(a.mayReach, rest)
				} else if h != "" {
					a.hosts = append(a.hosts, h)
				}
			}
			if !a.dynamic && len(a.hosts) == 0 {
				t.Errorf("%s:%d: empty //@hosts()", p, n)
			}
			out = append(out, a)
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// corporaReach returns the files (slash paths inside the plugin) a page
// reaches through its relative imports, the page included.
func corporaReach(t *testing.T, dir, page string) map[string]bool {
	t.Helper()
	reach := map[string]bool{}
	var visit func(string)
	visit = func(f string) {
		if reach[f] {
			return
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			return
		}
		reach[f] = true
		for _, m := range corporaImport.FindAllStringSubmatch(string(b), -1) {
			base := path.Join(path.Dir(f), m[1])
			var found string
			for _, c := range []string{base, base + ".ts", base + ".js", base + "/index.ts", base + "/index.js"} {
				if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(c))); err == nil && !st.IsDir() {
					found = c
					break
				}
			}
			if found == "" {
				if !strings.HasSuffix(base, ".json") {
					t.Errorf("%s: import %q not found", f, m[1])
				}
				continue
			}
			visit(found)
		}
	}
	visit(path.Clean(strings.TrimPrefix(page, "./")))
	return reach
}

// corporaInputs draws inputs from a tool's schema: each example; a base
// input (the first example, else each required property with a plain
// value of its type); the base with every combination of the enum values
// and booleans of its properties (an optional one absent too) when there
// are at most 64, and with each of them varied alone; each optional
// property absent.
func corporaInputs(tool *checker.Tool) []json.RawMessage {
	type prop struct {
		Type    any   `json:"type"`
		Enum    []any `json:"enum"`
		Default any   `json:"default"`
	}
	var schema struct {
		Properties map[string]prop `json:"properties"`
		Required   []string        `json:"required"`
		Examples   []any           `json:"examples"`
	}
	if tool.InputSchema == nil {
		return []json.RawMessage{json.RawMessage(`{}`)}
	}
	raw, err := json.Marshal(tool.InputSchema.Interface())
	if err != nil || json.Unmarshal(raw, &schema) != nil {
		return []json.RawMessage{json.RawMessage(`{}`)}
	}
	seen := map[string]bool{}
	var out []json.RawMessage
	add := func(v any) {
		b, _ := json.Marshal(v)
		if !seen[string(b)] {
			seen[string(b)] = true
			out = append(out, b)
		}
	}
	for _, ex := range schema.Examples {
		add(ex)
	}
	base := map[string]any{}
	if len(schema.Examples) > 0 {
		if m, ok := schema.Examples[0].(map[string]any); ok {
			base = m
		}
	} else {
		for _, k := range schema.Required {
			p := schema.Properties[k]
			switch {
			case len(p.Enum) > 0:
				base[k] = p.Enum[0]
			case p.Type == "integer" || p.Type == "number":
				base[k] = 1
			case p.Type == "boolean":
				base[k] = false
			case p.Type == "array":
				base[k] = []any{}
			case p.Type == "object":
				base[k] = map[string]any{}
			default:
				base[k] = "mark" + k
			}
		}
	}
	add(base)
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for a, b := range base {
			m[a] = b
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	props := make([]string, 0, len(schema.Properties))
	for k := range schema.Properties {
		props = append(props, k)
	}
	sort.Strings(props)
	required := map[string]bool{}
	for _, k := range schema.Required {
		required[k] = true
	}
	// Every combination of the enum and boolean properties (absent too
	// when optional) while they are few; else each one varied alone.
	choices := map[string][]any{}
	combos := 1
	for _, k := range props {
		p := schema.Properties[k]
		var vs []any
		vs = append(vs, p.Enum...)
		if p.Type == "boolean" {
			vs = append(vs, true, false)
		}
		if len(vs) == 0 {
			continue
		}
		if !required[k] {
			vs = append(vs, nil)
		}
		choices[k] = vs
		combos *= len(vs)
	}
	if combos <= 64 {
		var fill func(i int, m map[string]any)
		fill = func(i int, m map[string]any) {
			if i == len(props) {
				add(m)
				return
			}
			k := props[i]
			vs, ok := choices[k]
			if !ok {
				fill(i+1, m)
				return
			}
			for _, v := range vs {
				n := map[string]any{}
				for a, b := range m {
					n[a] = b
				}
				if v == nil {
					delete(n, k)
				} else {
					n[k] = v
				}
				fill(i+1, n)
			}
		}
		fill(0, base)
	}
	for _, k := range props {
		for _, v := range choices[k] {
			add(with(k, v))
		}
		if !required[k] {
			add(with(k, nil))
		}
	}
	return out
}

func corporaKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
