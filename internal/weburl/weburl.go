// Package weburl is the WHATWG URL Standard's basic URL parser and
// serializer (https://url.spec.whatwg.org/), the parser behind the
// sandbox's URL and URLSearchParams. It runs host-side so that what a page's
// URL object says (protocol, host) and what the broker then checks
// (internal/fetchurl on the serialized href) agree by construction: the
// sandbox never parses a URL in JavaScript.
//
// One deviation from the standard: a host that is not ASCII after
// percent-decoding fails to parse (the standard maps it through IDNA/UTS 46).
// The broker refuses such hosts anyway (fetchurl.IDN); a page that needs a
// punycode host writes it as "xn--…".
package weburl

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxInputBytes bounds what the parser accepts (a URL longer than this is
// refused as TypeError in the sandbox, not parsed).
const MaxInputBytes = 1 << 20

// URL is a parsed URL record.
type URL struct {
	Scheme   string
	Username string
	Password string
	Host     *string // serialized host; nil is null
	Port     int     // -1 is null
	Path     []string
	// Opaque is set for a URL with an opaque path (mailto:x, data:…); the
	// path is then OpaquePath.
	Opaque     bool
	OpaquePath string
	Query      *string
	Fragment   *string
}

// ErrInvalid is every parse failure; the message says what was wrong.
var ErrInvalid = errors.New("invalid URL")

type parseError struct{ msg string }

func (e *parseError) Error() string { return e.msg }
func (e *parseError) Unwrap() error { return ErrInvalid }

func fail(msg string) error { return &parseError{msg} }

var specialPorts = map[string]int{"ftp": 21, "file": -1, "http": 80, "https": 443, "ws": 80, "wss": 443}

// IsSpecial reports whether scheme is one of the special schemes.
func IsSpecial(scheme string) bool { _, ok := specialPorts[scheme]; return ok }

func defaultPort(scheme string) int {
	if p, ok := specialPorts[scheme]; ok {
		return p
	}
	return -1
}

// Parse parses input against an optional base (nil: none).
func Parse(input string, base *URL) (*URL, error) {
	if len(input) > MaxInputBytes {
		return nil, fail("the URL is longer than 1 MiB")
	}
	return parse(input, base, nil, stNone)
}

type state int

const (
	stNone state = iota
	stSchemeStart
	stScheme
	stNoScheme
	stSpecialRelativeOrAuthority
	stPathOrAuthority
	stRelative
	stRelativeSlash
	stSpecialAuthoritySlashes
	stSpecialAuthorityIgnoreSlashes
	stAuthority
	stHost
	stHostname
	stPort
	stFile
	stFileSlash
	stFileHost
	stPathStart
	stPath
	stOpaquePath
	stQuery
	stFragment
)

func strp(s string) *string { return &s }

func isASCIIAlpha(c rune) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isASCIIDigit(c rune) bool { return c >= '0' && c <= '9' }
func isASCIIHex(c rune) bool {
	return isASCIIDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isWindowsDriveLetter(s []rune, normalizedOnly bool) bool {
	if len(s) != 2 || !isASCIIAlpha(s[0]) {
		return false
	}
	return s[1] == ':' || !normalizedOnly && s[1] == '|'
}

func startsWithWindowsDriveLetter(s []rune) bool {
	if len(s) < 2 || !isWindowsDriveLetter(s[:2], false) {
		return false
	}
	if len(s) == 2 {
		return true
	}
	switch s[2] {
	case '/', '\\', '?', '#':
		return true
	}
	return false
}

func isSingleDot(s string) bool { return s == "." || strings.EqualFold(s, "%2e") }
func isDoubleDot(s string) bool {
	switch strings.ToLower(s) {
	case "..", ".%2e", "%2e.", "%2e%2e":
		return true
	}
	return false
}

func (u *URL) shortenPath() {
	if u.Scheme == "file" && len(u.Path) == 1 && isWindowsDriveLetter([]rune(u.Path[0]), true) {
		return
	}
	if len(u.Path) > 0 {
		u.Path = u.Path[:len(u.Path)-1]
	}
}

func (u *URL) includesCredentials() bool { return u.Username != "" || u.Password != "" }

// parse is the basic URL parser. With override set, url is modified in
// place starting at the override state (the setters).
func parse(input string, base *URL, url *URL, override state) (*URL, error) {
	if !utf8.ValidString(input) {
		input = strings.ToValidUTF8(input, "\uFFFD")
	}
	if url == nil {
		url = &URL{Port: -1}
		input = strings.TrimFunc(input, func(r rune) bool { return r <= 0x20 })
	}
	input = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, input)
	st := override
	if st == stNone {
		st = stSchemeStart
	}
	in := []rune(input)
	var buf []rune
	atSign, insideBrackets, passwordTokenSeen := false, false, false
	const eof = rune(-1)
	for p := 0; p <= len(in); p++ {
		c := eof
		if p < len(in) {
			c = in[p]
		}
		remaining := func(i int) rune {
			if p+i < len(in) {
				return in[p+i]
			}
			return eof
		}
		switch st {
		case stSchemeStart:
			if isASCIIAlpha(c) {
				buf = append(buf, toLower(c))
				st = stScheme
			} else if override == stNone {
				st = stNoScheme
				p--
			} else {
				return nil, fail("invalid scheme")
			}
		case stScheme:
			if isASCIIAlpha(c) || isASCIIDigit(c) || c == '+' || c == '-' || c == '.' {
				buf = append(buf, toLower(c))
			} else if c == ':' {
				s := string(buf)
				if override != stNone {
					if IsSpecial(url.Scheme) != IsSpecial(s) {
						return url, nil
					}
					if (url.includesCredentials() || url.Port >= 0) && s == "file" {
						return url, nil
					}
					if url.Scheme == "file" && url.Host != nil && *url.Host == "" {
						return url, nil
					}
				}
				url.Scheme = s
				if override != stNone {
					if url.Port == defaultPort(url.Scheme) {
						url.Port = -1
					}
					return url, nil
				}
				buf = buf[:0]
				switch {
				case url.Scheme == "file":
					st = stFile
				case IsSpecial(url.Scheme) && base != nil && base.Scheme == url.Scheme:
					st = stSpecialRelativeOrAuthority
				case IsSpecial(url.Scheme):
					st = stSpecialAuthoritySlashes
				case remaining(1) == '/':
					st = stPathOrAuthority
					p++
				default:
					url.Opaque = true
					st = stOpaquePath
				}
			} else if override == stNone {
				buf = buf[:0]
				st = stNoScheme
				p = -1
			} else {
				return nil, fail("invalid scheme")
			}
		case stNoScheme:
			if base == nil || base.Opaque && c != '#' {
				return nil, fail("invalid URL (a relative URL needs a base)")
			} else if base.Opaque && c == '#' {
				url.Scheme = base.Scheme
				url.Opaque, url.OpaquePath = true, base.OpaquePath
				url.Query = copyp(base.Query)
				url.Fragment = strp("")
				st = stFragment
			} else if base.Scheme != "file" {
				st = stRelative
				p--
			} else {
				st = stFile
				p--
			}
		case stSpecialRelativeOrAuthority:
			if c == '/' && remaining(1) == '/' {
				st = stSpecialAuthorityIgnoreSlashes
				p++
			} else {
				st = stRelative
				p--
			}
		case stPathOrAuthority:
			if c == '/' {
				st = stAuthority
			} else {
				st = stPath
				p--
			}
		case stRelative:
			url.Scheme = base.Scheme
			if c == '/' {
				st = stRelativeSlash
			} else if IsSpecial(url.Scheme) && c == '\\' {
				st = stRelativeSlash
			} else {
				url.Username, url.Password, url.Host, url.Port = base.Username, base.Password, copyp(base.Host), base.Port
				url.Path = append([]string(nil), base.Path...)
				url.Query = copyp(base.Query)
				if c == '?' {
					url.Query = strp("")
					st = stQuery
				} else if c == '#' {
					url.Fragment = strp("")
					st = stFragment
				} else if c != eof {
					url.Query = nil
					url.shortenPath()
					st = stPath
					p--
				}
			}
		case stRelativeSlash:
			if IsSpecial(url.Scheme) && (c == '/' || c == '\\') {
				st = stSpecialAuthorityIgnoreSlashes
			} else if c == '/' {
				st = stAuthority
			} else {
				url.Username, url.Password, url.Host, url.Port = base.Username, base.Password, copyp(base.Host), base.Port
				st = stPath
				p--
			}
		case stSpecialAuthoritySlashes:
			if c == '/' && remaining(1) == '/' {
				st = stSpecialAuthorityIgnoreSlashes
				p++
			} else {
				st = stSpecialAuthorityIgnoreSlashes
				p--
			}
		case stSpecialAuthorityIgnoreSlashes:
			if c != '/' && c != '\\' {
				st = stAuthority
				p--
			}
		case stAuthority:
			if c == '@' {
				if atSign {
					buf = append([]rune("%40"), buf...)
				}
				atSign = true
				for _, cp := range buf {
					if cp == ':' && !passwordTokenSeen {
						passwordTokenSeen = true
						continue
					}
					enc := percentEncodeRune(cp, inUserinfoSet)
					if passwordTokenSeen {
						url.Password += enc
					} else {
						url.Username += enc
					}
				}
				buf = buf[:0]
			} else if c == eof || c == '/' || c == '?' || c == '#' || IsSpecial(url.Scheme) && c == '\\' {
				if atSign && len(buf) == 0 {
					return nil, fail("invalid URL (credentials without a host)")
				}
				p -= len(buf) + 1
				buf = buf[:0]
				st = stHost
			} else {
				buf = append(buf, c)
			}
		case stHost, stHostname:
			if override != stNone && url.Scheme == "file" {
				p--
				st = stFileHost
			} else if c == ':' && !insideBrackets {
				if len(buf) == 0 {
					return nil, fail("invalid URL (empty host)")
				}
				if override == stHostname {
					return nil, fail("invalid host")
				}
				h, err := parseHost(string(buf), !IsSpecial(url.Scheme))
				if err != nil {
					return nil, err
				}
				url.Host = &h
				buf = buf[:0]
				st = stPort
			} else if c == eof || c == '/' || c == '?' || c == '#' || IsSpecial(url.Scheme) && c == '\\' {
				p--
				if IsSpecial(url.Scheme) && len(buf) == 0 {
					return nil, fail("invalid URL (empty host)")
				} else if override != stNone && len(buf) == 0 && (url.includesCredentials() || url.Port >= 0) {
					return nil, fail("invalid host")
				}
				h, err := parseHost(string(buf), !IsSpecial(url.Scheme))
				if err != nil {
					return nil, err
				}
				url.Host = &h
				buf = buf[:0]
				st = stPathStart
				if override != stNone {
					return url, nil
				}
			} else {
				if c == '[' {
					insideBrackets = true
				}
				if c == ']' {
					insideBrackets = false
				}
				buf = append(buf, c)
			}
		case stPort:
			if isASCIIDigit(c) {
				buf = append(buf, c)
			} else if c == eof || c == '/' || c == '?' || c == '#' || IsSpecial(url.Scheme) && c == '\\' || override != stNone {
				if len(buf) != 0 {
					s := strings.TrimLeft(string(buf), "0")
					if len(s) > 5 {
						return nil, fail("invalid port")
					}
					n := 0
					if s != "" {
						n, _ = strconv.Atoi(s)
					}
					if n > 65535 {
						return nil, fail("invalid port")
					}
					if n == defaultPort(url.Scheme) {
						url.Port = -1
					} else {
						url.Port = n
					}
					buf = buf[:0]
					if override != stNone {
						return url, nil
					}
				}
				if override != stNone {
					return nil, fail("invalid port")
				}
				st = stPathStart
				p--
			} else {
				return nil, fail("invalid port")
			}
		case stFile:
			url.Scheme = "file"
			url.Host = strp("")
			if c == '/' || c == '\\' {
				st = stFileSlash
			} else if base != nil && base.Scheme == "file" {
				url.Host = copyp(base.Host)
				url.Path = append([]string(nil), base.Path...)
				url.Query = copyp(base.Query)
				if c == '?' {
					url.Query = strp("")
					st = stQuery
				} else if c == '#' {
					url.Fragment = strp("")
					st = stFragment
				} else if c != eof {
					url.Query = nil
					if !startsWithWindowsDriveLetter(in[p:]) {
						url.shortenPath()
					} else {
						url.Path = nil
					}
					st = stPath
					p--
				}
			} else {
				st = stPath
				p--
			}
		case stFileSlash:
			if c == '/' || c == '\\' {
				st = stFileHost
			} else {
				if base != nil && base.Scheme == "file" {
					url.Host = copyp(base.Host)
					if !startsWithWindowsDriveLetter(in[p:]) && len(base.Path) > 0 && isWindowsDriveLetter([]rune(base.Path[0]), true) {
						url.Path = append(url.Path, base.Path[0])
					}
				}
				st = stPath
				p--
			}
		case stFileHost:
			if c == eof || c == '/' || c == '\\' || c == '?' || c == '#' {
				p--
				if override == stNone && isWindowsDriveLetter(buf, false) {
					st = stPath
				} else if len(buf) == 0 {
					url.Host = strp("")
					if override != stNone {
						return url, nil
					}
					st = stPathStart
				} else {
					h, err := parseHost(string(buf), false)
					if err != nil {
						return nil, err
					}
					if h == "localhost" {
						h = ""
					}
					url.Host = &h
					if override != stNone {
						return url, nil
					}
					buf = buf[:0]
					st = stPathStart
				}
			} else {
				buf = append(buf, c)
			}
		case stPathStart:
			if IsSpecial(url.Scheme) {
				st = stPath
				if c != '/' && c != '\\' {
					p--
				}
			} else if override == stNone && c == '?' {
				url.Query = strp("")
				st = stQuery
			} else if override == stNone && c == '#' {
				url.Fragment = strp("")
				st = stFragment
			} else if c != eof {
				st = stPath
				if c != '/' {
					p--
				}
			} else if override != stNone && url.Host == nil {
				url.Path = append(url.Path, "")
			}
		case stPath:
			special := IsSpecial(url.Scheme)
			if c == eof || c == '/' || special && c == '\\' || override == stNone && (c == '?' || c == '#') {
				seg := string(buf)
				slash := c == '/' || special && c == '\\'
				if isDoubleDot(seg) {
					url.shortenPath()
					if !slash {
						url.Path = append(url.Path, "")
					}
				} else if isSingleDot(seg) && !slash {
					url.Path = append(url.Path, "")
				} else if !isSingleDot(seg) {
					if url.Scheme == "file" && len(url.Path) == 0 && isWindowsDriveLetter([]rune(seg), false) {
						seg = seg[:1] + ":"
					}
					url.Path = append(url.Path, seg)
				}
				buf = buf[:0]
				if c == '?' {
					url.Query = strp("")
					st = stQuery
				}
				if c == '#' {
					url.Fragment = strp("")
					st = stFragment
				}
			} else {
				buf = append(buf, []rune(percentEncodeRune(c, inPathSet))...)
			}
		case stOpaquePath:
			if c == '?' {
				url.Query = strp("")
				st = stQuery
			} else if c == '#' {
				url.Fragment = strp("")
				st = stFragment
			} else if c == ' ' {
				if n := remaining(1); n == '?' || n == '#' {
					url.OpaquePath += "%20"
				} else {
					url.OpaquePath += " "
				}
			} else if c != eof {
				url.OpaquePath += percentEncodeRune(c, inC0ControlSet)
			}
		case stQuery:
			if override == stNone && c == '#' || c == eof {
				set := inQuerySet
				if IsSpecial(url.Scheme) {
					set = inSpecialQuerySet
				}
				*url.Query += percentEncodeString(string(buf), set)
				buf = buf[:0]
				if c == '#' {
					url.Fragment = strp("")
					st = stFragment
				}
			} else if c != eof {
				buf = append(buf, c)
			}
		case stFragment:
			if c != eof {
				*url.Fragment += percentEncodeRune(c, inFragmentSet)
			}
		}
	}
	return url, nil
}

func copyp(s *string) *string {
	if s == nil {
		return nil
	}
	v := *s
	return &v
}

func toLower(c rune) rune {
	if c >= 'A' && c <= 'Z' {
		return c + 32
	}
	return c
}
