package main

import (
	"os/exec"
	"strings"
	"testing"
)

const mod = "github.com/plugin-lsp/plugin-lsp/"

// deps lists the packages pkgs depend on (themselves included), or nil
// when the pattern matches no package.
func deps(t *testing.T, pkgs string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkgs)
	cmd.Dir = "../.." // the module root
	out, err := cmd.CombinedOutput()
	if err != nil {
		if strings.Contains(string(out), "matched no packages") || strings.Contains(string(out), "no such file or directory") {
			return nil
		}
		t.Fatalf("go list %s: %v\n%s", pkgs, err, out)
	}
	return strings.Fields(string(out))
}

// TestLayers: dependencies point down (docs/architecture.md). The checker
// (internal/checker/...) knows neither the authoring outputs nor the runner
// nor the editor (ide, lsp) nor the protocol; the authoring outputs and the
// runner know neither each other nor the editor; ide (the editor features'
// answers) does not know the protocol; only lsp imports go.lsp.dev.
func TestLayers(t *testing.T) {
	const in = mod + "internal/"
	editor := []string{in + "ide", in + "lsp", mod + "cmd", "go.lsp.dev/"}
	forbidden := map[string][]string{
		"./internal/checker/...":   append([]string{in + "authoring", in + "runner"}, editor...),
		"./internal/authoring/...": append([]string{in + "runner"}, editor...),
		"./internal/runner/...":    append([]string{in + "authoring"}, editor...),
		// The editor reads run records and test results from the leaves
		// internal/runner/record and internal/runner/testcase, never the
		// runner itself (the engine).
		"./internal/ide/...": {in + "lsp", mod + "cmd", "go.lsp.dev/", in + "runner"},
		"./internal/lsp/...": {mod + "cmd"},
	}
	// Leaves under a forbidden prefix that a layer may import.
	allowedBelow := map[string]map[string]bool{
		"./internal/ide/...": {in + "runner/record": true, in + "runner/testcase": true}, // the run record, test cases and results: plain values, no engine
	}
	checked := 0
	for pkgs, bad := range forbidden {
		for _, dep := range deps(t, pkgs) {
			checked++
			for _, b := range bad {
				if !strings.HasPrefix(dep, b) || allowedBelow[pkgs][dep] {
					continue
				}
				t.Errorf("%s depends on %s: the layer must not know it", pkgs, dep)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no package matched the layer rules: were the packages moved?")
	}
}

// TestLayerLeaves: the packages at the bottom import nothing of the
// project but what is listed for them: the text layer (spans, line index)
// and the scrubber of secrets nothing at all, the other leaves (JSON positions, the JS lexer, URL
// parsing and matching, did-you-mean) at most the text layer, the
// JavaScript front end only the lexer and the text layer, the sandbox only
// the WHATWG URL parser. A leaf that reached up into the checker (or the checker into
// the runner) would make two definitions of one fact possible again.
func TestLayerLeaves(t *testing.T) {
	const in = mod + "internal/"
	bottom := []string{}
	leaf := []string{in + "text"}
	jsFront := []string{in + "js/jsfront", in + "js/jslex", in + "text"}
	allowed := map[string][]string{
		"./internal/jsonpos":        leaf,
		"./internal/js/jslex":       leaf,
		"./internal/fetchurl":       {in + "text", in + "weburl"},
		"./internal/weburl":         leaf,
		"./internal/suggest":        leaf,
		"./internal/text":           bottom, // spans, line index, UTF-16/UTF-8 columns
		"./internal/scrub":          bottom, // the one scrubber of secret values
		"./internal/js/jsfront":     jsFront,
		"./internal/js/jspage":      jsFront,
		"./internal/js/jsmodule":    jsFront,
		"./internal/runner/sandbox": {in + "weburl"},
	}
	checked := 0
	for pkgs, ok := range allowed {
		ds := deps(t, pkgs)
		if ds == nil {
			continue
		}
		checked++
		self := mod + strings.TrimSuffix(strings.TrimPrefix(pkgs, "./"), "/...")
		for _, dep := range ds {
			if !strings.HasPrefix(dep, mod) || strings.HasPrefix(dep, self) {
				continue
			}
			allowedDep := false
			for _, o := range ok {
				allowedDep = allowedDep || dep == o
			}
			if !allowedDep {
				t.Errorf("%s depends on %s: it may import only %v of the project", pkgs, dep, ok)
			}
		}
	}
	if checked < len(allowed) {
		t.Errorf("only %d of the %d layer rules matched packages: a package was renamed?", checked, len(allowed))
	}
}

// TestEngineFreeDeps: small facts live in small leaves. The editor's
// answers (internal/ide) read run records without linking the engine
// (wazero, QuickJS), and the broker reads credential shapes and the reach
// without linking the JavaScript front end (goja, esbuild).
func TestEngineFreeDeps(t *testing.T) {
	for pkg, bad := range map[string][]string{
		"./internal/ide":                {"github.com/tetratelabs/wazero", "github.com/fastschema/qjs"},
		"./internal/runner/record":      {"github.com/tetratelabs/wazero", "github.com/fastschema/qjs", "github.com/dop251/goja", "github.com/evanw/esbuild"},
		"./internal/runner/testcase":    {"github.com/tetratelabs/wazero", "github.com/fastschema/qjs"},
		"./internal/runner/broker":      {"github.com/dop251/goja", "github.com/evanw/esbuild"},
		"./internal/js/jslex":           {"github.com/dop251/goja", "github.com/evanw/esbuild"},
		"./internal/checker/capability": {"github.com/dop251/goja", "github.com/evanw/esbuild"},
	} {
		ds := deps(t, pkg)
		if len(ds) < 5 {
			t.Fatalf("go list -deps %s found %d packages: was it moved?", pkg, len(ds))
		}
		for _, dep := range ds {
			for _, b := range bad {
				if dep == b || strings.HasPrefix(dep, b+"/") {
					t.Errorf("%s depends on %s", pkg, dep)
				}
			}
		}
	}
	// The check can fail: the runner does link every one of them.
	all := strings.Join(deps(t, "./internal/runner"), " ")
	for _, b := range []string{"github.com/tetratelabs/wazero", "github.com/fastschema/qjs", "github.com/dop251/goja", "github.com/evanw/esbuild"} {
		if !strings.Contains(all, b) {
			t.Errorf("internal/runner does not depend on %s: the assertions above test nothing", b)
		}
	}
}
