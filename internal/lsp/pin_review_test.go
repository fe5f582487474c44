package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/review"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	lock "github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
	"github.com/plugin-lsp/plugin-lsp/internal/ide"
)

// realReview is what cmd/plugin-lsp wires: the card with its "since the
// pinned snapshot" section.
func realReview(p *checker.Plugin) (any, error) {
	c, err := review.Build(p)
	review.AnnotateCard(c, p)
	return c, err
}

func cmdArg(t *testing.T, v any) []protocol.LSPAny {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return []protocol.LSPAny{raw}
}

type cardReply struct {
	Plugin   string `json:"plugin"`
	Markdown string `json:"markdown"`
	Sections []struct {
		Name     string `json:"name"`
		Markdown string `json:"markdown"`
	} `json:"sections"`
	Approval    string          `json:"approval"`
	SincePinned json.RawMessage `json:"sincePinned"`
}

// plugin.reviewCard returns the server's Markdown of the card (the one
// renderer: review.Card.Markdown) beside the model; with approve, a
// one-time token that plugin.pin accepts once, for the newest card only,
// and only while the files are those the card was built from.
func TestPinWithApprovalToken(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{Version: "9.9.9", Review: realReview})
	h.initialize(dir, protocol.ClientCapabilities{})
	lockPath := filepath.Join(dir, "plugin.lock.json")
	exec := func(cmd string, arg any) (json.RawMessage, error) {
		out, err := h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: cmd, Arguments: cmdArg(t, arg)})
		if err != nil {
			return nil, err
		}
		raw, _ := json.Marshal(out)
		return raw, nil
	}
	card := func(approve bool) cardReply {
		t.Helper()
		raw, err := exec(CommandReviewCard, map[string]any{"dir": dir, "approve": approve})
		if err != nil {
			t.Fatal(err)
		}
		var c cardReply
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	plain := card(false)
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := realReview(p)
	if plain.Markdown != c.(*review.Card).Markdown() || plain.Approval != "" || plain.Plugin != "books" {
		t.Fatalf("reviewCard: markdown %q, approval %q", plain.Markdown, plain.Approval)
	}
	var names []string
	for _, s := range plain.Sections {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "plugin,functionTools,nativeTools,sincePinned" {
		t.Errorf("sections %v", names)
	}

	first := card(true)
	if len(first.Approval) != 32 {
		t.Fatalf("approval %q", first.Approval)
	}
	pin := func(token string) (json.RawMessage, error) {
		return exec(CommandPin, map[string]any{"dir": dir, "approval": token})
	}
	if _, err := pin(strings.Repeat("0", 32)); err == nil || !strings.Contains(err.Error(), "not that of the last review card") {
		t.Fatalf("a made-up token: %v", err)
	}
	if _, err := os.Stat(lockPath); err == nil {
		t.Fatal("pinned with a made-up token")
	}
	// The made-up token used the real one up: a new card, a new token.
	if _, err := pin(first.Approval); err == nil {
		t.Fatal("a token used up by a wrong guess still pins")
	}
	second, third := card(true), card(true)
	if _, err := pin(second.Approval); err == nil {
		t.Fatal("the token of a card replaced by a newer one pins")
	}
	// The files change after the card was shown: nothing is written.
	fourth := card(true)
	if err := os.WriteFile(filepath.Join(dir, "code", "new.ts"), []byte("export default () => 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := pin(fourth.Approval); err == nil || !strings.Contains(err.Error(), "changed on disk since its review card was shown") {
		t.Fatalf("pin after a change: %v", err)
	}
	if _, err := os.Stat(lockPath); err == nil {
		t.Fatal("pinned files that were not reviewed")
	}
	_ = third
	ok := card(true)
	out, err := pin(ok.Approval)
	if err != nil || !strings.Contains(string(out), `"pinned":true`) {
		t.Fatalf("pin: %s %v", out, err)
	}
	if l := mustRead(t, lockPath); !strings.Contains(l, `"code/new.ts"`) {
		t.Errorf("the lock is not of the reviewed files: %s", l)
	}
	if _, err := pin(ok.Approval); err == nil {
		t.Fatal("a token pins twice")
	}
	// The card now compares with the pin.
	if after := card(false); !strings.Contains(after.Markdown, "## Since the pinned snapshot (`sha256:") || !strings.Contains(after.Markdown, "- the reach is unchanged") {
		t.Errorf("after the pin:\n%s", after.Markdown)
	}
}

// The question of the fallback (window/showMessageRequest, for editors
// without the view) leads with what changed since the pin, and keeps the
// notice sanitising.
func TestPinQuestionLeadsWithTheChanges(t *testing.T) {
	dir := copyExample(t)
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.Pin(p, "plugin-lsp test"); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "plugin.json")
	widened := strings.Replace(mustRead(t, manifest), `"api.openlibrary.org",`, `"api.openlibrary.org", "api.evil-cdn.example",`, 1)
	if err := os.WriteFile(manifest, []byte(widened), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err = checker.Load(nil, dir); err != nil {
		t.Fatal(err)
	}
	c, _ := realReview(p)
	q := notice(ide.PinQuestion(p, c))
	lines := strings.Split(q, "\n")
	if len(lines) < 5 || !strings.HasPrefix(lines[2], "Since the pinned snapshot (sha256:") || !strings.HasPrefix(lines[3], "  + api.evil-cdn.example (fetch, tools ") {
		t.Fatalf("question:\n%s", q)
	}
	if !strings.Contains(q, "\nPlugin books 1.2.0\n") || strings.Count(q, "Since the pinned snapshot") != 1 {
		t.Errorf("the card is not all there once:\n%s", q)
	}
}
