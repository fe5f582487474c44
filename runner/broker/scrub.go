package broker

import (
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The scrubber is the one definition of how a secret value is hidden from
// what a run shows: the response the page gets (body, header names and
// values), the audit log, the run record (result, logs, errors) and the
// fixtures `run --record` writes. docs/host-api.md ("What is scrubbed")
// lists what it recognises and what it cannot.
//
// Every occurrence of a secret is replaced by its marker, "••••(<name>)",
// in these forms, which are what servers reflect:
//
//   - the value itself, ASCII case folded;
//   - the value with any of its characters escaped, in any mix: JSON and
//     JavaScript escapes (\u0072, hex digits in either case, surrogate pairs
//     for characters outside the BMP, \x72, \/ \" \' and the other short
//     escapes), nested JSON strings (up to MaxEscapeDepth backslashes before
//     the escape), percent-encoding (%72 or %2F in either case, + for a
//     space, %25-encoded up to three more times) and HTML character
//     references (&#114; &#x72; &amp; &quot; …);
//   - the value base64- and base64url-encoded inside a longer stream, at
//     each of the three alignments, padded or not (the characters that
//     depend only on the secret's bytes are matched, so what surrounds it,
//     a "Bearer " before it or "user:" of Basic credentials, does not
//     matter), and hex-encoded, in either case; these forms are themselves
//     matched through the escapes above (a JSON "\/" in base64);
//   - for a secret that is base64 text (a Basic credential), its decoded
//     text in the forms above.
//
// Header names are matched with ASCII case folding in every form (net/http
// and the page change the case of names). It is safe for concurrent use.
type scrubber struct {
	forms []scrubForm
	// first marks the bytes a form's encoding can start with; pair the
	// pairs of first two bytes (a 64 Ki-bit set), so the scan rejects
	// most positions with two table reads.
	first [256]bool
	pair  [1 << 16 / 64]uint64
	// window is the longest encoding of a form: a stream keeps that many
	// bytes back, so a secret split between two reads is still found.
	window int
}

// scrubForm is one string searched for (the secret, or one of its base64
// or hex encodings) and the secret it stands for.
type scrubForm struct {
	runes  []rune
	marker string
	// fold: ASCII letters match in either case (the value and its hex
	// form); base64 forms are case-sensitive except in header names.
	fold  bool
	first [256]bool
}

// MaxEscapeDepth is the longest run of backslashes recognised before an
// escape (\\\u0072 is the \u0072 of a JSON string inside a JSON string):
// 15 is four levels of nesting.
const MaxEscapeDepth = 15

// minEncodedSecret is the shortest secret whose base64 and hex forms are
// searched: a shorter one would match unrelated base64 text.
const minEncodedSecret = 6

// maxHTMLDigits bounds the digits of an HTML character reference.
const maxHTMLDigits = 8

// namedSecret is one secret value and the credential it belongs to.
type namedSecret struct{ name, value string }

// secretMarker is what a secret is replaced with.
func scrubMarker(name string) string { return "••••(" + name + ")" }

// newScrubber returns the scrubber of secrets (nil when there is none).
func newScrubber(secrets []namedSecret) *scrubber {
	s := &scrubber{}
	seen := map[string]bool{}
	add := func(text, marker string, fold bool) {
		if text == "" || !utf8.ValidString(text) || seen[text] {
			return
		}
		seen[text] = true
		f := scrubForm{runes: []rune(text), marker: marker, fold: fold}
		s.forms = append(s.forms, f)
	}
	for _, sec := range secrets {
		if sec.value == "" {
			continue
		}
		m := scrubMarker(sec.name)
		add(sec.value, m, true)
		values := []string{sec.value}
		if d, ok := decodedText(sec.value); ok {
			add(d, m, true)
			values = append(values, d)
		}
		for _, v := range values {
			if len(v) < minEncodedSecret {
				continue
			}
			add(hex.EncodeToString([]byte(v)), m, true)
			for _, core := range base64Cores([]byte(v)) {
				add(core, m, false)
				add(strings.NewReplacer("+", "-", "/", "_").Replace(core), m, false)
			}
		}
	}
	if len(s.forms) == 0 {
		return nil
	}
	for i := range s.forms {
		f := &s.forms[i]
		w := 0
		for _, r := range f.runes {
			w += maxEncodedRune(r)
		}
		s.window = max(s.window, w)
		for _, c := range firstBytes(f.runes[0]) {
			f.first[c] = true
			s.first[c] = true
		}
		// The second byte: what follows the first byte in the encoding of
		// the first rune, or what the second rune can start with.
		next := func(c byte) {
			if len(f.runes) == 1 {
				s.setPairs(c, nil)
				return
			}
			s.setPairs(c, firstBytes(f.runes[1]))
		}
		for _, c := range []byte{'\\', '%', '&'} {
			s.setPairs(c, nil)
		}
		if f.runes[0] == ' ' {
			next('+')
		}
		for _, v := range literalVariants(f.runes[0]) {
			if len(v) > 1 {
				s.setPairs(v[0], []byte{v[1], '%'})
			} else {
				next(v[0])
			}
		}
	}
	return s
}

// setPairs marks a followed by each of next (nil: by any byte).
func (s *scrubber) setPairs(a byte, next []byte) {
	set := func(b byte) {
		i := int(a)<<8 | int(b)
		s.pair[i/64] |= 1 << (i % 64)
	}
	if next == nil {
		for n := 0; n < 256; n++ {
			set(byte(n))
		}
	}
	for _, n := range next {
		set(n)
	}
}

func (s *scrubber) hasPair(a, b byte) bool {
	i := int(a)<<8 | int(b)
	return s.pair[i/64]&(1<<(i%64)) != 0
}

// decodedText is the text a base64 secret decodes to, when it is printable
// UTF-8 (a Basic credential's "user:password"), else false.
func decodedText(v string) (string, bool) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		d, err := enc.DecodeString(v)
		if err != nil || len(d) < 2 || !utf8.Valid(d) {
			continue
		}
		printable := true
		for _, r := range string(d) {
			if r < 0x20 || r == 0x7f || r == utf8.RuneError {
				printable = false
				break
			}
		}
		if printable {
			return string(d), true
		}
	}
	return "", false
}

