// Package scrub is the one definition of how a secret value is hidden
// from what a person or a page sees: the brokered response (body, header
// names and values), the run's audit log and record, the fixtures
// `run --record` writes (internal/runner/broker), and the messages, related
// messages and fix titles `check` and the editor show (analysis). It
// imports only the standard library.
package scrub

import (
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// A Scrubber hides secret values: docs/host-api.md ("What is scrubbed")
// lists what it recognises and what it cannot.
//
// Every occurrence of a secret is replaced by its marker, Marker(name),
// in these forms, which are what servers reflect:
//
//   - the value itself, case folded (ASCII and Unicode simple folding);
//   - the value with any of its characters escaped, in any mix: JSON and
//     JavaScript escapes (\u0072, hex digits in either case, surrogate pairs
//     for characters outside the BMP, \x72, \/ \" \' and the other short
//     escapes), nested JSON strings (up to MaxEscapeDepth backslashes before
//     the escape), percent-encoding (%72 or %2F in either case, + for a
//     space, %25-encoded up to three more times) and HTML character
//     references (&#114; &#x72; of up to maxHTMLDigits digits, ';'
//     optional; &amp; &lt; &gt; &quot; &apos;);
//   - the value base64- and base64url-encoded inside a longer stream, at
//     each of the three alignments, padded or not (the characters that
//     depend only on the secret's bytes are matched, so what surrounds it,
//     a "Bearer " before it or "user:" of Basic credentials, does not
//     matter), and hex-encoded, in either case; these forms are themselves
//     matched through the escapes above (a JSON "\/" in base64);
//   - for a secret that is base64 text (a Basic credential), its decoded
//     text in the forms above.
//
// Header names are matched with case folding in every form (net/http and
// the page change the case of names). The cost is linear in the text: one
// bit read per byte rejects nearly every position, and the text is decoded
// only where an encoding of a form's first rune can start. It is safe for
// concurrent use.
type Scrubber struct {
	forms []scrubForm
	// pre[0] is the prefilter of bodies, pre[1] of header names and
	// values (every form case folded).
	pre [2]prefilter
	// ascii and other list the forms by their first rune, lower-cased.
	ascii [utf8.RuneSelf][]int
	other map[rune][]int
	// markers are the distinct markers of the forms.
	markers []string
	// window is the longest encoding of a form: a stream keeps that many
	// bytes back, so a secret split between two reads is still found.
	window int
}

// prefilter rejects most positions of a text: pair is the set of first
// two bytes of the forms' encodings (64 Ki bits), first their first bytes.
type prefilter struct {
	first [256]bool
	pair  [1 << 16 / 64]uint64
}

// scrubForm is one string searched for (the secret, or one of its base64
// or hex encodings) and the secret it stands for.
type scrubForm struct {
	runes  []rune
	marker string
	// fold: letters match in either case (the value and its hex form);
	// base64 forms are case-sensitive except in header names.
	fold bool
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

// Marker is what stands for the secret of name wherever it is hidden:
// "••••(<name>)".
func Marker(name string) string { return "••••(" + name + ")" }

// Secret is a value to hide and the name its marker shows (a credential's
// name).
type Secret struct{ Name, Value string }

// New returns the scrubber of secrets, each replaced by Marker(Name); nil
// (which scrubs nothing) when no secret has a value.
//
// A Scrubber is never changed once made, so the scrubbers of the last
// sets of secrets are kept (a tool run makes one for its dev secrets on
// every run, ~10 µs): the same secrets give the same scrubber.
func New(secrets ...Secret) *Scrubber {
	pairs := make([]string, 0, 2*len(secrets))
	var key strings.Builder
	for _, sec := range secrets {
		m := Marker(sec.Name)
		pairs = append(pairs, sec.Value, m)
		for _, t := range [2]string{sec.Value, m} {
			key.WriteString(strconv.Itoa(len(t)))
			key.WriteByte(':')
			key.WriteString(t)
		}
	}
	k := key.String()
	made.Lock()
	s, ok := made.m[k]
	made.Unlock()
	if ok {
		return s
	}
	s = newScrubber(pairs)
	made.Lock()
	if made.m == nil || len(made.m) >= maxMade {
		made.m = map[string]*Scrubber{}
	}
	made.m[k] = s
	made.Unlock()
	return s
}

// made keeps the scrubbers New made last, by their secrets (at most
// maxMade sets; it starts over past that).
var made struct {
	sync.Mutex
	m map[string]*Scrubber
}

const maxMade = 16

// newScrubber returns the scrubber of pairs: a secret value, then its
// marker, and so on (nil when there is no secret).
func newScrubber(pairs []string) *Scrubber {
	s := &Scrubber{}
	seen := map[string]bool{}
	add := func(text, marker string, fold bool) {
		if text == "" || !utf8.ValidString(text) || seen[text] {
			return
		}
		seen[text] = true
		f := scrubForm{runes: []rune(text), marker: marker, fold: fold}
		s.forms = append(s.forms, f)
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		value, m := pairs[i], pairs[i+1]
		if value == "" {
			continue
		}
		add(value, m, true)
		values := []string{value}
		if d, ok := decodedText(value); ok {
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
				add(toBase64URL.Replace(core), m, false)
			}
		}
	}
	if len(s.forms) == 0 {
		return nil
	}
	s.other = map[rune][]int{}
	for i := range s.forms {
		f := &s.forms[i]
		if !slices.Contains(s.markers, f.marker) {
			s.markers = append(s.markers, f.marker)
		}
		w := 0
		for _, r := range f.runes {
			w += maxEncodedRune(r)
		}
		s.window = max(s.window, w)
		if k := unicode.ToLower(f.runes[0]); k < utf8.RuneSelf {
			s.ascii[k] = append(s.ascii[k], i)
		} else {
			s.other[k] = append(s.other[k], i)
		}
		s.pre[0].add(f, f.fold)
		s.pre[1].add(f, true)
	}
	return s
}

// add marks the first bytes and pairs of f's encodings.
func (pf *prefilter) add(f *scrubForm, fold bool) {
	var buf, buf2 [16]byte
	for _, c := range firstBytes(buf[:0], f.runes[0], fold) {
		pf.first[c] = true
	}
	// The second byte: what follows the first byte in the encoding of
	// the first rune, or what the second rune can start with.
	next := func(c byte) {
		if len(f.runes) == 1 {
			pf.setPairs(c, nil)
			return
		}
		pf.setPairs(c, firstBytes(buf2[:0], f.runes[1], fold))
	}
	vs, nv := literalVariants(f.runes[0], fold)
	// What may follow an escape's first byte when it encodes the first
	// rune: \u, \x, a longer run, the rune itself; %25 or the high hex
	// digit of its first byte; &# or a named reference.
	esc := append(buf[:0], 'u', 'x', '\\', 'b', 'f', 'n', 'r', 't', 'v', '0')
	pct := append(buf2[:0], '2')
	for _, v := range vs[:nv] {
		esc = append(esc, v.b[0])
		pct = append(pct, "0123456789ABCDEF"[v.b[0]>>4], "0123456789abcdef"[v.b[0]>>4])
	}
	pf.setPairs('\\', esc)
	pf.setPairs('%', pct)
	amp := append(buf[:0], '#')
	for _, n := range htmlNamed {
		if sameRune(n.r, f.runes[0], fold) {
			amp = append(amp, n.name[0])
		}
	}
	pf.setPairs('&', amp)
	if f.runes[0] == ' ' {
		next('+')
	}
	for _, v := range vs[:nv] {
		if v.n > 1 {
			pf.setPairs(v.b[0], []byte{v.b[1], '%'})
		} else {
			next(v.b[0])
		}
	}
}

// setPairs marks a followed by each of next (nil: by any byte).
func (pf *prefilter) setPairs(a byte, next []byte) {
	set := func(b byte) {
		i := int(a)<<8 | int(b)
		pf.pair[i/64] |= 1 << (i % 64)
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

func (pf *prefilter) hasPair(a, b byte) bool {
	i := int(a)<<8 | int(b)
	return pf.pair[i/64]&(1<<(i%64)) != 0
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

// toBase64URL turns standard base64 into base64url.
var toBase64URL = strings.NewReplacer("+", "-", "/", "_")

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

// variant is the UTF-8 encoding of one rune.
type variant struct {
	b [utf8.UTFMax]byte
	n int
}

// literalVariants are the UTF-8 encodings of r and, with fold, of the
// runes it equals with case folded (at most 4: the largest fold orbit).
func literalVariants(r rune, fold bool) (vs [4]variant, n int) {
	vs[0].n = utf8.EncodeRune(vs[0].b[:], r)
	n = 1
	for f := unicode.SimpleFold(r); fold && f != r && n < len(vs); f = unicode.SimpleFold(f) {
		vs[n].n = utf8.EncodeRune(vs[n].b[:], f)
		n++
	}
	return vs, n
}

// firstBytes appends to dst the bytes an encoding of r can start with.
func firstBytes(dst []byte, r rune, fold bool) []byte {
	dst = append(dst, '\\', '%', '&')
	vs, n := literalVariants(r, fold)
	for _, v := range vs[:n] {
		dst = append(dst, v.b[0])
	}
	if r == ' ' {
		dst = append(dst, '+')
	}
	return dst
}

// Bytes returns p with every secret replaced (p itself when none is in
// it).
func (s *Scrubber) Bytes(p []byte) []byte { return s.bytes(p, false) }

// Text is Bytes for a string (v itself when no secret is in it).
func (s *Scrubber) Text(v string) string { return s.text(v, false) }

// HeaderText is Text for a header name or value: every form is matched
// with case folded (net/http and the page change the case of names).
func (s *Scrubber) HeaderText(v string) string { return s.text(v, true) }

// bytes returns p with every secret replaced (p itself when none is in
// it). header: p is a header name or value (case folded in every form).
func (s *Scrubber) bytes(p []byte, header bool) []byte {
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
func (s *Scrubber) text(v string, header bool) string {
	if s == nil || v == "" {
		return v
	}
	out, done, changed := s.scan(nil, []byte(v), true, header)
	if !changed {
		return v
	}
	return string(out) + v[done:]
}

// Header returns h with every name and value scrubbed as HeaderText does
// (h itself when the scrubber is nil or h empty; a new map otherwise).
func (s *Scrubber) Header(h http.Header) http.Header {
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
func (s *Scrubber) scan(dst, p []byte, final, header bool) (out []byte, done int, changed bool) {
	pf := &s.pre[0]
	if header {
		pf = &s.pre[1]
	}
	emitted := 0 // p[:emitted] is in dst
	i := 0
	limit := len(p)
	if !final {
		limit = len(p) - s.window
	}
	for i < limit {
		// The hot loop: one bit read per byte rejects nearly every
		// position (the last byte has no pair: it is read as followed by
		// NUL, which the pair set allows wherever any byte may follow).
		if i+1 < len(p) {
			for i < limit-1 {
				k := int(p[i])<<8 | int(p[i+1])
				if pf.pair[k>>6]&(1<<(k&63)) != 0 {
					break
				}
				i++
			}
		}
		c := p[i]
		if !pf.hasPair(c, next(p, i)) || c == '%' && !s.percentMayStart(p, i) {
			i++
			continue
		}
		if c == '\\' && s.ascii['\\'] == nil {
			// A run of backslashes is tried once, from where its last
			// MaxEscapeDepth backslashes begin: an escape can start
			// nowhere else in it (a longer run is escaped backslashes
			// before an escape, "C:\\\\" before a reflection), and
			// starting later reads the same escape.
			if i > emitted && p[i-1] == '\\' {
				i++
				continue
			}
			k := 1
			for i+k < len(p) && p[i+k] == '\\' {
				k++
			}
			if k > MaxEscapeDepth {
				i += k - MaxEscapeDepth
				if i >= limit {
					break
				}
			}
		}
		end, marker := s.longest(p, i, header)
		if end < 0 {
			i++
			continue
		}
		if m := s.markerAround(p, i, end); m > 0 {
			i = m // a secret inside a marker is the marker's own text
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
			if !pf.first[p[j]] {
				continue
			}
			if e2, m2 := s.longest(p, j, header); e2 > end && s.markerAround(p, j, e2) < 0 {
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

// markerAround is the end of the scrubber's own marker that holds
// p[i:end] in p, or -1. A secret that is part of its marker ("key" in
// "••••(api_key)") is not replaced there: scrubbing twice changes nothing,
// and the marker says no more than plugin.json does.
func (s *Scrubber) markerAround(p []byte, i, end int) int {
	for _, m := range s.markers {
		for st := max(0, end-len(m)); st <= i; st++ {
			if st+len(m) <= len(p) && string(p[st:st+len(m)]) == m {
				return st + len(m)
			}
		}
	}
	return -1
}

// next is the byte after p[i], or NUL at the end.
func next(p []byte, i int) byte {
	if i+1 < len(p) {
		return p[i+1]
	}
	return 0
}

// longest is the end of the longest form matching at p[i:] and its
// marker, or -1. The text at i is decoded once; only the forms whose first
// rune it can be are matched further.
func (s *Scrubber) longest(p []byte, i int, header bool) (int, string) {
	var buf [maxAlternatives]unit
	var starts [maxAlternatives]int
	us := units(buf[:0], p, i)
	best, marker := -1, ""
	for j, u := range us {
		if seen(us[:j], u.r) {
			continue // its forms were tried from every end of its readings
		}
		var list []int
		if u.r < utf8.RuneSelf {
			list = s.ascii[lowerASCII(byte(u.r))]
		} else {
			list = s.other[unicode.ToLower(u.r)]
		}
		if list == nil {
			continue
		}
		ends := starts[:0]
		for _, v := range us[j:] {
			if v.r == u.r {
				ends = addEnd(ends, v.end)
			}
		}
		for _, fi := range list {
			f := &s.forms[fi]
			fold := f.fold || header
			if !sameRune(u.r, f.runes[0], fold) {
				continue
			}
			if e := f.matchFrom(p, ends, fold); e > best {
				best, marker = e, f.marker
			}
		}
	}
	return best, marker
}

// seen reports whether a reading in us stands for r.
func seen(us []unit, r rune) bool {
	for _, u := range us {
		if u.r == r {
			return true
		}
	}
	return false
}

// maxAlternatives is the readings of the text a match tracks at once
// without allocating.
const maxAlternatives = 16

// matchFrom is the end of the longest encoding of f's runes after the
// first, starting at any of starts, or -1. It reads the text as a small automaton:
// the set of positions where the encoding of the form's first j runes can
// end.
func (f *scrubForm) matchFrom(p []byte, starts []int, fold bool) int {
	var a, b [maxAlternatives]int
	var ubuf [maxAlternatives]unit
	cur, next := append(a[:0], starts...), b[:0]
	for _, r := range f.runes[1:] {
		next = next[:0]
		for _, q := range cur {
			if q >= len(p) {
				continue
			}
			if c := p[q]; c < utf8.RuneSelf && !special[c] { // the common case: one plain character
				if sameRune(rune(c), r, fold) {
					next = addEnd(next, q+1)
				}
				continue
			}
			for _, u := range units(ubuf[:0], p, q) {
				if sameRune(u.r, r, fold) {
					next = addEnd(next, u.end)
				}
			}
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

// special are the ASCII bytes that can start more than one reading.
var special = [utf8.RuneSelf]bool{'\\': true, '%': true, '&': true, '+': true}

// addEnd adds q to the set ends (without duplicates). The set is small
// (the readings of one text rarely differ) and never larger than the
// window: ends lie within it.
func addEnd(ends []int, q int) []int {
	for _, e := range ends {
		if e == q {
			return ends
		}
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

// unit is one reading of the text at a position: the rune it stands for
// and where its encoding ends.
type unit struct {
	r   rune
	end int
}

// addUnit adds u to us (at most MaxEscapeDepth+5 readings of a position).
func addUnit(us []unit, u unit) []unit { return append(us, u) }

// units appends every reading of the text at p[q] (q < len(p)): the
// character as it is, + as a space, a percent-encoded character, a
// backslash escape, an HTML character reference.
func units(us []unit, p []byte, q int) []unit {
	c := p[q]
	if c < utf8.RuneSelf {
		us = addUnit(us, unit{rune(c), q + 1})
	} else {
		r, size := utf8.DecodeRune(p[q:])
		us = addUnit(us, unit{r, q + size})
	}
	switch c {
	case '+':
		us = addUnit(us, unit{' ', q + 1})
	case '%':
		us = percentUnits(us, p, q)
	case '\\':
		us = escapeUnits(us, p, q)
	case '&':
		us = htmlUnits(us, p, q)
	}
	return us
}

// percentByte reads %XX at p[q] after layer %25 layers (%2572 is %72
// encoded once more): the byte and the end, or false.
func percentByte(p []byte, q, layer int) (byte, int, bool) {
	q++ // the '%'
	for ; layer > 0; layer-- {
		if v, ok := hexAt(p, q, 2); !ok || v != '%' {
			return 0, 0, false
		}
		q += 2
	}
	v, ok := hexAt(p, q, 2)
	return byte(v), q + 2, ok
}

// percentMayStart reports whether the percent-encoded character at p[i]
// can be the first rune of a form (most %XX in a URL cannot).
func (s *Scrubber) percentMayStart(p []byte, i int) bool {
	if s.ascii['%'] != nil {
		return true
	}
	for layer := 0; layer < 4; layer++ {
		v, _, ok := percentByte(p, i, layer)
		if !ok {
			return false
		}
		if v != '%' {
			return v >= utf8.RuneSelf || s.ascii[lowerASCII(v)] != nil || v == '+' && s.ascii[' '] != nil
		}
	}
	return false
}

// percentUnits appends the readings of a percent-encoded character at
// p[q] ('%'), at each of up to four layers: one byte, or the bytes of a
// UTF-8 sequence each encoded at the same layer (or raw); %2B is also a
// space (a + one layer in).
func percentUnits(us []unit, p []byte, q int) []unit {
	for layer := 0; layer < 4; layer++ {
		v, end, ok := percentByte(p, q, layer)
		if !ok {
			return us
		}
		if v < utf8.RuneSelf {
			us = addUnit(us, unit{rune(v), end})
			if v == '+' {
				us = addUnit(us, unit{' ', end})
			}
			if v != '%' {
				return us
			}
			continue
		}
		var seq [4]byte
		n := 0
		switch {
		case v&0xE0 == 0xC0:
			n = 2
		case v&0xF0 == 0xE0:
			n = 3
		case v&0xF8 == 0xF0:
			n = 4
		default:
			return us
		}
		seq[0] = v
		e := end
		for k := 1; k < n; k++ {
			if e >= len(p) {
				return us
			}
			c := p[e]
			e++
			if c == '%' {
				if c, e, ok = percentByte(p, e-1, layer); !ok {
					return us
				}
			}
			if c < 0x80 || c >= 0xC0 {
				return us
			}
			seq[k] = c
		}
		if r, size := utf8.DecodeRune(seq[:n]); size == n && r != utf8.RuneError {
			us = addUnit(us, unit{r, e})
		}
		return us
	}
	return us
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

// shortEscape is the character of a JSON or JavaScript escape that is not
// the character itself (\n), or -1.
func shortEscape(c byte) rune {
	switch c {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'v':
		return '\v'
	case '0':
		return 0
	}
	return -1
}

// backslashes is the run of backslashes at p[q], or -1 past MaxEscapeDepth.
func backslashes(p []byte, q int) int {
	k := 0
	for q+k < len(p) && p[q+k] == '\\' {
		k++
		if k > MaxEscapeDepth {
			return -1
		}
	}
	return k
}

// escapeUnits appends the readings of a backslash escape at p[q] ('\\'):
// the run of up to MaxEscapeDepth backslashes as a backslash, or the run
// followed by u and 4 hex digits (two such for a surrogate pair), x and 2
// hex digits, a short escape, or any other character as itself.
func escapeUnits(us []unit, p []byte, q int) []unit {
	k := backslashes(p, q)
	if k < 0 {
		return us
	}
	for j := 2; j <= k; j++ { // a run of one is the literal reading
		us = addUnit(us, unit{'\\', q + j})
	}
	e := q + k
	if e >= len(p) {
		return us
	}
	switch x := p[e]; x {
	case 'u':
		v, ok := hexAt(p, e+1, 4)
		if !ok {
			break
		}
		if v >= 0xD800 && v < 0xDC00 {
			// a surrogate pair: the low half after its own backslashes
			e2 := e + 5
			if k2 := backslashes(p, e2); k2 > 0 && e2+k2 < len(p) && p[e2+k2] == 'u' {
				if lo, ok := hexAt(p, e2+k2+1, 4); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					us = addUnit(us, unit{(v-0xD800)<<10 | (lo - 0xDC00) + 0x10000, e2 + k2 + 5})
				}
			}
		}
		us = addUnit(us, unit{v, e + 5})
	case 'x':
		if v, ok := hexAt(p, e+1, 2); ok {
			us = addUnit(us, unit{v, e + 3})
		}
	}
	if v := shortEscape(p[e]); v >= 0 {
		us = addUnit(us, unit{v, e + 1})
	}
	// An identity escape (\/ \" \' \q): the character after the run.
	if c, size := utf8.DecodeRune(p[e:]); c != utf8.RuneError {
		us = addUnit(us, unit{c, e + size})
	}
	return us
}

// htmlNamed are the named character references servers write.
var htmlNamed = [...]struct {
	name string
	r    rune
}{{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}}

// htmlUnits appends the readings of an HTML character reference at p[q]
// ('&'): &#…; in decimal or hex (up to maxHTMLDigits digits) or one of
// htmlNamed, with or without its ';'.
func htmlUnits(us []unit, p []byte, q int) []unit {
	e := q + 1
	add := func(v rune, e int) []unit {
		us = addUnit(us, unit{v, e})
		if e < len(p) && p[e] == ';' {
			us = addUnit(us, unit{v, e + 1})
		}
		return us
	}
	if e < len(p) && p[e] == '#' {
		e++
		base := rune(10)
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
				d = -1
			}
			if d < 0 {
				break
			}
			v = v*base + d
			e++
		}
		if e == start {
			return us
		}
		return add(v, e)
	}
	for _, n := range htmlNamed {
		if e+len(n.name) <= len(p) && string(p[e:e+len(n.name)]) == n.name {
			return add(n.r, e+len(n.name))
		}
	}
	return us
}

// Stream scrubs a body read in pieces: Write each piece as it arrives,
// then Close. It keeps back the last window bytes of what it was given
// (the longest encoding of a secret it can match), so a secret split
// between two pieces is found whole. It stops keeping output past limit
// bytes (Over says so).
type Stream struct {
	s       *Scrubber
	pending []byte
	out     []byte
	limit   int
	over    bool
}

// Stream returns a stream whose output is capped at limit bytes; hint is
// the expected size (the announced length, or 0). A nil scrubber's
// stream passes the text through.
func (s *Scrubber) Stream(limit, hint int) *Stream {
	return &Stream{s: s, limit: limit, out: make([]byte, 0, min(max(hint, 0), limit)+1)}
}

// Write scrubs p (never fails: a body over the limit is reported by Over).
func (st *Stream) Write(p []byte) (int, error) {
	if st.over {
		return len(p), nil
	}
	st.pending = append(st.pending, p...)
	st.drain(false)
	return len(p), nil
}

func (st *Stream) drain(final bool) {
	if st.over {
		st.pending = nil
		return
	}
	if !final && len(st.pending) <= st.s.keep() {
		return
	}
	done := len(st.pending)
	if st.s == nil { // no secret: the text as it is
		st.out = append(st.out, st.pending...)
	} else {
		st.out, done, _ = st.s.scan(st.out, st.pending, final, false)
	}
	if len(st.out) > st.limit {
		st.over, st.out, st.pending = true, nil, nil
		return
	}
	st.pending = append(st.pending[:0], st.pending[done:]...)
}

// Close scrubs what is left and returns the whole scrubbed body (nil when
// it went over the limit).
func (st *Stream) Close() []byte {
	st.drain(true)
	if st.over {
		return nil
	}
	return st.out
}

// keep is how many bytes a stream keeps back (0 for nil).
func (s *Scrubber) keep() int {
	if s == nil {
		return 0
	}
	return s.window
}

// Over reports whether the scrubbed body went over the limit.
func (st *Stream) Over() bool { return st.over }
