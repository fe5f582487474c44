package text

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// planted is every kind of character the sanitiser must show: the ones an
// attacker uses to forge terminal output (ESC sequences, OSC 8 links, BEL,
// CR, backspace, C1 CSI both as a character and as a raw byte) and to
// reorder or hide text (bidi overrides, isolates, marks, separators, tags).
var planted = []string{
	"\x1b[2K", "\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\", "\a", "\r", "\b", "\x00", "\x7f",
	"\u009b", "\x9b", "\u0085", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067",
	"\u2068", "\u2069", "\u200e", "\u200f", "\u061c", "\u2028", "\u2029", "\u200b", "\ufeff", "\U000E0041",
}

func TestVisibleTable(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                      "plain",
		"é😀 中文":                      "é😀 中文",
		"a\nb\tc":                    `a\nb\tc`,
		"\x1b[31mred\x1b[0m":         `\x1b[31mred\x1b[0m`,
		"\x1b]8;;file:///x\x07ln":    `\x1b]8;;file:///x\x07ln`,
		"ok\rFAIL":                   `ok\rFAIL`,
		"\u009b2J":                   `\x9b2J`,
		"raw\x9bbyte":                `raw\x9bbyte`,
		"\x7f":                       `\x7f`,
		"mail\u202egnp.exe":          "mail<U+202E>gnp.exe",
		"\u2066x\u2069 \u200e\u061c": "<U+2066>x<U+2069> <U+200E><U+061C>",
		"a\u2028b\u2029":             "a<U+2028>b<U+2029>",
		"tag\U000E0041":              "tag<U+E0041>",
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
	if got := VisibleBlock("line 1\n\tline 2\r\n\x1b[1A\rFAKE\r"); got != "line 1\n\tline 2\r\n\\x1b[1A\\rFAKE\\r" {
		t.Errorf("VisibleBlock kept or lost the wrong characters: %q", got)
	}
}

// randomText mixes planted characters, ASCII, other scripts and bytes
// that are not UTF-8.
func randomText(rng *rand.Rand) string {
	parts := []string{"a", " ", "\n", "\t", "é", "😀", "中", "\\", "<", "&", "\"", "\xff", "\xe2\x80", "\xf0\x9f"}
	parts = append(parts, planted...)
	var b strings.Builder
	for n := rng.Intn(40); n > 0; n-- {
		b.WriteString(parts[rng.Intn(len(parts))])
	}
	for n := rng.Intn(4); n > 0; n-- {
		b.WriteRune(rune(rng.Intn(0x110000)))
	}
	return b.String()
}

// hiddenIn returns the first hidden character or invalid byte in s; keep
// lists what the output may hold, "\r" only before "\n".
func hiddenIn(s string, keep string) (string, bool) {
	for i, r := range s {
		if r == '\r' && strings.Contains(keep, "\r") && strings.HasPrefix(s[i:], "\r\n") {
			continue
		}
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") {
			return s[i : i+1], true
		}
		if Hidden(r) && !strings.ContainsRune(keep, r) {
			return string(r), true
		}
	}
	return "", false
}

// Whatever the text, the result holds no hidden character and no invalid
// byte, escaping it again changes nothing, and text without any hidden
// character is returned as it is.
func TestVisibleProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		s := randomText(rng)
		v, vb := Visible(s), VisibleBlock(s)
		if c, bad := hiddenIn(v, ""); bad {
			t.Fatalf("Visible(%q) = %q holds %q", s, v, c)
		}
		if c, bad := hiddenIn(vb, "\n\t\r"); bad {
			t.Fatalf("VisibleBlock(%q) = %q holds %q", s, vb, c)
		}
		if Visible(v) != v || VisibleBlock(vb) != vb {
			t.Fatalf("escaping %q twice changes it", s)
		}
		if strings.Count(vb, "\n") != strings.Count(s, "\n") {
			t.Fatalf("VisibleBlock(%q) changed the lines", s)
		}
		if _, bad := hiddenIn(s, ""); !bad && v != s {
			t.Fatalf("Visible changed clean text %q to %q", s, v)
		}
	}
}