// base64Cores are the characters of the standard base64 encoding of v that
// depend on v's bytes alone, when v starts at offset 0, 1 or 2 of a group
// of three bytes in a longer stream.
func base64Cores(v []byte) []string {
	var out []string
	for k := 0; k < 3; k++ {
		buf := make([]byte, k+len(v)+2)
		copy(buf[k:], v)
		enc := base64.StdEncoding.EncodeToString(buf)
		// character i holds bits [6i, 6i+6) of the stream; v's bits are
		// [8k, 8(k+len)).
		from := (8*k + 5) / 6
		to := 8 * (k + len(v)) / 6
		if to-from >= 4 {
			out = append(out, enc[from:to])
		}
	}
	return out
}

// maxEncodedRune is the longest encoding of r that the matcher accepts.
func maxEncodedRune(r rune) int {
	n := MaxEscapeDepth + 5 // \…\u0072
	if r > 0xFFFF {
		n *= 2 // a surrogate pair
	}
	n = max(n, 3+maxHTMLDigits+1, utf8.RuneLen(r)*9) // &#x…; and %252525XX per byte
	return n
}

// literalVariants are the UTF-8 encodings of r and of the runes it
// equals with case folded.
func literalVariants(r rune) [][]byte {
	out := [][]byte{utf8.AppendRune(nil, r)}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		out = append(out, utf8.AppendRune(nil, f))
	}
	return out
}

// firstBytes are the bytes an encoding of r can start with.
func firstBytes(r rune) []byte {
	out := []byte{'\\', '%', '&'}
	for _, v := range literalVariants(r) {
		out = append(out, v[0])
	}
	if r == ' ' {
		out = append(out, '+')
	}
	return out
}

// Bytes returns p with every secret replaced (p itself when none is in
// it). header: p is a header name or value (case folded in every form).
func (s *scrubber) bytes(p []byte, header bool) []byte {
	if s == nil || len(p) == 0 {
		return p
	}
	out, done, changed := s.scan(nil, p, true, header)
	if !changed {
		return p
	}
	return append(out, p[done:]...)
}

// text is bytes for a string.
func (s *scrubber) text(v string, header bool) string {
	if s == nil || v == "" {
		return v
	}
	out, done, changed := s.scan(nil, []byte(v), true, header)
	if !changed {
		return v
	}
	return string(out) + v[done:]
}

