package lsp

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/capability"
	"github.com/plugin-lsp/plugin-lsp/analysis/esm"
)

// Hover explains what is under the cursor: in plugin.json a tool (with its
// last run), a fetch domain, a credential (value redacted), a host method,
// a native tool (description and schema from the module); in a page the
// default export (the last run) and host calls.
func (s *Server) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	sn, rel := s.snapshotOf(params.TextDocument.URI)
	if sn == nil {
		return nil, nil
	}
	f := sn.file(rel)
	if f == nil {
		return nil, nil
	}
	off := sn.enc.fromPosition(f, params.Position)
	var md string
	var span analysis.Span
	if rel == analysis.ManifestName {
		md, span = s.hoverManifest(sn, off)
	} else {
		md, span = s.hoverPage(sn, rel, f, off)
	}
	if md == "" {
		return nil, nil
	}
	r := sn.enc.toRange(f, span)
	return &protocol.Hover{Contents: markup(md, sn.caps.hoverMarkdown), Range: &r}, nil
}

func (s *Server) hoverManifest(sn *snapshot, off int) (string, analysis.Span) {
	p := sn.plugin
	n := nodeAt(p.Manifest.Root, off)
	if n == nil {
		return "", analysis.Span{}
	}
	path := pathOfNode(n)
	span := analysis.SpanOf(n)
	if onKey(n, off) {
		span = analysis.KeySpanOf(n)
	}
	switch {
	case matchPath(path, "tools", "[]"):
		tn := ancestorAt(n, 2)
		for _, t := range p.Manifest.Tools {
			if t.Node == tn {
				return hoverTool(sn, t), span
			}
		}
	case matchPath(path, "nativeTools", "[]", "names", "[]"):
		name, _ := analysis.Str(n)
		nt := ancestorAt(n, 2)
		for _, x := range p.Manifest.NativeTools {
			if x.Node == nt {
				return hoverNative(p, x, name), span
			}
		}
	case matchPath(path, "nativeTools", "[]"):
		nt := ancestorAt(n, 2)
		for _, x := range p.Manifest.NativeTools {
			if x.Node == nt {
				return hoverModule(p, x), span
			}
		}
	case matchPath(path, "capabilities", "host", "[]"):
		m, _ := analysis.Str(n)
		if hm, ok := capability.LookupHostMethod(m); ok {
			return fmt.Sprintf("**host method** `%s`\n\n%s", m, hm.Markdown()), span
		}
		return fmt.Sprintf("`%s` is not a host method, so it grants nothing. Known: %s", m, strings.Join(capability.HostMethodNames(), ", ")), span
	case matchPath(path, "capabilities", "fetch", "[]"):
		fe := ancestorAt(n, 3)
		for _, fc := range p.Manifest.Fetch {
			if fc.Node == fe {
				return hoverDomain(sn, fc, capability.FromManifest(p.Manifest)), span
			}
		}
	case matchPath(path, "capabilities", "credentials", "[]"):
		ce := ancestorAt(n, 3)
		for _, c := range p.Manifest.Credentials {
			if c.Node == ce {
				return hoverCredential(p, c, capability.FromManifest(p.Manifest)), span
			}
		}
	}
	return "", analysis.Span{}
}

func hoverTool(sn *snapshot, t *analysis.Tool) string {
	p := sn.plugin
	name, _ := analysis.Str(t.Name)
	var b strings.Builder
	fmt.Fprintf(&b, "**function tool** `fn.%s`", name)
	if d, ok := analysis.Str(t.Description); ok {
		fmt.Fprintf(&b, " — %s", mdEscape(d))
	}
	b.WriteString("\n\n")
	if pg, ok := analysis.Str(t.Page); ok {
		if rel, found := p.ResolvePage(pg); found {
			fmt.Fprintf(&b, "Page: `%s`\n\n", rel)
		} else {
			fmt.Fprintf(&b, "Page: `%s` (missing)\n\n", rel)
		}
	}
	if t.InputSchema != nil {
		fmt.Fprintf(&b, "Input schema:\n```json\n%s\n```\n\n", pretty(p.ManifestFile.Text[t.InputSchema.Span.Start:t.InputSchema.Span.End]))
	}
	reach := capability.FromManifest(p.Manifest)
	fmt.Fprintf(&b, "Reach: host %s; fetch %s\n\n", listOrNone(reach.Host), listOrNone(reach.Domains()))
	if run := sn.runs[name]; run != nil {
		b.WriteString("---\n\n")
		b.WriteString(renderRun(name, run))
	}
	return b.String()
}

