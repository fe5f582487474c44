package capability

import (
	"fmt"
	"net/textproto"
	"regexp"
	"strings"
)

// SecretMarker is the one placeholder of a credential's into.format.
const SecretMarker = "{{secret}}"

// forbiddenHeaders belong to the transport: the broker drops them from a
// tool's request (as the fetch standard does) and no credential may land
// in them. Any Proxy-* header is forbidden too. Accept-Encoding among
// them: the transport asks for gzip itself and decodes it, so the broker
// scrubs the decoded body; a page that asked for a coding itself would get
// compressed bytes, in which no secret can be recognised.
var forbiddenHeaders = map[string]bool{
	"Host": true, "Connection": true, "Content-Length": true, "Transfer-Encoding": true,
	"Keep-Alive": true, "Te": true, "Trailer": true, "Upgrade": true,
	"Proxy-Authorization": true, "Proxy-Connection": true, "Expect": true,
	"Accept-Encoding": true,
}

// ForbiddenHeader reports whether a header (any case) is owned by the
// transport: never taken from a tool, never a credential's target.
func ForbiddenHeader(name string) bool {
	ck := textproto.CanonicalMIMEHeaderKey(name)
	return forbiddenHeaders[ck] || strings.HasPrefix(ck, "Proxy-")
}

// ValidHeaderName reports whether s is an RFC 9110 token.
func ValidHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// ValidHeaderValue reports whether s holds no control character (tab
// allowed): a value with CR or LF could inject further headers.
func ValidHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// HeaderProblem says why a credential cannot land in header h, or "".
func HeaderProblem(h string) string {
	switch {
	case h == "":
		return "into.header is empty: name the request header the secret goes into, like \"Authorization\""
	case !ValidHeaderName(h):
		return fmt.Sprintf("into.header %q is not a valid HTTP header name (letters, digits and !#$%%&'*+.^_`|~- only; no spaces or ':')", h)
	case ForbiddenHeader(h):
		return fmt.Sprintf("into.header %q is controlled by the transport and cannot carry a credential", h)
	}
	return ""
}

var placeholder = regexp.MustCompile(`\{\{\s*([^{}]*?)\s*\}\}`)

// FormatProblem says why into.format f cannot be used, or "".
func FormatProblem(f string) string {
	if !ValidHeaderValue(f) {
		return "into.format contains a line break or another control character: a header value must be one line"
	}
	n := 0
	for _, m := range placeholder.FindAllStringSubmatch(f, -1) {
		if m[0] == SecretMarker {
			n++
			continue
		}
		return fmt.Sprintf("into.format has the placeholder %q; the only placeholder is {{secret}}", m[0])
	}
	switch n {
	case 0:
		return fmt.Sprintf("into.format %q has no {{secret}} placeholder, so the secret would never be sent; write it like \"Bearer {{secret}}\"", f)
	case 1:
		return ""
	}
	return fmt.Sprintf("into.format has {{secret}} %d times; it must appear exactly once", n)
}
