package broker

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/plugin-lsp/plugin-lsp/internal/leakcheck"
	"github.com/plugin-lsp/plugin-lsp/internal/scrub"
)

// The scrubber's own tests are in internal/scrub; these are the broker's
// use of it: the caps and lengths of a scrubbed body, and the network
// provider's read path.

func scrubMarker(name string) string { return scrub.Marker(name) }

// scrubSecrets: a token, one with every character that has a short
// escape or a special percent form, one outside the BMP, a Basic
// credential (the secrets of the scrubber's own tests).
var scrubSecrets = []scrub.Secret{
	{Name: "gh_token", Value: "ghp_R3fl3ctedT0ken-91.x"},
	{Name: "hairy", Value: `p@ss w/"q"+é\x&<y>`},
	{Name: "astral", Value: "k3y🔑-ünï-" + "\U0001D11E"},
	{Name: "basic", Value: "YWxpY2U6b3Blbi1zZXNhbWUtOTk="}, // alice:open-sesame-99
}

// A body that scrubbing makes longer than fetchMaxBytes is refused as too
// large; one that stays under keeps a Content-Length saying its scrubbed
// length, and its share of the run's budget follows the scrubbed size
// (all of it back after Release).
func TestScrubbedLengthAndCaps(t *testing.T) {
	const secret = "abcdef"
	body := strings.Repeat(secret+" ", 40) // 280 bytes, 40 secrets
	p := providerFunc(func(req *Request) *Response {
		return &Response{Status: 200, Header: http.Header{"Content-Length": {strconv.Itoa(len(body))}}, Body: []byte(body), URL: req.URL}
	})
	newBroker := func(max int64) *Broker {
		b := New(Config{
			Fetch:       []Capability{{Domain: "api.x.org", MaxBytes: max}},
			Credentials: []Credential{{Name: "a_rather_long_credential_name", Header: "X-K", Format: "{{secret}}"}},
			Provider:    p,
		})
		// The secret as New would have resolved it (set here so that the
		// test does not depend on how dev secrets are resolved).
		c := &b.creds[0]
		c.value, c.found, c.problem, c.reason = secret, true, "", ""
		b.scrub = scrub.New(scrub.Secret{Name: c.Name, Value: secret})
		return b
	}
	grown := len(strings.ReplaceAll(body, secret, scrubMarker("a_rather_long_credential_name")))
	// Under the cap raw (280), over it scrubbed.
	b := newBroker(int64(grown - 1))
	_, err := b.Fetch(context.Background(), Request{URL: "https://api.x.org/"})
	var be *Error
	if !errors.As(err, &be) || be.Reason != ReasonTooLarge || !strings.Contains(be.Message, "once its secrets are replaced") {
		t.Fatalf("a body over the cap once scrubbed: %v", err)
	}
	if b.inflight.used != 0 {
		t.Errorf("%d bytes of the budget still held after a refused body", b.inflight.used)
	}
	b = newBroker(int64(grown))
	resp, err := b.Fetch(context.Background(), Request{URL: "https://api.x.org/"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Body) != grown || resp.Header.Get("Content-Length") != strconv.Itoa(grown) {
		t.Errorf("body %d bytes, Content-Length %s, want %d", len(resp.Body), resp.Header.Get("Content-Length"), grown)
	}
	if b.inflight.used != int64(grown) {
		t.Errorf("the budget holds %d bytes for a %d-byte body", b.inflight.used, grown)
	}
	if a := b.Audit(); a[0].Bytes != int64(len(body)) || a[0].ResponseHeaders["content-length"] != strconv.Itoa(grown) {
		t.Errorf("audit: %d bytes received (want %d), content-length %q", a[0].Bytes, len(body), a[0].ResponseHeaders["content-length"])
	}
	resp.Release()
	if b.inflight.used != 0 {
		t.Errorf("%d bytes of the budget still held after Release", b.inflight.used)
	}
}

type providerFunc func(req *Request) *Response

func (f providerFunc) RoundTrip(ctx context.Context, req *Request, limits Capability) (*Response, Source, error) {
	return f(req), SourceFixture, nil
}

// The network provider's read path (readScrubbed) gives what scrubbing
// the whole body gives, whatever the reads return: one byte at a time,
// half of what was asked, everything at once; and it counts the bytes
// received, not the scrubbed ones.
func TestReadScrubbedAnyReads(t *testing.T) {
	s := scrub.New(scrubSecrets...)
	rnd := rand.New(rand.NewPCG(7, 8))
	for _, enc := range leakcheck.Encodings {
		text := enc.Encode(`{"seen":"Bearer `, scrubSecrets[1].Value, `"}`, rnd)
		want := s.Bytes([]byte(text))
		for name, r := range map[string]func() io.Reader{
			"one byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(text)) },
			"half":     func() io.Reader { return iotest.HalfReader(strings.NewReader(text)) },
			"whole":    func() io.Reader { return strings.NewReader(text) },
		} {
			got, n, err := readScrubbed(context.Background(), r(), -1, 1<<20, s)
			if err != nil || !bytes.Equal(got, want) || n != int64(len(text)) {
				t.Errorf("%s, %s reads: %q (%d bytes read, %v), want %q", enc.Name, name, got, n, err, want)
			}
		}
	}
}
