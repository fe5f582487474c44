package tooltest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
	"io/fs"
	"sort"
	"sync"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// snapshots is the stored snapshot file of one test file: case name →
// result, kept as a JSON object with sorted keys.
type snapshots struct {
	file *testcase.File

	mu      sync.Mutex
	values  map[string]json.RawMessage
	err     error // the snapshot file does not parse
	changed bool
}

func loadSnapshots(p *checker.Plugin, f *testcase.File) *snapshots {
	s := &snapshots{file: f, values: map[string]json.RawMessage{}}
	data, err := checker.ReadPluginFile(p.FS, p.Dir, f.SnapshotRel()) // no symlink out
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		s.err = err
	case len(data) > MaxFileBytes:
		s.err = fmt.Errorf("%s is %d bytes, more than %d", f.SnapshotRel(), len(data), MaxFileBytes)
	default:
		if err := jsonpos.CheckDuplicatesIn(data); err != nil {
			s.err = fmt.Errorf("%s:%v", f.SnapshotRel(), err) // two values for one case: neither is trusted
		} else if err := json.Unmarshal(data, &s.values); err != nil {
			s.err = fmt.Errorf("%s: %v", f.SnapshotRel(), err)
		}
	}
	return s
}

func (s *snapshots) check(c *testcase.Case, got json.RawMessage, update bool, written *string) []testcase.Failure {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil && !update {
		return []testcase.Failure{{Path: "snapshot", Message: "the snapshot file cannot be read: " + s.err.Error() + " (run plugin-lsp test --update to rewrite it)"}}
	}
	want, ok := s.values[c.Name]
	if update {
		if !ok || len(diffJSON("result", want, got, true)) > 0 || s.err != nil {
			s.values[c.Name] = canonical(got)
			s.changed = true
			*written = "written"
		}
		return nil
	}
	if !ok {
		return []testcase.Failure{{Path: "snapshot", Message: fmt.Sprintf("no stored snapshot for %q in %s: run plugin-lsp test --update to write it", c.Name, s.file.SnapshotRel()), Actual: text(json.RawMessage(got))}}
	}
	return diffJSON("result", want, got, true)
}

// Accept stores got as the snapshot of case c and writes the file at once
// (the editor's "Accept the new result as snapshot").
func Accept(p *checker.Plugin, c *testcase.Case, got json.RawMessage) error {
	s := loadSnapshots(p, c.File)
	if s.err != nil {
		s.values = map[string]json.RawMessage{}
	}
	s.values[c.Name] = canonical(got)
	s.changed = true
	return s.save(p, false)
}

// save writes the snapshot file when it changed. prune drops the
// snapshots no case of the file uses (only when every case ran).
func (s *snapshots) save(p *checker.Plugin, prune bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if prune {
		used := map[string]bool{}
		for _, c := range s.file.Cases {
			if c.Snapshot {
				used[c.Name] = true
			}
		}
		for k := range s.values {
			if !used[k] {
				delete(s.values, k)
				s.changed = true
			}
		}
	}
	if !s.changed {
		return nil
	}
	rel := s.file.SnapshotRel()
	if len(s.values) == 0 {
		return checker.RemovePluginFile(p.Dir, rel)
	}
	if err := checker.WritePluginFile(p.Dir, rel, encodeSnapshots(s.values)); err != nil {
		return err
	}
	s.changed = false
	return nil
}

// encodeSnapshots writes { "name": value, … } with sorted keys, values
// indented, one trailing newline: stable diffs in review.
func encodeSnapshots(m map[string]json.RawMessage) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, k := range keys {
		kb, _ := json.Marshal(k)
		b.WriteString("  ")
		b.Write(kb)
		b.WriteString(": ")
		var v bytes.Buffer
		if json.Indent(&v, m[k], "  ", "  ") != nil {
			v.Write(m[k])
		}
		b.Write(v.Bytes())
		if i < len(keys)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// canonical compacts a JSON text (the stored form before indenting).
func canonical(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return append(json.RawMessage(nil), raw...)
	}
	return b.Bytes()
}
