//go:build unix

package checker

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// noBlock fails the test when f does not return promptly (a read that
// waits on a FIFO would never return).
func noBlock(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s blocked", what)
	}
}

func TestReadPluginFileRefusals(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "p")
	other := filepath.Join(root, "other")
	for _, d := range []string{dir + "/code", other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "code", "ok.ts"), "export default 1")
	write(filepath.Join(other, "fixtures.json"), `{"secrets":{"k":"other-plugin-secret"}}`)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(other, "fixtures.json"), filepath.Join(dir, "fixtures.json")))
	must(os.Symlink("../fifo.json", filepath.Join(dir, "code", "via-link.ts")))
	must(os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")))
	must(os.Symlink("ok.ts", filepath.Join(dir, "code", "alias.ts")))
	big, err := os.Create(filepath.Join(dir, "big.ts"))
	must(err)
	must(big.Truncate(MaxFileSize + 1)) // sparse: nothing is written
	big.Close()
	devnull := filepath.Join(dir, "null.ts")
	if err := syscall.Mknod(devnull, syscall.S_IFCHR|0o644, 0x0103); err != nil { // 1,3: /dev/null
		devnull = ""
	}

	cases := []struct {
		rel  string
		want error
	}{
		{"fifo.json", ErrNotRegular},
		{"code/via-link.ts", ErrNotRegular},
		{"fixtures.json", ErrOutside},
		{"zero.json", ErrOutside},
		{"big.ts", ErrTooLarge},
		{"code", ErrNotRegular},
		{"code/ok.ts", nil},
		{"code/alias.ts", nil},
		{"../other/fixtures.json", ErrOutside},
		{"missing.ts", fs.ErrNotExist},
	}
	if devnull != "" {
		cases = append(cases, struct {
			rel  string
			want error
		}{"null.ts", ErrNotRegular})
	}
	for _, c := range cases {
		noBlock(t, c.rel, func() {
			b, err := ReadPluginFile(OSFS{}, dir, c.rel)
			switch {
			case c.want == nil && (err != nil || string(b) != "export default 1"):
				t.Errorf("%s: %q, %v", c.rel, b, err)
			case c.want != nil && !errors.Is(err, c.want):
				t.Errorf("%s: err %v, want %v", c.rel, err, c.want)
			case err != nil && !errors.Is(err, ErrOutside) && strings.Contains(err.Error(), root):
				t.Errorf("%s: the message names the absolute path: %v", c.rel, err)
			}
		})
	}
	// The plugin's cached reader and loader go through the same function.
	noBlock(t, "Load", func() {
		if err := os.Rename(filepath.Join(dir, "fifo.json"), filepath.Join(dir, "plugin.json")); err != nil {
			t.Fatal(err)
		}
		_, err := Load(nil, dir)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("Load with a FIFO plugin.json: %v", err)
		}
	})
}

// An editor buffer over the limit is refused as a file on disk is.
func TestReadPluginFileBigBuffer(t *testing.T) {
	dir := t.TempDir()
	o := &Overlay{Files: map[string][]byte{filepath.Join(dir, "x.ts"): make([]byte, MaxFileSize+1)}}
	if _, err := ReadPluginFile(o, dir, "x.ts"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("got %v", err)
	}
}
