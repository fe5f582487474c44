// Package capability is the one definition of a plugin's reach: which host
// methods, fetch domains (with their caps) and brokered credentials a
// function tool gets. The broker, the runner, the rules, the review card,
// the hover and the capability snapshot all read the reach from here.
//
// The model fails closed: an entry that is malformed (a credential whose
// "domains" is a string, a fetch entry with a limit that is not a whole
// number, an unknown host method, an unknown key) yields a positioned
// Problem and grants nothing. A broken credential is never injected; the
// broker refuses every request it might have applied to rather than send
// the request without it or with it somewhere else.
//
// Architecture invariant: this package imports analysis (the manifest's
// typed view) and internal/fetchurl (what a domain is), nothing above them.
package capability

import (
	"fmt"
	"net/textproto"
	"slices"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/internal/scrub"
)

// Fetch is one capabilities.fetch entry. Given to Build, zero caps mean
// the defaults; in a Reach, Domain is the normalized host the broker
// compares and the caps are effective (defaults and ceilings applied).
type Fetch struct {
	Domain    string
	MaxBytes  int64
	TimeoutMs int64
	// Node is the manifest entry (nil when built from values).
	Node *jsonpos.Node
}

// Credential is one capabilities.credentials entry: the secret Name lands
// in Header, formatted by Format ("Bearer {{secret}}"), on requests to
// Domains (nil: unscoped, every fetch domain). In a Reach, Header is
// canonical, Domains are normalized and Broken says why the credential is
// never injected.
type Credential struct {
	Name, Header, Format string
	Domains              []string
	// Unscoped: no "domains", sent to every fetch domain (set by Build).
	Unscoped bool
	// Broken is why the credential is never injected ("" when usable).
	Broken string
	// ScopeUnknown: "domains" itself is malformed, so every request is
	// refused while the credential is broken (fail closed).
	ScopeUnknown bool
	Node         *jsonpos.Node
}

// Display is the header as previews and logs show it, the secret replaced
// by its name: "Authorization: Bearer ••••(openlibrary_key)".
func (c Credential) Display() string {
	f := c.Format
	if f == "" {
		f = SecretMarker
	}
	return c.Header + ": " + strings.Replace(f, SecretMarker, scrub.Marker(c.Name), 1)
}

// AppliesTo reports whether a request to host (normalized) is in the
// credential's scope: it is injected there, or, broken, refuses it.
func (c Credential) AppliesTo(host string) bool {
	return c.Unscoped || c.ScopeUnknown || slices.Contains(c.Domains, host)
}

// Problem is a malformed entry: where it is, which rule reports it in
// check, and why it grants nothing.
type Problem struct {
	Span    checker.Span
	Code    string
	Message string
}

// Reach is what a function tool may do.
type Reach struct {
	Host        []string // granted host methods, catalogue order of first mention
	Fetch       []Fetch  // one per normalized domain, first entry wins
	Credentials []Credential
	// Problems are the malformed entries (they grant nothing).
	Problems []Problem
	// seen holds the domains addFetch has added (a manifest of 40,000
	// domains must not compare each with all before it).
	seen map[string]bool
}

// Minimal is the grant of a function with no plugin behind it (a page
// nobody binds): no host methods, no network, no credentials.
func Minimal() *Reach { return &Reach{} }

// HasHost reports whether method is granted.
func (r *Reach) HasHost(method string) bool { return r != nil && slices.Contains(r.Host, method) }

// Domains returns the reachable hosts (normalized), in manifest order.
func (r *Reach) Domains() []string {
	var out []string
	if r == nil {
		return nil
	}
	for _, f := range r.Fetch {
		out = append(out, f.Domain)
	}
	return out
}

// Allowlist is the broker's and the checker's host test for this reach.
func (r *Reach) Allowlist() fetchurl.Allowlist {
	a := fetchurl.Allowlist{}
	if r == nil {
		return a
	}
	for _, f := range r.Fetch {
		a[f.Domain] = true
	}
	return a
}

// FetchFor returns the caps of a normalized host.
func (r *Reach) FetchFor(host string) (Fetch, bool) {
	if r != nil {
		for _, f := range r.Fetch {
			if f.Domain == host {
				return f, true
			}
		}
	}
	return Fetch{}, false
}

// Injected returns the names of the credentials injected into a request
// to host (normalized): usable ones in scope, in manifest order; when two
// land in the same header the later one is sent.
func (r *Reach) Injected(host string) []string {
	var out []string
	if r == nil {
		return out
	}
	if _, ok := r.FetchFor(host); !ok {
		return out
	}
	var headers []string
	for _, c := range r.Credentials {
		if c.Broken == "" && c.AppliesTo(host) {
			// Two credentials in one header: the later one is sent.
			if i := slices.Index(headers, c.Header); i >= 0 {
				out = slices.Delete(out, i, i+1)
				headers = slices.Delete(headers, i, i+1)
			}
			out = append(out, c.Name)
			headers = append(headers, c.Header)
		}
	}
	return out
}