// header returns h with every name and value scrubbed (h itself when no
// secret is in it).
func (s *scrubber) header(h http.Header) http.Header {
	if s == nil || len(h) == 0 {
		return h
	}
	out := make(http.Header, len(h))
	for k, vs := range h {
		cvs := make([]string, len(vs))
		for i, v := range vs {
			cvs[i] = s.text(v, true)
		}
		name := s.text(k, true)
		out[name] = append(out[name], cvs...)
	}
	return out
}

// scan appends to dst the scrubbed text of p up to the point it could
// decide (all of p when final; else up to where a match could still need
// bytes not yet read) and returns how much of p that covers. changed says
// whether a secret was replaced. With dst nil and nothing replaced, dst
// stays nil (the caller keeps p).
func (s *scrubber) scan(dst, p []byte, final, header bool) (out []byte, done int, changed bool) {
	emitted := 0 // p[:emitted] is in dst
	i := 0
	limit := len(p)
	if !final {
		limit = len(p) - s.window
	}
	for i < limit {
		c := p[i]
		if !s.first[c] {
			i++
			continue
		}
		var n byte
		if i+1 < len(p) {
			n = p[i+1]
		}
		if !s.hasPair(c, n) {
			i++
			continue
		}
		end, marker := s.longest(p, i, header)
		if end < 0 {
			i++
			continue
		}
		// A later match overlapping this one extends it: the union is
		// replaced, so no tail of a longer encoding survives.
		markers := []string{marker}
		complete := true
		for j := i + 1; j < end; j++ {
			if !final && j+s.window > len(p) {
				complete = false
				break
			}
			if !s.first[p[j]] {
				continue
			}
			if e2, m2 := s.longest(p, j, header); e2 > end {
				end = e2
				if markers[len(markers)-1] != m2 {
					markers = append(markers, m2)
				}
			}
		}
		if !complete {
			break // decided once more bytes are in
		}
		if dst == nil {
			dst = make([]byte, 0, len(p)+64)
		}
		dst = append(dst, p[emitted:i]...)
		for _, m := range markers {
			dst = append(dst, m...)
		}
		changed = true
		i, emitted = end, end
	}
	if i > len(p) {
		i = len(p)
	}
	if i < emitted {
		i = emitted
	}
	if dst != nil || !final {
		dst = append(dst, p[emitted:i]...)
		emitted = i
	}
	return dst, emitted, changed
}

// longest is the end of the longest form matching at p[i:] and its
// marker, or -1.
func (s *scrubber) longest(p []byte, i int, header bool) (int, string) {
	best, marker := -1, ""
	for k := range s.forms {
		f := &s.forms[k]
		if !f.first[p[i]] {
			continue
		}
		if e := f.match(p, i, f.fold || header); e > best {
			best, marker = e, f.marker
		}
	}
	return best, marker
}

// maxAlternatives bounds the positions a match tracks at once (the ways
// the text so far can be read as the form's first runes).
const maxAlternatives = 16

// match is the end of the longest encoding of f starting at p[i], or -1.
// It reads the text as a small automaton: the set of positions where the
// encoding of the form's first j runes can end.
func (f *scrubForm) match(p []byte, i int, fold bool) int {
	var a, b [maxAlternatives]int
	cur, next := append(a[:0], i), b[:0]
	for _, r := range f.runes {
		next = next[:0]
		for _, q := range cur {
			next = runeEnds(next, p, q, r, fold)
		}
		if len(next) == 0 {
			return -1
		}
		cur, next = next, cur
	}
	best := -1
	for _, q := range cur {
		best = max(best, q)
	}
	return best
}

// addEnd adds q to the set ends (bounded, without duplicates).
func addEnd(ends []int, q int) []int {
	for _, e := range ends {
		if e == q {
			return ends
		}
	}
	if len(ends) == cap(ends) {
		return ends
	}
	return append(ends, q)
}

func sameRune(a, b rune, fold bool) bool {
	if a == b {
		return true
	}
	if !fold {
		return false
	}
	if a < utf8.RuneSelf && b < utf8.RuneSelf {
		return lowerASCII(byte(a)) == lowerASCII(byte(b))
	}
	return unicode.ToLower(a) == unicode.ToLower(b)
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c | 0x20
	}
	return c
}

