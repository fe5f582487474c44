package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
	"github.com/plugin-lsp/plugin-lsp/internal/scrub"
)

// MaxRecordedBody caps the body a recorded fixture keeps.
const MaxRecordedBody = 64 << 10

// recordedHeaders are the response headers a recorded fixture keeps.
var recordedHeaders = []string{"Content-Type", "Location", "Retry-After"}

// Recorder wraps a provider (`run --providers real --record`) and keeps
// every response it answered. Requests are never kept, so the credential
// headers the broker injected are never written anywhere. The network
// provider scrubs a response as it reads it (internal/scrub), so what the
// recorder keeps of it holds no secret; Fixtures scrubs every value again
// in the form it is written.
type Recorder struct {
	inner  Provider
	redact func(string) string

	mu   sync.Mutex
	got  []recorded
	seen map[string]bool
}

type recorded struct {
	method, url string
	status      int
	header      http.Header
	body        []byte
}

// NewRecorder returns a recorder; Wrap puts it in front of a provider.
func NewRecorder() *Recorder { return &Recorder{seen: map[string]bool{}} }

// Wrap returns the provider to give the broker.
func (r *Recorder) Wrap(inner Provider) Provider {
	r.inner = inner
	return r
}

func (r *Recorder) RoundTrip(ctx context.Context, req *Request, limits Capability) (*Response, Source, error) {
	resp, src, err := r.inner.RoundTrip(ctx, req, limits)
	if err == nil && resp != nil {
		r.mu.Lock()
		key := req.Method + " " + req.URL
		if !r.seen[key] { // the first answer of a repeated call
			r.seen[key] = true
			r.got = append(r.got, recorded{method: req.Method, url: req.URL, status: resp.Status, header: resp.Header.Clone(), body: bytes.Clone(resp.Body)})
		}
		r.mu.Unlock()
	}
	return resp, src, err
}

// SetRedactor gives the recorder the run broker's Redact (the runner does
// this when it builds the broker).
func (r *Recorder) SetRedactor(redact func(string) string) {
	r.mu.Lock()
	r.redact = redact
	r.mu.Unlock()
}

// Fixtures turns the recorded responses into fixtures, in call order:
// every secret value the broker knows (SetRedactor) and every string
// shaped like a credential (a JWT, a GitHub token, "Bearer …") replaced,
// JSON bodies pretty-printed, bodies over MaxRecordedBody cut (as text,
// with a note), only the headers that matter to a tool kept.
func (r *Recorder) Fixtures() []fixtures.Fixture {
	r.mu.Lock()
	defer r.mu.Unlock()
	redact := r.redact
	if redact == nil {
		redact = func(s string) string { return s }
	}
	var out []fixtures.Fixture
	for _, g := range r.got {
		x := fixtures.Fixture{URL: redact(g.url), Method: g.method, Status: g.status}
		for _, h := range recordedHeaders {
			if v := g.header.Get(h); v != "" {
				if x.Headers == nil {
					x.Headers = map[string]string{}
				}
				x.Headers[h] = scrubText(redact(v))
			}
		}
		x.Body = recordBody(g.body, g.header.Get("Content-Type"), redact)
		out = append(out, settle(x, redact))
	}
	return out
}

// settle passes every value of x through redact once more, in the form
// Append writes it (pretty-printed, cut, quoted), until nothing changes:
// `run --record` never writes a value the scrubber has not seen as it is
// written. A body that still changes after three passes is dropped.
func settle(x fixtures.Fixture, redact func(string) string) fixtures.Fixture {
	x.URL = redact(x.URL)
	for k, v := range x.Headers {
		x.Headers[k] = redact(v)
	}
	for pass := 0; len(x.Body) > 0; pass++ {
		text := redact(string(x.Body))
		if text == string(x.Body) {
			break
		}
		if pass == 3 {
			x.Body, _ = json.Marshal("[recorded body dropped: it still held a secret once scrubbed]")
			break
		}
		if json.Valid([]byte(text)) {
			x.Body = json.RawMessage(text)
		} else {
			x.Body, _ = json.Marshal(text)
		}
	}
	return x
}

func recordBody(body []byte, contentType string, redact func(string) string) json.RawMessage {
	if len(body) == 0 {
		return nil
	}
	text := redact(string(body))
	if len(text) <= MaxRecordedBody {
		var v any
		if json.Unmarshal([]byte(text), &v) == nil && (strings.Contains(contentType, "json") || len(text) > 0 && (text[0] == '{' || text[0] == '[')) {
			v = scrubJSON(v)
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if enc.Encode(v) == nil {
				return bytes.TrimRight(buf.Bytes(), "\n")
			}
		}
	}
	note := ""
	if len(text) > MaxRecordedBody {
		cut := MaxRecordedBody
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		note = fmt.Sprintf("\n…[recorded body cut at %d of %d bytes]", cut, len(text))
		text = text[:cut]
	}
	b, _ := json.Marshal(scrubText(strings.ToValidUTF8(text, "\uFFFD")) + note)
	return b
}

// scrubJSON replaces credential-shaped string values.
func scrubJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = scrubJSON(e)
		}
	case []any:
		for i, e := range x {
			x[i] = scrubJSON(e)
		}
	case string:
		if kind := jslex.CredentialKind(x); kind != "" {
			return scrub.Marker(kind)
		}
		return scrubText(x)
	}
	return v
}

// scrubText replaces credential-shaped words in free text.
func scrubText(s string) string {
	if kind := jslex.CredentialKind(s); kind != "" {
		return scrub.Marker(kind)
	}
	words := strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\n' || r == '\t' || r == '"' || r == '\'' || r == ',' || r == ';' || r == '=' || r == '&' || r == '<' || r == '>'
	})
	for _, w := range words {
		if kind := jslex.CredentialKind(w); kind != "" {
			s = strings.ReplaceAll(s, w, scrub.Marker(kind))
		}
	}
	return s
}
