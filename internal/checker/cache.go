package checker

import (
	"container/list"
	"crypto/sha256"
	"sync"
)

// DefaultCacheBytes is the budget of a cache made by NewCache: the total
// size of the contents whose analyses it keeps.
const DefaultCacheBytes = 64 << 20

// entryOverhead is what an entry costs beyond its content's length (the
// key, the list element, a small result), so that a flood of tiny files
// is bounded too.
const entryOverhead = 512

// Cache memoizes per-file analyses (page host calls, module exports) by
// kind and content hash, so an edit to one file re-analyses only that
// file. It is safe for concurrent use.
//
// It is bounded by bytes, not by entries: an entry costs the length of
// the content it was computed from (an analysis is roughly proportional to
// its input) plus a small overhead, and the least recently used entries
// go when the total exceeds the budget. A long-lived user (the language
// server) also calls Sweep after each check, which drops what the last
// checks did not use: superseded versions of an edited file and the
// buffers of closed files.
type Cache struct {
	mu    sync.Mutex
	m     map[cacheKey]*list.Element
	lru   list.List // of *cacheEntry, most recently used first
	bytes int64
	limit int64
	epoch uint64 // bumped by Sweep
}

type cacheKey struct {
	kind string
	hash [32]byte
}

type cacheEntry struct {
	key  cacheKey
	val  any
	size int64
	used uint64 // the epoch of the last Memo that returned it
}

// NewCache returns an empty cache bounded by DefaultCacheBytes.
func NewCache() *Cache { return NewCacheBytes(DefaultCacheBytes) }

// NewCacheBytes returns an empty cache bounded by limit bytes of content.
// An entry larger than the whole budget is computed but not kept.
func NewCacheBytes(limit int64) *Cache {
	return &Cache{m: map[cacheKey]*list.Element{}, limit: limit}
}

// Memo returns the cached result of compute for (kind, content), computing
// it once. compute must depend on nothing but content.
func (c *Cache) Memo(kind string, content []byte, compute func() any) any {
	k := cacheKey{kind, sha256.Sum256(content)}
	c.mu.Lock()
	if el, ok := c.m[k]; ok {
		e := el.Value.(*cacheEntry)
		e.used = c.epoch
		c.lru.MoveToFront(el)
		c.mu.Unlock()
		return e.val
	}
	c.mu.Unlock()
	v := compute()
	size := int64(len(content)) + entryOverhead
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.m[k]; ok { // computed concurrently: keep the first
		e := el.Value.(*cacheEntry)
		e.used = c.epoch
		c.lru.MoveToFront(el)
		return e.val
	}
	if size > c.limit {
		return v
	}
	c.m[k] = c.lru.PushFront(&cacheEntry{key: k, val: v, size: size, used: c.epoch})
	c.bytes += size
	for c.bytes > c.limit {
		c.remove(c.lru.Back())
	}
	return v
}

func (c *Cache) remove(el *list.Element) {
	e := c.lru.Remove(el).(*cacheEntry)
	delete(c.m, e.key)
	c.bytes -= e.size
}

// Sweep ends a pass: it drops every entry that no Memo returned during
// the last keep passes (1: this one only) and reports how many went. A
// caller that sweeps after each complete check with keep 1 keeps exactly
// what the latest check used; with keep 2 it also keeps the version of
// each file the check before used (an undo is then a hit).
func (c *Cache) Sweep(keep int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for el := c.lru.Back(); el != nil; {
		prev := el.Prev()
		if c.epoch-el.Value.(*cacheEntry).used >= uint64(max(keep, 1)) {
			c.remove(el)
			n++
		}
		el = prev
	}
	c.epoch++
	return n
}

// Forget drops every entry computed from content, whatever its kind,
// and reports how many went. The language server calls it when a buffer
// whose text is not the file on disk is closed: the check that follows
// reads the disk, and the buffer's analyses (a large page's is about the
// size of its text) would otherwise stay until that check's sweep, live
// beside the analyses it makes.
func (c *Cache) Forget(content []byte) int {
	h := sha256.Sum256(content)
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for k, el := range c.m {
		if k.hash == h {
			c.remove(el)
			n++
		}
	}
	return n
}

// Has reports whether the result for (kind, content) is cached.
func (c *Cache) Has(kind string, content []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.m[cacheKey{kind, sha256.Sum256(content)}]
	return ok
}

// Len returns the number of cached entries.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Bytes returns the cost of the cached entries, as counted against the
// budget.
func (c *Cache) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
