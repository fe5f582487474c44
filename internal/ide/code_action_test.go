package ide

import "testing"

// TestAllowKinds: the "only" filter accepts a kind named or refined
// ("source" takes "source.fixAll", not "sourceX"), every kind when empty;
// fix-all is asked for only by its own name.
func TestAllowKinds(t *testing.T) {
	if AllowKinds([]string(nil)) != nil {
		t.Error("an empty filter is not nil (every kind)")
	}
	cases := []struct {
		only []string
		kind ActionKind
		want bool
	}{
		{[]string{"source"}, Source, true},
		{[]string{"source"}, SourceFixAll, true},
		{[]string{"source"}, "sourceX", false},
		{[]string{"source"}, QuickFix, false},
		{[]string{"source.fixAll"}, Source, false},
		{[]string{"source.fixAll"}, SourceFixAll, true},
		{[]string{"refactor", "quickfix"}, QuickFix, true},
		{[]string{"quick"}, QuickFix, false},
	}
	for _, c := range cases {
		if got := AllowKinds(c.only)(c.kind); got != c.want {
			t.Errorf("AllowKinds(%q)(%q) = %v, want %v", c.only, c.kind, got, c.want)
		}
	}
	for _, c := range []struct {
		only []string
		want bool
	}{
		{nil, false}, {[]string{"source"}, false}, {[]string{"quickfix", "source.fixAll"}, true}, {[]string{"source.fixAll.x"}, false},
	} {
		if got := Explicitly(c.only, SourceFixAll); got != c.want {
			t.Errorf("Explicitly(%q, source.fixAll) = %v, want %v", c.only, got, c.want)
		}
	}
}
