package rules

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/analysis"
)

// CredentialFormat checks a credential's into.header and into.format.
var CredentialFormat = &analysis.Rule{
	Code:     "credential-format",
	Severity: analysis.Error,
	Title:    "credential header or template is malformed",
	Doc: "A credential lands in one request header: `into.header` must be a valid HTTP header name that the " +
		"broker is allowed to set (not `Host`, `Content-Length`, `Transfer-Encoding`, `Connection` and the " +
		"other hop-by-hop headers), and `into.format` must contain the placeholder `{{secret}}` exactly once " +
		"(no other `{{…}}` placeholder exists, and line breaks would let a value inject further headers). " +
		"Without the placeholder the secret would never be sent; with two, it is sent twice.",
	Lang:   "json",
	Before: "{ \"name\": \"openlibrary_key\", \"into\": { \"header\": \"Authorization:\", \"format\": \"Bearer {{token}}\" } }",
	After:  "{ \"name\": \"openlibrary_key\", \"into\": { \"header\": \"Authorization\", \"format\": \"Bearer {{secret}}\" } }",
	Run: func(pass *analysis.Pass) {
		for _, c := range pass.Plugin.Manifest.Credentials {
			if h, ok := analysis.Str(c.Header); ok {
				if msg := headerProblem(h); msg != "" {
					pass.Reportf(analysis.ManifestName, analysis.SpanOf(c.Header), "%s", msg)
				}
			}
			if f, ok := analysis.Str(c.Format); ok {
				if msg := formatProblem(f); msg != "" {
					pass.Reportf(analysis.ManifestName, analysis.SpanOf(c.Format), "%s", msg)
				}
			}
		}
	},
}

// tchar per RFC 9110 §5.6.2.
var headerToken = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// reservedHeaders are set by the broker or the transport, never by a
// credential.
var reservedHeaders = map[string]bool{
	"host": true, "content-length": true, "transfer-encoding": true, "connection": true,
	"keep-alive": true, "upgrade": true, "te": true, "trailer": true,
	"proxy-connection": true, "expect": true,
}

func headerProblem(h string) string {
	switch {
	case h == "":
		return "into.header is empty: name the request header the secret goes into, like \"Authorization\""
	case !headerToken.MatchString(h):
		return fmt.Sprintf("into.header %q is not a valid HTTP header name (letters, digits and !#$%%&'*+.^_`|~- only; no spaces or ':')", h)
	case reservedHeaders[strings.ToLower(h)]:
		return fmt.Sprintf("into.header %q is controlled by the transport and cannot carry a credential", h)
	}
	return ""
}

var placeholder = regexp.MustCompile(`\{\{\s*([^{}]*?)\s*\}\}`)

func formatProblem(f string) string {
	if strings.ContainsAny(f, "\r\n\x00") {
		return "into.format contains a line break or NUL: a header value must be one line"
	}
	n := 0
	for _, m := range placeholder.FindAllStringSubmatch(f, -1) {
		if m[0] == "{{secret}}" {
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
