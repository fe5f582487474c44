package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
)

// The fix of every drift code is re-pinning: applied, the re-check is
// clean of snapshot-* diagnostics, and a second re-pin changes nothing.
func TestSnapshotRepinClears(t *testing.T) {
	for _, name := range []string{"snapshot-widened", "snapshot-narrowed", "snapshot-stale"} {
		t.Run(name, func(t *testing.T) {
			dir := copyPlugin(t, name)
			p, ds := checkDir(t, dir)
			want := strings.TrimPrefix(name, "snapshot-")
			if len(codes(ds, "snapshot-"+want)) == 0 {
				t.Fatalf("no snapshot-%s before the fix: %v", want, ds)
			}
			res, err := lockfile.Pin(p, "plugin-lsp test")
			if err != nil {
				t.Fatal(err)
			}
			if name != "snapshot-stale" && len(res.Changes) == 0 {
				t.Errorf("pin reports no change since the previous snapshot")
			}
			_, ds = checkDir(t, dir)
			for _, d := range ds {
				if strings.HasPrefix(d.Code, "snapshot-") {
					t.Errorf("after re-pin: %s %s", d.Code, d.Message)
				}
			}
			first, _ := os.ReadFile(filepath.Join(dir, lockfile.FileName))
			p2, _ := checker.Load(nil, dir)
			res, err = lockfile.Pin(p2, "plugin-lsp test")
			if err != nil {
				t.Fatal(err)
			}
			second, _ := os.ReadFile(filepath.Join(dir, lockfile.FileName))
			if string(first) != string(second) || len(res.Changes) != 0 {
				t.Errorf("a second pin changed the snapshot (%d changes)", len(res.Changes))
			}
		})
	}
}

// --require-snapshot: no snapshot is an error; a snapshot that is not
// one is an error too; without the flag both stay quiet or informational.
func TestRequireSnapshot(t *testing.T) {
	dir := copyPlugin(t, "good-weather")
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := checker.DefaultConfig()
	if ds := codes(checker.Run(p, All(), cfg, nil), "snapshot-widened"); len(ds) != 0 {
		t.Fatalf("without the flag: %v", ds)
	}
	cfg.RequireSnapshot = true
	ds := codes(checker.Run(p, All(), cfg, nil), "snapshot-widened")
	if len(ds) != 1 || ds[0].Severity != checker.Error || !strings.Contains(ds[0].Message, "no capability snapshot") {
		t.Fatalf("with the flag: %+v", ds)
	}
	if err := os.WriteFile(filepath.Join(dir, lockfile.FileName), []byte(`{"lockVersion": 1, "writtenBy": "me"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _ = checker.Load(nil, dir)
	ds = codes(checker.Run(p, All(), cfg, nil), "snapshot-stale")
	if len(ds) != 1 || ds[0].Severity != checker.Error || ds[0].File != lockfile.FileName {
		t.Fatalf("invalid snapshot with the flag: %+v", ds)
	}
	cfg.RequireSnapshot = false
	if ds := codes(checker.Run(p, All(), cfg, nil), "snapshot-stale"); len(ds) != 1 || ds[0].Severity != checker.Info {
		t.Fatalf("invalid snapshot without the flag: %+v", ds)
	}
}
