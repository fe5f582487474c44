package ide

import (
	"os/exec"
	"strings"
	"testing"
)

// TestKnowsNoProtocol: ide sits below lsp and knows nothing of LSP (nor of
// lsp or cmd): its answers are plain Go values.
func TestKnowsNoProtocol(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const mod = "github.com/plugin-lsp/plugin-lsp/"
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list found %d dependencies: %q", len(deps), deps)
	}
	for _, dep := range deps {
		for _, bad := range []string{"go.lsp.dev/", mod + "internal/lsp", mod + "cmd"} {
			if strings.HasPrefix(dep, bad) {
				t.Errorf("ide depends on %s", dep)
			}
		}
	}
}
