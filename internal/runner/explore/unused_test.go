package explore

import (
	"context"
	"sort"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
)

// unusedDomains runs the checker with p's exploration and returns the
// domains fetch-unused-domain reports.
func unusedDomains(t *testing.T, x *Explorer, p *checker.Plugin) []string {
	t.Helper()
	cfg := checker.DefaultConfig()
	cfg.Explored = x.Plugin(context.Background(), p)
	var out []string
	for _, d := range checker.Run(p, rules.All(), cfg, nil) {
		if d.Code == rules.FetchUnusedDomain.Code {
			out = append(out, d.Subject)
		}
	}
	sort.Strings(out)
	return out
}

// TestUnusedDomainShapeOfInputHost: a call whose host is built around a
// free-form input (a tenant's subdomain, written here as a switch over a
// tagged object and a template) keeps fetch-unused-domain silent for the
// domains of that shape only; the others are reported.
func TestUnusedDomainShapeOfInputHost(t *testing.T) {
	x := explorer(t)
	p := writePlugin(t, map[string]string{
		"plugin.json": manifest(`{"type": "object", "properties": {"tenant": {"type": "string"}, "kind": {"enum": ["api", "files"]}}, "required": ["tenant", "kind"]}`,
			`"api.eu.tenant-cloud.io", "eu.tenant-cloud.io", "x1.eu.tenant-cloud.io", "files.tenant-cloud.io"`, ""),
		"code/t.ts": `
type Where = { kind: "api" | "files"; tenant: string };
function origin(w: Where): string {
  switch (w.kind) {
    case "api": return ` + "`https://api.eu.tenant-cloud.io`" + `;
    default: return ` + "`https://${w.tenant.trim()}.eu.tenant-cloud.io`" + `;
  }
}
export default async function t(input: Where) {
  const res = await http.fetch(origin(input) + "/v1/me");
  return res.status;
}`,
	})
	got := unusedDomains(t, x, p)
	// api.eu.tenant-cloud.io is reached; x1.eu.tenant-cloud.io has the
	// shape of "<tenant>.eu.tenant-cloud.io"; the two others do not.
	want := []string{"eu.tenant-cloud.io", "files.tenant-cloud.io"}
	if !equal(got, want) {
		t.Errorf("fetch-unused-domain: %v, want %v", got, want)
	}
}

// TestUnusedDomainSilentForUnrunPath: a call the runs reached only on its
// known path (a first page, the for head's declaration) but whose next
// URL comes from the response (here a "links" array the stubs never
// fill) may reach any domain: the rule stays silent.
func TestUnusedDomainSilentForUnrunPath(t *testing.T) {
	x := explorer(t)
	p := writePlugin(t, map[string]string{
		"plugin.json": manifest(`{"type": "object", "properties": {}}`, `"api.pager.dev", "cdn.pager.dev"`, ""),
		"code/t.ts": `
export default async function t() {
  const seen: unknown[] = [];
  for (let u: string | undefined = "https://api.pager.dev/items"; u; ) {
    const r = await http.fetch(u);
    const page = await r.json();
    seen.push(...(page.items ?? []));
    u = (page.links ?? []).find((l: { rel: string; href: string }) => l.rel === "next")?.href;
  }
  return seen.length;
}`,
	})
	if got := unusedDomains(t, x, p); len(got) != 0 {
		t.Errorf("fetch-unused-domain: %v, want none (the next link may name any domain)", got)
	}
}

// TestUnusedDomainLibCallRunByAnotherTool: a lib function that fetches
// its parameter, called by one tool's page and only imported by the
// other's, is one call: what the first tool's runs reached there bounds
// it for the whole plugin, so an unused domain is still reported.
func TestUnusedDomainLibCallRunByAnotherTool(t *testing.T) {
	x := explorer(t)
	p := writePlugin(t, map[string]string{
		"plugin.json": `{"name": "x", "version": "1.0.0", "description": "d",
  "tools": [{"name": "a", "description": "a tool", "page": "code/a.ts", "inputJsonSchema": {"type": "object", "properties": {}}},
            {"name": "b", "description": "b tool", "page": "code/b.ts", "inputJsonSchema": {"type": "object", "properties": {}}}],
  "capabilities": {"host": ["http.fetch"], "fetch": ["hooks.relay.chat", "old.relay.chat"]}}`,
		"code/lib/send.ts": `
export const send = async (target: { href: string }) => (await http.fetch(target.href)).status;
export const ping = () => 1;
`,
		"code/a.ts": `
import { send } from "./lib/send";
export default async function a() {
  const parts = new Map([["scheme", "https:"], ["host", "hooks.relay.chat"]]);
  return send(new URL("/" + "v1", parts.get("scheme") + "//" + parts.get("host")));
}`,
		"code/b.ts": `
import { ping } from "./lib/send";
export default async function b() { return ping(); }`,
	})
	if got := unusedDomains(t, x, p); !equal(got, []string{"old.relay.chat"}) {
		t.Errorf("fetch-unused-domain: %v, want [old.relay.chat]", got)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
