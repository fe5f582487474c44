// Package suggest measures how far a typo is from what was meant, for the
// "did you mean …?" hints of the checks.
package suggest

import "strings"

// Distance is the optimal-string-alignment distance between a and b, in
// runes: insertions, deletions, substitutions and transpositions of
// neighbours cost 1 ("hots" → "host" is 1). Strings longer than 256 runes
// are never close: their distance is reported as 1<<20 without work.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 256 || len(rb) > 256 {
		return 1 << 20
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// Closest returns the candidate closest to word when it is close enough
// to be a typo (the same letters ignoring case, an edit distance of at
// most 2 (1 for words of 4 letters or fewer), or a lookalike), else "".
// Ties go to the earlier candidate, so callers list the likelier ones
// first.
func Closest(word string, candidates []string) string {
	best, bestD := "", 1<<30
	lw := strings.ToLower(word)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if lc == lw {
			return c
		}
		d := Distance(lw, lc)
		limit := 2
		if len(c) <= 4 {
			limit = 1
		}
		if d > limit && Lookalike(lw, lc) {
			d = limit
		}
		if d <= limit && d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// lookalikes are the character sequences that read alike in a host or a
// name: "rn" for "m", "0" for "o", "1" and "I" for "l", "vv" for "w".
var lookalikes = strings.NewReplacer("rn", "m", "vv", "w", "0", "o", "1", "l", "i", "l", "5", "s", "_", "-")

// Lookalike reports whether a and b differ only by characters that look
// alike ("examp1e.com", "exarnple.com" and "example.com"), ignoring case.
func Lookalike(a, b string) bool {
	if a == b {
		return false
	}
	return Skeleton(a) == Skeleton(b)
}

// Skeleton is s lower-cased with its lookalike sequences replaced by the
// letter they imitate: two strings with one skeleton read alike.
func Skeleton(s string) string { return lookalikes.Replace(strings.ToLower(s)) }
