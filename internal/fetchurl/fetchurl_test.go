package fetchurl

import (
	"encoding/json"
	"os"
	"testing"
)

func TestAllowlistCheck(t *testing.T) {
	allow := NewAllowlist([]string{"api.openlibrary.org", "Covers.OpenLibrary.org", "localhost:8443", "127.0.0.1", "api.x.org:443", "bad/domain", "[::1]:9000"})
	tests := []struct {
		url    string
		host   string
		reason Reason // "" means allowed
	}{
		{"https://api.openlibrary.org/isbn/1.json", "api.openlibrary.org", ""},
		{"https://API.OpenLibrary.ORG/x", "api.openlibrary.org", ""},
		{"https://covers.openlibrary.org/b/1.jpg", "covers.openlibrary.org", ""},
		{"https://api.openlibrary.org:443/x", "api.openlibrary.org", ""},
		{"https://api.x.org/x", "api.x.org", ""},
		{"https://localhost:8443/x", "localhost:8443", ""},
		{"https://127.0.0.1/x", "127.0.0.1", ""},
		{"https://[::1]:9000/x", "[::1]:9000", ""},
		// Refusals.
		{"http://api.openlibrary.org/x", "api.openlibrary.org", NotHTTPS},
		{"ftp://api.openlibrary.org/x", "api.openlibrary.org", NotHTTPS},
		{"HTTPS://api.openlibrary.org/x", "api.openlibrary.org", ""},
		{"https://api.openlibrary.org.evil.com/x", "api.openlibrary.org.evil.com", NotAllowed},
		{"https://evil.com#api.openlibrary.org", "evil.com", NotAllowed},
		{"https://evil.com?api.openlibrary.org", "evil.com", NotAllowed},
		{"https://evil.com/api.openlibrary.org", "evil.com", NotAllowed},
		{"https://api.openlibrary.org@evil.com/x", "", UserInfo},
		{"https://user:pw@api.openlibrary.org/x", "", UserInfo},
		{"https://api.openlibrary.org./x", "", TrailingDot},
		{"https://api.openlibrary.org:8443/x", "api.openlibrary.org:8443", NotAllowed},
		{"https://localhost/x", "localhost", NotAllowed},
		{"https://10.0.0.1/x", "10.0.0.1", IPLiteral},
		{"https://[::2]/x", "[::2]", IPLiteral},
		{"https://аpi.openlibrary.org/x", "", IDN}, // Cyrillic а
		{"https://xn--pi-7kc.openlibrary.org/x", "xn--pi-7kc.openlibrary.org", NotAllowed},
		{"https://api..openlibrary.org/x", "", BadHost},
		{"https://api.openlibrary.org:99999/x", "", BadHost},
		{"https://api.openlibrary.org\\@evil.com/x", "", BadURL},
		{"https:///x", "", BadHost},
		{"/relative/path", "", BadURL},
		{"mailto:a@b.org", "", BadURL},
		{"https://%61pi.openlibrary.org/x", "", BadURL},
		{"", "", BadURL},
	}
	for _, tt := range tests {
		target, r := allow.Check(tt.url)
		got := Reason("")
		if r != nil {
			got = r.Reason
			if r.Message == "" {
				t.Errorf("%q: refusal without a message", tt.url)
			}
		}
		if got != tt.reason {
			t.Errorf("%q: reason %q, want %q (%v)", tt.url, got, tt.reason, r)
		}
		if tt.host != "" && target.Host != tt.host {
			t.Errorf("%q: host %q, want %q", tt.url, target.Host, tt.host)
		}
	}
}

func TestNormalizeDomain(t *testing.T) {
	good := map[string]string{
		"api.openlibrary.org":      "api.openlibrary.org",
		"API.OpenLibrary.org":      "api.openlibrary.org",
		"api.openlibrary.org:443":  "api.openlibrary.org",
		"api.openlibrary.org:8443": "api.openlibrary.org:8443",
		"127.0.0.1":                "127.0.0.1",
		"[::1]":                    "[::1]",
		"[::1]:8443":               "[::1]:8443",
	}
	for in, want := range good {
		got, r := NormalizeDomain(in)
		if r != nil || got != want {
			t.Errorf("NormalizeDomain(%q) = %q, %v; want %q", in, got, r, want)
		}
	}
	for _, bad := range []string{"", "https://api.x.org", "api.x.org/path", "user@api.x.org", "api.x.org.", "a..b", "exämple.org", "api.x.org:0", "api x.org"} {
		if _, r := NormalizeDomain(bad); r == nil {
			t.Errorf("NormalizeDomain(%q) accepted", bad)
		}
	}
}

// The checker and the broker call the same function; this pins that a URL
// and the domain written for it in the manifest produce the same key.
func TestURLAndDomainAgree(t *testing.T) {
	for _, c := range []struct{ url, domain string }{
		{"https://Api.Example.com/x", "api.example.com"},
		{"https://api.example.com:443/x", "api.example.com"},
		{"https://api.example.com:8443/x", "api.example.com:8443"},
		{"https://[0:0::1]/x", "[::1]"},
	} {
		tg, r := Parse(c.url)
		if r != nil {
			t.Fatalf("%s: %v", c.url, r)
		}
		key, r := NormalizeDomain(c.domain)
		if r != nil || key != tg.Host {
			t.Errorf("%s → %q, domain %s → %q (%v)", c.url, tg.Host, c.domain, key, r)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"https://api.x.org/a", "https://a@b.c", "http://x", "https://[::1]:1/", "https://é.org"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		tg, r := Parse(raw)
		if r == nil {
			// An accepted URL's host must be accepted as a domain too, with
			// the same key: otherwise nothing could ever allow it.
			key, r2 := NormalizeDomain(tg.Host)
			if r2 != nil || key != tg.Host {
				t.Fatalf("%q: host %q does not round-trip (%q, %v)", raw, tg.Host, key, r2)
			}
		}
	})
}

// TestURLData runs testdata/urls.json, the cases the sandbox's URL
// agreement test (internal/runner/sandbox) also feeds through new URL().
func TestURLData(t *testing.T) {
	data, err := os.ReadFile("testdata/urls.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	allow := NewAllowlist([]string{"api.openlibrary.org", "covers.openlibrary.org", "localhost:8443", "127.0.0.1", "api.x.org", "[::1]:9000"})
	n := 0
	for _, r := range raw {
		var c struct{ URL, Host, Reason string }
		if json.Unmarshal(r, &c) != nil {
			continue // a comment
		}
		n++
		tg, ref := allow.Check(c.URL)
		got := Reason("")
		if ref != nil {
			got = ref.Reason
		}
		if got != Reason(c.Reason) || c.Host != "" && tg.Host != c.Host {
			t.Errorf("%q: host %q reason %q, want %q %q", c.URL, tg.Host, got, c.Host, c.Reason)
		}
	}
	if n < 30 {
		t.Fatalf("only %d cases", n)
	}
}
