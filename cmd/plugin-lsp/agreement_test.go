package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/review"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// The probe page fetches every URL it is given and never stops at a
// refusal; hand.ts is a page no tool binds.
const (
	probePage = `export default async function probe(urls: string[]) {
  const out: string[] = [];
  for (const u of urls) {
    try { const r = await http.fetch(u); out.push(u + " " + r.status); } catch (e) { out.push(u + " ! " + String(e)); }
  }
  return out;
}
`
	handPage = `export default async function hand() {
  const g = globalThis as any;
  const out: string[] = [typeof g.http, typeof g.collections];
  try { await g.http.fetch("https://api.good.org/probe"); out.push("fetched"); } catch (e) { out.push("refused"); }
  return out;
}
`
)

var agreementHosts = []string{"api.good.org", "cdn.good.org", "evil.org", "api.other.net", "api.good.org:8443"}

var agreementSecrets = map[string]string{"k": "S3CRET-k-5f1c", "k2": "S3CRET-k2-77aa", "k-1": "S3CRET-dash-19e0"}

// TestCapabilityAgreement runs every manifest of testdata/capabilities
// (valid and malformed) through check --format json, review --format json,
// pin, run and the language server's hover, and asserts they all say what
// the capability model says: which entries are malformed (and where),
// which hosts are reachable with which caps, which credentials go where,
// and that a page no tool binds has the minimal grant.
func TestCapabilityAgreement(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "capabilities", "*.json"))
	if len(files) < 30 {
		t.Fatalf("corpus: %d manifests", len(files))
	}
	root := t.TempDir()
	lc := startLSP(t, root)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(root, name)
			writeAgreementPlugin(t, f, dir)
			text, _ := os.ReadFile(filepath.Join(dir, checker.ManifestName))
			p, err := checker.Load(nil, dir)
			if err != nil {
				t.Fatal(err)
			}
			reach := capability.FromManifest(p.Manifest)
			agreeCheck(t, dir, text, reach)
			agreeReview(t, dir, reach)
			agreeRun(t, dir, reach)
			agreeHover(t, lc, dir, p, text, reach)
			agreePin(t, dir, reach) // last: it writes plugin.lock.json
		})
	}
}

func writeAgreementPlugin(t *testing.T, manifest, dir string) {
	t.Helper()
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		FnFetch []map[string]any  `json:"fnFetch"`
		Secrets map[string]string `json:"secrets"`
	}
	for _, h := range agreementHosts {
		fx.FnFetch = append(fx.FnFetch, map[string]any{"url": "https://" + h + "/probe", "body": "ok"})
	}
	fx.Secrets = agreementSecrets
	fxb, _ := json.Marshal(fx)
	for rel, data := range map[string][]byte{
		"plugin.json": b, "code/probe.ts": []byte(probePage), "code/hand.ts": []byte(handPage), "fixtures.json": fxb,
	} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// offsetOf converts an LSP position of an ASCII file to a byte offset.
func offsetOf(text []byte, line, char int) int {
	off := 0
	for i := 0; i < line && off < len(text); i++ {
		j := bytes.IndexByte(text[off:], '\n')
		if j < 0 {
			return len(text)
		}
		off += j + 1
	}
	return min(off+char, len(text))
}

func positionOf(text []byte, off int) (int, int) {
	line := bytes.Count(text[:off], []byte("\n"))
	return line, off - (bytes.LastIndexByte(text[:off], '\n') + 1)
}

func overlaps(a, b checker.Span) bool { return a.Start < b.End && b.Start < a.End || a == b }

