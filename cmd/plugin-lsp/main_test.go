package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		code, out, _ := run(t, args...)
		if code != 0 || !strings.HasPrefix(out, "usage: plugin-lsp <command>") {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
		for _, cmd := range []string{"serve", "check", "review", "run", "version", "help"} {
			if !strings.Contains(out, "\n  "+cmd) {
				t.Errorf("%v: %s is not listed:\n%s", args, cmd, out)
			}
		}
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		if code, out, _ := run(t, args...); code != 0 || out != "plugin-lsp "+version+"\n" {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
	}
}

// A person who types `plugin-lsp` in a terminal is told that it waits for
// an editor; an editor (stdin a pipe) never sees the hint.
func TestNoArgumentsOnATerminalPrintsAHint(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("util-linux script (a pseudo-terminal) is not installed")
	}
	bin := filepath.Join(t.TempDir(), "plugin-lsp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// script gives the binary a pseudo-terminal as stdin; the closed pipe
	// to script ends the session (EOF on the terminal).
	cmd := exec.Command(script, "-q", "-e", "-c", bin, os.DevNull)
	cmd.Stdin = strings.NewReader("")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "run `plugin-lsp help` for the commands") {
		t.Errorf("no hint on a terminal:\n%s", out)
	}

	pipe := exec.Command(bin)
	pipe.Stdin = strings.NewReader("")
	var stderr bytes.Buffer
	pipe.Stderr = &stderr
	_ = pipe.Run()
	if strings.Contains(stderr.String(), "plugin-lsp help") {
		t.Errorf("hint printed for a non-terminal stdin:\n%s", stderr.String())
	}
}
