package ide

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsmodule"
)

// Hover is what is shown for what is under the cursor, and the span it
// is about.
type Hover struct {
	Doc  Doc
	Span checker.Span
}

// Hover explains what is under the cursor at byte off of file rel: in
// plugin.json a tool (with its last run), a fetch domain, a credential
// (value redacted), a host method, a native tool (description and schema
// from the module); in a page the default export (the last run) and host
// calls. nil when there is nothing to say.
func (vw *View) Hover(rel string, off int) *Hover {
	if vw.Plugin == nil {
		return nil
	}
	f, err := vw.Plugin.ReadFile(rel)
	if err != nil {
		return nil
	}
	var h Hover
	if rel == checker.ManifestName {
		h.Doc, h.Span = vw.hoverManifest(off)
	} else {
		h.Doc, h.Span = vw.hoverPage(rel, f, off)
	}
	if len(h.Doc) == 0 {
		return nil
	}
	return &h
}

func (vw *View) hoverManifest(off int) (Doc, checker.Span) {
	p := vw.Plugin
	n := nodeAt(p.Manifest.Root, off)
	if n == nil {
		return nil, checker.Span{}
	}
	path := pathOfNode(n)
	span := checker.SpanOf(n)
	if onKey(n, off) {
		span = checker.KeySpanOf(n)
	}
	switch {
	case matchPath(path, "tools", "[]"):
		tn := ancestorAt(n, 2)
		for _, t := range p.Manifest.Tools {
			if t.Node == tn {
				return hoverTool(vw, t), span
			}
		}
	case matchPath(path, "nativeTools", "[]", "names", "[]"):
		name, _ := checker.Str(n)
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
		m, _ := checker.Str(n)
		if hm, ok := capability.LookupHostMethod(m); ok {
			return hostMethodDoc(m, hm), span
		}
		return Doc{Para(Code(m), Text(" is not a host method, so it grants nothing. Known: "+strings.Join(capability.HostMethodNames(), ", ")))}, span
	case matchPath(path, "capabilities", "fetch", "[]"):
		fe := ancestorAt(n, 3)
		for _, fc := range p.Manifest.Fetch {
			if fc.Node == fe {
				return hoverDomain(vw, fc, capability.FromManifest(p.Manifest)), span
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
	return nil, checker.Span{}
}

// hostMethodDoc is the documentation of a host method, from the catalogue.
func hostMethodDoc(name string, hm capability.HostMethod) Doc {
	return Doc{Para(Strong("host method"), Text(" "), Code(name)), Markdown(hm.Markdown())}
}

func hoverTool(vw *View, t *checker.Tool) Doc {
	p := vw.Plugin
	name, _ := checker.Str(t.Name)
	head := []Inline{Strong("function tool"), Text(" "), Code("fn." + name)}
	if d, ok := checker.Str(t.Description); ok {
		head = append(head, Text(" — "), Quote(d))
	}
	doc := Doc{Para(head...)}
	// What a reader asks first sits above the fold: what the tool may
	// reach and how its last run went. The page and the input schema
	// (often thirty lines of JSON) come last.
	reach := capability.FromManifest(p.Manifest)
	doc = append(doc, Para(Text("Reach: host "), Quote(listOrNone(reach.Host)), Text("; fetch "), Quote(listOrNone(reach.Domains()))))
	if run := vw.Runs[name]; run != nil {
		doc = append(doc, Rule())
		if changed := vw.Stale(name); len(changed) > 0 {
			doc = append(doc, Para(Strong("Changed since this run: "), Code(strings.Join(changed, ", ")), Text(" (run it again for a current result)")))
		}
		doc = append(doc, RenderRun(name, run)...)
		doc = append(doc, Rule())
	}
	if pg, ok := checker.Str(t.Page); ok {
		if rel, found := p.ResolvePage(pg); found {
			doc = append(doc, Para(Text("Page: "), Code(rel)))
		} else {
			doc = append(doc, Para(Text("Page: "), Code(rel), Text(" (missing)")))
		}
	}
	if t.InputSchema != nil {
		doc = append(doc, Para(Text("Input schema:")), CodeBlock("json", pretty(p.ManifestFile.Text[t.InputSchema.Span.Start:t.InputSchema.Span.End])))
	}
	return doc
}

func hoverDomain(vw *View, fc *checker.FetchCap, reach *capability.Reach) Doc {
	d, _ := checker.Str(fc.Domain)
	doc := Doc{Para(Strong("fetch domain"), Text(" "), Code(d), Text(" — https only, exact host"))}
	var f capability.Fetch
	for _, x := range reach.Fetch {
		if x.Node == fc.Node {
			f = x
		}
	}
	if f.Domain == "" {
		doc = append(doc, Para(Text("Not reachable: this entry is malformed or repeats an earlier one, so it grants nothing.")))
		var why [][]Inline
		for _, pr := range reach.Problems {
			if pr.Span.Start >= fc.Node.Span.Start && pr.Span.End <= fc.Node.Span.End {
				why = append(why, []Inline{Quote(pr.Message)})
			}
		}
		if len(why) > 0 {
			doc = append(doc, List(why...))
		}
		return doc
	}
	d = f.Domain
	doc = append(doc, Para(Text(fmt.Sprintf("Limits: %d bytes per response, %d ms per request", f.MaxBytes, f.TimeoutMs))))
	if creds := reach.Injected(f.Domain); len(creds) > 0 {
		doc = append(doc, Para(Text("Credentials injected: "), Quote(strings.Join(creds, ", "))))
	}
	var used []string
	for tool, run := range vw.Runs {
		if run.Record == nil {
			continue
		}
		for _, f := range run.Record.Fetches {
			if strings.EqualFold(f.Host, d) {
				used = append(used, tool)
				break
			}
		}
	}
	sort.Strings(used)
	if len(used) > 0 {
		doc = append(doc, Para(Text("Fetched by the last runs of: "), Quote(strings.Join(used, ", "))))
	}
	return doc
}

func hoverCredential(p *checker.Plugin, c *checker.Credential, reach *capability.Reach) Doc {
	var cr capability.Credential
	for _, x := range reach.Credentials {
		if x.Node == c.Node {
			cr = x
		}
	}
	name := cr.Name
	if cr.Node == nil { // not even an object: the model holds nothing of it
		return Doc{Para(Strong("credential"), Text(" — "), Strong("Never injected"), Text(" (malformed): a credential is an object like "),
			Code(`{ "name": "api_key", "into": { "header": "Authorization", "format": "Bearer {{secret}}" } }`))}
	}
	doc := Doc{Para(Strong("credential"), Text(" "), Code(name), Text(" — resolved host-side; the sandbox never sees it"))}
	if cr.Broken != "" {
		return append(doc, Para(Strong("Never injected"), Text(" (malformed): "), Quote(cr.Broken)))
	}
	doc = append(doc, Para(Text("Header: "), Code(cr.Display())))
	switch ds := reach.SentTo(cr); {
	case cr.Unscoped:
		doc = append(doc, Para(Text("Sent to: every domain in capabilities.fetch ("), Quote(listOrNone(ds)), Text(")")))
	case len(ds) == 0:
		doc = append(doc, Para(Text("Sent to: no domain (its scope names no reachable domain)")))
	default:
		doc = append(doc, Para(Text("Sent to: "), Quote(strings.Join(ds, ", "))))
	}
	var source []Inline
	env, err := capability.DevSecretEnv(capability.PluginName(p.Manifest), name)
	// As the resolver reads them: an empty fixtures value counts as missing.
	switch fx, _ := checker.Str(p.FixturesRoot.Get("secrets").Get(name)); {
	case fx != "":
		source = []Inline{Text("fixtures.json "), Code("secrets"), Text(" (value redacted)")}
	case err == nil:
		source = []Inline{Text("the environment variable "), Code(env), Text(" (bound to this plugin; an unscoped PLUGIN_SECRET_ variable is refused)")}
	default:
		source = []Inline{Text("fixtures.json "), Code("secrets"), Text(" only: "), Quote(err.Error())}
	}
	return append(doc, Para(append([]Inline{Text("Dev value from: ")}, source...)...))
}

// moduleInfo reads a native module's exports (memo by content).
func moduleInfo(p *checker.Plugin, module string) (*jsmodule.Module, *checker.File) {
	rel, err := checker.Clean(module)
	if err != nil {
		return nil, nil
	}
	f, err := p.ReadFile(rel)
	if err != nil {
		return nil, nil
	}
	return jsmodule.ReadExports(f.Text), f
}

func hoverModule(p *checker.Plugin, nt *checker.NativeTool) Doc {
	mod, _ := checker.Str(nt.Module)
	doc := Doc{Para(Strong("native tool module"), Text(" "), Code(mod), Text(" — full-trust lane, reviewed at install"))}
	m, _ := moduleInfo(p, mod)
	if m == nil {
		return append(doc, Para(Text("The module does not exist (or is outside the plugin).")))
	}
	if m.Tools != nil {
		in := []Inline{Text("Exports (" + m.Tools.Export + "): ")}
		for i, e := range m.Tools.Entries {
			if i > 0 {
				in = append(in, Text(", "))
			}
			in = append(in, Code(e.Name))
		}
		doc = append(doc, Para(in...))
	}
	return doc
}

func hoverNative(p *checker.Plugin, nt *checker.NativeTool, name string) Doc {
	mod, _ := checker.Str(nt.Module)
	doc := Doc{Para(Strong("native tool"), Text(" "), Code(name), Text(" ("), Quote(mod), Text(") in the full-trust lane"))}
	m, f := moduleInfo(p, mod)
	if m == nil || m.Tools == nil {
		return append(doc, Para(Text("The module does not export it.")))
	}
	e := m.Tools.Lookup(name)
	if e == nil {
		return append(doc, Para(Text("The module does not export it.")))
	}
	if e.Def && e.ValueSpan.End <= len(f.Text) && e.ValueSpan.Start < e.ValueSpan.End {
		def := definitionText(f.Text, e.ValueSpan.Start, e.ValueSpan.End)
		if d := e.DescriptionText; d != "" {
			doc = append(doc, Para(Quote(d)))
		}
		lines := strings.Split(def, "\n")
		if len(lines) > 30 {
			lines = append(lines[:30], "  …")
		}
		doc = append(doc, CodeBlock("js", strings.Join(lines, "\n")))
	}
	return doc
}

func (vw *View) hoverPage(rel string, f *checker.File, off int) (Doc, checker.Span) {
	for _, a := range Anchors(vw.Plugin, rel) {
		lineStart, lineEnd := a.Span.Start, a.Span.End
		for lineStart > 0 && f.Text[lineStart-1] != '\n' {
			lineStart--
		}
		for lineEnd < len(f.Text) && f.Text[lineEnd] != '\n' {
			lineEnd++
		}
		if off >= lineStart && off <= lineEnd {
			t := vw.Plugin.Manifest.FunctionTool(a.Tool)
			if t == nil {
				return nil, a.Span
			}
			return hoverTool(vw, t), a.Span
		}
	}
	// host calls: http.fetch, collections.get… (only the text around the
	// cursor is searched: pages can be large)
	lo, hi := max(off-32, 0), min(off+32, len(f.Text))
	for _, hm := range capability.HostMethods() {
		m := hm.Name
		win := f.Text[lo:hi]
		for i := 0; ; {
			j := bytes.Index(win[i:], []byte(m))
			if j < 0 {
				break
			}
			st := lo + i + j
			if off >= st && off <= st+len(m) {
				return hostMethodDoc(m, hm), checker.Span{Start: st, End: st + len(m)}
			}
			i += j + len(m)
		}
	}
	return nil, checker.Span{}
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
