// Package leakcheck looks for a secret in what a run produced the way
// someone holding that output would: it decodes every encoding a server
// can reflect a value in and searches each result. It is the judge of the
// scrubber's tests (internal/scrub), the broker's and the runner's, and of
// what check and the editor print; it shares no code with the scrubber:
// it decodes whole texts with the standard library where the scrubber
// matches encodings in place.
//
// It also holds the encoders those tests make reflections with. Only
// tests import it (it sits at the module root so that the tests of
// analysis, runner and cmd can all import it).
package leakcheck

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// A decoder turns a text into what it decodes to (several pieces joined
// by NUL when it finds several encoded runs).
type decoder struct {
	name   string
	decode func([]byte) []byte
}

var decoders = []decoder{
	{"json-unescape", jsonUnescape},
	{"percent-decode", percentDecode},
	{"html-unescape", htmlUnescape},
	{"base64", base64Runs},
	{"hex", hexRuns},
}

// Depth is how many decoders Find chains (base64 of a JSON-escaped text
// inside a percent-encoded URL is three).
const Depth = 3

// Find returns, for each secret found, the chain of decodings that shows
// it ("percent-decode > base64: …"); nil when none is found. Secrets are
// compared with case folded (both lower-cased, Unicode).
func Find(out []byte, secrets ...string) []string {
	var found []string
	type text struct {
		chain string
		b     []byte
	}
	level := []text{{"as it is", out}}
	seen := map[string]bool{string(out): true}
	for depth := 0; depth <= Depth && len(level) > 0; depth++ {
		var next []text
		for _, t := range level {
			low, at := lower(t.b)
			for _, s := range secrets {
				ls, _ := lower([]byte(s))
				if i := bytes.Index(low, ls); i >= 0 {
					from, to := at[i], at[i+len(ls)]
					found = append(found, fmt.Sprintf("%q found %s: …%s…", s, t.chain, clip(t.b, from, to-from)))
				}
			}
			if depth == Depth {
				continue
			}
			for _, d := range decoders {
				b := d.decode(t.b)
				if len(b) == 0 || seen[string(b)] {
					continue
				}
				seen[string(b)] = true
				chain := d.name
				if t.chain != "as it is" {
					chain = t.chain + " > " + d.name
				}
				next = append(next, text{chain, b})
			}
		}
		level = next
	}
	return found
}

// lower is b with its runes lower-cased (Unicode, bytes that are not
// UTF-8 kept as they are) and, for each byte of it and one past the end,
// the offset in b it comes from: a rune's lower case can be longer or
// shorter than the rune (İ, the Kelvin sign), so an index into the
// lowered text is not an index into b.
func lower(b []byte) (low []byte, at []int) {
	low, at = make([]byte, 0, len(b)), make([]int, 0, len(b)+1)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		n := len(low)
		if r == utf8.RuneError && size == 1 {
			low = append(low, b[i])
		} else {
			low = utf8.AppendRune(low, unicode.ToLower(r))
		}
		for ; n < len(low); n++ {
			at = append(at, i)
		}
		i += size
	}
	return low, append(at, len(b))
}

func clip(b []byte, i, n int) string {
	from, to := max(0, i-40), min(len(b), i+n+40)
	return strings.ToValidUTF8(string(b[from:to]), "?")
}

