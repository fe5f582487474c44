package ide

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	lock "github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
)

// TestPinWritten: what plugin.pin answers once the snapshot was written,
// and which failure is whose: a plugin changed since the approved card is
// the request's (the author reviews again), any other the server's.
func TestPinWritten(t *testing.T) {
	dir := filepath.Join("/work", "books")
	out := &lock.PinResult{Changes: []lock.Change{
		{Widened: true, Kind: lock.KindTool, Value: "searchBooks"},
		{Widened: false, Kind: lock.KindNative, Value: "sendMessage"},
	}}
	res, f := PinWritten(PinResult{Card: "card"}, dir, out, nil)
	if f != nil {
		t.Fatalf("written: failure %+v", f)
	}
	b, _ := json.Marshal(res)
	want := fmt.Sprintf(`{"pinned":true,"file":%q,"changes":["+ searchBooks (function tool)","- sendMessage (native tool)"],"card":"card"}`, filepath.Join(dir, lock.FileName))
	if string(b) != want {
		t.Errorf("written:\n got %s\nwant %s", b, want)
	}
	// No change since the previous snapshot: an empty list, not null.
	res, _ = PinWritten(PinResult{}, dir, &lock.PinResult{}, nil)
	if b, _ := json.Marshal(res); !strings.Contains(string(b), `"changes":[]`) {
		t.Errorf("no changes: %s", b)
	}

	for _, c := range []struct {
		err  error
		kind FailureKind
	}{
		{lock.ErrChangedSinceReview, FailInvalid},
		{fmt.Errorf("wrapped: %w", lock.ErrChangedSinceReview), FailInvalid},
		{errors.New("plugin.json:1:1: a manifest that does not parse cannot be pinned"), FailInternal},
	} {
		res, f := PinWritten(PinResult{}, dir, nil, c.err)
		if f == nil || res.Pinned {
			t.Errorf("%v: no failure (%+v)", c.err, res)
			continue
		}
		if f.Kind != c.kind || f.Message != CommandPin+": "+c.err.Error() {
			t.Errorf("%v: failure %+v, want kind %d and %q", c.err, f, c.kind, CommandPin+": "+c.err.Error())
		}
	}
}
