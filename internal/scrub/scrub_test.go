package scrub_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/leakcheck"
	"github.com/plugin-lsp/plugin-lsp/internal/scrub"
)

// The API the broker and check use: New from names and values, Text and
// Bytes for bodies and messages, HeaderText and Header for header names
// and values (every form case folded: net/http and the page change the
// case of names, so an upper-cased base64 name still hides the secret,
// where a body's base64 is matched as it is), Stream for a body read in
// pieces; a nil scrubber (no secret) changes nothing.
func TestScrubAPI(t *testing.T) {
	const secret = "ghp_R3fl3ctedT0ken-91.x"
	s := scrub.New(scrub.Secret{Name: "gh_token", Value: secret}, scrub.Secret{Name: "empty"})
	marker := scrub.Marker("gh_token")
	if marker != "••••(gh_token)" {
		t.Fatalf("marker %q", marker)
	}
	if got := s.Text("Bearer " + secret); got != "Bearer "+marker {
		t.Errorf("Text: %q", got)
	}
	if got := string(s.Bytes([]byte(`{"t":"` + secret + `"}`))); got != `{"t":"`+marker+`"}` {
		t.Errorf("Bytes: %q", got)
	}
	upper := "X-" + strings.ToUpper(base64.RawStdEncoding.EncodeToString([]byte("Bearer "+secret)))
	if got := s.Text(upper); got != upper {
		t.Errorf("Text changed text that is not the secret's base64: %q", got)
	}
	if got := s.HeaderText(upper); !strings.Contains(got, marker) || len(leakcheck.Find([]byte(got), secret)) > 0 {
		t.Errorf("HeaderText: %q", got)
	}
	h := s.Header(http.Header{"X-Echo-" + secret: {"Bearer " + strings.ToUpper(secret), "ok"}})
	want := http.Header{"X-Echo-" + marker: {"Bearer " + marker, "ok"}}
	if len(h) != 1 || strings.Join(h["X-Echo-"+marker], ",") != strings.Join(want["X-Echo-"+marker], ",") {
		t.Errorf("Header: %v", h)
	}
	st := s.Stream(1<<10, 0)
	for _, piece := range []string{"a ghp_R3fl3c", "tedT0ken", "-91.x b"} {
		st.Write([]byte(piece))
	}
	if got := string(st.Close()); got != "a "+marker+" b" || st.Over() {
		t.Errorf("Stream: %q", got)
	}

	var none *scrub.Scrubber
	if scrub.New() != nil || scrub.New(scrub.Secret{Name: "empty"}) != none {
		t.Error("a scrubber without a secret value is not nil")
	}
	in := http.Header{"A": {secret}}
	if none.Text(secret) != secret || string(none.Bytes([]byte(secret))) != secret || none.HeaderText(secret) != secret || none.Header(in)["A"][0] != secret {
		t.Error("a nil scrubber changed its input")
	}
	st = none.Stream(10, 0)
	st.Write([]byte("0123456789"))
	if got := string(st.Close()); got != "0123456789" || st.Over() {
		t.Errorf("nil Stream: %q", got)
	}
	st = none.Stream(10, 0)
	st.Write([]byte("0123456789x"))
	if st.Close() != nil || !st.Over() {
		t.Error("nil Stream: 11 bytes fit a 10-byte limit")
	}
}

// TestNewKeepsMade: the same secrets give the same (immutable) scrubber,
// other secrets their own; a value that only ends like another's is not
// the other's set (the key is length-prefixed).
func TestNewKeepsMade(t *testing.T) {
	a := scrub.New(scrub.Secret{Name: "k", Value: "s3cr3t-value-one"})
	if b := scrub.New(scrub.Secret{Name: "k", Value: "s3cr3t-value-one"}); a != b {
		t.Error("the same secrets made a second scrubber")
	}
	c := scrub.New(scrub.Secret{Name: "k", Value: "other-secret-two"})
	if c == a {
		t.Fatal("other secrets got the first set's scrubber")
	}
	if got := c.Text("x other-secret-two s3cr3t-value-one"); got != "x "+scrub.Marker("k")+" s3cr3t-value-one" {
		t.Errorf("scrubbed %q", got)
	}
	d := scrub.New(scrub.Secret{Name: "k", Value: "ab"}, scrub.Secret{Name: "c", Value: "d"})
	e := scrub.New(scrub.Secret{Name: "k", Value: "a"}, scrub.Secret{Name: "bc", Value: "d"})
	if d == e {
		t.Error("two different sets share a key")
	}
}
