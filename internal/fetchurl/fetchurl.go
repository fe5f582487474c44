// Package fetchurl decides what host a fetch URL names and whether an
// allowlist admits it. It is the single definition shared by the static
// checker (analysis rules) and the sandbox's broker (runner): the two must
// never disagree on what a host is.
//
// The rules: https only; the host is compared exactly,
// lower-cased, with the port when it is not 443; userinfo, trailing dots,
// non-ASCII (IDN) hosts, empty labels and IP literals that are not listed
// verbatim are refused. Lookalikes (api.x.org.evil.com, evil.com#api.x.org)
// fail because the comparison is exact on the parsed host.
package fetchurl

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/weburl"
)

// Reason says why a URL or a domain was refused. The strings are stable:
// they appear in audit logs and in JSON output.
type Reason string

const (
	BadURL      Reason = "bad-url"   // does not parse, or is not absolute
	NotHTTPS    Reason = "not-https" // scheme other than https
	UserInfo    Reason = "userinfo"  // user:pass@ in the authority
	BadHost     Reason = "bad-host"  // empty, empty label, bad character, bad port
	TrailingDot Reason = "trailing-dot"
	IDN         Reason = "idn"         // non-ASCII host
	IPLiteral   Reason = "ip-literal"  // IP address not listed verbatim
	NotAllowed  Reason = "not-allowed" // well-formed, but not in the allowlist
)

// Refusal is a refused URL or domain with a sentence for people.
type Refusal struct {
	Reason  Reason
	Message string
}

func (r *Refusal) Error() string { return r.Message }

func refuse(reason Reason, format string, args ...any) *Refusal {
	return &Refusal{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// Target is a parsed fetch URL.
type Target struct {
	URL *url.URL
	// Host is the key compared with the allowlist: the lower-cased host
	// name, followed by ":port" when a port other than 443 is given.
	Host string
	// IsIP is set when the host is an IP literal.
	IsIP bool
}

// Parse parses a fetch URL and checks everything but the allowlist.
// A URL with another scheme still yields its Target (Host set when it has
// one) together with a NotHTTPS refusal, so callers can offer a rewrite.
//
// The decision is taken on the WHATWG parse (internal/weburl, the parser
// behind the sandbox's URL): the scheme, the user information and the
// host compared are the ones new URL() sees, and Target.URL is that URL's
// serialization. On top of it the URL must be written plainly: an
// absolute scheme://authority URL whose host, as written, normalizes
// (NormalizeDomain's rules) to the same key as the WHATWG host; a host
// the standard rewrites (percent-encoded, a number-form IPv4, an
// IPv4-mapped IPv6) is refused rather than compared in a form the author
// did not write.
func Parse(raw string) (Target, *Refusal) {
	if strings.ContainsAny(raw, "\\\x00\t\r\n ") {
		return Target{}, refuse(BadURL, "URL %q contains a backslash, space or control character", raw)
	}
	scheme, rest, ok := strings.Cut(raw, ":")
	if !ok || !validScheme(scheme) || !strings.HasPrefix(rest, "//") {
		return Target{}, refuse(BadURL, "URL %q is not an absolute https:// URL", raw)
	}
	authority := rest[2:]
	if i := strings.IndexAny(authority, "/?#"); i >= 0 {
		authority = authority[:i]
	}
	_, hostport, hasUser := cutLast(authority, "@")
	name, port, r := splitHostPort(raw, hostport)
	if r != nil {
		return Target{}, r
	}
	if strings.Contains(name, "%") {
		return Target{}, refuse(BadURL, "URL %q has a percent-encoded host; write the host as it is", raw)
	}
	if nonASCII(name) {
		_, _, r := normalizeHost(name, port, hostport)
		return Target{}, r // IDN (the sandbox's URL refuses it too)
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return Target{}, refuse(BadHost, "%q has an invalid port %q", hostport, port)
		}
	}
	w, err := weburl.Parse(raw, nil)
	if err != nil {
		return Target{}, refuse(BadURL, "URL %q does not parse: %v", raw, err)
	}
	u, err := url.Parse(w.Href())
	if err != nil { // the WHATWG serialization is a valid URL: cannot happen
		return Target{}, refuse(BadURL, "URL %q does not parse: %v", raw, err)
	}
	if hasUser || w.Username != "" || w.Password != "" {
		return Target{URL: u}, refuse(UserInfo, "URL %q carries user information before '@'; the host it really names is %q", raw, w.Hostname())
	}
	host, isIP, r := normalizeHost(name, port, hostport)
	t := Target{URL: u, Host: host, IsIP: isIP}
	if r != nil {
		return t, r
	}
	if want := whatwgKey(w); host != want {
		return Target{URL: u}, refuse(BadHost, "URL %q names host %q, which the URL standard reads as %q; write it that way", raw, hostport, want)
	}
	if w.Scheme != "https" {
		return t, refuse(NotHTTPS, "URL %q uses %s://; only https:// is allowed", raw, w.Scheme)
	}
	return t, nil
}

// whatwgKey is the comparison key of a WHATWG-parsed URL's host: the
// serialized host, with ":port" when a port other than 443 is given.
func whatwgKey(w *weburl.URL) string {
	key := w.Hostname()
	if w.Port >= 0 && w.Port != 443 {
		key += ":" + strconv.Itoa(w.Port)
	}
	return key
}

// validScheme reports whether s is a URL scheme (an ASCII letter, then
// letters, digits, '+', '-' or '.').
func validScheme(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !(c >= 'a' && c <= 'z' || i > 0 && (s[i] >= '0' && s[i] <= '9' || s[i] == '+' || s[i] == '-' || s[i] == '.')) {
			return false
		}
	}
	return true
}

