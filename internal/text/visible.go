package text

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// The one sanitiser of text that reaches a person: every output of the
// project (terminal text, TAP, the review card, hover Markdown; JSON and
// XML through the Writer) shows the characters below as visible escapes
// and never writes them raw, so that a plugin's strings (manifest, page
// paths, test names, thrown messages) cannot move the cursor, rewrite or
// hide a line, open a link (OSC 8), set a title or reorder what is read:
//
//   - C0 controls U+0000–U+001F (ESC, BEL, CR, NUL, …) and DEL U+007F:
//     \x1b, \x07, \x7f; \n, \r and \t as \n, \r, \t. VisibleBlock and
//     the Writer, for output whose own lines are legitimate, keep \n, \t
//     and a CR right before LF (a CRLF line end, which cannot overwrite
//     the line it ends: a patch of a CRLF file stays one); any other CR
//     is shown.
//   - C1 controls U+0080–U+009F (CSI \x9b, OSC \x9d, NEL \x85): \x9b.
//   - Bytes that are not UTF-8 (a raw 0x9b is CSI to an 8-bit terminal):
//     \x9b too.
//   - Format characters (Unicode category Cf: the bidi embeddings,
//     overrides, isolates and marks U+202A–202E, U+2066–2069, U+200E,
//     U+200F, U+061C; zero-width space, joiners, word joiner, BOM, soft
//     hyphen, the tag characters U+E0000–E007F that hide text from a
//     reader but not from a model) and the line and paragraph separators
//     U+2028, U+2029 (Zl, Zp): <U+202E>.
//
// Everything else, other scripts and emoji included, is written as is.
// The escapes are plain ASCII, so the escaped text holds none of these
// characters and escaping it again changes nothing.

// Hidden reports whether r is one of the characters above: a control, a
// format character or a line or paragraph separator.
func Hidden(r rune) bool {
	if r < 0x20 || r >= 0x7f && r < 0xa0 {
		return true
	}
	if r < 0xa0 {
		return false
	}
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// Visible is s for one line of output: every hidden character, newlines
// and tabs included, written as its escape.
func Visible(s string) string { return escape(s, false) }

// VisibleBlock is s for output that may span lines: like Visible, but
// '\n', '\t' and the CR of a CRLF are kept.
func VisibleBlock(s string) string { return escape(s, true) }

func escape(s string, block bool) string {
	if clean(s, block) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	appendVisible(&b, s, block)
	return b.String()
}

// clean reports that s holds nothing to escape (the common case, no copy).
func clean(s string, block bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 || c == 0x7f) && !(block && kept(s, i)) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || Hidden(r) {
			return false
		}
		i += size
	}
	return true
}

// kept reports the characters VisibleBlock keeps: s[i] is '\n', '\t', or
// a '\r' before '\n'.
func kept[T string | []byte](s T, i int) bool {
	c := s[i]
	return c == '\n' || c == '\t' || c == '\r' && i+1 < len(s) && s[i+1] == '\n'
}

func appendVisible(b *strings.Builder, s string, block bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(b, `\x%02x`, s[i])
		case block && kept(s, i):
			b.WriteByte(byte(r))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0xa0 && Hidden(r):
			fmt.Fprintf(b, `\x%02x`, r)
		case Hidden(r):
			fmt.Fprintf(b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
}

// Mode says how a Writer shows a hidden character.
type Mode int

const (
	// Terminal writes VisibleBlock's escapes: for text output.
	Terminal Mode = iota
	// JSON writes \uXXXX escapes (surrogate pairs above U+FFFF) and a byte
	// that is not UTF-8 as \ufffd: for the output of a JSON encoder, which
	// writes these characters raw only inside strings, so the document
	// stays valid and means the same; '\n' and '\t' are kept.
	JSON
	// XML writes character references (&#x202E;); a C0 control, which XML
	// 1.0 cannot hold even as a reference, and a byte that is not UTF-8
	// become U+FFFD: for the output of encoding/xml, which writes them raw
	// only inside text and attribute values; '\n' and '\t' are kept.
	XML
)

// Writer passes everything written to it through the sanitiser of its
// Mode and on to the underlying writer, at once (the order of two Writers'
// output is kept), except the last bytes of a UTF-8 sequence cut between
// two writes (or a CR that may start a CRLF), held until the next Write or
// Flush. It is safe for concurrent use (a server's log).
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	mode    Mode
	pending []byte // an incomplete UTF-8 sequence at the end of the last Write
	buf     []byte
}

