package suggest

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"host", "host", 0}, {"hots", "host", 1}, {"tool", "tools", 1},
		{"fetch", "fecth", 1}, {"kitten", "sitting", 3}, {"ä", "a", 1}, {"", "abc", 3},
		{strings.Repeat("a", 300), "a", 1 << 20},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}
