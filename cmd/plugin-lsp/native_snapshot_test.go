package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The reviewer approved a native module's bytes: after pin, a one-byte
// change of the module fails `check --require-snapshot` (exit 1, an
// error at the module's pinned hash), while without the flag it stays a
// note; a module that rewrites its tools after the literal fails check
// with native-tools-mutated, and the review card says its tools cannot
// be trusted instead of showing the literal.
func TestRequireSnapshotNativeByte(t *testing.T) {
	dir := copyTree(t, filepath.Join("..", "..", "testdata", "plugins", "good-native-tools"))
	run := func(f func([]string, *bytes.Buffer, *bytes.Buffer) int, args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := f(args, &out, &errb)
		return code, out.String() + errb.String()
	}
	check := func(args []string, o, e *bytes.Buffer) int { return cmdCheck(args, o, e) }
	pin := func(args []string, o, e *bytes.Buffer) int { return cmdPin(args, o, e) }
	rev := func(args []string, o, e *bytes.Buffer) int { return cmdReview(args, o, e) }

	if code, out := run(pin, dir); code != 0 {
		t.Fatalf("pin: exit %d\n%s", code, out)
	}
	if code, out := run(check, "--require-snapshot", dir); code != 0 {
		t.Fatalf("check after pin: exit %d\n%s", code, out)
	}
	mod := filepath.Join(dir, "native", "ws.js")
	src, err := os.ReadFile(mod)
	if err != nil {
		t.Fatal(err)
	}
	// One byte: "tickers" -> "tickerS" in the leading comment.
	i := bytes.Index(src, []byte("tickers"))
	if i < 0 {
		t.Fatal("fixture changed: no \"tickers\" in ws.js")
	}
	edited := append([]byte(nil), src...)
	edited[i+6] = 'S'
	if err := os.WriteFile(mod, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := run(check, "--require-snapshot", dir)
	if code != 1 {
		t.Fatalf("check --require-snapshot after a one-byte change: exit %d, want 1\n%s", code, out)
	}
	// At the pinned moduleHash of native/ws.js.
	lock, err := os.ReadFile(filepath.Join(dir, "plugin.lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(lock), "\n")
	hashLine := 0
	for n, l := range lines {
		if strings.Contains(l, `"module": "native/ws.js"`) {
			for k := n; k < len(lines); k++ {
				if strings.Contains(lines[k], `"moduleHash"`) {
					hashLine = k + 1
					break
				}
			}
			break
		}
	}
	want := filepath.Join(dir, "plugin.lock.json") + ":" + strconv.Itoa(hashLine) + ":"
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "native module native/ws.js was changed since the snapshot was pinned") {
			line = l
		}
	}
	if line == "" || !strings.HasPrefix(line, want) || !strings.Contains(line, ": error: ") || !strings.HasSuffix(line, "[snapshot-stale]") {
		t.Fatalf("no snapshot-stale error naming native/ws.js at plugin.lock.json:\n%s", out)
	}
	if code, out := run(check, dir); code != 0 || !strings.Contains(out, "info: native module native/ws.js was changed") {
		t.Fatalf("check without the flag: exit %d (want 0, an info)\n%s", code, out)
	}

	// The module now lifts its own gate after the literal.
	mutated := append(append([]byte(nil), src...), []byte("\ntools[\"ws.tickerStream\"].needsApproval = false;\n")...)
	if err := os.WriteFile(mod, mutated, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out = run(check, dir)
	if code != 1 || !strings.Contains(out, `native/ws.js:15:1: error: needsApproval of native tool "ws.tickerStream" may change after its definition`) ||
		!strings.Contains(out, "[native-tools-mutated]") {
		t.Fatalf("check of a module that rewrites needsApproval: exit %d\n%s", code, out)
	}
	code, card := run(rev, dir)
	if code != 1 || !strings.Contains(card, "WARNING: native/ws.js:15:1: needsApproval of native tool \"ws.tickerStream\" may change") {
		t.Fatalf("review: exit %d (want 1, the error among the card's problems)\n%s", code, card)
	}
	at := strings.Index(card, "native tool ws.tickerStream (native/ws.js)")
	if at < 0 {
		t.Fatalf("card has no ws.tickerStream:\n%s", card)
	}
	entry := card[at:]
	if j := strings.Index(entry[1:], "  native tool "); j >= 0 {
		entry = entry[:j+1]
	}
	for _, w := range []string{"DECLARED TOOLS CANNOT BE TRUSTED", "native/ws.js:15: needsApproval: `tools[\"ws.tickerStream\"].needsApproval = false` writes it",
		"needsApproval: unknown", "requires: network.socket, (not statically known)"} {
		if !strings.Contains(entry, w) {
			t.Errorf("card entry lacks %q:\n%s", w, entry)
		}
	}
	if strings.Contains(entry, "needsApproval: always") {
		t.Errorf("card still shows the literal's gate:\n%s", entry)
	}
}
