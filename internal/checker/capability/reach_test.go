package capability_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

const corpus = "../../../testdata/capabilities"

func load(t *testing.T, name string) (*checker.Manifest, []byte) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus, name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	root, serr := jsonpos.Parse(b)
	if serr != nil {
		t.Fatal(serr)
	}
	return checker.NewManifest(root), b
}

// Every malformed manifest of the corpus (m-*) has at least one problem,
// every valid one (v-*) none.
func TestCorpusProblems(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus, "*.json"))
	if len(files) < 30 {
		t.Fatalf("corpus has %d manifests", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		m, text := load(t, name)
		r := capability.FromManifest(m)
		if strings.HasPrefix(name, "m-") != (len(r.Problems) > 0) {
			t.Errorf("%s: problems %+v", name, r.Problems)
		}
		for _, p := range r.Problems {
			if p.Span.End <= p.Span.Start || p.Span.End > len(text) || p.Code == "" || p.Message == "" {
				t.Errorf("%s: problem without a place or code: %+v", name, p)
			}
		}
	}
}

// The case: "domains" is a string. The credential is never
// injected, its scope is unknown (every request is refused while it is
// broken) and the problem sits on the string.
func TestDomainsString(t *testing.T) {
	m, text := load(t, "m-domains-string")
	r := capability.FromManifest(m)
	if len(r.Credentials) != 1 {
		t.Fatalf("%+v", r.Credentials)
	}
	c := r.Credentials[0]
	if c.Broken == "" || !c.ScopeUnknown || c.Unscoped || !c.AppliesTo("evil.org") {
		t.Errorf("credential %+v", c)
	}
	if got := r.Injected("evil.org"); len(got) != 0 {
		t.Errorf("injected into evil.org: %v", got)
	}
	if got := r.SentTo(c); len(got) != 0 {
		t.Errorf("sent to %v", got)
	}
	p := r.Problems[0]
	if string(text[p.Span.Start:p.Span.End]) != `"api.good.org"` || p.Code != "manifest-schema" {
		t.Errorf("problem at %q: %+v", text[p.Span.Start:p.Span.End], p)
	}
}

func TestEffectiveCaps(t *testing.T) {
	for name, want := range map[string][2]int64{
		"v-object-caps":       {4096, 5000},
		"v-caps-over-ceiling": {checker.MaxFetchMaxBytes, checker.MaxFetchTimeoutMs},
		"v-caps-zero":         {checker.DefaultFetchMaxBytes, checker.DefaultFetchTimeoutMs},
		"v-dup-domain":        {checker.DefaultFetchMaxBytes, checker.DefaultFetchTimeoutMs}, // the first entry wins
	} {
		m, _ := load(t, name)
		r := capability.FromManifest(m)
		if len(r.Fetch) != 1 || r.Fetch[0].MaxBytes != want[0] || r.Fetch[0].TimeoutMs != want[1] {
			t.Errorf("%s: %+v, want caps %v", name, r.Fetch, want)
		}
	}
}

func TestScopes(t *testing.T) {
	m, _ := load(t, "v-upper-case")
	r := capability.FromManifest(m)
	if d := r.Domains(); len(d) != 1 || d[0] != "api.good.org" {
		t.Errorf("domains %v", d)
	}
	if got := r.Injected("api.good.org"); len(got) != 1 {
		t.Errorf("injected %v", got)
	}
	m, _ = load(t, "v-empty-scope")
	r = capability.FromManifest(m)
	if got := r.Injected("api.good.org"); len(got) != 0 || r.Credentials[0].Unscoped {
		t.Errorf("an empty scope sends nowhere: %v %+v", got, r.Credentials[0])
	}
	m, _ = load(t, "v-unscoped-two")
	r = capability.FromManifest(m)
	if got := r.SentTo(r.Credentials[0]); strings.Join(got, ",") != "api.good.org,cdn.good.org" {
		t.Errorf("unscoped: sent to %v", got)
	}
	if capability.FromManifest(nil).HasHost("http.fetch") || len(capability.Minimal().Domains()) != 0 {
		t.Error("the minimal grant grants something")
	}
}

func TestHostMethods(t *testing.T) {
	m, _ := load(t, "m-host-unknown")
	r := capability.FromManifest(m)
	if len(r.Host) != 0 || len(r.Problems) != 2 || r.Problems[0].Code != "host-unknown-method" {
		t.Errorf("%+v", r)
	}
	m, _ = load(t, "m-host-string")
	if r := capability.FromManifest(m); len(r.Host) != 0 || len(r.Problems) != 1 {
		t.Errorf("%+v", r)
	}
}

// manyDomains is a manifest whose capabilities.fetch lists n domains, the
// last one repeated (a duplicate grants nothing more).
func manyDomains(t testing.TB, n int) *checker.Manifest {
	var b strings.Builder
	b.WriteString(`{"name":"m","capabilities":{"host":["http.fetch"],"fetch":[`)
	for i := range n {
		fmt.Fprintf(&b, `"api%d.example.com",`, i)
	}
	fmt.Fprintf(&b, `"API%d.example.com"]}}`, n-1)
	root, err := jsonpos.Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return checker.NewManifest(root)
}

// A long allowlist keeps one entry per domain, first wins, and every
// domain is found.
func TestManyDomains(t *testing.T) {
	r := capability.FromManifest(manyDomains(t, 5000))
	if len(r.Fetch) != 5000 {
		t.Fatalf("%d fetch entries, want 5000 (the duplicate grants nothing)", len(r.Fetch))
	}
	for _, i := range []int{0, 1, 2500, 4999} {
		d := fmt.Sprintf("api%d.example.com", i)
		if f, ok := r.FetchFor(d); !ok || f.Domain != d {
			t.Errorf("FetchFor(%s) = %+v, %v", d, f, ok)
		}
	}
	if _, ok := r.FetchFor("api5000.example.com"); ok {
		t.Error("a domain not listed is found")
	}
	// A Reach written by hand is searched as well.
	byHand := &capability.Reach{Fetch: []capability.Fetch{{Domain: "a.example"}}}
	if _, ok := byHand.FetchFor("a.example"); !ok {
		t.Error("a hand-made Reach does not find its domain")
	}
}

// BenchmarkFromManifest40kDomains: the depth corpus's one-line manifest of
// 40,000 domains (when addFetch searched the list for duplicates,
// FromManifest compared each domain with all before it: 2 s of a 7.6 s
// check).
func BenchmarkFromManifest40kDomains(b *testing.B) {
	m := manyDomains(b, 40_000)
	for b.Loop() {
		capability.FromManifest(m)
	}
}
