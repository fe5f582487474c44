package capability

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// FromManifest reads a plugin's reach from its manifest: what every
// function tool of the plugin inherits. Loading never fails: whatever is
// malformed is a Problem and grants nothing. A nil manifest (a page with
// no plugin behind it) is the minimal grant.
func FromManifest(m *checker.Manifest) *Reach {
	r := &Reach{}
	if m == nil {
		return r
	}
	problem := func(n *jsonpos.Node, code, format string, args ...any) {
		sp := checker.SpanOf(n)
		if code == codeUnknownKey {
			sp, code = checker.KeySpanOf(n), "manifest-schema" // an unknown key: at the key
		}
		r.Problems = append(r.Problems, Problem{Span: sp, Code: code, Message: fmt.Sprintf(format, args...)})
	}
	if caps := m.CapabilitiesNode; caps != nil && caps.Kind != jsonpos.Object {
		problem(caps, "manifest-schema", "capabilities is a %s, not an object: the plugin's tools get the minimal grant", caps.Kind)
		return r
	}
	if !isArray(m.HostNode, func() {
		problem(m.HostNode, "manifest-schema", "capabilities.host is a %s, not an array: no host method is granted", m.HostNode.Kind)
	}) {
	} else {
		for _, h := range m.Host {
			name, ok := checker.Str(h)
			switch {
			case !ok:
				problem(h, "manifest-schema", "this capabilities.host entry is a %s, not a method name: it grants nothing", h.Kind)
			case !knownMethod(name):
				problem(h, "host-unknown-method", "%q is not a host method, so it grants nothing: the host API offers %s", name, strings.Join(HostMethodNames(), ", "))
			case !slices.Contains(r.Host, name):
				r.Host = append(r.Host, name)
			}
		}
	}
	if isArray(m.FetchNode, func() {
		problem(m.FetchNode, "manifest-schema", "capabilities.fetch is a %s, not an array: no domain is reachable", m.FetchNode.Kind)
	}) {
		for _, fc := range m.Fetch {
			readFetch(r, fc, problem)
		}
	}
	if isArray(m.CredentialsNode, func() {
		problem(m.CredentialsNode, "manifest-schema", "capabilities.credentials is a %s, not an array: no credential is injected", m.CredentialsNode.Kind)
	}) {
		for _, c := range m.Credentials {
			readCredential(r, c, problem)
		}
	}
	return r
}

func knownMethod(name string) bool { _, ok := LookupHostMethod(name); return ok }

// isArray reports whether n is an array; a present node of another kind
// calls bad. An absent node is an empty array.
func isArray(n *jsonpos.Node, bad func()) bool {
	if n == nil {
		return false
	}
	if n.Kind != jsonpos.Array {
		bad()
		return false
	}
	return true
}

// codeUnknownKey marks a manifest-schema problem reported at a member's
// key (an unknown key, a key missing from the member's value).
const codeUnknownKey = "\x00key"

type problemFunc func(n *jsonpos.Node, code, format string, args ...any)

func readFetch(r *Reach, fc *checker.FetchCap, problem problemFunc) {
	e := fc.Node
	var f Fetch
	switch e.Kind {
	case jsonpos.String:
		f.Domain = e.Str
	case jsonpos.Object:
		d, ok := checker.Str(fc.Domain)
		if !ok {
			at := fc.Domain
			if at == nil {
				at = e
			}
			problem(at, "manifest-schema", "this fetch entry has no domain string: it grants nothing")
			return
		}
		f.Domain = d
		for _, k := range e.Members {
			switch k.Key {
			case "domain", "fetchMaxBytes", "fetchTimeoutMs":
			default:
				problem(k, codeUnknownKey, "unknown key %q in a fetch entry: the entry grants nothing until it is fixed", k.Key)
				return
			}
		}
		for _, lim := range []struct {
			n   *jsonpos.Node
			key string
			dst *int64
		}{{fc.MaxBytes, "fetchMaxBytes", &f.MaxBytes}, {fc.TimeoutMs, "fetchTimeoutMs", &f.TimeoutMs}} {
			if lim.n == nil {
				continue
			}
			v, ok := lim.n.Int()
			if !ok {
				problem(lim.n, "manifest-schema", "%s is not a whole number: the fetch entry for %q grants nothing", lim.key, d)
				return
			}
			*lim.dst = v
		}
	default:
		problem(e, "manifest-schema", "this fetch entry is a %s, not a domain: it grants nothing", e.Kind)
		return
	}
	f.Node = e
	r.addFetch(f, func(code, msg string) {
		at := fc.Domain
		if at == nil {
			at = e
		}
		problem(at, code, "%s", msg)
	})
}