// check: every malformed entry is an error at its place, with the rule
// code the model names; every capability error check reports is one the
// model knows (so nothing check calls wrong is still granted).
func agreeCheck(t *testing.T, dir string, text []byte, reach *capability.Reach) {
	var out, errb bytes.Buffer
	cmdCheck([]string{"--format", "json", dir}, &out, &errb)
	var diags []struct {
		File  string `json:"file"`
		Range struct {
			Start struct{ Line, Character int } `json:"start"`
			End   struct{ Line, Character int } `json:"end"`
		} `json:"range"`
		Severity int    `json:"severity"`
		Code     string `json:"code"`
		Message  string `json:"message"`
	}
	if err := json.Unmarshal(out.Bytes(), &diags); err != nil {
		t.Fatalf("check --format json: %v: %s %s", err, out.String(), errb.String())
	}
	type diag struct {
		span checker.Span
		code string
	}
	var errs []diag
	for _, d := range diags {
		if d.File != checker.ManifestName || d.Severity != 1 {
			continue
		}
		errs = append(errs, diag{checker.Span{Start: offsetOf(text, d.Range.Start.Line, d.Range.Start.Character),
			End: offsetOf(text, d.Range.End.Line, d.Range.End.Character)}, d.Code})
	}
	for _, p := range reach.Problems {
		found := false
		for _, e := range errs {
			found = found || e.code == p.Code && overlaps(e.span, p.Span)
		}
		if !found {
			l, c := positionOf(text, p.Span.Start)
			t.Errorf("check has no %s error at %d:%d for the malformed entry %q (%s); errors: %+v", p.Code, l+1, c+1, text[p.Span.Start:p.Span.End], p.Message, errs)
		}
	}
	root, _ := jsonpos.Parse(text)
	caps := checker.SpanOf(root.Get("capabilities"))
	for _, e := range errs {
		switch e.code {
		case "manifest-schema", "credential-format", "host-unknown-method", "fetch-not-https":
		default:
			continue
		}
		if root.Get("capabilities") == nil || e.span.Start < caps.Start || e.span.End > caps.End {
			continue
		}
		known := false
		for _, p := range reach.Problems {
			known = known || overlaps(e.span, p.Span)
		}
		if !known {
			t.Errorf("check reports %s at %q, which the capability model still grants", e.code, text[e.span.Start:e.span.End])
		}
	}
}

func agreeReview(t *testing.T, dir string, reach *capability.Reach) {
	var out, errb bytes.Buffer
	cmdReview([]string{"--format", "json", dir}, &out, &errb)
	var card review.Card
	if err := json.Unmarshal(out.Bytes(), &card); err != nil {
		t.Fatalf("review --format json: %v: %s %s", err, out.String(), errb.String())
	}
	if len(card.FunctionTools) != 1 {
		t.Fatalf("review: %d function tools", len(card.FunctionTools))
	}
	ft := card.FunctionTools[0]
	var fetch []string
	for _, f := range ft.Fetch {
		fetch = append(fetch, fmt.Sprintf("%s %d %d", f.Domain, f.MaxBytes, f.TimeoutMs))
	}
	agreeHostFetch(t, "review", ft.Host, fetch, reach)
	if len(ft.Credentials) != len(reach.Credentials) {
		t.Fatalf("review credentials %+v, model %+v", ft.Credentials, reach.Credentials)
	}
	for i, c := range reach.Credentials {
		rc := ft.Credentials[i]
		if rc.Name != c.Name || (rc.Broken != "") != (c.Broken != "") || !slices.Equal(rc.Domains, reach.SentTo(c)) {
			t.Errorf("review credential %+v, model %+v sent to %v", rc, c, reach.SentTo(c))
		}
	}
	if len(card.UnboundPages) != 1 || card.UnboundPages[0].Page != "code/hand.ts" || card.UnboundPages[0].Grant != "minimal" {
		t.Errorf("review unbound pages %+v", card.UnboundPages)
	}
}

// agreeHostFetch compares host methods and "domain maxBytes timeoutMs"
// lines a surface shows with the model's.
func agreeHostFetch(t *testing.T, surface string, host, fetch []string, reach *capability.Reach) {
	t.Helper()
	if !slices.Equal(host, reach.Host) && !(len(host) == 0 && len(reach.Host) == 0) {
		t.Errorf("%s host %v, model %v", surface, host, reach.Host)
	}
	var want []string
	for _, f := range reach.Fetch {
		want = append(want, fmt.Sprintf("%s %d %d", f.Domain, f.MaxBytes, f.TimeoutMs))
	}
	if !slices.Equal(fetch, want) {
		t.Errorf("%s fetch %v, model %v", surface, fetch, want)
	}
}

