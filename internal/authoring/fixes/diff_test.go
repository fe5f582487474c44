package fixes

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

func TestDiffShapes(t *testing.T) {
	for _, c := range []struct {
		name          string
		before, after *string
		want          string
	}{
		{"created", nil, new("a\nb\n"), "--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"same", new("a\n"), new("a\n"), ""},
		{"no newline at end", new("a\nb"), new("a\nc"), "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"insert at top", new("x\n"), new("w\nx\n"), "--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n+w\n x\n"},
	} {
		var b []byte
		if c.before != nil {
			b = []byte(*c.before)
		}
		if got := Diff("f", b, []byte(*c.after)); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

// Random edits of a 60-line file: applying the printed patch to the text
// before gives the text after, and hunks never overlap.
func TestDiffRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		var lines []string
		for j := 0; j < 60; j++ {
			lines = append(lines, "line "+strconv.Itoa(r.Intn(20))+"\n")
		}
		before := strings.Join(lines, "")
		for k := r.Intn(6); k >= 0; k-- {
			at := r.Intn(len(lines) + 1)
			switch r.Intn(3) {
			case 0:
				lines = append(lines[:at], append([]string{"new " + strconv.Itoa(k) + "\n"}, lines[at:]...)...)
			case 1:
				if at < len(lines) {
					lines = append(lines[:at], lines[at+1:]...)
				}
			default:
				if at < len(lines) {
					lines[at] = "changed\n"
				}
			}
		}
		after := strings.Join(lines, "")
		patch := Diff("f", []byte(before), []byte(after))
		got, err := applyPatch(before, patch)
		if err != nil || got != after {
			t.Fatalf("round %d: %v\npatch:\n%s\ngot:\n%s\nwant:\n%s", i, err, patch, got, after)
		}
	}
}

// applyPatch applies a unified diff of one file (the test's own reader).
func applyPatch(text, patch string) (string, error) {
	src := splitLines(text)
	var out []string
	at := 0
	lines := strings.SplitAfter(patch, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "@@ -") {
			continue
		}
		var aStart, aLen int
		spec := strings.Fields(l)[1][1:]
		if s, n, ok := strings.Cut(spec, ","); ok {
			aStart, _ = strconv.Atoi(s)
			aLen, _ = strconv.Atoi(n)
		} else {
			aStart, _ = strconv.Atoi(spec)
			aLen = 1
		}
		start := aStart - 1
		if aLen == 0 {
			start = aStart
		}
		if start < at {
			return "", fmt.Errorf("hunk %q overlaps the one before", l)
		}
		out = append(out, src[at:start]...)
		at = start
		for i+1 < len(lines) && lines[i+1] != "" && !strings.HasPrefix(lines[i+1], "@@") {
			i++
			h := lines[i]
			switch h[0] {
			case ' ':
				if at >= len(src) || src[at] != h[1:] {
					return "", fmt.Errorf("context line %d does not match %q", at+1, h[1:])
				}
				out = append(out, h[1:])
				at++
			case '-':
				if at >= len(src) || src[at] != h[1:] {
					return "", fmt.Errorf("line %d is %q, the patch removes %q", at+1, src[at], h[1:])
				}
				at++
			case '+':
				out = append(out, h[1:])
			}
		}
	}
	out = append(out, src[at:]...)
	return strings.Join(out, ""), nil
}