func hoverDomain(sn *snapshot, fc *analysis.FetchCap, reach *capability.Reach) string {
	d, _ := analysis.Str(fc.Domain)
	var b strings.Builder
	fmt.Fprintf(&b, "**fetch domain** `%s` — https only, exact host\n\n", d)
	var f capability.Fetch
	for _, x := range reach.Fetch {
		if x.Node == fc.Node {
			f = x
		}
	}
	if f.Domain == "" {
		b.WriteString("Not reachable: this entry is malformed or repeats an earlier one, so it grants nothing.\n\n")
		for _, pr := range reach.Problems {
			if pr.Span.Start >= fc.Node.Span.Start && pr.Span.End <= fc.Node.Span.End {
				fmt.Fprintf(&b, "- %s\n", mdEscape(pr.Message))
			}
		}
		return b.String()
	}
	d = f.Domain
	fmt.Fprintf(&b, "Limits: %d bytes per response, %d ms per request\n\n", f.MaxBytes, f.TimeoutMs)
	if creds := reach.Injected(f.Domain); len(creds) > 0 {
		fmt.Fprintf(&b, "Credentials injected: %s\n\n", strings.Join(creds, ", "))
	}
	var used []string
	for tool, run := range sn.runs {
		if run.record == nil {
			continue
		}
		for _, f := range run.record.Fetches {
			if strings.EqualFold(f.Host, d) {
				used = append(used, tool)
				break
			}
		}
	}
	sort.Strings(used)
	if len(used) > 0 {
		fmt.Fprintf(&b, "Fetched by the last runs of: %s\n", strings.Join(used, ", "))
	}
	return b.String()
}

func hoverCredential(p *analysis.Plugin, c *analysis.Credential, reach *capability.Reach) string {
	var cr capability.Credential
	for _, x := range reach.Credentials {
		if x.Node == c.Node {
			cr = x
		}
	}
	name := cr.Name
	var b strings.Builder
	if cr.Node == nil { // not even an object: the model holds nothing of it
		b.WriteString("**credential** — **Never injected** (malformed): a credential is an object like `{ \"name\": \"api_key\", \"into\": { \"header\": \"Authorization\", \"format\": \"Bearer {{secret}}\" } }`\n")
		return b.String()
	}
	fmt.Fprintf(&b, "**credential** `%s` — resolved host-side; the sandbox never sees it\n\n", name)
	if cr.Broken != "" {
		fmt.Fprintf(&b, "**Never injected** (malformed): %s\n\n", mdEscape(cr.Broken))
		return b.String()
	}
	fmt.Fprintf(&b, "Header: `%s`\n\n", cr.Display())
	switch ds := reach.SentTo(cr); {
	case cr.Unscoped:
		fmt.Fprintf(&b, "Sent to: every domain in capabilities.fetch (%s)\n\n", listOrNone(ds))
	case len(ds) == 0:
		b.WriteString("Sent to: no domain (its scope names no reachable domain)\n\n")
	default:
		fmt.Fprintf(&b, "Sent to: %s\n\n", strings.Join(ds, ", "))
	}
	source := "`" + cr.EnvName() + "`"
	if p.FixturesRoot.Get("secrets").Get(name) != nil {
		source = "fixtures.json `secrets` (value redacted)"
	}
	fmt.Fprintf(&b, "Dev value from: %s\n", source)
	return b.String()
}

// moduleInfo reads a native module's exports (memo by content).
func moduleInfo(p *analysis.Plugin, module string) (*esm.Module, *analysis.File) {
	rel, err := analysis.Clean(module)
	if err != nil {
		return nil, nil
	}
	f, err := p.ReadFile(rel)
	if err != nil {
		return nil, nil
	}
	return esm.ReadExports(f.Text), f
}

