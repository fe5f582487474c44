package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRequireSnapshotChecksEveryPlugin: the CI gate checks every
// plugin.json under DIR. Unpinned plugins under .hidden/, node_modules/ and
// nested in another plugin fail it, each named; without the flag the
// ordinary walk skips them; once all are pinned the gate passes; and
// --fix under the flag never writes into node_modules.
func TestRequireSnapshotChecksEveryPlugin(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	minimal := func(name string) string { return `{ "name": "` + name + `", "version": "0.0.1" }` }
	write("top/plugin.json", minimal("top"))
	write("outer/plugin.json", minimal("outer"))
	write("outer/plugins/inner/plugin.json", minimal("inner"))
	write(".hidden/secret/plugin.json", minimal("secret"))
	write("node_modules/dep/plugin.json", `{ "name": "dep", "version": "0.0.1", "descriptoin": "a typo the fix would rename" }`)
	run := func(f func([]string, *bytes.Buffer, *bytes.Buffer) int, args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := f(args, &out, &errb)
		return code, out.String(), errb.String()
	}
	check := func(args []string, o, e *bytes.Buffer) int { return cmdCheck(args, o, e) }
	pin := func(args []string, o, e *bytes.Buffer) int { return cmdPin(args, o, e) }
	for _, d := range []string{"top", "outer"} {
		if code, out, errs := run(pin, filepath.Join(root, d)); code != 0 {
			t.Fatalf("pin %s: %d %s%s", d, code, out, errs)
		}
	}
	// Without the flag: the ordinary walk, which skips the three.
	if code, out, errs := run(check, root); code != 0 || out != "" || !strings.Contains(errs, "2 plugins") {
		t.Fatalf("check without the flag: exit %d\n%s%s", code, out, errs)
	}
	// With it: every plugin.json is checked, each unpinned one named.
	code, out, errs := run(check, "--require-snapshot", root)
	if code != 1 {
		t.Fatalf("check --require-snapshot: exit %d\n%s%s", code, out, errs)
	}
	for _, rel := range []string{".hidden/secret", "node_modules/dep", "outer/plugins/inner"} {
		want := filepath.Join(root, filepath.FromSlash(rel), "plugin.json") + ":1:"
		found := false
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, want) && strings.Contains(line, "no capability snapshot (plugin.lock.json)") && strings.HasSuffix(line, "[snapshot-widened]") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s is not reported as unpinned:\n%s", rel, out)
		}
	}
	for _, rel := range []string{"top", "outer"} {
		if strings.Contains(out, filepath.Join(root, rel, "plugin.json")+":") {
			t.Errorf("the pinned %s is reported:\n%s", rel, out)
		}
	}
	if !strings.Contains(errs, "5 plugins") {
		t.Errorf("summary: %s", errs)
	}
	// --fix under the flag fixes only what the ordinary walk finds.
	before, _ := os.ReadFile(filepath.Join(root, "node_modules", "dep", "plugin.json"))
	run(check, "--require-snapshot", "--fix", root)
	if after, _ := os.ReadFile(filepath.Join(root, "node_modules", "dep", "plugin.json")); !bytes.Equal(before, after) {
		t.Errorf("--fix wrote into node_modules:\n%s", after)
	}
	// All pinned (the typo fixed by hand): the gate passes.
	write("node_modules/dep/plugin.json", minimal("dep"))
	for _, d := range []string{".hidden/secret", "node_modules/dep", "outer/plugins/inner", "outer"} {
		if code, out, errs := run(pin, filepath.Join(root, filepath.FromSlash(d))); code != 0 {
			t.Fatalf("pin %s: %d %s%s", d, code, out, errs)
		}
	}
	if code, out, errs := run(check, "--require-snapshot", root); code != 0 || out != "" {
		t.Fatalf("check --require-snapshot, all pinned: exit %d\n%s%s", code, out, errs)
	}
}
