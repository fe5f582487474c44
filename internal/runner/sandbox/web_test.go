package sandbox

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jspage"
)

// jsonCases reads a data file of cases: strings are comments, objects are
// cases.
func jsonCases(t *testing.T, path string) []json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []json.RawMessage
	for _, r := range raw {
		if len(r) > 0 && r[0] == '{' {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return out
}

// runBatch runs one page over every case (one sandbox for all: a case is
// data, not code) and returns one JSON result per case.
func runBatch(t *testing.T, fn string, cases []json.RawMessage) []json.RawMessage {
	t.Helper()
	in, _ := json.Marshal(cases)
	out := run(t, `function main(cases) { const f = `+fn+`; return cases.map((c) => { try { return f(c); } catch (e) { return { threw: e.name, message: e.message }; } }); }`, string(in))
	if !out.OK {
		t.Fatalf("batch failed: %+v", out.Err)
	}
	var res []json.RawMessage
	if err := json.Unmarshal(out.Result, &res); err != nil || len(res) != len(cases) {
		t.Fatalf("batch result %s: %v", out.Result, err)
	}
	return res
}

const urlGetters = `(u) => ({ href: u.href, origin: u.origin, protocol: u.protocol, username: u.username, password: u.password,
	host: u.host, hostname: u.hostname, port: u.port, pathname: u.pathname, search: u.search, hash: u.hash })`

// TestURLConformance runs the WPT-format URL parsing cases through new
// URL() in the real sandbox.
func TestURLConformance(t *testing.T) {
	cases := jsonCases(t, "../../weburl/testdata/urltestdata.json")
	res := runBatch(t, `(c) => { const g = `+urlGetters+`; return g(c.base === null ? new URL(c.input) : new URL(c.input, c.base)); }`, cases)
	for i, raw := range cases {
		var c map[string]any
		json.Unmarshal(raw, &c)
		var got map[string]string
		json.Unmarshal(res[i], &got)
		if c["failure"] == true {
			if got["threw"] != "TypeError" {
				t.Errorf("%q: want TypeError, got %s", c["input"], res[i])
			}
			continue
		}
		if got["threw"] != "" {
			t.Errorf("%q: threw %s", c["input"], res[i])
			continue
		}
		for k, v := range c {
			want, ok := v.(string)
			if !ok || k == "input" || k == "base" {
				continue
			}
			if got[k] != want {
				t.Errorf("%q: %s = %q, want %q", c["input"], k, got[k], want)
			}
		}
	}
	t.Logf("%d URL parsing cases", len(cases))
}

func TestURLSetterConformance(t *testing.T) {
	cases := jsonCases(t, "../../weburl/testdata/setters.json")
	res := runBatch(t, `(c) => { const u = new URL(c.href); u[c.setter] = c.value; const g = `+urlGetters+`; return g(u); }`, cases)
	for i, raw := range cases {
		var c struct {
			Setter, Href, Value string
			Expected            map[string]string
		}
		json.Unmarshal(raw, &c)
		var got map[string]string
		json.Unmarshal(res[i], &got)
		for k, want := range c.Expected {
			if got[k] != want {
				t.Errorf("%s = %q on %q: %s = %q, want %q (%s)", c.Setter, c.Value, c.Href, k, got[k], want, res[i])
			}
		}
	}
	t.Logf("%d URL setter cases", len(cases))
}

// TestURLAgreesWithBroker feeds every internal/fetchurl case through both
// new URL() in the sandbox and fetchurl (the broker's rules): whenever the
// broker names a host, URL names the same host and scheme; and the href a
// page would send names, to the broker, the host the URL object shows.
func TestURLAgreesWithBroker(t *testing.T) {
	cases := jsonCases(t, "../../fetchurl/testdata/urls.json")
	res := runBatch(t, `(c) => { const u = new URL(c.url); return { protocol: u.protocol, hostname: u.hostname, port: u.port, href: u.href }; }`, cases)
	hostKey := func(hostname, port string) string {
		if port != "" && port != "443" {
			return hostname + ":" + port
		}
		return hostname
	}
	agreed := 0
	for i, raw := range cases {
		var c struct{ URL string }
		json.Unmarshal(raw, &c)
		var got struct{ Threw, Protocol, Hostname, Port, Href string }
		json.Unmarshal(res[i], &got)
		tg, r := fetchurl.Parse(c.URL)
		brokerNamesHost := r == nil || r.Reason == fetchurl.NotHTTPS && tg.Host != ""
		if brokerNamesHost {
			if got.Threw != "" {
				t.Errorf("%q: the broker reads host %q, new URL threw %s", c.URL, tg.Host, res[i])
				continue
			}
			if k := hostKey(got.Hostname, got.Port); k != tg.Host || got.Protocol != strings.ToLower(tg.URL.Scheme)+":" {
				t.Errorf("%q: broker %s %q, URL %s %q", c.URL, tg.URL.Scheme, tg.Host, got.Protocol, k)
				continue
			}
			agreed++
		}
		if got.Threw != "" {
			continue
		}
		// What a page sends is the href: the broker must read the host the
		// page was shown, or refuse.
		tg2, r2 := fetchurl.Parse(got.Href)
		if r2 == nil || r2.Reason == fetchurl.NotHTTPS && tg2.Host != "" {
			if k := hostKey(got.Hostname, got.Port); k != tg2.Host {
				t.Errorf("%q: URL shows host %q, its href %q reaches the broker as %q", c.URL, k, got.Href, tg2.Host)
			}
		}
	}
	if agreed < 20 {
		t.Fatalf("only %d cases where the broker names a host", agreed)
	}
	t.Logf("%d fetch URLs, %d where both name the same host", len(cases), agreed)
}

// TestWebConformance runs the data files testdata/web/*.json: each case
// is {"name", "js": a function body returning a JSON value, "want"} or
// {"name", "js", "throws": error name}.
func TestWebConformance(t *testing.T) {
	files, _ := filepath.Glob("testdata/web/*.json")
	if len(files) == 0 {
		t.Fatal("no data files")
	}
	for _, f := range files {
		cases := jsonCases(t, f)
		t.Run(filepath.Base(f), func(t *testing.T) {
			var body strings.Builder
			body.WriteString("[")
			for i, raw := range cases {
				var c struct{ JS string }
				json.Unmarshal(raw, &c)
				if i > 0 {
					body.WriteString(",\n")
				}
				body.WriteString("async () => {\n" + c.JS + "\n}")
			}
			body.WriteString("]")
			out := run(t, `async function main() { const fs = `+body.String()+`; const out = []; for (const f of fs) { try { out.push({ v: await f() }); } catch (e) { out.push({ threw: String(e && e.name), message: String(e && e.message) }); } } return out; }`, "")
			if !out.OK {
				t.Fatalf("%+v", out.Err)
			}
			var res []struct {
				V       json.RawMessage
				Threw   string
				Message string
			}
			if err := json.Unmarshal(out.Result, &res); err != nil || len(res) != len(cases) {
				t.Fatalf("%s: %v", out.Result, err)
			}
			for i, raw := range cases {
				var c struct {
					Name   string
					Want   json.RawMessage
					Throws string
				}
				json.Unmarshal(raw, &c)
				switch {
				case c.Throws != "":
					if res[i].Threw != c.Throws {
						t.Errorf("%s: want %s thrown, got %s %s %s", c.Name, c.Throws, res[i].V, res[i].Threw, res[i].Message)
					}
				case res[i].Threw != "":
					t.Errorf("%s: threw %s: %s", c.Name, res[i].Threw, res[i].Message)
				case !jsonEqual(res[i].V, c.Want):
					t.Errorf("%s: got %s, want %s", c.Name, res[i].V, c.Want)
				}
			}
			t.Logf("%d cases", len(cases))
		})
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

// TestAbsentGlobalsAreAbsent: every global page-unknown-global reports is
// really missing in the sandbox (ground truth for the rule), and every
// web global docs/host-api.md lists is there.
func TestAbsentGlobalsAreAbsent(t *testing.T) {
	names := make([]string, 0, len(jspage.AbsentGlobals))
	for n := range jspage.AbsentGlobals {
		names = append(names, n)
	}
	in, _ := json.Marshal(names)
	out := run(t, `function main(names) { return names.filter((n) => typeof globalThis[n] !== "undefined"); }`, string(in))
	if !out.OK || string(out.Result) != "[]" {
		t.Fatalf("present in the sandbox but reported as absent: %s %+v", out.Result, out.Err)
	}
	for _, n := range webGlobals {
		if _, ok := jspage.AbsentGlobals[n]; ok {
			t.Errorf("%s is both a web global and reported absent", n)
		}
	}
	in, _ = json.Marshal(webGlobals)
	out = run(t, `function main(names) { return names.filter((n) => typeof globalThis[n] === "undefined"); }`, string(in))
	if !out.OK || string(out.Result) != "[]" {
		t.Fatalf("web globals missing: %s %+v", out.Result, out.Err)
	}
}

// webGlobals are the globals docs/host-api.md documents.
var webGlobals = []string{"URL", "URLSearchParams", "TextEncoder", "TextDecoder", "atob", "btoa", "structuredClone", "crypto", "Headers", "Request", "Response", "AbortController", "AbortSignal", "DOMException", "queueMicrotask", "performance", "setTimeout", "setInterval", "clearTimeout", "clearInterval", "console"}