func hoverModule(p *analysis.Plugin, nt *analysis.NativeTool) string {
	mod, _ := analysis.Str(nt.Module)
	var b strings.Builder
	fmt.Fprintf(&b, "**native tool module** `%s` — full-trust lane, reviewed at install\n\n", mod)
	m, _ := moduleInfo(p, mod)
	if m == nil {
		b.WriteString("The module does not exist (or is outside the plugin).\n")
		return b.String()
	}
	if m.Tools != nil {
		var names []string
		for _, e := range m.Tools.Entries {
			names = append(names, "`"+e.Name+"`")
		}
		fmt.Fprintf(&b, "Exports (%s): %s\n", m.Tools.Export, strings.Join(names, ", "))
	}
	return b.String()
}

func hoverNative(p *analysis.Plugin, nt *analysis.NativeTool, name string) string {
	mod, _ := analysis.Str(nt.Module)
	var b strings.Builder
	fmt.Fprintf(&b, "**native tool** `%s` (%s) in the full-trust lane\n\n", name, mod)
	m, f := moduleInfo(p, mod)
	if m == nil || m.Tools == nil {
		b.WriteString("The module does not export it.\n")
		return b.String()
	}
	e := m.Tools.Lookup(name)
	if e == nil {
		b.WriteString("The module does not export it.\n")
		return b.String()
	}
	if e.Def && e.ValueSpan.End <= len(f.Text) && e.ValueSpan.Start < e.ValueSpan.End {
		def := definitionText(f.Text, e.ValueSpan.Start, e.ValueSpan.End)
		if d := e.DescriptionText; d != "" {
			fmt.Fprintf(&b, "%s\n\n", mdEscape(d))
		}
		lines := strings.Split(def, "\n")
		if len(lines) > 30 {
			lines = append(lines[:30], "  …")
		}
		fmt.Fprintf(&b, "```js\n%s\n```\n", strings.Join(lines, "\n"))
	}
	return b.String()
}

func (s *Server) hoverPage(sn *snapshot, rel string, f *analysis.File, off int) (string, analysis.Span) {
	for _, a := range sn.anchors(rel) {
		lineStart, lineEnd := a.span.Start, a.span.End
		for lineStart > 0 && f.Text[lineStart-1] != '\n' {
			lineStart--
		}
		for lineEnd < len(f.Text) && f.Text[lineEnd] != '\n' {
			lineEnd++
		}
		if off >= lineStart && off <= lineEnd {
			t := sn.plugin.Manifest.FunctionTool(a.tool)
			md := ""
			if t != nil {
				md = hoverTool(sn, t)
			}
			return md, a.span
		}
	}
	// host calls: http.fetch, collections.get… (only the text around the
	// cursor is searched: pages can be large)
	lo, hi := max(off-32, 0), min(off+32, len(f.Text))
	for _, hm := range capability.HostMethods() {
		m, doc := hm.Name, hm.Markdown()
		win := f.Text[lo:hi]
		for i := 0; ; {
			j := bytes.Index(win[i:], []byte(m))
			if j < 0 {
				break
			}
			st := lo + i + j
			if off >= st && off <= st+len(m) {
				return fmt.Sprintf("**host method** `%s`\n\n%s", m, doc), analysis.Span{Start: st, End: st + len(m)}
			}
			i += j + len(m)
		}
	}
	return "", analysis.Span{}
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var identRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// definitionText is the source of a tool definition: the object literal
// itself, or, when the map names a top-level const, that const's literal.
func definitionText(src []byte, start, end int) string {
	v := string(src[start:end])
	if !identRE.MatchString(v) {
		return v
	}
	re := regexp.MustCompile(`(?m)^\s*(?:export\s+)?(?:const|let|var)\s+` + regexp.QuoteMeta(v) + `\s*=\s*`)
	loc := re.FindIndex(src)
	if loc == nil {
		return v
	}
	open := loc[1]
	if open >= len(src) || src[open] != '{' {
		return v
	}
	if close := matchBrace(src, open); close > open {
		return string(src[open : close+1])
	}
	return v
}

// matchBrace returns the index of the brace closing the one at open,
// skipping strings, template literals and comments; -1 if unbalanced.
func matchBrace(src []byte, open int) int {
	depth := 0
	for i := open; i < len(src); i++ {
		switch c := src[i]; c {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		case '"', '\'', '`':
			for i++; i < len(src) && src[i] != c; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			} else if i+1 < len(src) && src[i+1] == '*' {
				j := bytes.Index(src[i+2:], []byte("*/"))
				if j < 0 {
					return -1
				}
				i += j + 3
			}
		}
	}
	return -1
}