func agreePin(t *testing.T, dir string, reach *capability.Reach) {
	var out, errb bytes.Buffer
	if code := cmdPin([]string{dir}, &out, &errb); code != 0 {
		t.Fatalf("pin: exit %d: %s", code, errb.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, lockfile.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range agreementSecrets {
		if strings.Contains(string(data), v) {
			t.Fatalf("the snapshot holds a secret value: %s", data)
		}
	}
	l, err := lockfile.Parse(data)
	if err != nil {
		t.Fatalf("pin wrote a snapshot its own schema refuses: %v", err)
	}
	ft := l.FunctionTools[0]
	var fetch []string
	for _, f := range ft.Fetch {
		fetch = append(fetch, fmt.Sprintf("%s %d %d", f.Domain, f.MaxBytes, f.TimeoutMs))
	}
	agreeHostFetch(t, "snapshot", ft.Host, fetch, reach)
	var want []string
	for _, c := range reach.Credentials {
		if c.Broken == "" {
			want = append(want, c.Name+" "+strings.Join(reach.SentTo(c), ","))
		}
	}
	var got []string
	for _, c := range ft.Credentials {
		got = append(got, c.Name+" "+strings.Join(c.SentTo, ","))
	}
	if !slices.Equal(got, want) {
		t.Errorf("snapshot credentials %v, model %v", got, want)
	}
	if len(l.UnboundPages) != 1 || l.UnboundPages[0].Page != "code/hand.ts" {
		t.Errorf("snapshot unbound pages %+v", l.UnboundPages)
	}
	// A fresh snapshot has no drift.
	out.Reset()
	cmdCheck([]string{"--format", "json", dir}, &out, &errb)
	if strings.Contains(out.String(), `"snapshot-`) {
		t.Errorf("drift right after pin: %s", out.String())
	}
}

func agreeRun(t *testing.T, dir string, reach *capability.Reach) {
	var urls []string
	for _, h := range agreementHosts {
		urls = append(urls, "https://"+h+"/probe")
	}
	input, _ := json.Marshal(urls)
	code, out, stderr := runCLI("--input", string(input), dir, "probe")
	if code != 0 {
		t.Fatalf("run: exit %d: %s %s", code, out, stderr)
	}
	for _, v := range agreementSecrets {
		if strings.Contains(out, v) {
			t.Fatalf("a secret value in the run record: %s", out)
		}
	}
	var rec struct {
		Fetches []struct {
			URL         string   `json:"url"`
			Status      int      `json:"status"`
			Credentials []string `json:"credentials"`
			Refused     string   `json:"refused"`
			Host        string   `json:"host"`
		} `json:"fetches"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	if !reach.HasHost("http.fetch") {
		if len(rec.Fetches) != 0 {
			t.Errorf("http.fetch is not granted but the run fetched: %s", out)
		}
		return
	}
	if len(rec.Fetches) != len(urls) {
		t.Fatalf("run: %d fetches for %d URLs: %s", len(rec.Fetches), len(urls), out)
	}
	for i, h := range agreementHosts {
		e := rec.Fetches[i]
		_, allowed := reach.FetchFor(h)
		blocked := false
		for _, c := range reach.Credentials {
			blocked = blocked || c.Broken != "" && c.AppliesTo(h)
		}
		switch {
		case !allowed || blocked:
			if e.Refused == "" || len(e.Credentials) != 0 {
				t.Errorf("run fetched %s (%+v); the model refuses it (allowed %v, broken credential %v)", h, e, allowed, blocked)
			}
			if blocked && allowed && e.Refused != "bad-credential" {
				t.Errorf("%s refused as %q, want bad-credential", h, e.Refused)
			}
		default:
			if e.Refused != "" || e.Status != 200 || strings.Join(e.Credentials, ",") != strings.Join(reach.Injected(h), ",") {
				t.Errorf("run %s: %+v; the model sends it with %v", h, e, reach.Injected(h))
			}
		}
	}
	// The page no tool binds: the minimal grant, whatever the manifest says.
	code, out, stderr = runCLI(dir, "code/hand.ts")
	if code != 0 || !strings.Contains(out, `"undefined",`) || strings.Contains(out, `"fetched"`) || !strings.Contains(out, `"fetches": []`) {
		t.Errorf("run code/hand.ts: exit %d: %s %s", code, out, stderr)
	}
}

func agreeHover(t *testing.T, lc *lspClient, dir string, p *checker.Plugin, text []byte, reach *capability.Reach) {
	uri := "file://" + (&url.URL{Path: filepath.Join(dir, checker.ManifestName)}).EscapedPath()
	hover := func(off int) string {
		line, char := positionOf(text, off)
		return lc.hover(t, uri, line, char)
	}
	m := p.Manifest
	for _, fc := range m.Fetch {
		h := hover(fc.Node.Span.Start + 1)
		var got *capability.Fetch
		for i := range reach.Fetch {
			if reach.Fetch[i].Node == fc.Node {
				got = &reach.Fetch[i]
			}
		}
		switch {
		case got == nil && !strings.Contains(h, "Not reachable"):
			t.Errorf("hover on %q does not say it grants nothing: %s", text[fc.Node.Span.Start:fc.Node.Span.End], h)
		case got != nil && !strings.Contains(h, fmt.Sprintf("Limits: %d bytes per response, %d ms per request", got.MaxBytes, got.TimeoutMs)):
			t.Errorf("hover on %s: %s; model caps %d/%d", got.Domain, h, got.MaxBytes, got.TimeoutMs)
		case got != nil && len(reach.Injected(got.Domain)) > 0 && !strings.Contains(h, "Credentials injected: "+strings.Join(reach.Injected(got.Domain), ", ")):
			t.Errorf("hover on %s: %s; model injects %v", got.Domain, h, reach.Injected(got.Domain))
		case got != nil && len(reach.Injected(got.Domain)) == 0 && strings.Contains(h, "Credentials injected"):
			t.Errorf("hover on %s says credentials are injected: %s", got.Domain, h)
		}
	}
	for _, c := range m.Credentials {
		at := c.Node.Span.Start + 1
		if len(c.Node.Members) > 0 {
			at = c.Node.Members[0].KeySpan.Start + 1
		}
		h := hover(at)
		var mc *capability.Credential
		for i := range reach.Credentials {
			if reach.Credentials[i].Node == c.Node {
				mc = &reach.Credentials[i]
			}
		}
		switch {
		case mc == nil || mc.Broken != "":
			if !strings.Contains(h, "Never injected") {
				t.Errorf("hover on a malformed credential: %s", h)
			}
		default:
			sent := reach.SentTo(*mc)
			want := "Sent to: " + strings.Join(sent, ", ")
			if mc.Unscoped {
				want = "Sent to: every domain in capabilities.fetch (" + strings.Join(sent, ", ")
			}
			if len(sent) == 0 && !mc.Unscoped {
				want = "Sent to: no domain"
			}
			if !strings.Contains(h, want) {
				t.Errorf("hover on credential %s: %s; want %q", mc.Name, h, want)
			}
		}
	}
	if len(m.Tools) == 1 {
		h := hover(m.Tools[0].Name.Span.Start + 1)
		host, fetch := "none", "none"
		if len(reach.Host) > 0 {
			host = strings.Join(reach.Host, ", ")
		}
		if len(reach.Domains()) > 0 {
			fetch = strings.Join(reach.Domains(), ", ")
		}
		if want := "Reach: host " + host + "; fetch " + fetch; !strings.Contains(h, want) {
			t.Errorf("hover on the tool: %s; want %q", h, want)
		}
	}
}

// lspClient speaks JSON-RPC to an in-process `plugin-lsp serve`.
type lspClient struct {
	w     io.Writer
	mu    sync.Mutex
	next  int
	resps map[int]chan json.RawMessage
}

func startLSP(t *testing.T, root string) *lspClient {
	t.Helper()
	cr, sw := io.Pipe() // client reads what the server writes
	sr, cw := io.Pipe()
	go cmdServe([]string{"--debounce", "1ms"}, sr, sw, io.Discard)
	lc := &lspClient{w: cw, resps: map[int]chan json.RawMessage{}}
	go lc.read(bufio.NewReader(cr))
	t.Cleanup(func() { cw.Close(); cr.Close() })
	rootURI := "file://" + (&url.URL{Path: root}).EscapedPath()
	lc.call(t, "initialize", map[string]any{"processId": nil, "rootUri": rootURI, "capabilities": map[string]any{},
		"workspaceFolders": []any{map[string]any{"uri": rootURI, "name": "corpus"}}})
	lc.send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	return lc
}

func (lc *lspClient) send(msg any) {
	b, _ := json.Marshal(msg)
	lc.mu.Lock()
	defer lc.mu.Unlock()
	fmt.Fprintf(lc.w, "Content-Length: %d\r\n\r\n%s", len(b), b)
}

func (lc *lspClient) read(r *bufio.Reader) {
	for {
		n := 0
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var msg struct {
			ID     *json.RawMessage `json:"id"`
			Method string           `json:"method"`
			Result json.RawMessage  `json:"result"`
			Params json.RawMessage  `json:"params"`
		}
		if json.Unmarshal(body, &msg) != nil {
			continue
		}
		switch {
		case msg.ID != nil && msg.Method != "": // a request from the server
			var result any
			if msg.Method == "workspace/configuration" {
				result = []any{nil}
			}
			lc.send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result})
		case msg.ID != nil:
			id, _ := strconv.Atoi(string(*msg.ID))
			lc.mu.Lock()
			ch := lc.resps[id]
			lc.mu.Unlock()
			if ch != nil {
				ch <- msg.Result
			}
		}
	}
}

func (lc *lspClient) call(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	lc.mu.Lock()
	lc.next++
	id := lc.next
	ch := make(chan json.RawMessage, 1)
	lc.resps[id] = ch
	lc.mu.Unlock()
	lc.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	select {
	case r := <-ch:
		return r
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: no answer", method)
		return nil
	}
}

func (lc *lspClient) hover(t *testing.T, uri string, line, char int) string {
	r := lc.call(t, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": char}})
	var h struct {
		Contents struct {
			Value string `json:"value"`
		} `json:"contents"`
	}
	_ = json.Unmarshal(r, &h)
	return h.Contents.Value
}
