package text

import (
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/bidi"
)

// Invisible is held to the Unicode data, not to a list: every explicit
// bidi formatting character of golang.org/x/text's bidi table (a table
// generated separately from the standard library's), every
// Default_Ignorable_Code_Point rebuilt from its derivation in
// DerivedCoreProperties.txt, and nothing that is a letter, digit,
// punctuation, symbol or space a reader sees.
func TestInvisibleAgainstUnicodeTables(t *testing.T) {
	bidiControls, ignorable, total := 0, 0, 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		inv := Invisible(r)
		if inv {
			total++
		}
		p, _ := bidi.LookupRune(r)
		switch p.Class() {
		case bidi.LRO, bidi.RLO, bidi.LRE, bidi.RLE, bidi.PDF, bidi.LRI, bidi.RLI, bidi.FSI, bidi.PDI:
			bidiControls++
			if !inv {
				t.Errorf("U+%04X is a bidi formatting character (x/text bidi class %v) but not Invisible", r, p.Class())
			}
		}
		// Default_Ignorable_Code_Point = Other_DICP + Cf + Variation_Selector
		// - White_Space - FFF9..FFFB - 13430..1343F - Prepended_Concatenation_Mark.
		dicp := unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Cf, unicode.Variation_Selector) &&
			!unicode.Is(unicode.White_Space, r) && !(r >= 0xFFF9 && r <= 0xFFFB) && !(r >= 0x13430 && r <= 0x1343F) &&
			!unicode.Is(unicode.Prepended_Concatenation_Mark, r)
		if dicp {
			ignorable++
			if !inv {
				t.Errorf("U+%04X is Default_Ignorable_Code_Point but not Invisible", r)
			}
		}
		// What a reader sees is never flagged: letters (but the Hangul
		// fillers, which are Lo and default-ignorable), digits,
		// punctuation, symbols, spaces, combining marks (but selectors).
		if inv && unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S, unicode.Zs, unicode.M) &&
			!unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector) {
			t.Errorf("U+%04X (%s) is visible text but Invisible", r, InvisibleClass(r))
		}
	}
	// The bidi table and the derivation found their classes at all.
	if bidiControls != 9 {
		t.Errorf("%d bidi formatting characters in x/text's table, want the 9 of UAX #9 (LRE…PDI)", bidiControls)
	}
	if ignorable < 4000 {
		t.Errorf("only %d default-ignorable code points rebuilt", ignorable)
	}
	t.Logf("%d invisible code points, %d default-ignorable, %d bidi formatting", total, ignorable, bidiControls)
}

func TestInvisibleKnownMembers(t *testing.T) {
	for _, r := range []rune{0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x202A, 0x202E, 0x2060, 0x2064, 0x2066, 0x2069,
		0xFEFF, 0x00AD, 0x061C, 0x180E, 0xE0001, 0xE0041, 0xE007F, 0xFE0F, 0xE0100, 0x3164, 0x115F, 0xFFA0, 0x034F,
		0x2028, 0x2029, 0x1B, 0x00, 0x85} {
		if !Invisible(r) {
			t.Errorf("U+%04X not Invisible", r)
		}
	}
	for _, r := range []rune{'a', ' ', '\n', '\t', '\r', 'é', '字', 0x1F600, 0x00A0, 0x3000, 0x0301} {
		if Invisible(r) {
			t.Errorf("U+%04X is Invisible", r)
		}
	}
}

func TestInvisibleRunsInContext(t *testing.T) {
	for _, c := range []struct {
		name, s string
		want    []string // the flagged runs as U+ lists
	}{
		{"ascii", "Search the catalogue.", nil},
		{"accents", "Crée un événement dans l'agenda — à déjà vu, naïve façade, Ærøskøbing", nil},
		{"cjk", "日本語の天気予報を取得します。중국어 검색 지원", nil},
		{"emoji zwj family", "Family 👨‍👩‍👧‍👦 and coder 👩🏽‍💻 and runner 🏃‍♀️", nil},
		{"emoji vs16", "Likes ❤️ and ☀️ and keycap 1️⃣ and ‼️", nil},
		{"flag england", "England 🏴󠁧󠁢󠁥󠁮󠁧󠁿 flag", nil},
		{"persian zwnj", "می‌خواهم کتاب‌ها را جستجو کنم", nil},
		{"devanagari zwj", "क्‍ष and र्‍य", nil},
		{"ideographic vs", "葛󠄀城市", nil},
		{"zwsp", "Searches\u200b the web", []string{"U+200B"}},
		{"zwsp pair", "a\u200b\u200bb", []string{"U+200B U+200B"}},
		{"zwj in latin", "pay\u200dpal", []string{"U+200D"}},
		{"zwnj in latin", "pay\u200cpal", []string{"U+200C"}},
		{"rlo", "file\u202Etxt.exe", []string{"U+202E"}},
		{"isolates", "a\u2066b\u2069c", []string{"U+2066", "U+2069"}},
		{"bom", "\ufeffSearch", []string{"U+FEFF"}},
		{"soft hyphen", "ig\u00adnore", []string{"U+00AD"}},
		{"tags", "Weather\U000E0049\U000E0047\U000E004E", []string{"U+E0049 U+E0047 U+E004E"}},
		{"tags after flag without cancel", "🏴\U000E0067\U000E0062", []string{"U+E0067 U+E0062"}},
		{"vs after ascii", "a\ufe0fb", []string{"U+FE0F"}},
		{"vs16 at start", "\ufe0fb", []string{"U+FE0F"}},
		{"hangul filler", "name\u3164", []string{"U+3164"}},
		{"zwj dangling after emoji", "👩\u200d", []string{"U+200D"}},
		{"escape char", "red\x1b[31m", []string{"U+001B"}},
		{"invalid byte", "a\xffb", []string{"U+FFFD"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, r := range InvisibleRuns(c.s) {
				var us []string
				for _, x := range r.Runes {
					us = append(us, strings.TrimSuffix(strings.Fields(InvisibleRunName(x))[0], ","))
				}
				got = append(got, strings.Join(us, " "))
				if RemoveInvisible(c.s[r.Start:r.End]) != "" && c.name != "invalid byte" {
					t.Errorf("run %q is not all invisible", c.s[r.Start:r.End])
				}
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("InvisibleRuns(%q) = %v, want %v", c.s, got, c.want)
			}
		})
	}
}

// InvisibleRunName is one rune as Names writes it.
func InvisibleRunName(r rune) string { return InvisibleRun{Runes: []rune{r}}.Names() }

func TestReveal(t *testing.T) {
	for in, want := range map[string]string{
		"plain":       "plain",
		"a\u200bb":    "a<U+200B>b",
		"a\ufe0fb":    "a<U+FE0F>b",
		"x\U000E0041": "x<U+E0041>",
		"❤️ ok":       "❤️ ok",
		"line\nnext":  `line\nnext`,
		"name\u3164":  "name<U+3164>",
		"👩‍💻":         "👩<U+200D>💻", // Visible shows every Cf: the reviewer sees the joiner too
	} {
		if got := Reveal(in); got != want {
			t.Errorf("Reveal(%q) = %q, want %q", in, got, want)
		}
	}
	if RemoveInvisible("a\u200bb\u202Ec") != "abc" {
		t.Error("RemoveInvisible")
	}
}