// runeEnds adds to ends every position where an encoding of r starting at
// p[q] ends.
func runeEnds(ends []int, p []byte, q int, r rune, fold bool) []int {
	if q >= len(p) {
		return ends
	}
	var buf [4]byte
	n := utf8.EncodeRune(buf[:], r)
	// The rune as it is (its bytes raw or percent-encoded, each).
	ends = bytesEnds(ends, p, q, buf[:n], fold)
	if fold && p[q] >= utf8.RuneSelf { // É for é, K (Kelvin) for k
		if c, size := utf8.DecodeRune(p[q:]); c != r && sameRune(c, r, true) {
			ends = addEnd(ends, q+size)
		}
	}
	switch p[q] {
	case '+':
		if r == ' ' {
			ends = addEnd(ends, q+1)
		}
	case '\\':
		ends = escapeEnds(ends, p, q, r, fold)
	case '&':
		if e := htmlEnd(p, q, r, fold); e >= 0 {
			ends = addEnd(ends, e)
			if e < len(p) && p[e] == ';' {
				ends = addEnd(ends, e+1)
			}
		}
	}
	return ends
}

// bytesEnds adds the ends of the UTF-8 bytes b at p[q:], each one raw
// or percent-encoded (%XX, %25XX, …).
func bytesEnds(ends []int, p []byte, q int, b []byte, fold bool) []int {
	var x, y [maxAlternatives]int
	cur, next := append(x[:0], q), y[:0]
	for _, c := range b {
		next = next[:0]
		for _, q := range cur {
			if q >= len(p) {
				continue
			}
			if p[q] == c || fold && c < utf8.RuneSelf && lowerASCII(p[q]) == lowerASCII(c) {
				next = addEnd(next, q+1)
			}
			if p[q] == '%' {
				next = percentEnds(next, p, q, c, fold)
			}
		}
		if len(next) == 0 {
			return ends
		}
		cur, next = next, cur
	}
	for _, e := range cur {
		ends = addEnd(ends, e)
	}
	return ends
}

// percentEnds adds the ends of %XX decoding to c, after up to three %25
// layers (%2572 is %72 encoded once more); for c == '%', every layer.
func percentEnds(ends []int, p []byte, q int, c byte, fold bool) []int {
	q++ // the '%'
	for layer := 0; layer < 4; layer++ {
		v, ok := hexAt(p, q, 2)
		if !ok {
			return ends
		}
		if byte(v) == c || fold && c < utf8.RuneSelf && lowerASCII(byte(v)) == lowerASCII(c) || c == ' ' && v == '+' { // %2B: a + (a space) one layer in
			ends = addEnd(ends, q+2)
		}
		if v != '%' {
			return ends
		}
		q += 2
	}
	return ends
}

// hexAt reads n hex digits (either case) at p[q:].
func hexAt(p []byte, q, n int) (rune, bool) {
	if q+n > len(p) {
		return 0, false
	}
	var v rune
	for _, c := range p[q : q+n] {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		v = v<<4 | rune(d)
	}
	return v, true
}

// shortEscapes are the escapes of JSON and JavaScript that are not the
// character itself.
var shortEscapes = map[byte]rune{'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v', '0': 0}

