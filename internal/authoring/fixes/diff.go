package fixes

import (
	"fmt"
	"strings"
)

// Diff returns the unified diff (3 lines of context, as `diff -u` and
// `git diff` print it) that turns before into after, with a/ and b/
// prefixes on path. A nil before is a created file.
func Diff(path string, before, after []byte) string {
	if string(before) == string(after) && before != nil {
		return ""
	}
	a, b := splitLines(string(before)), splitLines(string(after))
	var out strings.Builder
	from := "a/" + path
	if before == nil {
		from = "/dev/null"
	}
	fmt.Fprintf(&out, "--- %s\n+++ b/%s\n", from, path)
	ops := lineOps(a, b)
	// Group ops into hunks with 3 lines of context.
	const ctx = 3
	i := 0
	for i < len(ops) {
		// skip to the next change
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(0, i-ctx)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			// a run of equal lines: does it end the hunk?
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*ctx {
				end = min(end+ctx, len(ops))
				break
			}
			end = run
		}
		h := ops[start:end]
		aStart, bStart := h[0].a, h[0].b
		aLen, bLen := 0, 0
		for _, o := range h {
			if o.kind != '+' {
				aLen++
			}
			if o.kind != '-' {
				bLen++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		for _, o := range h {
			text := o.text
			out.WriteByte(o.kind)
			out.WriteString(strings.TrimSuffix(text, "\n"))
			out.WriteByte('\n')
			if !strings.HasSuffix(text, "\n") {
				out.WriteString("\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines keeps each line's newline.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

type op struct {
	kind byte // ' ', '-', '+'
	text string
	a, b int // line index in before / after where the op stands
}

// lineOps is a line diff: the common prefix and suffix are trimmed, the
// middle is aligned by a longest common subsequence (quadratic, bounded:
// past 4M cells the middle is replaced as one block). Manifests and
// pages are small.
func lineOps(a, b []string) []op {
	var ops []op
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		ops = append(ops, op{' ', a[p], p, p})
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	ma, mb := a[p:len(a)-s], b[p:len(b)-s]
	if len(ma)*len(mb) > 4<<20 {
		for i, l := range ma {
			ops = append(ops, op{'-', l, p + i, p})
		}
		for j, l := range mb {
			ops = append(ops, op{'+', l, p + len(ma), p + j})
		}
	} else {
		// lcs[i][j] = LCS length of ma[i:], mb[j:]
		n, m := len(ma), len(mb)
		lcs := make([][]int32, n+1)
		for i := range lcs {
			lcs[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && ma[i] == mb[j]:
				ops = append(ops, op{' ', ma[i], p + i, p + j})
				i++
				j++
			case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, op{'-', ma[i], p + i, p + j})
				i++
			default:
				ops = append(ops, op{'+', mb[j], p + i, p + j})
				j++
			}
		}
	}
	for k := 0; k < s; k++ {
		ia, ib := len(a)-s+k, len(b)-s+k
		ops = append(ops, op{' ', a[ia], ia, ib})
	}
	return ops
}
