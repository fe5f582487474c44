package text

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The one definition of an invisible character in text an agent or a
// reviewer reads (tool descriptions, schema titles, names): a character
// that renders as nothing, or reorders what is around it, on a reviewer's
// screen while a language model reads it like any other. It is derived
// from the Unicode tables of the standard library, never a hand list:
//
//   - general category Cf (format): zero-width space U+200B, the joiners
//     U+200C/U+200D, word joiner U+2060, the invisible operators
//     U+2061–2064, BOM U+FEFF, soft hyphen U+00AD, the bidi marks,
//     embeddings, overrides and isolates, the tag characters
//     U+E0001–E007F (which spell ASCII invisibly), …;
//   - the Bidi_Control property (all of which are Cf today; listed so a
//     future table cannot drop one);
//   - the Variation_Selector property (U+FE00–FE0F, U+E0100–E01EF, the
//     Mongolian selectors U+180B–180F): they change how the previous
//     character is drawn and are nothing on their own;
//   - Other_Default_Ignorable_Code_Point: the Hangul fillers U+115F,
//     U+1160, U+3164, U+FFA0, the combining grapheme joiner U+034F, the
//     unassigned default-ignorables (U+2065, the rest of U+E0000–E0FFF);
//   - the line and paragraph separators U+2028/U+2029 (Zl, Zp) and the
//     C0 and C1 controls but tab, line feed and carriage return.
//
// Text is judged in context (InvisibleRuns): a character that is part of a
// well-formed sequence a reader sees is not flagged. Those are
//
//   - an emoji ZWJ sequence: U+200D between two pictographs (👩‍💻);
//   - an emoji presentation or text selector U+FE0E/U+FE0F after a symbol
//     or a keycap base (❤️, 1️⃣);
//   - an ideographic or standardized variation selector after a Han,
//     Mongolian or other letter it is defined for (a letter of a script
//     other than Latin, Greek, Cyrillic: 葛󠄀, ᠠ᠋);
//   - an emoji tag sequence: tag characters after U+1F3F4 ending in the
//     cancel tag U+E007F (the flag of England 🏴󠁧󠁢󠁥󠁮󠁧󠁿);
//   - ZWNJ or ZWJ between two letters or marks of a script whose shaping
//     uses them (Arabic, Persian, the Indic scripts: any script but Latin,
//     Greek, Cyrillic and Common).
//
// Everything else the classes above hold is flagged wherever it appears.

// Invisible reports whether r belongs to the classes above, out of
// context.
func Invisible(r rune) bool {
	if r < 0x20 {
		return r != '\t' && r != '\n' && r != '\r'
	}
	if r < 0x7f {
		return false
	}
	if r < 0xa0 {
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Bidi_Control, unicode.Variation_Selector,
		unicode.Other_Default_Ignorable_Code_Point, unicode.Zl, unicode.Zp)
}

// InvisibleRun is a run of invisible characters in a string: bytes
// [Start, End) of it and the runes there.
type InvisibleRun struct {
	Start, End int
	Runes      []rune
}

// Names renders the run's runes as U+XXXX with their class, e.g.
// "U+200B (zero-width space)".
// A run of more than three is summed up: "U+E0049…U+E0072 (15 tag
// characters)".
func (r InvisibleRun) Names() string {
	if len(r.Runes) > 3 {
		var classes []string
		count := map[string]int{}
		for _, c := range r.Runes {
			k := InvisibleClass(c)
			if c >= 0xE0020 && c <= 0xE007E {
				k = "tag character"
			}
			if count[k] == 0 {
				classes = append(classes, k)
			}
			count[k]++
		}
		for i, k := range classes {
			classes[i] = fmt.Sprintf("%d %s", count[k], k)
			if count[k] > 1 {
				classes[i] += "s"
			}
		}
		return fmt.Sprintf("U+%04X…U+%04X (%s)", r.Runes[0], r.Runes[len(r.Runes)-1], strings.Join(classes, ", "))
	}
	var parts []string
	for _, c := range r.Runes {
		parts = append(parts, fmt.Sprintf("U+%04X (%s)", c, InvisibleClass(c)))
	}
	return strings.Join(parts, ", ")
}

// InvisibleClass names the class of an invisible rune, for messages.
func InvisibleClass(r rune) string {
	switch {
	case r == 0x200B:
		return "zero-width space"
	case r == 0x200C:
		return "zero-width non-joiner"
	case r == 0x200D:
		return "zero-width joiner"
	case r == 0x2060:
		return "word joiner"
	case r == 0xFEFF:
		return "zero-width no-break space"
	case r == 0x00AD:
		return "soft hyphen"
	case unicode.Is(unicode.Bidi_Control, r):
		return "bidi control"
	case r >= 0xE0000 && r <= 0xE007F:
		if r >= 0xE0020 && r <= 0xE007E {
			return fmt.Sprintf("tag character %q", rune(r-0xE0000))
		}
		return "tag character"
	case unicode.Is(unicode.Variation_Selector, r):
		return "variation selector"
	case unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r):
		return "default-ignorable character"
	case unicode.In(r, unicode.Zl, unicode.Zp):
		return "line or paragraph separator"
	case r < 0xa0:
		return "control character"
	}
	return "format character"
}

