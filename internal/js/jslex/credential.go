package jslex

import "strings"

// CredentialKind says what kind of credential the string literal s looks
// like ("a JWT", "a GitHub token"), "" when none: the one definition of
// credential shapes, used by the page analysis (a literal token in a page)
// and by the broker to scrub recorded fixtures. Only shapes with a
// distinctive prefix count: a generic "long random string" test flags
// hashes, ids and ISBN lists far too often.
func CredentialKind(s string) string {
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