func readCredential(r *Reach, cr *checker.Credential, problem problemFunc) {
	e := cr.Node
	if e.Kind != jsonpos.Object {
		problem(e, "manifest-schema", "this credential is a %s, not an object: it is never injected", e.Kind)
		return
	}
	c := Credential{Node: e}
	var structural []string
	for _, k := range e.Members {
		switch k.Key {
		case "name", "into", "domains":
		default:
			problem(k, codeUnknownKey, "unknown key %q in a credential: it is never injected until the key is fixed", k.Key)
			structural = append(structural, fmt.Sprintf("unknown key %q", k.Key))
		}
	}
	name, ok := checker.Str(cr.Name)
	c.Name = name
	if !ok && cr.Name != nil {
		problem(cr.Name, "manifest-schema", "the credential's name is a %s, not a string: it is never injected", cr.Name.Kind)
	} else if !ok {
		problem(e, "manifest-schema", "the credential has no name: it is never injected")
		structural = append(structural, "no name")
	}
	switch {
	case cr.Into == nil:
		problem(e, "manifest-schema", "the credential has no \"into\": it is never injected")
		structural = append(structural, "no into")
	case cr.Into.Kind != jsonpos.Object:
		problem(cr.Into, "manifest-schema", "into is a %s, not an object: the credential is never injected", cr.Into.Kind)
		structural = append(structural, "into is not an object")
	default:
		for _, k := range cr.Into.Members {
			if k.Key != "header" && k.Key != "format" {
				problem(k, codeUnknownKey, "unknown key %q in into: the credential is never injected until the key is fixed", k.Key)
				structural = append(structural, fmt.Sprintf("unknown key %q in into", k.Key))
			}
		}
	}
	for _, f := range []struct {
		n   *jsonpos.Node
		dst *string
	}{{cr.Header, &c.Header}, {cr.Format, &c.Format}} {
		if f.n != nil && f.n.Kind != jsonpos.String {
			problem(f.n, "manifest-schema", "this is a %s, not a string: the credential is never injected", f.n.Kind)
			structural = append(structural, "a non-string into field")
			continue
		}
		*f.dst, _ = checker.Str(f.n)
	}
	if dn := e.Get("domains"); dn != nil {
		if dn.Kind != jsonpos.Array {
			problem(dn, "manifest-schema", "domains is a %s, not an array of hosts: the credential is never injected, and requests are refused while it is broken", dn.Kind)
			structural = append(structural, "domains is not an array")
			c.ScopeUnknown = true
		} else {
			c.Domains = []string{}
			for _, d := range dn.Elems {
				s, ok := checker.Str(d)
				if !ok {
					problem(d, "manifest-schema", "this scope domain is a %s, not a host: the credential is never injected", d.Kind)
					structural = append(structural, "a scope domain is not a string")
					c.ScopeUnknown = true
					continue
				}
				c.Domains = append(c.Domains, s)
			}
		}
	}
	if len(structural) > 0 {
		c.Broken = joinProblems(structural)
	}
	out, bad := checkCredential(c)
	for _, b := range bad {
		var at *jsonpos.Node
		switch b.Field {
		case "name":
			at = cr.Name
			if at == nil {
				continue // reported above as "no name"
			}
			if at.Kind != jsonpos.String {
				continue
			}
		case "header":
			at = cr.Header
			if at != nil && at.Kind != jsonpos.String {
				continue
			}
		case "format":
			at = cr.Format
			if at != nil && at.Kind != jsonpos.String {
				continue
			}
		case "domains":
			at = stringElem(e.Get("domains"), b.Index)
		}
		if at == nil {
			if cr.Into != nil && cr.Into.Kind == jsonpos.Object {
				problem(cr.Into, codeUnknownKey, "into has no %q: the credential is never injected", b.Field)
			}
			continue // no into at all: reported above
		}
		problem(at, b.Code, "%s", b.Msg)
	}
	r.Credentials = append(r.Credentials, out)
}

// stringElem returns the i-th string element of an array (the index counts
// strings only, as checkCredential saw them).
func stringElem(arr *jsonpos.Node, i int) *jsonpos.Node {
	if arr == nil {
		return nil
	}
	for _, e := range arr.Elems {
		if e.Kind == jsonpos.String {
			if i == 0 {
				return e
			}
			i--
		}
	}
	return nil
}

func joinProblems(ps []string) string {
	out := ps[0]
	for _, p := range ps[1:] {
		out += "; " + p
	}
	return out
}
