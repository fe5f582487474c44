package runner

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/leakcheck"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// The secrets of TestNoReflectionReachesThePage.
var pageSecrets = map[string]string{
	"gh_token": "ghp_PageR3fl3ct10n-77.z",
	"hairy":    `w0rd "q"/+é\&<y> 🔑`,
}

// A real page in the sandbox reads everything a loopback TLS server sends
// back (status, status text, URL, every header, the body), where the
// server reflects each credential it received in every encoding, split
// between reads, in header names and values and in the status text; the
// page returns it all, logs it all, and (a second run) throws it all.
// The judge (leakcheck) finds no form of a secret in the record (result,
// logs, error, fetch log) or in the fixtures.json `run --record` writes;
// the page did read each secret's marker.
func TestNoReflectionReachesThePage(t *testing.T) {
	srv, pool, err := tlsServer([]string{"api.example.com"}, leakcheck.Reflect([]string{"Authorization", "X-Api-Key"}, func(err error) { t.Error(err) }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	var d net.Dialer
	r, err := New(Config{CacheDir: "-", Spare: -1, Env: func(string) string { return "" },
		Network: broker.NetworkOptions{RootCAs: pool, DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, srv.Listener.Addr().String())
		}}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := writePlugin(t, map[string]string{
		"plugin.json": `{
  "name": "reflect", "version": "1.0.0",
  "tools": [{ "name": "echo", "page": "code/echo" }],
  "capabilities": {
    "host": ["http.fetch"],
    "fetch": ["api.example.com"],
    "credentials": [
      { "name": "gh_token", "into": { "header": "Authorization", "format": "Bearer {{secret}}" } },
      { "name": "hairy", "into": { "header": "X-Api-Key", "format": "token {{secret}}" } }
    ]
  }
}`,
		"code/echo.ts": `export default async function echo(input: { throwIt?: boolean }) {
  const out: unknown[] = [];
  for (const path of ["/all", "/status", "/badname", "/length"]) {
    try {
      const res = await http.fetch("https://api.example.com" + path);
      const headers: Record<string, string> = {};
      res.headers.forEach((v: string, k: string) => { headers[k] = v; });
      const seen = { path, status: res.status, statusText: res.statusText, url: res.url, headers, body: await res.text() };
      console.log(JSON.stringify(seen));
      out.push(seen);
    } catch (e) {
      console.log(String(e));
      out.push(String(e));
    }
  }
  if (input && input.throwIt) throw new Error(JSON.stringify(out));
  return out;
}
`,
	})
	values := []string{pageSecrets["gh_token"], pageSecrets["hairy"]}
	for _, throwIt := range []bool{false, true} {
		rec := broker.NewRecorder()
		input := `{"throwIt":false}`
		if throwIt {
			input = `{"throwIt":true}`
		}
		out, err := r.Run(context.Background(), Request{Plugin: p, Tool: "echo", Input: json.RawMessage(input), Providers: "real",
			Fixtures: &broker.Fixtures{Secrets: pageSecrets}, Recorder: rec})
		if err != nil {
			t.Fatal(err)
		}
		record, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if out.OK == throwIt || len(out.Fetches) != 4 || len(out.Logs) != 4 {
			t.Fatalf("throwIt %v: the run did not go as planned: %s", throwIt, record)
		}
		path := filepath.Join(t.TempDir(), "fixtures.json")
		if _, _, err := fixtures.Append(path, rec.Fixtures()); err != nil {
			t.Fatal(err)
		}
		written, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for what, text := range map[string][]byte{"the record": record, "fixtures.json": written} {
			if found := leakcheck.Find(text, values...); len(found) > 0 {
				t.Errorf("throwIt %v: a secret is in %s (%d findings):\n%s", throwIt, what, len(found), strings.Join(found[:min(len(found), 8)], "\n"))
			}
			for name := range pageSecrets {
				if n := strings.Count(string(text), "••••("+name+")"); n < len(leakcheck.Encodings) {
					t.Errorf("throwIt %v: %s has %d markers of %s, want one per reflection (%d and more)", throwIt, what, n, name, len(leakcheck.Encodings))
				}
			}
		}
	}
	// Without the scrubber the page would have read them: the same
	// server reflects a header the page sets itself, which the broker does
	// not know as a secret.
	p2 := writePlugin(t, map[string]string{
		"plugin.json": `{"name": "plain", "version": "1.0.0", "tools": [{ "name": "echo", "page": "code/echo" }],
  "capabilities": { "host": ["http.fetch"], "fetch": ["api.example.com"] } }`,
		"code/echo.ts": `export default async () => (await http.fetch("https://api.example.com/all", { headers: { Authorization: "Bearer ` + pageSecrets["gh_token"] + `" } })).text();`,
	})
	out, err := r.Run(context.Background(), Request{Plugin: p2, Tool: "echo", Providers: "real"})
	if err != nil || !out.OK {
		t.Fatalf("%v %+v", err, out)
	}
	if n := len(leakcheck.Find(out.Result, pageSecrets["gh_token"])); n == 0 {
		t.Errorf("the judge does not see the unscrubbed reflections: %s", out.Result)
	}
}
