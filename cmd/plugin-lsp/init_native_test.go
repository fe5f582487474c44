package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tscProject runs tsc -p on one project directory and returns its output
// (exit status aside: errors are in the text).
func tscProject(t *testing.T, dir string) string {
	t.Helper()
	tsc, _ := filepath.Abs("../../internal/checker/tstypes/testdata/tsc/node_modules/typescript/bin/tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Fatalf("TypeScript compiler missing (%v): run ./scripts/test.sh, it runs npm ci in internal/checker/tstypes/testdata/tsc", err)
	}
	cmd := exec.Command("node", tsc, "--noEmit", "--pretty", "false", "-p", ".")
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// init --native NAME: a plugin with one native tool that checks clean and
// type-checks (the module through // @ts-check against .plugin/native.d.ts),
// whose types reject a ctx member the tool did not require; a second
// native tool and a function tool join it; init again changes nothing.
func TestInitNative(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "chat")
	code, out, stderr := run(t, "init", dir, "--native", "chat.send")
	if code != 0 {
		t.Fatalf("init --native: exit %d\n%s%s", code, out, stderr)
	}
	for _, f := range []string{"plugin.json", "native/chat-send.js", "native/tsconfig.json", "tests/chat-send.json", ".plugin/native.d.ts", ".plugin/types.d.ts", "tsconfig.json"} {
		if !strings.Contains(out, "created  "+f+"\n") {
			t.Errorf("init output lacks %q:\n%s", f, out)
		}
	}
	tree := snapshotTree(t, dir)
	if m := tree["plugin.json"]; !strings.Contains(m, `"sdk": 1`) || !strings.Contains(m, `{ "module": "native/chat-send.js", "names": ["chat.send"] }`) {
		t.Errorf("manifest:\n%s", m)
	}
	if !strings.Contains(tree["tests/chat-send.json"], `"tool": "chat.send"`) {
		t.Errorf("test file:\n%s", tree["tests/chat-send.json"])
	}
	clean := func() {
		t.Helper()
		if code, out, stderr := run(t, "check", dir); code != 0 || out != "" {
			t.Fatalf("check: exit %d\n%s%s", code, out, stderr)
		}
		if out := tscProject(t, filepath.Join(dir, "native")); out != "" {
			t.Fatalf("tsc -p native:\n%s", out)
		}
		tscClean(t, dir)
	}
	clean()

	// The generated types gate ctx: the template requires nothing, so
	// ctx.secrets is a type error, and so is an input field it lacks.
	mod := filepath.Join(dir, "native", "chat-send.js")
	orig := tree["native/chat-send.js"]
	bad := strings.Replace(orig, `ctx.log("greeting " + args.name);`, `ctx.log("greeting " + args.name, ctx.secrets, args.nmae);`, 1)
	if bad == orig {
		t.Fatal("the template module changed: no ctx.log line")
	}
	os.WriteFile(mod, []byte(bad), 0o644)
	out = tscProject(t, filepath.Join(dir, "native"))
	if !strings.Contains(out, "chat-send.js(") || !strings.Contains(out, "error TS2339: Property 'secrets' does not exist") || !strings.Contains(out, "'nmae'") {
		t.Errorf("tsc did not reject ctx.secrets and args.nmae:\n%s", out)
	}
	os.WriteFile(mod, []byte(orig), 0o644)

	if code, out, stderr := run(t, "init", dir, "--native", "chat.read"); code != 0 || !strings.Contains(out, "updated  plugin.json (added native tool chat.read)") ||
		!strings.Contains(out, "created  native/chat-read.js") || !strings.Contains(out, "updated  .plugin/native.d.ts") || !strings.Contains(out, "kept     native/tsconfig.json") {
		t.Fatalf("second native tool: exit %d\n%s%s", code, out, stderr)
	}
	if code, out, stderr := run(t, "init", dir, "--tool", "lookupBook"); code != 0 {
		t.Fatalf("--tool after --native: exit %d\n%s%s", code, out, stderr)
	}
	clean()
	before := snapshotTree(t, dir)
	if code, out, stderr := run(t, "init", dir, "--native", "chat.read"); code != 0 || !strings.Contains(out, "kept     plugin.json (native tool chat.read already declared)") {
		t.Fatalf("init again: exit %d\n%s%s", code, out, stderr)
	}
	if after := snapshotTree(t, dir); len(after) != len(before) {
		t.Errorf("init again added files")
	} else {
		for k, v := range before {
			if after[k] != v {
				t.Errorf("init again changed %s", k)
			}
		}
	}
}

// init --native adds "sdk": 1 to a plugin that lacks it, keeps a plugin's
// own sdk value, and refuses names the manifest or the host would refuse.
func TestInitNativeNamesAndSDK(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte("{\n  \"name\": \"x\",\n  \"version\": \"1.0.0\"\n}\n"), 0o644)
	if code, out, stderr := run(t, "init", dir, "--native", "x.ping"); code != 0 || !strings.Contains(out, `updated  plugin.json (added "sdk": 1, native tool x.ping)`) {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	if code, out, stderr := run(t, "check", dir); code != 0 || out != "" {
		t.Fatalf("check: exit %d\n%s%s", code, out, stderr)
	}
	for _, name := range []string{"fn.lookup", "bad name", ".x", "x..y"} {
		code, _, stderr := run(t, "init", t.TempDir(), "--native", name)
		if code == 0 || !strings.Contains(stderr, "native tool name") {
			t.Errorf("--native %q: exit %d, %s", name, code, stderr)
		}
	}
	if code, _, stderr := run(t, "init", t.TempDir(), "--native", "a.b", "--tool", "c"); code != 2 || !strings.Contains(stderr, "exclude each other") {
		t.Errorf("--native with --tool: exit %d %s", code, stderr)
	}
}