// InvisibleRuns returns the runs of invisible characters of s in context
// (see above), in order. Adjacent flagged characters form one run. It
// reads s once, allocating only for what it returns.
func InvisibleRuns(s string) []InvisibleRun {
	var out []InvisibleRun
	before := rune(-1) // the last rune that is not a selector or a skin-tone modifier
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			before = rune(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == 0x1F3F4 { // an emoji tag sequence: U+1F3F4, tags, U+E007F
			if end := tagSequenceEnd(s, i+size); end > 0 {
				before = 0xE007F
				i = end
				continue
			}
		}
		invalid := r == utf8.RuneError && size == 1
		if invalid || Invisible(r) {
			after := rune(-1)
			if i+size < len(s) {
				after, _ = utf8.DecodeRuneInString(s[i+size:])
			}
			if invalid || !inSequence(r, before, after) {
				if n := len(out); n > 0 && out[n-1].End == i {
					out[n-1].End = i + size
					out[n-1].Runes = append(out[n-1].Runes, r)
				} else {
					out = append(out, InvisibleRun{Start: i, End: i + size, Runes: []rune{r}})
				}
			}
		}
		if !unicode.Is(unicode.Variation_Selector, r) && !(r >= 0x1F3FB && r <= 0x1F3FF) {
			before = r
		}
		i += size
	}
	return out
}

// tagSequenceEnd returns where an emoji tag sequence whose tags start at
// i ends (after its cancel tag U+E007F), or 0 when there is none.
func tagSequenceEnd(s string, i int) int {
	j, tags := i, 0
	for j < len(s) {
		r, size := utf8.DecodeRuneInString(s[j:])
		switch {
		case r >= 0xE0020 && r <= 0xE007E:
			tags++
			j += size
			continue
		case r == 0xE007F && tags > 0:
			return j + size
		}
		return 0
	}
	return 0
}

// inSequence reports whether the invisible r, between before and after,
// is part of a sequence a reader sees (see above).
func inSequence(r, before, after rune) bool {
	switch {
	case r == 0x200D && pictograph(before) && pictograph(after):
		return true
	case (r == 0xFE0E || r == 0xFE0F) && (pictograph(before) || keycapBase(before) || before == 0x203C || before == 0x2049):
		return true
	case unicode.Is(unicode.Variation_Selector, r) && shapingLetter(before):
		return true
	case (r == 0x200C || r == 0x200D) && shapingLetter(before) && (shapingLetter(after) || unicode.Is(unicode.M, after)):
		return true
	}
	return false
}

// pictograph approximates Extended_Pictographic with the standard
// library's tables: a symbol (So) at or above U+00A9, or a regional
// indicator.
func pictograph(r rune) bool {
	return r >= 0xa9 && unicode.Is(unicode.So, r)
}

func keycapBase(r rune) bool { return r >= '0' && r <= '9' || r == '#' || r == '*' }

// shapingLetter is a letter or mark of a script other than Latin, Greek,
// Cyrillic and Common (where joiners and selectors have a visible use).
func shapingLetter(r rune) bool {
	if r < 0 || !unicode.In(r, unicode.L, unicode.M) {
		return false
	}
	return !unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic, unicode.Common, unicode.Inherited)
}

// RemoveInvisible returns s without its invisible runs (the fix).
func RemoveInvisible(s string) string {
	runs := InvisibleRuns(s)
	if len(runs) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, r := range runs {
		b.WriteString(s[last:r.Start])
		last = r.End
	}
	b.WriteString(s[last:])
	return b.String()
}

// Reveal is s for one line of a review: like Visible, and every invisible
// character InvisibleRuns flags is shown as <U+XXXX> too (a variation
// selector or a Hangul filler is not Hidden, so Visible writes it as is).
func Reveal(s string) string {
	runs := InvisibleRuns(s)
	if len(runs) == 0 {
		return Visible(s)
	}
	var b strings.Builder
	last := 0
	for _, r := range runs {
		b.WriteString(Visible(s[last:r.Start]))
		for i := r.Start; i < r.End; {
			c, size := utf8.DecodeRuneInString(s[i:])
			if c == utf8.RuneError && size == 1 || Hidden(c) {
				b.WriteString(Visible(s[i : i+size]))
			} else {
				fmt.Fprintf(&b, "<U+%04X>", c)
			}
			i += size
		}
		last = r.End
	}
	b.WriteString(Visible(s[last:]))
	return b.String()
}
