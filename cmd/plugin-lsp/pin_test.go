package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// The CI loop: --require-snapshot fails without a snapshot, pin writes
// it, the check passes, a widening fails it again with the entry named,
// the review card lists what is new, and re-pinning reports it.
func TestPinAndRequireSnapshot(t *testing.T) {
	dir := copyTree(t, books)
	run := func(f func([]string, *bytes.Buffer, *bytes.Buffer) int, args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := f(args, &out, &errb)
		return code, out.String(), errb.String()
	}
	check := func(args []string, o, e *bytes.Buffer) int { return cmdCheck(args, o, e) }
	pin := func(args []string, o, e *bytes.Buffer) int { return cmdPin(args, o, e) }
	rev := func(args []string, o, e *bytes.Buffer) int { return cmdReview(args, o, e) }

	if code, out, _ := run(check, "--require-snapshot", dir); code != 1 || !strings.Contains(out, "no capability snapshot (plugin.lock.json)") || !strings.Contains(out, "[snapshot-widened]") {
		t.Fatalf("check --require-snapshot without a snapshot: exit %d\n%s", code, out)
	}
	if code, out, _ := run(check, dir); code != 0 {
		t.Fatalf("check without the flag: exit %d\n%s", code, out)
	}
	code, out, stderr := run(pin, dir)
	if code != 0 || !strings.Contains(out, "pinned books 1.2.0 (sha256:") || !strings.Contains(out, "first snapshot") {
		t.Fatalf("pin: exit %d\n%s%s", code, out, stderr)
	}
	if code, out, _ := run(check, "--require-snapshot", dir); code != 0 || out != "" {
		t.Fatalf("check after pin: exit %d\n%s", code, out)
	}
	manifest := filepath.Join(dir, "plugin.json")
	text, _ := os.ReadFile(manifest)
	widened := strings.Replace(string(text), `"api.openlibrary.org",`, `"api.openlibrary.org", "api.evil-cdn.example",`, 1)
	if err := os.WriteFile(manifest, []byte(widened), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = run(check, "--require-snapshot", dir)
	if code != 1 || !strings.Contains(out, `plugin.json:`) || !strings.Contains(out, "api.evil-cdn.example (fetch, tools lookupBook, searchBooks, saveFavourite)") ||
		!strings.Contains(out, "[snapshot-stale]") {
		t.Fatalf("check after widening: exit %d\n%s", code, out)
	}
	_, out, _ = run(rev, dir)
	if !strings.Contains(out, "Since the pinned snapshot (sha256:") || !strings.Contains(out, "  + api.evil-cdn.example (fetch, tools lookupBook, searchBooks, saveFavourite)") ||
		!strings.Contains(out, "files: ~ plugin.json") {
		t.Fatalf("review after widening:\n%s", out)
	}
	code, out, _ = run(pin, dir)
	if code != 0 || !strings.Contains(out, "since the previous snapshot:\n  + api.evil-cdn.example (fetch, tools lookupBook, searchBooks, saveFavourite)\n") {
		t.Fatalf("re-pin: exit %d\n%s", code, out)
	}
	if code, out, _ := run(check, "--require-snapshot", dir); code != 0 || strings.Contains(out, "snapshot-") {
		t.Fatalf("check after re-pin: exit %d\n%s", code, out)
	}
	if err := os.WriteFile(manifest, []byte(widened[:len(widened)/2]), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(pin, dir); code != 1 || !strings.Contains(stderr, "cannot be pinned") || !strings.Contains(stderr, "plugin.json:") {
		t.Errorf("pin of a manifest cut in half: exit %d: %s", code, stderr)
	}
	for _, bad := range [][]string{{}, {dir, dir}, {"--force", dir}} {
		if code, _, _ := run(pin, bad...); code != 2 {
			t.Errorf("pin %v: exit %d, want 2", bad, code)
		}
	}
	if code, _, _ := run(check, "--require-snapshot=yes", dir); code != 2 {
		t.Errorf("--require-snapshot=yes accepted")
	}
}