// jsonUnescape decodes one level of JSON and JavaScript string escapes
// wherever they are: \uXXXX (surrogate pairs joined), \xXX, \b \f \n \r
// \t \v \0, and \c for any other c (\\ \/ \"). A string nested in a string
// is the same decoder applied again.
func jsonUnescape(b []byte) []byte {
	if bytes.IndexByte(b, '\\') < 0 {
		return nil
	}
	var out []byte
	var units []uint16 // pending \u code units
	flush := func() {
		out = append(out, string(utf16.Decode(units))...)
		units = units[:0]
	}
	for i := 0; i < len(b); {
		if b[i] != '\\' || i+1 == len(b) {
			flush()
			out = append(out, b[i])
			i++
			continue
		}
		j := i + 1
		switch c := b[j]; {
		case c == 'u' && j+5 <= len(b) && isHex(b[j+1:j+5]):
			v, _ := strconv.ParseUint(string(b[j+1:j+5]), 16, 16)
			units = append(units, uint16(v))
			i = j + 5
			continue
		case c == 'x' && j+3 <= len(b) && isHex(b[j+1:j+3]):
			flush()
			v, _ := strconv.ParseUint(string(b[j+1:j+3]), 16, 8)
			out = utf8.AppendRune(out, rune(v))
			i = j + 3
		default:
			flush()
			if r, ok := map[byte]rune{'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v', '0': 0}[c]; ok {
				out = utf8.AppendRune(out, r)
			} else {
				out = append(out, c)
			}
			i = j + 1
		}
	}
	flush()
	return out
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isHex(b []byte) bool {
	for _, c := range b {
		if !isHexDigit(c) {
			return false
		}
	}
	return true
}

// htmlRef is an HTML character reference as the scrubber documents it:
// decimal or hex of up to 8 digits, or one of five names.
var htmlRef = regexp.MustCompile(`&(#[0-9]{1,8}|#[xX][0-9a-fA-F]{1,8}|amp|lt|gt|quot|apos);?`)

func htmlUnescape(b []byte) []byte {
	if bytes.IndexByte(b, '&') < 0 {
		return nil
	}
	return htmlRef.ReplaceAllFunc(b, func(m []byte) []byte {
		return []byte(html.UnescapeString(strings.TrimSuffix(string(m), ";") + ";"))
	})
}

// percentDecode decodes %XX (either case) and + as a space; a % that
// starts no escape stays.
func percentDecode(b []byte) []byte {
	if bytes.IndexByte(b, '%') < 0 && bytes.IndexByte(b, '+') < 0 {
		return nil
	}
	var out []byte
	for i := 0; i < len(b); i++ {
		if b[i] == '%' && i+3 <= len(b) {
			if s, err := url.PathUnescape(string(b[i : i+3])); err == nil {
				out = append(out, s...)
				i += 2
				continue
			}
		}
		if b[i] == '+' {
			out = append(out, ' ')
			continue
		}
		out = append(out, b[i])
	}
	return out
}

func isB64(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
}

// base64Runs decodes every run of base64 or base64url characters (8 or
// more) from each of its first four offsets; the pieces are joined by NUL.
func base64Runs(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		if !isB64(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && isB64(b[j]) {
			j++
		}
		if j-i >= 8 {
			run := strings.NewReplacer("-", "+", "_", "/").Replace(string(b[i:j]))
			for off := 0; off < 4 && off < len(run); off++ {
				s := run[off:]
				if len(s)%4 == 1 {
					s = s[:len(s)-1]
				}
				if d, err := base64.RawStdEncoding.DecodeString(s); err == nil {
					out = append(append(out, d...), 0)
				}
			}
		}
		i = j
	}
	return out
}

// hexRuns decodes every run of 12 or more hex digits from offsets 0 and 1.
func hexRuns(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		if !isHexDigit(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && isHexDigit(b[j]) {
			j++
		}
		if j-i >= 12 {
			for off := 0; off < 2; off++ {
				s := string(b[i+off : j])
				if d, err := hex.DecodeString(s[:len(s)/2*2]); err == nil {
					out = append(append(out, d...), 0)
				}
			}
		}
		i = j
	}
	return out
}

// An Encoding writes a secret as a server may reflect it. Stream
// encodings (base64, hex) encode the secret with what surrounds it, so
// Encode takes both: before+secret+after in that encoding.
type Encoding struct {
	Name   string
	Encode func(before, secret, after string, r *rand.Rand) string
	// Token: the output is made of RFC 9110 token characters when the
	// secret is (it can be a header name).
	Token bool
}

func each(s string, f func(r rune) string) string {
	var sb strings.Builder
	for _, r := range s {
		sb.WriteString(f(r))
	}
	return sb.String()
}

func uEscape(r rune, upper bool) string {
	f := "\\u%04x"
	if upper {
		f = "\\u%04X"
	}
	if r > 0xFFFF {
		a, b := utf16.EncodeRune(r)
		return fmt.Sprintf(f+f, a, b)
	}
	return fmt.Sprintf(f, r)
}

func jsonQuote(s string) string {
	var sb strings.Builder
	for _, r := range s {
		switch r {
		case '"', '\\':
			sb.WriteString("\\" + string(r))
		case '/':
			sb.WriteString("\\/")
		default:
			if r < 0x20 {
				sb.WriteString(uEscape(r, false))
			} else {
				sb.WriteRune(r)
			}
		}
	}
	return sb.String()
}

func around(before, after string, f func(string) string) func(string, string, string, *rand.Rand) string {
	return func(b, s, a string, _ *rand.Rand) string { return b + f(s) + a }
}

func stream(f func([]byte) string) func(string, string, string, *rand.Rand) string {
	return func(b, s, a string, _ *rand.Rand) string { return f([]byte(b + s + a)) }
}

func pct(s string, format string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&sb, format, s[i])
	}
	return sb.String()
}

