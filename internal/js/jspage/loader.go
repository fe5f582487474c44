package jspage

// The loader: reading the files of a build once each, through a ReadFunc.

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
)

// loader reads the files of a build through a ReadFunc, once each, and
// remembers what it read and what it looked for in vain.
type loader struct {
	read   ReadFunc
	limit  int // bytes all files together may have
	mu     sync.Mutex
	texts  map[string]string
	hashes map[string][32]byte
	order  []string // the files read, in order
	misses []miss
	total  int
	deep   []SyntaxError // files refused for their nesting, at the offending token
}

// nestingErrors are the nesting refusals of the build, File "" for entry.
func (l *loader) nestingErrors(entry string) []SyntaxError {
	out := make([]SyntaxError, 0, len(l.deep))
	for _, e := range l.deep {
		if e.File == entry {
			e.File = ""
		}
		out = append(out, e)
	}
	return out
}

// miss is a file an import of importer looked for and did not find.
type miss struct{ importer, rel string }

func (l *loader) load(importer, rel string) (string, error) {
	b, err := l.read(rel)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			l.misses = append(l.misses, miss{importer, rel})
		}
		return "", err
	}
	if t, seen := l.texts[rel]; seen {
		return t, nil
	}
	l.total += len(b)
	if len(b) > MaxSize || l.total > l.limit {
		return "", fmt.Errorf("%s makes the page and its imports %d bytes; pages over %d bytes are not analysed", rel, l.total, MaxSize)
	}
	// Deep nesting would overflow esbuild's or goja's stack (fatal in Go)
	// and mass redeclarations stall esbuild: measured first, with a
	// tokenizer that keeps no stack.
	if e := jslex.CheckCode(string(b)); e != nil {
		l.deep = append(l.deep, SyntaxError{File: rel, Span: Span{Start: e.Offset, End: jslex.TokenEnd(string(b), e.Offset)}, Message: e.Message})
		return "", fmt.Errorf("%s: %s", rel, e.Message)
	}
	l.texts[rel] = string(b)
	l.hashes[rel] = sha256.Sum256(b)
	l.order = append(l.order, rel)
	return l.texts[rel], nil
}

// files lists what a page read: its entry first, then the files of its
// bundle in the order read (all the loader read when inBundle is nil),
// then the imports it looked for in vain.
func (l *loader) files(entry string, inBundle map[string]bool) []FileHash {
	out := []FileHash{}
	if h, ok := l.hashes[entry]; ok {
		out = append(out, FileHash{Rel: entry, Hash: h})
	}
	for _, rel := range l.order {
		if rel != entry && (inBundle == nil || inBundle[rel]) {
			out = append(out, FileHash{Rel: rel, Hash: l.hashes[rel]})
		}
	}
	for _, m := range l.misses {
		if inBundle == nil || inBundle[m.importer] {
			out = append(out, FileHash{Rel: m.rel, Missing: true})
		}
	}
	return out
}
