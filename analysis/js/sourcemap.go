package js

import (
	"encoding/json"
	"sort"
)

// segment maps a generated column to an original line and column (all
// 0-based, columns in UTF-16 units, as source map v3 specifies).
type segment struct {
	genCol, src, srcLine, srcCol int
}

// sourceMap is the decoded "mappings" of a single-source map: one sorted
// list of segments per generated line.
type sourceMap struct {
	lines [][]segment
}

// parseSourceMap decodes the JSON source map esbuild emits. A map that
// does not decode yields an empty map (every lookup fails).
func parseSourceMap(data []byte) (*sourceMap, []string) {
	var raw struct {
		Sources  []string `json:"sources"`
		Mappings string   `json:"mappings"`
	}
	sm := &sourceMap{}
	if json.Unmarshal(data, &raw) != nil {
		return sm, nil
	}
	s := raw.Mappings
	var line []segment
	genCol, src, srcLine, srcCol := 0, 0, 0, 0
	var fields [5]int
	for i := 0; i <= len(s); {
		if i == len(s) || s[i] == ';' {
			sm.lines = append(sm.lines, line)
			line = nil
			genCol = 0
			i++
			if i > len(s) {
				break
			}
			continue
		}
		if s[i] == ',' {
			i++
			continue
		}
		n := 0
		for i < len(s) && s[i] != ',' && s[i] != ';' && n < 5 {
			v, next, ok := vlq(s, i)
			if !ok {
				return sm, raw.Sources
			}
			fields[n] = v
			n++
			i = next
		}
		for i < len(s) && s[i] != ',' && s[i] != ';' { // more than 5 fields: skip
			i++
		}
		genCol += fields[0]
		if n >= 4 {
			src += fields[1]
			srcLine += fields[2]
			srcCol += fields[3]
			line = append(line, segment{genCol, src, srcLine, srcCol})
		}
	}
	for _, l := range sm.lines {
		if !sort.SliceIsSorted(l, func(a, b int) bool { return l[a].genCol < l[b].genCol }) {
			sort.SliceStable(l, func(a, b int) bool { return l[a].genCol < l[b].genCol })
		}
	}
	return sm, raw.Sources
}

func vlq(s string, i int) (int, int, bool) {
	shift, v := 0, 0
	for i < len(s) {
		c := b64(s[i])
		if c < 0 {
			return 0, i, false
		}
		i++
		v += (c & 31) << shift
		if c&32 == 0 {
			if v&1 != 0 {
				return -(v >> 1), i, true
			}
			return v >> 1, i, true
		}
		shift += 5
		if shift > 60 {
			return 0, i, false
		}
	}
	return 0, i, false
}

func b64(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '+':
		return 62
	case c == '/':
		return 63
	}
	return -1
}

// lookup returns the original line and column of a generated position:
// the last segment at or before the column on that line, plus the
// distance from it (exact when the position is a token start esbuild
// mapped, which is what node starts are).
func (sm *sourceMap) lookup(line, col int) (src, srcLine, srcCol int, ok bool) {
	if line < 0 || line >= len(sm.lines) {
		return 0, 0, 0, false
	}
	segs := sm.lines[line]
	i := sort.Search(len(segs), func(i int) bool { return segs[i].genCol > col }) - 1
	if i < 0 {
		return 0, 0, 0, false
	}
	s := segs[i]
	return s.src, s.srcLine, s.srcCol + (col - s.genCol), true
}
