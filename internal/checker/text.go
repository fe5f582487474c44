package checker

import "fmt"

// Elide returns s when it is at most max bytes, else its first bytes (cut
// on a UTF-8 boundary) followed by "…(N bytes)", N being len(s): the one
// way run records and the review card shorten untrusted text.
func Elide(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return cutUTF8(s, max) + fmt.Sprintf("…(%d bytes)", len(s))
}

// Clip returns s when it is at most max bytes, else its first bytes (cut
// on a UTF-8 boundary) followed by "…": the one way a message quotes a
// piece of untrusted or long text.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return cutUTF8(s, max) + "…"
}

// cutUTF8 is s[:max] (len(s) > max) shortened to a UTF-8 boundary.
func cutUTF8(s string, max int) string {
	n := max
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
