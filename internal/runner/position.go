package runner

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jspage"
)

// hostCallPosition places the error of a failed host call at the call
// itself: QuickJS reports the position where the caller's frame stopped,
// which for `http.fetch(…)` is the method name, or a call nested in the
// arguments. The page's analysis (the one check uses) lists the calls; the
// innermost call of that method around the reported position wins, else
// the nearest one before it. It returns the 1-based line and column of the
// callee's start (where check puts a diagnostic about that call), or ok
// false when the file cannot be read or holds no such call.
func hostCallPosition(p *checker.Plugin, file string, line, col int, method string) (int, int, bool) {
	if file == "" || line <= 0 || method == "" {
		return 0, 0, false
	}
	f, err := p.ReadFile(file)
	if err != nil {
		return 0, 0, false
	}
	off := f.Offset(line-1, col-1)
	page := jspage.AnalyzePage(file, f.Text)
	// the innermost call of that method around off, else the nearest one
	// that starts before it
	best, around := -1, false
	for i, c := range page.Calls {
		if c.Object+"."+c.Method != method || c.Span.Start > off {
			continue
		}
		in := off < c.Span.End
		switch {
		case best < 0, in && !around:
			best, around = i, in
		case in && around:
			if c.Span.End-c.Span.Start < page.Calls[best].Span.End-page.Calls[best].Span.Start {
				best = i
			}
		case !in && !around && c.Span.Start > page.Calls[best].Span.Start:
			best = i
		}
	}
	if best < 0 {
		return 0, 0, false
	}
	pos := f.Position(page.Calls[best].Callee.Start)
	return pos.Line + 1, pos.Col + 1, true
}

// returnPosition places a ResultError at the statement that returned the
// value: the page analysis (the one check uses) lists the return
// statements of the default export function, or its arrow's expression
// body. Only when there is exactly one is it known which returned; ok is
// false otherwise (several returns, a function defined in another file, a
// page that cannot be read).
func returnPosition(p *checker.Plugin, page string) (int, int, bool) {
	f, err := p.ReadFile(page)
	if err != nil {
		return 0, 0, false
	}
	rs := jspage.AnalyzePage(page, f.Text).DefaultExport.Returns
	if len(rs) != 1 {
		return 0, 0, false
	}
	pos := f.Position(rs[0].Start)
	return pos.Line + 1, pos.Col + 1, true
}

// replaceFirstFrame rewrites the first "file:line:col" of a mapped stack.
func replaceFirstFrame(stack, file string, line, col, nl, nc int) string {
	old := fmt.Sprintf("%s:%d:%d", file, line, col)
	return strings.Replace(stack, old, fmt.Sprintf("%s:%d:%d", file, nl, nc), 1)
}

// frameLineRE is one mapped stack frame: "    at name (file:line:col)".
var frameLineRE = regexp.MustCompile(`^(\s*at )(.*?) \(([^()]+):(\d+):(\d+)\)$`)

// calleeFrames moves each mapped frame of a stack to the start of the
// callee expression of the call that frame was making. QuickJS reports
// where the frame stopped: the method name of a.b.c(), the await before
// the call, or a call nested in the arguments. The frame above names the
// function being called, and the page analysis of the frame's file lists
// every callee (jspage.Page.CallSites): a callee with that name around or
// just after the position wins; without a name, the callee around it.
// keepTop leaves the first frame alone (a host call's, placed already).
func calleeFrames(p *checker.Plugin, stack string, keepTop bool) string {
	type fileInfo struct {
		f     *checker.File
		text  string
		sites []jspage.CallSite
	}
	files := map[string]*fileInfo{}
	info := func(rel string) *fileInfo {
		if fi, ok := files[rel]; ok {
			return fi
		}
		var fi *fileInfo
		if f, err := p.ReadFile(rel); err == nil {
			fi = &fileInfo{f: f, text: string(f.Text), sites: jspage.AnalyzePage(rel, f.Text).CallSites}
		}
		files[rel] = fi
		return fi
	}
	lines := strings.Split(stack, "\n")
	prevName := ""
	for i, l := range lines {
		m := frameLineRE.FindStringSubmatch(l)
		name := ""
		if m == nil {
			if n := strings.TrimSpace(l); strings.HasPrefix(n, "at ") {
				name, _, _ = strings.Cut(strings.TrimPrefix(n, "at "), " ")
			}
			prevName = name
			continue
		}
		name = m[2]
		hint := prevName
		prevName = name
		if i == 0 && keepTop {
			continue
		}
		fi := info(m[3])
		if fi == nil {
			continue
		}
		line, _ := strconv.Atoi(m[4])
		col, _ := strconv.Atoi(m[5])
		off := fi.f.Offset(line-1, col-1)
		if s, ok := calleeAt(fi.text, fi.sites, m[3], off, hint); ok {
			pos := fi.f.Position(s)
			lines[i] = fmt.Sprintf("%s%s (%s:%d:%d)", m[1], name, m[3], pos.Line+1, pos.Col+1)
		}
	}
	return strings.Join(lines, "\n")
}

// calleeAt picks the callee start for a frame at off of file (see
// calleeFrames).
func calleeAt(text string, sites []jspage.CallSite, file string, off int, hint string) (int, bool) {
	if hint == "<anonymous>" || strings.ContainsAny(hint, " <>") {
		hint = ""
	}
	// just before the callee: only spaces, "await" or "(" between
	leads := func(s int) bool {
		if s < off || off < 0 {
			return false
		}
		between := strings.TrimSpace(strings.NewReplacer("await", "", "(", "").Replace(text[off:s]))
		return between == ""
	}
	sameLine := func(s int) bool { return s < off && !strings.Contains(text[s:off], "\n") }
	pick := func(match func(jspage.CallSite) bool) (int, bool) {
		best := -1
		for i, c := range sites {
			if c.File != file || !match(c) {
				continue
			}
			if c.Callee.Start <= off && off < c.Callee.End &&
				(best < 0 || !(sites[best].Callee.Start <= off && off < sites[best].Callee.End) ||
					c.Callee.End-c.Callee.Start < sites[best].Callee.End-sites[best].Callee.Start) {
				best = i
			}
		}
		if best >= 0 {
			return sites[best].Callee.Start, true
		}
		for _, c := range sites {
			if c.File == file && match(c) && leads(c.Callee.Start) {
				return c.Callee.Start, true
			}
		}
		if hint == "" {
			return 0, false
		}
		for i, c := range sites {
			if c.File == file && match(c) && sameLine(c.Callee.Start) {
				best = i
			}
		}
		if best >= 0 {
			return sites[best].Callee.Start, true
		}
		return 0, false
	}
	if hint != "" {
		named := func(c jspage.CallSite) bool {
			callee := text[c.Callee.Start:c.Callee.End]
			return strings.HasSuffix(callee, hint) &&
				(len(callee) == len(hint) || !isIdentByte(callee[len(callee)-len(hint)-1]))
		}
		if s, ok := pick(named); ok {
			return s, true
		}
		hint = ""
	}
	return pick(func(jspage.CallSite) bool { return true })
}

func isIdentByte(b byte) bool {
	return b == '_' || b == '$' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// topFrame is the position of the first mapped frame of stack (file,
// line, col unchanged when it is not a frame of file).
func topFrame(stack, file string, line, col int) (string, int, int) {
	for _, l := range strings.Split(stack, "\n") {
		if m := frameLineRE.FindStringSubmatch(l); m != nil {
			if m[3] == file {
				line, _ = strconv.Atoi(m[4])
				col, _ = strconv.Atoi(m[5])
			}
			break
		}
	}
	return file, line, col
}