// NewWriter returns a Writer writing to w in mode m.
func NewWriter(w io.Writer, m Mode) *Writer { return &Writer{w: w, mode: m} }

// SetMode changes the mode of what is written next (a command that
// learns its output format from its arguments).
func (w *Writer) SetMode(m Mode) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	err := w.flush()
	w.mode = m
	return err
}

// Write sanitises p and writes it; it reports len(p) unless the
// underlying writer fails.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	if len(w.pending) > 0 {
		q := make([]byte, 0, len(w.pending)+len(p))
		p = append(append(q, w.pending...), p...)
		w.pending = w.pending[:0]
	}
	// Hold a UTF-8 sequence the next Write may complete, and a CR the next
	// Write may follow with LF.
	if k := incompleteTail(p); k > 0 {
		w.pending = append(w.pending, p[len(p)-k:]...)
		p = p[:len(p)-k]
	}
	if err := w.emit(p); err != nil {
		return 0, err
	}
	return n, nil
}

// Flush writes the bytes held back: a CR, or a UTF-8 sequence that stays
// incomplete, each of its bytes shown as not UTF-8.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.flush()
}

func (w *Writer) flush() error {
	if len(w.pending) == 0 {
		return nil
	}
	p := w.pending
	w.pending = nil
	if len(p) == 1 && p[0] == '\r' {
		return w.emit(p)
	}
	w.buf = w.buf[:0]
	for _, c := range p {
		w.buf = w.appendByte(w.buf, c)
	}
	_, err := w.w.Write(w.buf)
	return err
}

// incompleteTail is the length of a UTF-8 sequence at the end of p that
// is cut short but could still be completed (0 when there is none).
func incompleteTail(p []byte) int {
	if len(p) > 0 && p[len(p)-1] == '\r' {
		return 1
	}
	for k := 1; k < utf8.UTFMax && k <= len(p); k++ {
		c := p[len(p)-k]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(p[len(p)-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}

func (w *Writer) emit(p []byte) error {
	start := 0 // p[start:i] is clean and not yet copied
	w.buf = w.buf[:0]
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf && c >= 0x20 && c != 0x7f || c == '\n' || c == '\t' || w.mode == Terminal && kept(p, i) {
			i++
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(p[i:])
			if r != utf8.RuneError || size != 1 {
				if !Hidden(r) {
					i += size
					continue
				}
			}
		}
		w.buf = append(w.buf, p[start:i]...)
		if r == utf8.RuneError && size == 1 {
			w.buf = w.appendByte(w.buf, c)
		} else {
			w.buf = w.appendRune(w.buf, r)
		}
		i += size
		start = i
	}
	if start == 0 {
		_, err := w.w.Write(p) // nothing escaped: no copy
		return err
	}
	w.buf = append(w.buf, p[start:]...)
	_, err := w.w.Write(w.buf)
	return err
}

// appendByte shows a byte that is not UTF-8.
func (w *Writer) appendByte(b []byte, c byte) []byte {
	switch w.mode {
	case JSON:
		return append(b, `\ufffd`...)
	case XML:
		return append(b, "\uFFFD"...)
	}
	return fmt.Appendf(b, `\x%02x`, c)
}

// appendRune shows a hidden rune.
func (w *Writer) appendRune(b []byte, r rune) []byte {
	switch w.mode {
	case JSON:
		if r > 0xffff {
			r1, r2 := utf16.EncodeRune(r)
			return fmt.Appendf(b, `\u%04x\u%04x`, r1, r2)
		}
		return fmt.Appendf(b, `\u%04x`, r)
	case XML:
		if r < 0x20 {
			return append(b, "\uFFFD"...)
		}
		return fmt.Appendf(b, "&#x%X;", r)
	}
	var sb strings.Builder
	appendVisible(&sb, string(r), true)
	return append(b, sb.String()...)
}
