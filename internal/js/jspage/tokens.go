package jspage

import (
	"strings"

	"github.com/dop251/goja/ast"
)

func (a *analyzer) stringToken(s *ast.StringLiteral) {
	if kind := tokenKind(s.Value.String()); kind != "" {
		a.page.Tokens = append(a.page.Tokens, Token{Span: a.tokSpan(s), Kind: kind})
	}
}

func (a *analyzer) templateTokens(t *ast.TemplateLiteral) {
	for _, el := range t.Elements {
		if kind := tokenKind(el.Parsed.String()); kind != "" {
			a.page.Tokens = append(a.page.Tokens, Token{Span: a.tokSpan(t), Kind: kind})
			return
		}
	}
}

// tokenKind says what kind of credential s looks like, "" when none.
// Only shapes with a distinctive prefix count: a generic "long random
// string" test flags hashes, ids and ISBN lists far too often.
func tokenKind(s string) string {
	s = strings.TrimSpace(s)
	if len(s) < 16 || len(s) > 4096 {
		return ""
	}
	for _, scheme := range []string{"Bearer ", "Basic ", "Token "} {
		if rest, ok := strings.CutPrefix(s, scheme); ok && len(rest) >= 16 && tokenChars(rest, "._~+/=-") {
			return "a literal " + strings.TrimSpace(scheme) + " credential"
		}
	}
	switch {
	case strings.Contains(s, "-----BEGIN ") && strings.Contains(s, "PRIVATE KEY-----"):
		return "a private key"
	case hasPrefixRun(s, []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, 30, ""):
		return "a GitHub token"
	case hasPrefixRun(s, []string{"github_pat_"}, 30, "_"):
		return "a GitHub token"
	case hasPrefixRun(s, []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_"}, 16, ""):
		return "a Stripe key"
	case hasPrefixRun(s, []string{"sk-"}, 20, "-_"):
		return "an API secret key"
	case hasPrefixRun(s, []string{"xoxb-", "xoxp-", "xoxa-", "xoxs-", "xoxr-"}, 10, "-"):
		return "a Slack token"
	case strings.HasPrefix(s, "AKIA") && len(s) == 20 && tokenChars(s, ""):
		return "an AWS access key"
	case strings.HasPrefix(s, "AIza") && len(s) == 39 && tokenChars(s, "-_"):
		return "a Google API key"
	case strings.HasPrefix(s, "eyJ") && strings.Count(s, ".") == 2 && tokenChars(s, "-_.") &&
		strings.HasPrefix(s[strings.IndexByte(s, '.')+1:], "eyJ"):
		return "a JWT"
	}
	return ""
}

func hasPrefixRun(s string, prefixes []string, min int, extra string) bool {
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(s, p); ok && len(rest) >= min && tokenChars(rest, extra) {
			return true
		}
	}
	return false
}

func tokenChars(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}

// TokenKind says what kind of credential s looks like ("a JWT", "a
// GitHub token"), "" when none: the one definition of credential shapes,
// also used to scrub recorded fixtures.
func TokenKind(s string) string { return tokenKind(s) }
