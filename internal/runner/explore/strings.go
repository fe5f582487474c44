package explore

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// A free-form string property with a pattern, a format or a length
// bound gets a value that keeps to them: a page that checks its input as
// the schema says (`if (!/^\d{10}$/.test(input.isbn)) throw …`, a URL
// parsed, an address split at "@") then runs past the check to its
// fetches. Where the constraints allow, the value holds the marker, so a
// host built from it is still known to come from the input; otherwise the
// value is a free value of the input (freeValues), and a host holding it
// is Guessed, not reported.

// formatValue is a value of each string format a page is likely to
// parse; {m} stands for the marker.
var formatValue = map[string]string{
	"uri":           "https://{m}.example/",
	"url":           "https://{m}.example/",
	"iri":           "https://{m}.example/",
	"uri-reference": "https://{m}.example/",
	"email":         "{m}@{m}.example",
	"idn-email":     "{m}@{m}.example",
	"hostname":      "{m}.example",
	"idn-hostname":  "{m}.example",
	"date":          "2024-01-31",
	"date-time":     "2024-01-31T12:00:00Z",
	"time":          "12:00:00Z",
	"duration":      "P1D",
	"uuid":          "123e4567-e89b-42d3-a456-426614174000",
	"ipv4":          "192.0.2.1",
	"ipv6":          "2001:db8::1",
}

// constrained is the value of a free-form string schema s that keeps to
// its format, pattern and length bounds, built around marker m; ok false
// when s has none of them (the marker itself will do) or no value could
// be made that keeps to all of them.
func constrained(s schemaOf, m string) (string, bool) {
	format, _ := s["format"].(string)
	pattern, _ := s["pattern"].(string)
	minLen, hasMin := intOf(s["minLength"])
	maxLen, hasMax := intOf(s["maxLength"])
	if formatValue[format] == "" && pattern == "" && !hasMin && !hasMax {
		return "", false
	}
	var re *regexp.Regexp
	if pattern != "" {
		var err error
		if re, err = regexp.Compile(pattern); err != nil {
			return "", false // an ECMAScript pattern Go does not read (lookaround, …)
		}
	}
	keeps := func(v string) bool {
		n := utf8.RuneCountInString(v)
		return (re == nil || re.MatchString(v)) && (!hasMin || n >= minLen) && (!hasMax || n <= maxLen)
	}
	var tries []string
	if f := formatValue[format]; f != "" {
		tries = append(tries, strings.ReplaceAll(f, "{m}", m))
	}
	tries = append(tries, m)
	if re != nil {
		if v, ok := fromPattern(pattern, m); ok {
			if !strings.Contains(v, m) {
				tries = append(tries, m+v, v+m) // an unanchored pattern keeps them
			}
			tries = append(tries, v)
		}
	}
	for _, v := range tries {
		if keeps(v) {
			return v, true
		}
		// to the length bounds: padded with its last rune, or cut
		if hasMin && utf8.RuneCountInString(v) < minLen {
			last, _ := utf8.DecodeLastRuneInString(v)
			v += strings.Repeat(string(last), minLen-utf8.RuneCountInString(v))
		}
		if hasMax && maxLen >= 0 && utf8.RuneCountInString(v) > maxLen {
			v = string([]rune(v)[:maxLen])
		}
		if keeps(v) {
			return v, true
		}
	}
	return "", false
}

func intOf(v any) (int, bool) {
	f, ok := v.(float64)
	if !ok || f < 0 || f > 1<<20 || f != float64(int(f)) {
		return 0, false
	}
	return int(f), true
}

// maxPatternValue bounds the length of a value made from a pattern.
const maxPatternValue = 256

// fromPattern makes a string the regular expression matches, taking the
// marker's runes where a class allows them (so `[a-z0-9]+` gives the
// marker itself) and repeating what may repeat as often as the marker is
// long (within the pattern's bounds).
func fromPattern(pattern, m string) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	re = re.Simplify()
	want := []rune(m)
	pos := 0
	var b strings.Builder
	var walk func(r *syntax.Regexp) bool
	walk = func(r *syntax.Regexp) bool {
		if b.Len() > maxPatternValue {
			return false
		}
		switch r.Op {
		case syntax.OpNoMatch:
			return false
		case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
			syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			return true
		case syntax.OpLiteral:
			for _, c := range r.Rune {
				b.WriteRune(c)
				if pos < len(want) && c == want[pos] {
					pos++
				}
			}
			return true
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			if pos < len(want) {
				b.WriteRune(want[pos])
				pos++
			} else {
				b.WriteByte('a')
			}
			return true
		case syntax.OpCharClass:
			c, ok := pick(r.Rune, want, pos)
			if !ok {
				return false
			}
			if pos < len(want) && c == want[pos] {
				pos++
			}
			b.WriteRune(c)
			return true
		case syntax.OpCapture:
			return walk(r.Sub[0])
		case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
			lo, hi := 0, -1
			switch r.Op {
			case syntax.OpPlus:
				lo = 1
			case syntax.OpQuest:
				hi = 1
			case syntax.OpRepeat:
				lo, hi = r.Min, r.Max
			}
			n := max(lo, len(want)-pos, 1)
			if hi >= 0 {
				n = min(n, hi)
			}
			if r.Op == syntax.OpQuest && pos >= len(want) {
				n = 0
			}
			for range n {
				if !walk(r.Sub[0]) {
					return false
				}
			}
			return true
		case syntax.OpConcat:
			for _, s := range r.Sub {
				if !walk(s) {
					return false
				}
			}
			return true
		case syntax.OpAlternate:
			return len(r.Sub) > 0 && walk(r.Sub[0])
		}
		return false
	}
	if !walk(re) {
		return "", false
	}
	return b.String(), true
}

// pick chooses a rune of the class ranges (pairs lo, hi): the marker's
// next rune when the class holds it, else the first printable one.
func pick(ranges []rune, want []rune, pos int) (rune, bool) {
	if pos < len(want) {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= want[pos] && want[pos] <= ranges[i+1] {
				return want[pos], true
			}
		}
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		lo := max(ranges[i], '!') // not a control character or a space
		if lo <= ranges[i+1] && lo < utf8.MaxRune {
			return lo, true
		}
	}
	if len(ranges) >= 2 {
		return ranges[0], true
	}
	return 0, false
}
