package broker

import (
	"net/http"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// Caps of what an audit entry shows of a request and a response (the run
// record stays small; docs/host-api.md documents them).
const (
	PreviewBodyBytes   = 512 // request body preview
	PreviewHeaders     = 32  // headers per direction
	PreviewHeaderBytes = 256 // per header value
)

// headerPreview is h with lower-case names, scrubbed (internal/scrub) and
// capped; a header a credential set (creds: header → index in names, the
// entry's credentials; may be nil) shows the credential's format with its
// name, never a value.
func (b *Broker) headerPreview(h http.Header, creds map[string]int, names []string) map[string]string {
	if len(h) == 0 {
		return nil
	}
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]string, min(len(keys), PreviewHeaders+1))
	for i, k := range keys {
		if i == PreviewHeaders {
			out["…"] = "more headers not shown"
			break
		}
		v := strings.Join(h[k], ", ")
		if j, ok := creds[k]; ok && j < len(names) {
			v = b.credentialShown(names[j])
		} else {
			v = b.scrub.HeaderText(v)
		}
		// a name can carry a secret too (a server echoing it as a header)
		out[b.scrub.HeaderText(strings.ToLower(k))] = checker.Clip(v, PreviewHeaderBytes)
	}
	return out
}

// credentialShown is the format of the named credential with {{name}} in
// place of the secret ("Bearer {{hook_token}}").
func (b *Broker) credentialShown(name string) string {
	for i := range b.creds {
		if c := &b.creds[i]; c.Name == name {
			return strings.Replace(c.Format, secretMarker, "{{"+c.Name+"}}", 1)
		}
	}
	return "{{" + name + "}}"
}

// bodyPreview is the first PreviewBodyBytes of a request body, redacted;
// a body that is not UTF-8 text is described, not shown.
func (b *Broker) bodyPreview(body []byte) string {
	if len(body) == 0 {
		return ""
	}
	head := body
	if len(head) > PreviewBodyBytes {
		head = head[:PreviewBodyBytes]
		for len(head) > 0 && !utf8.Valid(head) && len(body)-len(head) < PreviewBodyBytes {
			head = head[:len(head)-1] // do not cut a character in two
		}
	}
	if !utf8.Valid(head) {
		return "[binary body]"
	}
	s := b.Redact(string(head))
	if len(head) < len(body) {
		s += "…"
	}
	return s
}
