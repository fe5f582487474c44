package checker

import (
	"bytes"
	"testing"
)

func TestCacheBoundedByBytes(t *testing.T) {
	c := NewCacheBytes(10 * (1000 + entryOverhead))
	calls := 0
	memo := func(i int) {
		c.Memo("k", bytes.Repeat([]byte{byte(i)}, 1000), func() any { calls++; return i })
	}
	for i := 0; i < 30; i++ {
		memo(i)
	}
	if c.Len() != 10 || c.Bytes() > 10*(1000+entryOverhead) {
		t.Fatalf("len %d, bytes %d: want 10 entries within the budget", c.Len(), c.Bytes())
	}
	// The most recent ten are kept; using the oldest of them makes it the
	// newest, so the next insertion evicts the second oldest instead.
	memo(20)
	memo(99)
	if !c.Has("k", bytes.Repeat([]byte{20}, 1000)) || c.Has("k", bytes.Repeat([]byte{21}, 1000)) {
		t.Fatal("eviction is not least-recently-used")
	}
	if calls != 31 {
		t.Fatalf("%d computations, want 31 (the hit on 20 must not recompute)", calls)
	}
	// An entry larger than the budget is computed and returned, never kept.
	big := bytes.Repeat([]byte{1}, 20000)
	if v := c.Memo("k", big, func() any { return "big" }); v != "big" || c.Has("k", big) {
		t.Fatalf("oversized entry: %v, kept %v", v, c.Has("k", big))
	}
}

func TestCacheSweepKeepsWhatTheLastPassUsed(t *testing.T) {
	c := NewCache()
	v1, v2, other := []byte("version 1"), []byte("version 2"), []byte("other file")
	c.Memo("page", v1, func() any { return 1 })
	c.Memo("page", other, func() any { return 3 })
	c.Sweep(1)
	// The next pass sees the edited file and the unchanged one.
	c.Memo("page", v2, func() any { return 2 })
	c.Memo("page", other, func() any { t.Fatal("recomputed an unchanged file"); return nil })
	if n := c.Sweep(1); n != 1 {
		t.Fatalf("swept %d entries, want 1 (the superseded version)", n)
	}
	if c.Has("page", v1) || !c.Has("page", v2) || !c.Has("page", other) {
		t.Fatal("sweep kept the wrong entries")
	}
	if c.Bytes() != int64(len(v2)+len(other)+2*entryOverhead) {
		t.Fatalf("bytes %d after sweep", c.Bytes())
	}
	// keep 2: the version before stays one more pass (an undo hits).
	v3 := []byte("version 3")
	c.Memo("page", v3, func() any { return 3 })
	c.Memo("page", other, func() any { return 3 })
	if n := c.Sweep(2); n != 0 || !c.Has("page", v2) {
		t.Fatalf("keep 2 swept %d, kept the previous version: %v", n, c.Has("page", v2))
	}
	c.Memo("page", other, func() any { return 3 })
	c.Memo("page", v3, func() any { return 3 })
	if n := c.Sweep(2); n != 1 || c.Has("page", v2) || !c.Has("page", v3) {
		t.Fatalf("keep 2, a pass later: swept %d; v2 kept %v", n, c.Has("page", v2))
	}
}

func TestCacheForgetDropsTheContentOfEveryKind(t *testing.T) {
	c := NewCache()
	buf, disk := []byte("the buffer"), []byte("the file on disk")
	c.Memo("page:a.ts", buf, func() any { return 1 })
	c.Memo("esm", buf, func() any { return 2 })
	c.Memo("page:a.ts", disk, func() any { return 3 })
	if n := c.Forget(buf); n != 2 {
		t.Fatalf("forgot %d entries, want 2", n)
	}
	if c.Has("page:a.ts", buf) || c.Has("esm", buf) {
		t.Error("an entry of the forgotten content is still cached")
	}
	if !c.Has("page:a.ts", disk) || c.Len() != 1 || c.Bytes() != int64(len(disk))+entryOverhead {
		t.Errorf("other content: has %v, %d entries, %d bytes", c.Has("page:a.ts", disk), c.Len(), c.Bytes())
	}
	if n := c.Forget([]byte("never cached")); n != 0 {
		t.Errorf("forgot %d entries of content never cached", n)
	}
}
