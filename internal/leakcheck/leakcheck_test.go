package leakcheck

import (
	"strings"
	"testing"
)

// Text whose lower case is longer or shorter than itself (İ, invalid
// UTF-8, the Kelvin sign) before a secret: Find reports the secret with
// the text around it, instead of cutting at an index of another text.
func TestFindAfterTextThatChangesLengthWhenLowered(t *testing.T) {
	const secret = "Tok3n-Value"
	for _, before := range []string{strings.Repeat("İ", 50), strings.Repeat("\xff", 50), strings.Repeat("\u212a", 50)} {
		found := Find([]byte(before+"TOK3N-value!"), secret)
		if len(found) != 1 || !strings.Contains(found[0], "TOK3N-value!") {
			t.Errorf("%q: %q", before[:4], found)
		}
	}
	// Case is folded beyond ASCII: É is é, the Kelvin sign is k.
	if found := Find([]byte("P@SS É \u212aEY"), "p@ss é \u212aey"); len(found) != 1 {
		t.Errorf("upper case: %q", found)
	}
	if found := Find([]byte("the \u212aey"), "key"); len(found) != 1 {
		t.Errorf("the Kelvin sign: %q", found)
	}
}