// Encodings are the forms the scrubber claims to find (docs/host-api.md).
var Encodings = []Encoding{
	{Name: "raw", Encode: around("", "", func(s string) string { return s }), Token: true},
	{Name: "upper-case", Encode: around("", "", strings.ToUpper), Token: true},
	{Name: "json-u-lower", Encode: around("", "", func(s string) string { return each(s, func(r rune) string { return uEscape(r, false) }) })},
	{Name: "json-u-upper", Encode: around("", "", func(s string) string { return each(s, func(r rune) string { return uEscape(r, true) }) })},
	{Name: "json-mixed", Encode: func(b, s, a string, rnd *rand.Rand) string {
		return b + each(s, func(r rune) string {
			switch rnd.IntN(4) {
			case 0:
				return uEscape(r, rnd.IntN(2) == 0)
			case 1:
				if r == '/' || r == '"' || r == '\\' {
					return "\\" + string(r)
				}
			case 2:
				if r < 0x80 {
					return fmt.Sprintf("\\x%02x", r)
				}
			}
			return jsonQuote(string(r))
		}) + a
	}},
	{Name: "json-string", Encode: around("", "", jsonQuote)},
	{Name: "json-nested", Encode: around("", "", func(s string) string { return jsonQuote(each(s, func(r rune) string { return uEscape(r, false) })) })},
	{Name: "percent-upper", Encode: around("", "", func(s string) string { return pct(s, "%%%02X") }), Token: true},
	{Name: "percent-lower", Encode: around("", "", func(s string) string { return pct(s, "%%%02x") }), Token: true},
	{Name: "query-escape", Encode: around("", "", url.QueryEscape), Token: true},
	{Name: "percent-twice", Encode: around("", "", func(s string) string { return url.QueryEscape(url.QueryEscape(s)) }), Token: true},
	{Name: "html-decimal", Encode: around("", "", func(s string) string { return each(s, func(r rune) string { return fmt.Sprintf("&#%d;", r) }) })},
	{Name: "html-hex", Encode: around("", "", func(s string) string { return each(s, func(r rune) string { return fmt.Sprintf("&#x%X;", r) }) })},
	{Name: "html-escape", Encode: around("", "", html.EscapeString)},
	{Name: "base64", Encode: stream(base64.StdEncoding.EncodeToString)},
	{Name: "base64-raw", Encode: stream(base64.RawStdEncoding.EncodeToString)},
	{Name: "base64url", Encode: stream(base64.URLEncoding.EncodeToString)},
	{Name: "base64url-raw", Encode: stream(base64.RawURLEncoding.EncodeToString), Token: true},
	{Name: "base64-json", Encode: stream(func(b []byte) string { return jsonQuote(base64.StdEncoding.EncodeToString(b)) })},
	{Name: "base64-percent", Encode: stream(func(b []byte) string { return url.QueryEscape(base64.StdEncoding.EncodeToString(b)) }), Token: true},
	{Name: "base64-bearer", Encode: func(b, s, a string, _ *rand.Rand) string {
		return base64.StdEncoding.EncodeToString([]byte(b + "Bearer " + s + a))
	}},
	{Name: "hex", Encode: stream(hex.EncodeToString), Token: true},
	{Name: "hex-upper", Encode: stream(func(b []byte) string { return strings.ToUpper(hex.EncodeToString(b)) }), Token: true},
}

// Reflect is the handler of a server that reflects the values of the
// request headers named in headers, whole and without the word before
// their first space ("Bearer …", "token …"), in every Encoding: in the
// body (each reflection written in two pieces flushed apart, so a client
// reads it in two), in header values (X-V-<encoding>), in header names
// (X-N<i>-<reflection>, for the encodings that make a token), and, on
// /status, in the status text of a raw HTTP/1.1 response. /length answers
// the values raw with a Content-Length.
func Reflect(headers []string, fail func(error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rnd := rand.New(rand.NewPCG(3, 4))
		var values []string
		for _, h := range headers {
			v := r.Header.Get(h)
			values = append(values, v)
			if _, bare, ok := strings.Cut(v, " "); ok {
				values = append(values, bare)
			}
		}
		switch r.URL.Path {
		case "/status", "/badname":
			conn, buf, err := http.NewResponseController(w).Hijack()
			if err != nil {
				fail(err)
				return
			}
			defer conn.Close()
			if r.URL.Path == "/status" {
				fmt.Fprintf(buf, "HTTP/1.1 401 %s %s\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno", values[0], Encodings[2].Encode("", values[len(values)-1], "", rnd))
			} else { // a header name with a space in it
				fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nX-%s: 1\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok", values[0])
			}
			buf.Flush()
			return
		case "/length":
			body := "you sent " + strings.Join(values, " and ")
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.Write([]byte(body))
			return
		}
		for i, v := range values {
			for _, enc := range Encodings {
				w.Header().Add("X-V-"+enc.Name, enc.Encode("seen ", v, ";", rnd))
				if name := enc.Encode("", v, "", rnd); enc.Token && isToken(name) {
					w.Header().Set(fmt.Sprintf("X-N%d-%s", i, name), "1")
				}
			}
		}
		w.Header().Set("Content-Type", "text/plain")
		flusher := w.(http.Flusher)
		for _, v := range values {
			for _, enc := range Encodings {
				text := enc.Encode(`{"seen":"`, v, `"}`, rnd)
				half := len(text) / 2
				fmt.Fprintf(w, "%s: %s", enc.Name, text[:half])
				flusher.Flush()
				fmt.Fprintf(w, "%s\n", text[half:])
				flusher.Flush()
			}
		}
	})
}

// isToken: s is an RFC 9110 token (it can be a header name).
func isToken(s string) bool {
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
