package ide

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/tooltest"
)

// The approval of native runs: one question per module (naming the tools
// the cases run, and the hash of the bytes on disk), remembered per hash,
// never for an unreadable module; only the first action confirms.
func TestNativeApprovals(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "example", "books")
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	files, err := tooltest.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	var cases []*testcase.Case
	for _, f := range files {
		cases = append(cases, f.Cases...)
	}
	text, err := os.ReadFile(filepath.Join(dir, "native", "telegram.js"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(text)
	hash := "sha256:" + hex.EncodeToString(sum[:])
	as := TestApprovals(p, cases)
	want := []NativeApproval{{Tools: []string{"tg.sendMessage", "tg.readChat"}, Module: "native/telegram.js", ModuleHash: hash}}
	if !reflect.DeepEqual(as, want) {
		t.Fatalf("approvals %+v, want %+v", as, want)
	}
	q := as[0].Question()
	if q.Message != "Run tg.sendMessage, tg.readChat (native/telegram.js, "+hash+") with full authority on this machine?" {
		t.Errorf("question %q", q.Message)
	}
	for answer, ok := range map[string]bool{"Run": true, "Cancel": false, "": false, "run": false} {
		if q.Confirmed(answer) != ok {
			t.Errorf("answer %q confirms: %v", answer, !ok)
		}
	}
	nt, _ := NativeOf(p, "tg.readChat")
	one := ApprovalOf(p, nt)
	if one.ModuleHash != hash || one.Question().Message != "Run tg.readChat (native/telegram.js, "+hash+") with full authority on this machine?" {
		t.Errorf("runTool's approval %+v: %q", one, one.Question().Message)
	}

	trust := NativeTrust{}
	if trust.Approved(one) {
		t.Fatal("approved before being asked")
	}
	trust.Remember(one)
	if !trust.Approved(as[0]) {
		t.Error("the tests' approval of the same bytes is not remembered")
	}
	gone := NativeApproval{Tools: []string{"x"}, Module: "native/gone.js"}
	trust.Remember(gone)
	if trust.Approved(gone) || len(trust) != 1 {
		t.Errorf("an unreadable module was remembered: %v", trust)
	}
	if m := gone.Question().Message; m != "Run x (native/gone.js, unreadable) with full authority on this machine?" {
		t.Errorf("unreadable: %q", m)
	}

	skip := NativeTestSkip(p, map[string]bool{"native/telegram.js": true})
	if r := skip("tg.sendMessage"); r != "" {
		t.Errorf("approved module skipped: %q", r)
	}
	skip = NativeTestSkip(p, map[string]bool{"native/telegram.js": false})
	if r := skip("tg.readChat"); r != "tg.readChat is a native tool (native/telegram.js): running it with full authority on this machine was not approved" {
		t.Errorf("declined module: %q", r)
	}
}
