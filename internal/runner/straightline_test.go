package runner

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// TestStraightLineCorpus: the pages of testdata/straightline do their
// work without a loop of their own (20,000 copies of a growing string in
// one template literal, 400 copyWithin calls written out, a regex that
// backtracks, a sort with a comparator, a huge JSON.stringify, ...),
// the way an attacker writes a page that the deadline's checks at loop
// headers alone would not see. Each run under a 1 s deadline ends with
// TimeoutError (or, where the page can reach it first, the memory cap's
// error), and the same runner then still answers an ordinary tool: no
// sandbox is reused in a bad state. How long each run takes is printed
// by scripts/bench-straightline.sh; here 60 s only guards a hang.
func TestStraightLineCorpus(t *testing.T) {
	p, err := checker.Load(checker.OSFS{}, filepath.Join("testdata", "straightline"))
	if err != nil {
		t.Fatal(err)
	}
	memoryToo := map[string]bool{
		"join_huge_elements": true, // 64 MB joined from four 16 MB strings, the buffer doubling: near the cap
	}
	r := sharedRunner(t)
	n := 0
	for _, tl := range p.Manifest.Tools {
		name, _ := checker.Str(tl.Name)
		if name == "control" {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			rec := runGuarded(t, r, Request{Plugin: p, Tool: name, Timeout: time.Second})
			e := rec.Error
			switch {
			case rec.OK || e == nil:
				t.Fatalf("the page returned %s: it is meant to run far past 1 s", rec.Result)
			case e.Name == "TimeoutError" && strings.Contains(e.Message, "after 1s"):
			case memoryToo[name] && e.Name == "InternalError" && strings.Contains(e.Message, "out of memory"):
			default:
				t.Fatalf("ended with %s: %s", e.Name, e.Message)
			}
			// the next run on the same runner is an ordinary one
			in := `{"n":` + itoa(n) + `}`
			ctl := runGuarded(t, r, Request{Plugin: p, Tool: "control", Input: json.RawMessage(in), Timeout: 10 * time.Second})
			if want := `{"ok":true,"n":` + itoa(n) + `}`; !ctl.OK || string(ctl.Result) != want {
				t.Fatalf("control after %s: %s %+v, want %s", name, ctl.Result, ctl.Error, want)
			}
		})
	}
	if n < 15 {
		t.Fatalf("only %d hostile pages in the corpus", n)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// runGuarded runs req, failing the test when the run has not ended after
// 60 s (far past any deadline here: a hang, not a slow machine).
func runGuarded(t *testing.T, r *Runner, req Request) *record.Record {
	t.Helper()
	type res struct {
		rec *record.Record
		err error
	}
	done := make(chan res, 1)
	go func() {
		rec, err := r.Run(context.Background(), req)
		done <- res{rec, err}
	}()
	select {
	case d := <-done:
		if d.err != nil {
			t.Fatal(d.err)
		}
		return d.rec
	case <-time.After(60 * time.Second):
		t.Fatalf("%s: no end after 60 s (deadline %s)", req.Tool, req.Timeout)
		return nil
	}
}