// writeSplit writes s to a Writer in chunks cut at random places (inside
// UTF-8 sequences too) and flushes.
func writeSplit(t *testing.T, rng *rand.Rand, m Mode, s string) string {
	var out bytes.Buffer
	w := NewWriter(&out, m)
	for p := []byte(s); len(p) > 0; {
		n := 1 + rng.Intn(len(p))
		if k, err := w.Write(p[:n]); err != nil || k != n {
			t.Fatalf("Write = %d, %v", k, err)
		}
		p = p[n:]
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// The Terminal writer shows what VisibleBlock shows however the text is
// cut into writes.
func TestWriterTerminal(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 5000; i++ {
		s := randomText(rng)
		if got, want := writeSplit(t, rng, Terminal, s), VisibleBlock(s); got != want {
			t.Fatalf("Writer(%q) = %q, want %q", s, got, want)
		}
	}
}

// The JSON writer over an encoder's output keeps the document valid and
// equal to what was encoded, and holds no raw hidden character.
func TestWriterJSON(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 5000; i++ {
		v := map[string]any{randomText(rng): []any{randomText(rng), 1.5, map[string]any{"k": randomText(rng)}}}
		var enc bytes.Buffer
		e := json.NewEncoder(&enc)
		e.SetEscapeHTML(false)
		e.SetIndent("", "\t")
		if err := e.Encode(v); err != nil {
			t.Fatal(err)
		}
		got := writeSplit(t, rng, JSON, enc.String())
		if c, bad := hiddenIn(got, "\n\t"); bad {
			t.Fatalf("JSON output holds %q: %q", c, got)
		}
		var back, want any
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Fatalf("JSON output not valid: %v\n%q", err, got)
		}
		_ = json.Unmarshal(enc.Bytes(), &want)
		a, _ := json.Marshal(back)
		b, _ := json.Marshal(want)
		if !bytes.Equal(a, b) {
			t.Fatalf("JSON output means something else:\n%s\n%s", a, b)
		}
	}
}

// The XML writer over encoding/xml's output keeps the document well
// formed, its text what was encoded, and holds no raw hidden character.
func TestWriterXML(t *testing.T) {
	type doc struct {
		Name string `xml:"name,attr"`
		Text string `xml:",chardata"`
	}
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < 5000; i++ {
		in := doc{Name: randomText(rng), Text: randomText(rng)}
		raw, err := xml.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		got := writeSplit(t, rng, XML, string(raw))
		if c, bad := hiddenIn(got, ""); bad {
			t.Fatalf("XML output holds %q: %q", c, got)
		}
		var back, want doc
		if err := xml.Unmarshal([]byte(got), &back); err != nil {
			t.Fatalf("XML output not well formed: %v\n%q", err, got)
		}
		if err := xml.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		if back != want {
			t.Fatalf("XML output means something else:\n%q\n%q", back, want)
		}
	}
}

func BenchmarkVisibleClean(b *testing.B) {
	s := strings.Repeat("plain text of a diagnostic message, é and 😀 ", 100)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = VisibleBlock(s)
	}
}

func BenchmarkWriterJSON(b *testing.B) {
	s := []byte(strings.Repeat(`{"name": "plain text", "v": "é😀\u202e"}`+"\n", 1000))
	b.SetBytes(int64(len(s)))
	w := NewWriter(io.Discard, JSON)
	for b.Loop() {
		_, _ = w.Write(s)
	}
}

var update = flag.Bool("update", false, "rewrite testdata/visible.json")

// vector is one case of testdata/visible.json, the cases the webview's
// sanitiser (extension/src/render.ts) is tested against too, so that the
// two implementations show the same characters the same way.
type vector struct {
	In    string `json:"in"`
	Line  string `json:"line"`
	Block string `json:"block"`
}

// TestVectors: the shared cases hold every planted character and say
// what Visible and VisibleBlock write (go test -update rewrites them).
func TestVectors(t *testing.T) {
	ins := append([]string{"plain é😀 中文", "a\nb\tc", "crlf\r\nline", "bare\rcr", "<U+202E> is text"}, planted...)
	for _, r := range []rune{0x00, 0x1f, 0x7f, 0x80, 0x9f, 0xad, 0x600, 0x180e, 0x2060, 0x2064, 0xfff9, 0xe0001, 0xe007f} {
		ins = append(ins, "x"+string(r)+"y")
	}
	var vs []vector
	for _, in := range ins {
		if !utf8.ValidString(in) {
			continue // JavaScript strings are UTF-16: no invalid bytes to share
		}
		vs = append(vs, vector{in, Visible(in), VisibleBlock(in)})
	}
	got, err := json.MarshalIndent(vs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	// Written through the JSON Writer: the file holds no raw bidi or
	// control character (a reviewer's diff shows \u202e, not reversed text).
	var esc bytes.Buffer
	w := NewWriter(&esc, JSON)
	w.Write(got)
	w.Flush()
	got = esc.Bytes()
	path := filepath.Join("testdata", "visible.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what Visible writes: go test -update, and check extension/src/render.ts agrees", path)
	}
}
