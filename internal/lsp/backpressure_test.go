package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// A documentSymbol request still running when the next one for the same
// document arrives is superseded: it is answered ServerCancelled (-32802)
// and the newer one gets the symbols.
func TestSupersededRequestIsCancelled(t *testing.T) {
	dir := copyExample(t)
	// An edit waits an hour for its check: the only check after it is the
	// one the first request runs.
	h := newHarness(t, Options{Debounce: time.Hour})
	h.initialize(dir, protocol.ClientCapabilities{})
	manifest := filepath.Join(dir, "plugin.json")
	h.open(manifest)
	h.waitChecked(dir)

	// The next check blocks until released: the first request waits in it.
	started, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	h.srv.mu.Lock()
	h.srv.checking = func(string) { once.Do(func() { close(started); <-release }) }
	h.srv.mu.Unlock()
	h.change(manifest, 2, mustRead(t, manifest)+" ")

	params := &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(manifest)}}
	type answer struct {
		res json.RawMessage
		err error
	}
	call := func() chan answer {
		c := make(chan answer, 1)
		go func() {
			var res json.RawMessage
			_, err := h.conn.Call(h.ctx, protocol.MethodTextDocumentDocumentSymbol, params, &res)
			c <- answer{res, err}
		}()
		return c
	}
	// registered waits until the server has read a request for the
	// document other than the one given (nil: any), and returns it.
	registered := func(not *pendingRequest) *pendingRequest {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			h.srv.flow.mu.Lock()
			var got *pendingRequest
			for _, p := range h.srv.flow.latest {
				got = p
			}
			h.srv.flow.mu.Unlock()
			if got != nil && got != not {
				return got
			}
			if time.Now().After(deadline) {
				t.Fatal("the request never arrived")
			}
			time.Sleep(time.Millisecond)
		}
	}
	first := call()
	<-started // a check is held: the first request cannot end
	one := registered(nil)
	second := call()
	registered(one)
	if !one.superseded.Load() {
		t.Error("the first request is not marked superseded")
	}
	close(release)
	a, b := <-first, <-second
	if rpcCode(a.err) != -32802 || !strings.Contains(a.err.Error(), "superseded") {
		t.Errorf("first request: %v %s, want ServerCancelled (superseded)", a.err, a.res)
	}
	if b.err != nil || !strings.Contains(string(b.res), "lookupBook") {
		t.Errorf("second request: %v %.200s, want the symbols", b.err, b.res)
	}
	// Other methods are not superseded: two hovers both get answers.
	hp := &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: params.TextDocument, Position: protocol.Position{Line: 6, Character: 18}}}
	for i := 0; i < 2; i++ {
		if _, err := h.server.Hover(h.ctx, hp); err != nil {
			t.Errorf("hover %d: %v", i, err)
		}
	}
}
