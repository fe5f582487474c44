package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The depth/size fuzz test. Pathological pages, native modules and
// manifests (the shapes that overflowed esbuild's or goja's stack, or made
// indented output grow with the square of the depth) are checked, run,
// reviewed and served in a subprocess: a Go stack overflow is fatal and
// cannot be recovered in-process. Each command must end normally (exit 0 or
// 1, never a crash) within a generous bound, and a deep file must get a
// positioned diagnostic.

// deepShape is one recursive construct: head×n mid tail×n; stmt shapes
// are statements, the others expressions.
type deepShape struct {
	name            string
	head, mid, tail string
	stmt            bool
}

var deepShapes = []deepShape{
	{"arrays", "[", "0", "]", false},
	{"objects", "({a:", "0", "})", false},
	{"parens", "(", "0", ")", false},
	{"templates", "`${", "0", "}`", false},
	{"calls", "f(", "0", ")", false},
	{"not", "!", "x", "", false},
	{"minus", "- ", "x", "", false},
	{"typeof", "typeof ", "x", "", false},
	{"new", "new ", "X", "", false},
	{"await", "await ", "x", "", false},
	{"ternary", "a?a:", "a", "", false},
	{"assign", "x=", "1", "", false},
	{"arrows", "x=>", "x", "", false},
	{"concat", "\"a\"+", "\"a\"", "", false},
	{"member", "a.", "a", "", false},
	{"callchain", "f", "", "()", false},
	{"blocks", "{", "", "}", true},
	{"if", "if(a)\n", ";", "", true},
	{"elseif", "if(a){}else ", "{}", "", true},
	{"for", "for(;;)", ";", "", true},
	{"labels", "a:", ";", "", true},
	{"generics", "let g: A<", "B", ">;", true},
	{"fnbodies", "function f(){", "", "}", true},
}

func (s deepShape) text(n int) string {
	body := strings.Repeat(s.head, n) + s.mid + strings.Repeat(s.tail, n)
	if s.stmt {
		return body + "\n"
	}
	return "const z = " + body + ";\n"
}

// mixedShape nests n random expression shapes inside one another.
func mixedShape(seed int64, n int) string {
	r := rand.New(rand.NewSource(seed))
	var exprs []deepShape
	for _, s := range deepShapes {
		if !s.stmt && s.mid != "" {
			exprs = append(exprs, s)
		}
	}
	var head, tail strings.Builder
	tails := make([]string, 0, n)
	for range n {
		s := exprs[r.Intn(len(exprs))]
		head.WriteString(s.head)
		tails = append(tails, s.tail)
	}
	for i := len(tails) - 1; i >= 0; i-- {
		tail.WriteString(tails[i])
	}
	return "const z = " + head.String() + "0" + tail.String() + ";\n"
}

