package js

import (
	"encoding/json"
	"sort"
)

// sourceMap is the source map esbuild writes for a bundle, kept as its
// "mappings" text and decoded on lookup: esbuild's output is one line,
// and a 2 MB page has about 470,000 mappings, which go-sourcemap (the
// reader the runner maps stack traces with) holds as 24 bytes each
// (11 MB) for the whole analysis. Here the text (about 5 bytes a
// mapping) is kept, with the decoder's state every ckEvery mappings.
//
// The answers are go-sourcemap's, field for field (the same VLQ reading,
// the same search, the same carried fields): TestSourceMapAgreesWithGoSourcemap
// compares the two on esbuild's maps of the test pages and of fuzzed
// input.
type sourceMap struct {
	mappings string
	cks      []checkpoint // the state before mapping k·ckEvery
	n        int          // mappings in all
	sources  []string
	names    []json.RawMessage
	// index maps a source name to its (first) index in "sources".
	index map[string]int
	ok    bool // false when the map does not read: every lookup fails
}

const ckEvery = 16

// segment is one decoded mapping, 0-based.
type segment struct {
	line, col            int32 // generated
	src, srcLine, srcCol int32
	name                 int32 // -1 when the mapping has none
}

// checkpoint is the decoder's state before a mapping.
type checkpoint struct {
	off                  int32 // in mappings
	line, col            int32
	src, srcLine, srcCol int32
	name                 int32 // the running name index
}

// parseSourceMap reads the JSON source map esbuild emits and returns its
// "sources" too. A map that does not read yields an empty map (every
// lookup fails).
func parseSourceMap(data []byte) (*sourceMap, []string) {
	var raw struct {
		Version    int               `json:"version"`
		Sources    []string          `json:"sources"`
		SourceRoot string            `json:"sourceRoot"`
		Names      []json.RawMessage `json:"names"`
		Mappings   string            `json:"mappings"`
		Sections   json.RawMessage   `json:"sections"`
	}
	sm := &sourceMap{index: map[string]int{}}
	if json.Unmarshal(data, &raw) != nil {
		return sm, nil
	}
	for i := len(raw.Sources) - 1; i >= 0; i-- {
		sm.index[raw.Sources[i]] = i
	}
	// What esbuild never writes (another version, an index map, a source
	// root, no mappings) is not read.
	if (raw.Version != 3 && raw.Version != 0) || len(raw.Sections) > 0 || raw.SourceRoot != "" || raw.Mappings == "" {
		return sm, raw.Sources
	}
	sm.mappings, sm.sources, sm.names = raw.Mappings, raw.Sources, raw.Names
	sm.ok = sm.scan()
	return sm, raw.Sources
}

// scan decodes every mapping once, keeping a checkpoint every ckEvery;
// false when the text does not decode (a value cut short).
func (sm *sourceMap) scan() bool {
	var st checkpoint
	for {
		if sm.n%ckEvery == 0 {
			sm.cks = append(sm.cks, st)
		}
		_, next, more, ok := sm.decode(st)
		if !ok {
			return false
		}
		if !more {
			break
		}
		sm.n++
		st = next
	}
	if len(sm.cks) > 0 && (len(sm.cks)-1)*ckEvery >= sm.n {
		sm.cks = sm.cks[:len(sm.cks)-1] // no mapping after it
	}
	return true
}

// decode reads the mapping at st (skipping empty segments and line
// ends first): the mapping, the state after it, and more false at the
// end of the text. It reads as go-sourcemap does: a segment of one
// field carries the source fields of the one before, a name only with
// five fields, a byte outside base64 reads as 0.
func (sm *sourceMap) decode(st checkpoint) (seg segment, next checkpoint, more, ok bool) {
	s, i := sm.mappings, int(st.off)
	for i < len(s) && (s[i] == ',' || s[i] == ';') {
		if s[i] == ';' {
			st.line++
			st.col = 0
		}
		i++
	}
	if i >= len(s) {
		return segment{}, st, false, true
	}
	fields := 0
	hasName := false
	for i < len(s) && s[i] != ',' && s[i] != ';' {
		var n int32
		shift := uint(0)
		for continuation := true; continuation; {
			if i >= len(s) {
				return segment{}, st, false, false
			}
			c := vlqDigit[s[i]]
			i++
			continuation = c&32 != 0
			n += int32(c&31) << shift
			shift += 5
		}
		if n&1 != 0 {
			n = -(n >> 1)
		} else {
			n >>= 1
		}
		switch fields % 5 {
		case 0:
			st.col += n
		case 1:
			st.src += n
		case 2:
			st.srcLine += n
		case 3:
			st.srcCol += n
		case 4:
			st.name += n
			hasName = true
		}
		fields++
	}
	seg = segment{line: st.line, col: st.col, src: st.src, srcLine: st.srcLine, srcCol: st.srcCol, name: -1}
	if hasName {
		seg.name = st.name
	}
	st.off = int32(i)
	return seg, st, true, true
}

