package e2e

import (
	"path/filepath"
	"testing"
)

// nativeReachEnv copies testdata/native-reach (a native module that opens
// a TCP connection its requires does not grant) into a temp dir for the
// clients' native-lane steps and names it NATIVE_REACH_DIR: after its run
// the editor reports native-reach-at-run, and the quick fix adds
// "network.socket" to its requires.
func nativeReachEnv(t *testing.T) []string {
	t.Helper()
	return []string{"NATIVE_REACH_DIR=" + copyPlugin(t, filepath.Join(repoRoot(t), "internal", "lsp", "e2e", "testdata", "native-reach"))}
}