// escapeEnds matches a backslash escape of r at p[q] ('\\'): a run of up
// to MaxEscapeDepth backslashes, then u+4 hex digits (a surrogate pair for
// r outside the BMP), x+2 hex digits, a short escape or the character
// itself; for r == '\\', the run itself.
func escapeEnds(ends []int, p []byte, q int, r rune, fold bool) []int {
	k := 0
	for q+k < len(p) && p[q+k] == '\\' && k <= MaxEscapeDepth {
		k++
	}
	if k > MaxEscapeDepth {
		return ends
	}
	if r == '\\' {
		for j := 1; j <= k; j++ {
			ends = addEnd(ends, q+j)
		}
	}
	e := q + k
	if e >= len(p) {
		return ends
	}
	switch x := p[e]; {
	case x == 'u':
		v, ok := hexAt(p, e+1, 4)
		if !ok {
			break
		}
		if v >= 0xD800 && v < 0xDC00 && r > 0xFFFF {
			// a surrogate pair: the low half after its own backslashes
			e2 := e + 5
			k2 := 0
			for e2+k2 < len(p) && p[e2+k2] == '\\' && k2 <= MaxEscapeDepth {
				k2++
			}
			if k2 == 0 || k2 > MaxEscapeDepth || e2+k2 >= len(p) || p[e2+k2] != 'u' {
				break
			}
			lo, ok := hexAt(p, e2+k2+1, 4)
			if !ok || lo < 0xDC00 || lo > 0xDFFF {
				break
			}
			if (v-0xD800)<<10|(lo-0xDC00)+0x10000 == r {
				ends = addEnd(ends, e2+k2+5)
			}
			break
		}
		if sameRune(v, r, fold) {
			ends = addEnd(ends, e+5)
		}
	case x == 'x':
		if v, ok := hexAt(p, e+1, 2); ok && sameRune(v, r, fold) {
			ends = addEnd(ends, e+3)
		}
	}
	if v, ok := shortEscapes[p[e]]; ok && v == r {
		ends = addEnd(ends, e+1)
	}
	// An identity escape (\/ \" \' \q): the character after the run.
	if c, size := utf8.DecodeRune(p[e:]); c != utf8.RuneError && sameRune(c, r, fold) {
		ends = addEnd(ends, e+size)
	}
	return ends
}

// htmlNamed are the named character references servers write.
var htmlNamed = map[string]rune{"amp": '&', "lt": '<', "gt": '>', "quot": '"', "apos": '\''}

// htmlEnd matches an HTML character reference of r at p[q] ('&'), without
// its closing ';' (the caller takes it when present), or returns -1.
func htmlEnd(p []byte, q int, r rune, fold bool) int {
	e := q + 1
	if e < len(p) && p[e] == '#' {
		e++
		base := 10
		if e < len(p) && (p[e] == 'x' || p[e] == 'X') {
			base = 16
			e++
		}
		var v rune
		start := e
		for e < len(p) && e-start < maxHTMLDigits {
			c := p[e]
			var d rune
			switch {
			case c >= '0' && c <= '9':
				d = rune(c - '0')
			case base == 16 && c >= 'a' && c <= 'f':
				d = rune(c-'a') + 10
			case base == 16 && c >= 'A' && c <= 'F':
				d = rune(c-'A') + 10
			default:
				goto done
			}
			v = v*rune(base) + d
			e++
		}
	done:
		if e == start || !sameRune(v, r, fold) {
			return -1
		}
		return e
	}
	for name, v := range htmlNamed {
		if v == r && e+len(name) <= len(p) && string(p[e:e+len(name)]) == name {
			return e + len(name)
		}
	}
	return -1
}

// stream scrubs a body read in pieces: Write each piece as it arrives,
// then Close. It keeps back the last window bytes of what it was given,
// so a secret split between two pieces is found whole. It stops keeping
// output past limit bytes (Over says so).
type scrubStream struct {
	s       *scrubber
	pending []byte
	pieces  [][]byte
	size    int
	limit   int
	over    bool
}

func (s *scrubber) stream(limit int) *scrubStream {
	return &scrubStream{s: s, limit: limit}
}

// Write scrubs p (never fails: a body over the limit is reported by Over).
func (st *scrubStream) Write(p []byte) (int, error) {
	if st.over {
		return len(p), nil
	}
	st.pending = append(st.pending, p...)
	st.drain(false)
	return len(p), nil
}

func (st *scrubStream) drain(final bool) {
	if st.over {
		st.pending = nil
		return
	}
	if !final && len(st.pending) <= st.s.window {
		return
	}
	out, done, _ := st.s.scan(make([]byte, 0, len(st.pending)), st.pending, final, false)
	if len(out) > 0 {
		st.size += len(out)
		if st.size > st.limit {
			st.over = true
			st.pieces = nil
		} else {
			st.pieces = append(st.pieces, out)
		}
	}
	st.pending = append(st.pending[:0], st.pending[done:]...)
}

// Close scrubs what is left and returns the whole scrubbed body (nil when
// it went over the limit).
func (st *scrubStream) Close() []byte {
	st.drain(true)
	if st.over {
		return nil
	}
	out := make([]byte, 0, st.size)
	for _, p := range st.pieces {
		out = append(out, p...)
	}
	st.pieces = nil
	return out
}

// Over reports whether the scrubbed body went over the limit.
func (st *scrubStream) Over() bool { return st.over }