var vlqDigit = func() (d [256]byte) {
	const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range len(digits) {
		d[digits[i]] = byte(i)
	}
	return d
}()

// find is go-sourcemap's search: the mapping for a generated position
// (0-based line), k -1 when none.
func (sm *sourceMap) find(line, col int) (k int, seg segment) {
	if !sm.ok || sm.n == 0 {
		return -1, segment{}
	}
	before := func(seg segment) bool { // seg is before (line, col)
		if int(seg.line) == line {
			return int(seg.col) < col
		}
		return int(seg.line) < line
	}
	first := func(c int) segment { seg, _, _, _ := sm.decode(sm.cks[c]); return seg }
	// The first checkpoint whose mapping is not before the position; the
	// first such mapping is in the block before it, or is that one.
	c := sort.Search(len(sm.cks), func(c int) bool { return !before(first(c)) })
	i := 0
	var prev segment
	found := false
	if c > 0 {
		i = (c - 1) * ckEvery
		st := sm.cks[c-1]
		for i < sm.n && i < c*ckEvery {
			s, next, _, _ := sm.decode(st)
			if !before(s) {
				seg, found = s, true
				break
			}
			prev, st = s, next
			i++
		}
	}
	if i == sm.n {
		if int(prev.line) != line {
			return -1, segment{}
		}
		return i - 1, prev
	}
	if !found {
		seg = first(i / ckEvery) // i is the first mapping of block c
	}
	if int(seg.line) > line || int(seg.col) > col {
		if i == 0 {
			return -1, segment{}
		}
		return i - 1, prev
	}
	return i, seg
}

// source and name of a mapping as go-sourcemap gives them.
func (sm *sourceMap) source(seg segment) string {
	if seg.src >= 0 && int(seg.src) < len(sm.sources) {
		return sm.sources[seg.src]
	}
	return ""
}

func (sm *sourceMap) name(seg segment) string {
	if seg.name < 0 || int(seg.name) >= len(sm.names) {
		return ""
	}
	raw := sm.names[seg.name]
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' && raw[len(raw)-1] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	return string(raw)
}

// lookup returns the original source (its index in "sources"), line and
// column of a generated position (all 0-based, columns in UTF-16 units,
// as source map v3 specifies): the last mapping at or before the column
// on that line, plus the distance from where that mapping starts (exact
// when the position is a token start esbuild mapped, which is what node
// starts are). Where a mapping starts is the first column before col
// that still finds the same original position and name: esbuild never
// writes two adjacent mappings with the same original position and
// name, and starts every line after its first mapping with a mapping at
// column 0, so that is the mapping's own column.
func (sm *sourceMap) lookup(line, col int) (src, srcLine, srcCol int, ok bool) {
	if line < 0 || col < 0 {
		return 0, 0, 0, false
	}
	k, m := sm.find(line, col)
	if k < 0 {
		return 0, 0, 0, false
	}
	source, name := sm.source(m), sm.name(m)
	src, ok = sm.index[source]
	if !ok {
		return 0, 0, 0, false
	}
	start := col
	for start > 0 {
		j, p := sm.find(line, start-1)
		if j < 0 || p.srcLine != m.srcLine || p.srcCol != m.srcCol || sm.source(p) != source || sm.name(p) != name {
			break
		}
		// Every column after p's (all of them, when p is on an earlier
		// line) up to start-1 finds p; p's own column may find an
		// earlier mapping of that column.
		switch {
		case int(p.line) != line:
			start = 0
		case int(p.col) < start-1:
			start = max(int(p.col)+1, 0)
		default:
			start--
		}
	}
	return src, int(m.srcLine), int(m.srcCol) + (col - start), true
}
