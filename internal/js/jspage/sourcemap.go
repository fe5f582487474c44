package jspage

import (
	"encoding/json"

	"github.com/go-sourcemap/sourcemap"
)

// sourceMap is the source map esbuild writes for a bundle, read with
// go-sourcemap (the reader the runner maps stack traces with) at the
// first lookup: the reader holds 24 bytes a mapping (11 MB for a 2 MB
// page), and the analysis looks nothing up before goja has parsed the
// bundle, so that it and the lexer's tokens are not live together.
type sourceMap struct {
	data []byte              // the map's JSON until it is read
	c    *sourcemap.Consumer // nil when the map does not read: every lookup fails
	// index maps a source name to its index in the map's "sources".
	index map[string]int
}

// parseSourceMap reads the "sources" of the JSON source map esbuild
// emits (go-sourcemap does not list them); the mappings are read at the
// first lookup. A map that does not read yields an empty map (every
// lookup fails).
func parseSourceMap(data []byte) (*sourceMap, []string) {
	var raw struct {
		Sources []string `json:"sources"`
	}
	sm := &sourceMap{index: map[string]int{}}
	if json.Unmarshal(data, &raw) != nil {
		return sm, nil
	}
	for i := len(raw.Sources) - 1; i >= 0; i-- {
		sm.index[raw.Sources[i]] = i
	}
	sm.data = data
	return sm, raw.Sources
}

// read parses the mappings, once.
func (sm *sourceMap) read() {
	if sm.data == nil {
		return
	}
	if c, err := sourcemap.Parse("", sm.data); err == nil {
		sm.c = c
	}
	sm.data = nil
}

// lookup returns the original source (its index in "sources"), line and
// column of a generated position (all 0-based, columns in UTF-16 units,
// as source map v3 specifies): the last mapping at or before the column
// on that line, plus the distance from it (exact when the position is a
// token start esbuild mapped, which is what node starts are).
//
// go-sourcemap returns the mapping but not the column where it starts:
// the columns before col that still return the same mapping are walked
// (a token's length at most). esbuild never writes two adjacent mappings
// with the same original position and name, and starts every line after
// its first mapping with a mapping at column 0, so the walk stops at the
// mapping's start and a lookup never falls back to an earlier line.
func (sm *sourceMap) lookup(line, col int) (src, srcLine, srcCol int, ok bool) {
	sm.read()
	if sm.c == nil || line < 0 || col < 0 {
		return 0, 0, 0, false
	}
	source, name, l, c, ok := sm.c.Source(line+1, col)
	if !ok {
		return 0, 0, 0, false
	}
	src, ok = sm.index[source]
	if !ok {
		return 0, 0, 0, false
	}
	start := col
	for start > 0 {
		s, n, l2, c2, ok := sm.c.Source(line+1, start-1)
		if !ok || s != source || n != name || l2 != l || c2 != c {
			break
		}
		start--
	}
	return src, l - 1, c + (col - start), true
}
