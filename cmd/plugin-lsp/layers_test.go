package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLayers enforces DESIGN.md §6: dependencies point down. analysis knows
// neither the runner nor the protocol; the runner does not know the
// protocol; only lsp imports go.lsp.dev.
func TestLayers(t *testing.T) {
	const mod = "github.com/plugin-lsp/plugin-lsp/"
	forbidden := map[string][]string{
		"./analysis/...": {mod + "runner", mod + "lsp", mod + "cmd", "go.lsp.dev/"},
		"./runner/...":   {mod + "lsp", mod + "cmd", "go.lsp.dev/"},
		"./lsp/...":      {mod + "cmd"},
	}
	for pkgs, bad := range forbidden {
		cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkgs)
		cmd.Dir = "../.." // the module root
		out, err := cmd.CombinedOutput()
		if err != nil {
			if strings.Contains(string(out), "matched no packages") {
				continue
			}
			t.Fatalf("go list %s: %v\n%s", pkgs, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, b := range bad {
				if strings.HasPrefix(dep, b) {
					t.Errorf("%s depends on %s: the layer must not know it", pkgs, dep)
				}
			}
		}
	}
}
