// Package e2e drives the built plugin-lsp binary with real LSP clients:
// a Node client on vscode-languageserver-protocol (node/client.test.js),
// headless Neovim 0.7 (nvim/test.lua) and batch Emacs with eglot
// (emacs/test.el). See README.md.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const setup = "run the README's test command, ./scripts/test.sh, which installs it (or by hand: `apt-get install -y neovim emacs-nox elpa-eglot`; `(cd lsp/e2e/node && npm ci)`; see lsp/e2e/README.md)"

// repoRoot is the checkout (two levels up from this package).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// buildServer builds cmd/plugin-lsp into a temp dir.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "plugin-lsp")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/plugin-lsp")
	cmd.Dir = repoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/plugin-lsp: %v\n%s", err, out)
	}
	return bin
}

// copyExample copies testdata/example/books into a temp dir.
func copyExample(t *testing.T) string {
	t.Helper()
	src := filepath.Join(repoRoot(t), "testdata", "example", "books")
	dst := filepath.Join(t.TempDir(), "books")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestNodeClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed; %s", setup)
	}
	dir := filepath.Join(repoRoot(t), "lsp", "e2e", "node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "vscode-languageserver-protocol")); err != nil {
		t.Fatalf("lsp/e2e/node/node_modules is missing; %s", setup)
	}
	bin := buildServer(t)
	plugin := copyExample(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--test", "--test-reporter=spec", "client.test.js")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PLUGIN_LSP_BIN="+bin, "PLUGIN_DIR="+plugin, "REPO_DIR="+repoRoot(t))
	out, err := cmd.CombinedOutput()
	t.Logf("node client:\n%s", out)
	if err != nil {
		t.Fatalf("node client failed: %v", err)
	}
	if !bytes.Contains(out, []byte("pass ")) {
		t.Fatal("node ran no test")
	}
}

func TestNeovimClient(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatalf("nvim is not installed; %s", setup)
	}
	script := filepath.Join(repoRoot(t), "lsp", "e2e", "nvim", "test.lua")
	runClientScript(t, "the Neovim script", nvim, "--headless", "--clean", "-c", "luafile "+script)
}

// runClientScript builds the server, copies the example and runs a client
// script (argv) that reads PLUGIN_LSP_BIN, PLUGIN_DIR, REPO_DIR and
// RESULTS from the environment, then checks the results it wrote.
func runClientScript(t *testing.T, who string, argv ...string) {
	t.Helper()
	bin := buildServer(t)
	plugin := copyExample(t)
	results := filepath.Join(t.TempDir(), "results.txt")
	// The client is configured by the Neovim 0.7 snippet of docs/editors.md,
	// exactly as a reader pastes it, with plugin-lsp found on PATH.
	snippet := filepath.Join(t.TempDir(), "editors-snippet.lua")
	if err := os.WriteFile(snippet, []byte(firstLuaBlock(t, filepath.Join(repoRoot(t), "docs", "editors.md"))), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "PLUGIN_LSP_BIN="+bin, "PLUGIN_DIR="+plugin, "REPO_DIR="+repoRoot(t), "RESULTS="+results,
		"PLUGIN_LSP_SNIPPET="+snippet, "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.Stdin = nil
	out, err := cmd.CombinedOutput()
	if len(out) > 0 {
		t.Logf("%s output:\n%s", who, out)
	}
	checkResults(t, who, results, err)
}

// checkResults reads the RESULTS file a client script wrote: "ok <step>"
// lines pass, "skip <step>: …" lines are logged, anything else fails, and
// the last line must be DONE.
func checkResults(t *testing.T, who, results string, runErr error) {
	t.Helper()
	f, ferr := os.Open(results)
	if ferr != nil {
		t.Fatalf("%s wrote no results (%v); exit: %v", who, ferr, runErr)
	}
	defer f.Close()
	done, steps := false, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "ok "):
			steps++
			t.Log(line)
		case strings.HasPrefix(line, "skip "):
			t.Log(line)
		case line == "DONE":
			done = true
		default:
			t.Error(line)
		}
	}
	if runErr != nil {
		t.Errorf("%s exited with %v", who, runErr)
	}
	if !done {
		t.Errorf("%s did not finish (%d steps passed)", who, steps)
	}
}

// firstLuaBlock is the first ```lua block of a Markdown file.
func firstLuaBlock(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "```lua\n")
	body, _, closed := strings.Cut(rest, "\n```")
	if !ok || !closed {
		t.Fatalf("%s has no Lua block", path)
	}
	return body + "\n"
}