// TestMain lets the test binary act as the CLI in a subprocess.
func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv("PLUGIN_LSP_SUBPROCESS"); ok {
		var argv []string
		if args != "" {
			argv = strings.Split(args, "\x1f")
		}
		os.Exit(dispatch(argv, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// cliCommand is the CLI (this test binary) as a subprocess.
func cliCommand(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PLUGIN_LSP_SUBPROCESS="+strings.Join(args, "\x1f"))
	return cmd
}

// subprocess runs the CLI with args and returns the exit code and output.
// A run still going at limit is killed and fails the test; a crash (Go
// exits 2 with "fatal error" or "panic") fails it too.
func subprocess(t *testing.T, limit time.Duration, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := cliCommand(ctx, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	_ = cmd.Run()
	code := cmd.ProcessState.ExitCode()
	if ctx.Err() != nil {
		t.Errorf("%s %s: still running after %v (killed)", args[0], filepath.Base(args[len(args)-1]), limit)
	}
	if crashed(out.String()) {
		t.Errorf("%v crashed after %v (exit %d):\n%.600s", args, time.Since(start), code, out.String())
	}
	return code, out.String()
}

func crashed(out string) bool {
	return strings.Contains(out, "fatal error:") || strings.Contains(out, "goroutine ") && strings.Contains(out, "panic")
}

func writePlugin(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const deepManifest = `{"name":"deep","version":"1.0.0","sdk":1,
"tools":[{"name":"t","page":"code/t","description":"d","inputJsonSchema":{"type":"object"}}],
"nativeTools":[{"module":"native/m.js","names":["deep.m"]}],
"capabilities":{"host":["http.fetch"],"fetch":["api.example.com"]}}`

const (
	healthyPage   = "export default async function (input: unknown) { return 1; }\n"
	healthyNative = "export const tools = { \"deep.m\": { execute: async () => 1 } };\n"
)

// deepCase is one plugin of the fuzz workspace.
type deepCase struct {
	name  string
	files map[string]string
	// want is the diagnostic `check` must print ("" for manifests: any
	// outcome but a crash or a hang).
	want string
	run  bool // `run` must refuse to compile the page
	// limit is the refusal's message ("" for the nesting limit).
	limit string
}

// limitMsg is what c's refusal says.
func (c deepCase) limitMsg() string {
	if c.limit != "" {
		return c.limit
	}
	return "nests more than"
}

// deepCases builds every pathological plugin: each shape far past the
// limit in a page and in a native module, random mixtures, huge and deep
// manifests.
func deepCases() []deepCase {
	var cs []deepCase
	for _, s := range deepShapes {
		n := 200_000
		if len(s.head)+len(s.tail) > 6 {
			n = 100_000
		}
		body := s.text(n)
		cs = append(cs,
			deepCase{"page-" + s.name, map[string]string{"plugin.json": deepManifest, "code/t.ts": healthyPage + body, "native/m.js": healthyNative}, "code/t.ts:", true, ""},
			deepCase{"native-" + s.name, map[string]string{"plugin.json": deepManifest, "code/t.ts": healthyPage, "native/m.js": healthyNative + body}, "native/m.js:", false, ""},
		)
	}
	for seed := int64(1); seed <= 3; seed++ {
		body := mixedShape(seed, 150_000)
		cs = append(cs,
			deepCase{fmt.Sprintf("page-mixed%d", seed), map[string]string{"plugin.json": deepManifest, "code/t.ts": healthyPage + body, "native/m.js": healthyNative}, "code/t.ts:", true, ""},
			deepCase{fmt.Sprintf("native-mixed%d", seed), map[string]string{"plugin.json": deepManifest, "code/t.ts": healthyPage, "native/m.js": healthyNative + body}, "native/m.js:", false, ""},
		)
	}
	// Mass redeclarations of one name (esbuild's error notes make them
	// quadratic): in a page, a function body, a native module.
	redeclared := map[string]string{
		"const":       strings.Repeat("const a = 1;\n", 80_000),
		"let-in-body": "export function f() {" + strings.Repeat("let x = 1;", 100_000) + "}\n",
		"class":       strings.Repeat("class C {}\n", 90_000),
		"let-var":     "let v;\n" + strings.Repeat("var v = 0;\n", 90_000),
	}
	for name, body := range redeclared {
		cs = append(cs,
			deepCase{"page-redeclared-" + name, map[string]string{"plugin.json": deepManifest, "code/t.ts": healthyPage + body, "native/m.js": healthyNative}, "code/t.ts:", true, "declared 65 times in one scope"},
			deepCase{"native-redeclared-" + name, map[string]string{"plugin.json": deepManifest, "code/t.ts": healthyPage, "native/m.js": healthyNative + body}, "native/m.js:", false, "declared 65 times in one scope"},
		)
	}
	// An imported file is checked by the compiler too.
	cs = append(cs, deepCase{"page-import-deep", map[string]string{
		"plugin.json": deepManifest, "native/m.js": healthyNative,
		"code/t.ts":    "import { z } from \"./deep\";\nexport default async function () { return z; }\n",
		"code/deep.ts": "export " + deepShapes[0].text(300_000),
	}, "", true, ""})
	domains := make([]string, 40_000)
	for i := range domains {
		domains[i] = strconv.Quote(fmt.Sprintf("api%d.example.com", i))
	}
	manifests := map[string]string{
		"manifest-arrays":  `{"name":"m","tools":` + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + "}",
		"manifest-objects": strings.Repeat(`{"a":`, 200_000) + "1" + strings.Repeat("}", 200_000),
		"manifest-open":    `{"name":"m","capabilities":` + strings.Repeat(`{"x":[`, 300_000),
		"manifest-domains": `{"name":"m","version":"1.0.0","sdk":1,"tools":[],"capabilities":{"host":["http.fetch"],"fetch":[` + strings.Join(domains, ",") + `]}}`,
	}
	for name, text := range manifests {
		cs = append(cs, deepCase{name, map[string]string{"plugin.json": text}, "", false, ""})
	}
	return cs
}

func TestDepthSizeFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ~60 pathological plugins and runs the CLI on each")
	}
	root := t.TempDir()
	cases := deepCases()
	for _, c := range cases {
		writePlugin(t, filepath.Join(root, c.name), c.files)
	}
	// A hang detector, not a speed check: the quadratic cases it was written
	// for took minutes to hours; a linear one takes seconds, and a busy
	// 2-core machine running the whole suite needs room (60 s was hit once).
	const limit = 3 * time.Minute
	for _, c := range cases {
		dir := filepath.Join(root, c.name)
		code, out := subprocess(t, limit, "check", dir)
		if code != 0 && code != 1 {
			t.Errorf("check %s: exit %d\n%.400s", c.name, code, out)
		}
		if c.want != "" && !strings.Contains(out, c.want) {
			t.Errorf("check %s: no diagnostic at %s:\n%.400s", c.name, c.want, out)
		}
		if c.want != "" && !strings.Contains(out, c.limitMsg()) {
			t.Errorf("check %s: the limit is not named:\n%.400s", c.name, out)
		}
		if c.run {
			code, out := subprocess(t, limit, "run", dir, "t")
			if code != 1 || !strings.Contains(out, c.limitMsg()) {
				t.Errorf("run %s: exit %d, want 1 and the limit:\n%.400s", c.name, code, out)
			}
		}
		if strings.HasPrefix(c.name, "native-") || strings.HasPrefix(c.name, "manifest-") {
			if code, out := subprocess(t, limit, "review", dir); code != 0 && code != 1 {
				t.Errorf("review %s: exit %d\n%.400s", c.name, code, out)
			}
		}
	}
}

// lspConn is a minimal JSON-RPC client of a server subprocess.
type lspConn struct {
	t   *testing.T
	in  io.Writer
	out *bufio.Reader
	id  int
}

func (c *lspConn) send(method string, id int, params any) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if id > 0 {
		msg["id"] = id
	}
	b, _ := json.Marshal(msg)
	fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
}

// read returns the next message, or nil at the end of the stream.
func (c *lspConn) read() map[string]any {
	n := -1
	for {
		line, err := c.out.ReadString('\n')
		if err != nil {
			return nil
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(c.out, buf); err != nil {
		return nil
	}
	var m map[string]any
	_ = json.Unmarshal(buf, &m)
	return m
}

// request sends a request and returns its response, collecting the
// notifications that arrive meanwhile into seen.
func (c *lspConn) request(method string, params any, seen func(map[string]any)) map[string]any {
	c.id++
	c.send(method, c.id, params)
	for {
		m := c.read()
		if m == nil {
			c.t.Fatalf("%s: the server closed the stream", method)
		}
		if id, ok := m["id"].(float64); ok && int(id) == c.id && m["method"] == nil {
			return m
		}
		if seen != nil {
			seen(m)
		}
	}
}

func fileURI(p string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String() }

// The language server opens a workspace holding every pathological plugin
// of the fuzz test beside a healthy one: it must publish the deep files'
// diagnostics, still answer on the healthy plugin, and shut down cleanly.
func TestServerSurvivesPathologicalWorkspace(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ~60 pathological plugins")
	}
	root := t.TempDir()
	for _, c := range deepCases() {
		writePlugin(t, filepath.Join(root, c.name), c.files)
	}
	addCorpus(t, root) // FIFOs, symlinks out, forged cards, … (unix)
	healthy := filepath.Join(root, "zz-healthy")
	writePlugin(t, healthy, map[string]string{"plugin.json": deepManifest, "code/t.ts": healthyPage, "native/m.js": healthyNative})

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := cliCommand(ctx, "serve")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &lspConn{t: t, in: stdin, out: bufio.NewReaderSize(stdout, 1<<20)}
	published := map[string]string{}
	seen := func(m map[string]any) {
		if m["method"] == "textDocument/publishDiagnostics" {
			p, _ := m["params"].(map[string]any)
			b, _ := json.Marshal(p["diagnostics"])
			published[p["uri"].(string)] = string(b)
		}
	}
	c.request("initialize", map[string]any{
		"processId": nil, "rootUri": fileURI(root), "capabilities": map[string]any{},
		"workspaceFolders": []any{map[string]any{"uri": fileURI(root), "name": "w"}},
	}, seen)
	c.send("initialized", 0, map[string]any{})
	// Wait for the deep page of the first and the last case.
	first, last := fileURI(filepath.Join(root, "page-arrays", "code", "t.ts")), fileURI(filepath.Join(root, "page-mixed3", "code", "t.ts"))
	redecl := fileURI(filepath.Join(root, "page-redeclared-const", "code", "t.ts"))
	waitFor := []string{first, last, redecl}
	if _, err := os.Stat(filepath.Join(root, "corpus-secret-in-page-url-check")); err == nil {
		waitFor = append(waitFor, fileURI(filepath.Join(root, "corpus-secret-in-page-url-check", "code", "t.ts")),
			fileURI(filepath.Join(root, "corpus-deep-native-module-check", "native", "m.js")))
	}
	missing := func() bool {
		for _, u := range waitFor {
			if published[u] == "" {
				return true
			}
		}
		return false
	}
	for missing() {
		m := c.read()
		if m == nil {
			t.Fatalf("the server closed the stream before publishing; stderr:\n%.2000s", stderr.String())
		}
		seen(m)
	}
	if !strings.Contains(published[first], "nests more than") {
		t.Errorf("deep page: %s", published[first])
	}
	if !strings.Contains(published[redecl], "declared 65 times in one scope") {
		t.Errorf("redeclarations page: %.400s", published[redecl])
	}
	for u, d := range published {
		if strings.Contains(d, corpusSecret) {
			t.Errorf("%s: a published diagnostic holds the dev secret: %s", u, d)
		}
	}
	// The healthy plugin still answers: hover on its manifest's page path.
	manifest := fileURI(filepath.Join(healthy, "plugin.json"))
	c.send("textDocument/didOpen", 0, map[string]any{"textDocument": map[string]any{"uri": manifest, "languageId": "json", "version": 1, "text": deepManifest}})
	line := strings.Split(deepManifest, "\n")[1]
	col := strings.Index(line, "code/t")
	resp := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": manifest}, "position": map[string]any{"line": 1, "character": col + 2}}, seen)
	if resp["error"] != nil || resp["result"] == nil {
		t.Errorf("hover on the healthy plugin: %v", resp)
	}
	c.request("shutdown", nil, seen)
	c.send("exit", 0, nil)
	_ = stdin.Close()
	err := cmd.Wait()
	if crashed(stderr.String()) || err != nil {
		t.Errorf("server exit: %v\n%.2000s", err, stderr.String())
	}
}
