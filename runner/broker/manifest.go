package broker

import (
	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/jsonpos"
)

// FromManifest reads capabilities.fetch and capabilities.credentials of a
// loaded manifest into the broker's terms. It reads whatever is there:
// entries of the wrong JSON type are skipped, limits that are not integers
// are left zero (the defaults), out-of-range limits are clamped by New
// (the manifest rules report all of these to the author). A nil manifest
// (a bare page) grants nothing.
func FromManifest(m *analysis.Manifest) ([]Capability, []Credential) {
	if m == nil {
		return nil, nil
	}
	var caps []Capability
	for _, f := range m.Fetch {
		d, ok := analysis.Str(f.Domain)
		if !ok {
			continue
		}
		c := Capability{Domain: d}
		if v, ok := f.MaxBytes.Int(); ok {
			c.MaxBytes = v
		}
		if v, ok := f.TimeoutMs.Int(); ok {
			c.TimeoutMs = v
		}
		caps = append(caps, c)
	}
	var creds []Credential
	for _, c := range m.Credentials {
		name, ok := analysis.Str(c.Name)
		if !ok {
			continue
		}
		header, _ := analysis.Str(c.Header)
		format, _ := analysis.Str(c.Format)
		cr := Credential{Name: name, Header: header, Format: format}
		if c.Format != nil && c.Format.Kind != jsonpos.String {
			cr.Format = "(not a string)" // refused by New as bad-credential
		}
		if dn := c.Node.Get("domains"); dn != nil && dn.Kind != jsonpos.Array {
			// "domains": "x.org" must not read as "no domains" (= all).
			cr.Domains = []string{""}
		}
		for _, d := range c.Domains {
			if s, ok := analysis.Str(d); ok {
				cr.Domains = append(cr.Domains, s)
			} else {
				// A domain of the wrong type must not widen the scope to
				// every domain: keep an entry that matches nothing.
				cr.Domains = append(cr.Domains, "")
			}
		}
		creds = append(creds, cr)
	}
	return caps, creds
}