// cutLast is strings.Cut at the last sep; without one, after is s.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return "", s, false
}

// splitHostPort splits an authority's host and port as written ("[::1]:9000"
// → "::1", "9000"; "x.org:" → "x.org", "").
func splitHostPort(raw, hp string) (name, port string, r *Refusal) {
	if strings.HasPrefix(hp, "[") {
		i := strings.IndexByte(hp, ']')
		if i < 0 {
			return "", "", refuse(BadURL, "URL %q does not parse: an IPv6 host has no closing ']'", raw)
		}
		name, rest := hp[1:i], hp[i+1:]
		if rest != "" && rest[0] != ':' {
			return "", "", refuse(BadURL, "URL %q does not parse: text after the IPv6 host", raw)
		}
		if rest != "" {
			port = rest[1:]
		}
		return name, port, nil
	}
	name, port, _ = strings.Cut(hp, ":")
	return name, port, nil
}

func nonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// NormalizeDomain checks a capabilities.fetch entry ("api.x.org",
// "api.x.org:8443", "127.0.0.1:8443") and returns its comparison key.
func NormalizeDomain(d string) (string, *Refusal) {
	if d == "" {
		return "", refuse(BadHost, "the domain is empty")
	}
	if strings.Contains(d, "://") || strings.ContainsAny(d, "/?#@\\ ") {
		return "", refuse(BadHost, "%q is not a bare domain: write the host only, like \"api.example.com\"", d)
	}
	name, port := d, ""
	if h, p, err := net.SplitHostPort(d); err == nil {
		name, port = h, p
	} else if strings.HasPrefix(d, "[") && strings.HasSuffix(d, "]") {
		name = d[1 : len(d)-1]
	}
	key, _, r := normalizeHost(name, port, d)
	return key, r
}

// normalizeHost validates a host name and port and builds the comparison
// key. authority is used only in messages.
func normalizeHost(name, port, authority string) (string, bool, *Refusal) {
	if name == "" {
		return "", false, refuse(BadHost, "%q has no host", authority)
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return "", false, refuse(BadHost, "%q has an invalid port %q", authority, port)
		}
		port = strconv.Itoa(n)
	}
	if ip := net.ParseIP(name); ip != nil {
		if strings.Contains(name, ":") && ip.To4() != nil {
			// Go would key it as the IPv4 address, a web URL as [::ffff:…]:
			// the sandbox's URL and the broker must name the same host.
			return "", false, refuse(BadHost, "host [%s] is an IPv4-mapped IPv6 address; write the IPv4 address", name)
		}
		key := ip.String()
		if strings.Contains(key, ":") {
			key = "[" + key + "]"
		}
		if port != "" && port != "443" {
			key += ":" + port
		}
		return key, true, nil
	}
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return "", false, refuse(IDN, "host %q is not ASCII; internationalized (lookalike-prone) host names are refused", name)
		}
	}
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".") {
		return "", false, refuse(TrailingDot, "host %q ends with a dot", name)
	}
	for _, label := range strings.Split(lower, ".") {
		if label == "" {
			return "", false, refuse(BadHost, "host %q has an empty label", name)
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return "", false, refuse(BadHost, "host %q contains %q", name, string(c))
			}
		}
	}
	if endsInANumber(lower) {
		return "", false, refuse(BadHost, "host %q ends in a number: a web URL reads it as an IPv4 address; write the address in dotted decimal", name)
	}
	if port != "" && port != "443" {
		lower += ":" + port
	}
	return lower, false, nil
}

// Allowlist is a set of normalized capabilities.fetch domains.
type Allowlist map[string]bool

// NewAllowlist normalizes domains; entries that do not normalize are
// skipped (the manifest rules report them).
func NewAllowlist(domains []string) Allowlist {
	a := make(Allowlist, len(domains))
	for _, d := range domains {
		if key, r := NormalizeDomain(d); r == nil {
			a[key] = true
		}
	}
	return a
}

// Check parses raw and checks it against the allowlist: the one decision
// the broker enforces and the checker predicts.
func (a Allowlist) Check(raw string) (Target, *Refusal) {
	t, r := Parse(raw)
	if r != nil {
		return t, r
	}
	if !a[t.Host] {
		if t.IsIP {
			return t, refuse(IPLiteral, "IP address %s is not in capabilities.fetch", t.Host)
		}
		return t, refuse(NotAllowed, "host %s is not in capabilities.fetch", t.Host)
	}
	return t, nil
}

// endsInANumber is the URL Standard's test (WHATWG URL §3.5): a host whose
// last label is a number (decimal, 0x-hex, or octal digits) is parsed as an
// IPv4 address by new URL() and by browsers, so "0x7f.1" or "2130706433"
// would name 127.0.0.1 there and a DNS name here.
func endsInANumber(host string) bool {
	last := host[strings.LastIndexByte(host, '.')+1:]
	if last == "" {
		return false
	}
	if strings.Trim(last, "0123456789") == "" {
		return true
	}
	if len(last) >= 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X') {
		return strings.Trim(last[2:], "0123456789abcdefABCDEF") == ""
	}
	return false
}
