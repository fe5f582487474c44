package rules

import (
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// CredentialFormat checks a credential's into.header and into.format.
var CredentialFormat = &checker.Rule{
	Code:     "credential-format",
	Severity: checker.Error,
	Title:    "credential header or template is malformed",
	Doc: "A credential lands in one request header: `into.header` must be a valid HTTP header name that the " +
		"broker is allowed to set (not `Host`, `Content-Length`, `Transfer-Encoding`, `Connection`, `Proxy-*` and the " +
		"other hop-by-hop headers: the broker drops those from every request), and `into.format` must contain the placeholder `{{secret}}` exactly once " +
		"(no other `{{…}}` placeholder exists, and line breaks would let a value inject further headers). " +
		"Without the placeholder the secret would never be sent; with two, it is sent twice. A credential " +
		"with such a problem is never injected, and `run` refuses the requests it applies to.",
	Lang:   "json",
	Before: "{ \"name\": \"openlibrary_key\", \"into\": { \"header\": \"Authorization:\", \"format\": \"Bearer {{token}}\" } }",
	After:  "{ \"name\": \"openlibrary_key\", \"into\": { \"header\": \"Authorization\", \"format\": \"Bearer {{secret}}\" } }",
	Run: func(pass *checker.Pass) {
		reportReach(pass, "credential-format")
	},
}
