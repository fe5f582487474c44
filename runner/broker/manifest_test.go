package broker_test

import (
	"reflect"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/runner/broker"
)

func manifestOf(t *testing.T, src string) *analysis.Manifest {
	t.Helper()
	root, err := jsonpos.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return analysis.NewManifest(root)
}

func TestFromManifestExample(t *testing.T) {
	p, err := analysis.Load(analysis.OSFS{}, "../../testdata/example/books")
	if err != nil {
		t.Fatal(err)
	}
	caps, creds := broker.FromManifest(p.Manifest)
	wantCaps := []broker.Capability{{Domain: "api.openlibrary.org"}, {Domain: "covers.openlibrary.org", MaxBytes: 4194304, TimeoutMs: 5000}}
	wantCreds := []broker.Credential{{Name: "openlibrary_key", Header: "Authorization", Format: "Bearer {{secret}}", Domains: []string{"api.openlibrary.org"}}}
	if !reflect.DeepEqual(caps, wantCaps) || !reflect.DeepEqual(creds, wantCreds) {
		t.Errorf("got %+v %+v", caps, creds)
	}
}

func TestFromManifestOddShapes(t *testing.T) {
	m := manifestOf(t, `{"capabilities": {
		"fetch": ["a.org", 5, {"domain": "b.org", "fetchMaxBytes": "big", "fetchTimeoutMs": 1.5}, {"domain": 7}, {"domain": "c.org", "fetchMaxBytes": 99999999999}],
		"credentials": [
			{"name": "plain", "into": {"header": "X-A"}},
			{"name": 3, "into": {"header": "X-B", "format": "{{secret}}"}},
			{"name": "typed", "into": {"header": "X-C", "format": 12}, "domains": "a.org"},
			{"name": "mixed", "into": {"header": 1, "format": "k {{secret}}"}, "domains": ["a.org", 2]}
		]}}`)
	caps, creds := broker.FromManifest(m)
	wantCaps := []broker.Capability{{Domain: "a.org"}, {Domain: "b.org"}, {Domain: "c.org", MaxBytes: 99999999999}}
	wantCreds := []broker.Credential{
		{Name: "plain", Header: "X-A"},
		{Name: "typed", Header: "X-C", Format: "(not a string)", Domains: []string{""}},
		{Name: "mixed", Format: "k {{secret}}", Domains: []string{"a.org", ""}},
	}
	if !reflect.DeepEqual(caps, wantCaps) {
		t.Errorf("caps %+v", caps)
	}
	if !reflect.DeepEqual(creds, wantCreds) {
		t.Errorf("creds %+v", creds)
	}
	if c, k := broker.FromManifest(nil); c != nil || k != nil {
		t.Error("a bare page got capabilities")
	}
	if c, k := broker.FromManifest(manifestOf(t, `[]`)); c != nil || k != nil {
		t.Error("a non-object manifest got capabilities")
	}
}