// SentTo returns the hosts a credential is injected into (none when
// broken, nor where another credential takes its header).
func (r *Reach) SentTo(c Credential) []string {
	out := []string{}
	if c.Broken != "" {
		return out
	}
	for _, f := range r.Fetch {
		if slices.Contains(r.Injected(f.Domain), c.Name) {
			out = append(out, f.Domain)
		}
	}
	return out
}

// Build makes a reach from values (the broker's tests and callers that do
// not start from a manifest). Fetch entries that do not normalize grant
// nothing; credentials are validated exactly as from a manifest.
func Build(host []string, fetch []Fetch, creds []Credential) *Reach {
	r := &Reach{}
	for _, h := range host {
		if _, ok := LookupHostMethod(h); ok && !slices.Contains(r.Host, h) {
			r.Host = append(r.Host, h)
		}
	}
	for _, f := range fetch {
		r.addFetch(f, nil)
	}
	for _, c := range creds {
		r.Credentials = append(r.Credentials, normalizeCredential(c))
	}
	return r
}

// addFetch normalizes a fetch entry and adds it unless its host is there
// already (the first entry for a host wins). It returns the problem of a
// domain that does not normalize.
func (r *Reach) addFetch(f Fetch, problem func(code, msg string)) {
	key, bad := fetchurl.NormalizeDomain(f.Domain)
	if bad != nil {
		if problem != nil {
			code := "manifest-schema"
			if strings.HasPrefix(strings.ToLower(f.Domain), "http://") {
				code = "fetch-not-https"
			}
			problem(code, fmt.Sprintf("fetch domain %q grants nothing: %s", f.Domain, bad.Message))
		}
		return
	}
	if r.seen[key] {
		return
	}
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	r.seen[key] = true
	r.Fetch = append(r.Fetch, effective(f, key))
}

// effective applies defaults and ceilings: a cap of zero or less is the
// default, a cap above the ceiling is the ceiling.
func effective(f Fetch, key string) Fetch {
	f.Domain = key
	if f.MaxBytes <= 0 {
		f.MaxBytes = checker.DefaultFetchMaxBytes
	}
	f.MaxBytes = min(f.MaxBytes, checker.MaxFetchMaxBytes)
	if f.TimeoutMs <= 0 {
		f.TimeoutMs = checker.DefaultFetchTimeoutMs
	}
	f.TimeoutMs = min(f.TimeoutMs, checker.MaxFetchTimeoutMs)
	return f
}

// fieldProblem is one reason a credential is broken: the field it is
// about ("name", "header", "format", "domains" with Index) and why.
type fieldProblem struct {
	Field string
	Index int
	Code  string
	Msg   string
}

// normalizeCredential validates a credential: its name, header, format and
// every scope domain. Anything wrong makes it Broken.
func normalizeCredential(c Credential) Credential {
	out, _ := checkCredential(c)
	return out
}

func checkCredential(c Credential) (Credential, []fieldProblem) {
	out := c
	out.Unscoped = c.Domains == nil && !c.ScopeUnknown
	out.Domains = nil
	var bad []fieldProblem
	if !ValidSecretName(c.Name) {
		bad = append(bad, fieldProblem{Field: "name", Code: "manifest-schema", Msg: fmt.Sprintf("the name %q is not a secret name (letters, digits and '_')", c.Name)})
	}
	if msg := HeaderProblem(c.Header); msg != "" {
		bad = append(bad, fieldProblem{Field: "header", Code: "credential-format", Msg: msg})
	} else {
		out.Header = textproto.CanonicalMIMEHeaderKey(c.Header)
	}
	if msg := FormatProblem(c.Format); msg != "" {
		bad = append(bad, fieldProblem{Field: "format", Code: "credential-format", Msg: msg})
	}
	for i, d := range c.Domains {
		key, r := fetchurl.NormalizeDomain(d)
		if r != nil {
			bad = append(bad, fieldProblem{Field: "domains", Index: i, Code: "manifest-schema",
				Msg: fmt.Sprintf("the scope domain %q does not name a host (%s)", d, strings.TrimSuffix(r.Message, "."))})
			out.ScopeUnknown = true
			continue
		}
		if !slices.Contains(out.Domains, key) {
			out.Domains = append(out.Domains, key)
		}
	}
	if !out.Unscoped && out.Domains == nil {
		out.Domains = []string{}
	}
	var msgs []string
	if c.Broken != "" {
		msgs = append(msgs, c.Broken)
	}
	for _, b := range bad {
		msgs = append(msgs, b.Msg)
	}
	out.Broken = ""
	if len(msgs) > 0 {
		out.Broken = fmt.Sprintf("credential %q is never injected: %s", c.Name, strings.Join(msgs, "; "))
	}
	return out, bad
}

// ValidSecretName reports whether name can name a secret: letters, digits
// and '_', not starting with a digit (the manifest schema's pattern).
func ValidSecretName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
