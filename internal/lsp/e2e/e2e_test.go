// Package e2e drives the built plugin-lsp binary with real LSP clients:
// a Node client on vscode-languageserver-protocol (node/client.test.js),
// headless Neovim with the docs' init.lua (nvim/test.lua) and batch Emacs with eglot
// (emacs/test.el). See README.md.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

const setup = "run the README's test command, ./scripts/test.sh, which installs it (or by hand: `apt-get install -y neovim emacs-nox elpa-eglot`; `(cd internal/lsp/e2e/node && npm ci)`; see internal/lsp/e2e/README.md)"

// repoRoot is the checkout (three levels up from this package).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
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
	return copyPlugin(t, filepath.Join(repoRoot(t), "testdata", "example", "books"))
}

// copyExplored copies testdata/explored (a host only exploration finds)
// into a temp dir: the clients' exploration steps open it (EXPLORE_DIR).
func copyExplored(t *testing.T) string {
	t.Helper()
	return copyPlugin(t, filepath.Join(repoRoot(t), "internal", "lsp", "e2e", "testdata", "explored"))
}

// copyPlugin copies the plugin folder src into a temp dir.
func copyPlugin(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
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
	dir := filepath.Join(repoRoot(t), "internal", "lsp", "e2e", "node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "vscode-languageserver-protocol")); err != nil {
		t.Fatalf("internal/lsp/e2e/node/node_modules is missing; %s", setup)
	}
	bin := buildServer(t)
	plugin := copyExample(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--test", "--test-reporter=spec", "client.test.js")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PLUGIN_LSP_BIN="+bin, "PLUGIN_DIR="+plugin, "REPO_DIR="+repoRoot(t), "EXPLORE_DIR="+copyExplored(t))
	cmd.Env = append(cmd.Env, nativeReachEnv(t)...)
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
	nvim := neovim(t)
	if v := nvimVersion(t, nvim); v[0] == 0 && v[1] >= 11 {
		skipSnippet(t, "nvim-0.7", fmt.Sprintf("the nvim-0.7 snippet of docs/editors.md is for Neovim 0.7 to 0.10; this machine has %d.%d.%d (TestNeovim011Client runs its snippet)", v[0], v[1], v[2]))
	}
	runNeovim(t, "nvim-0.7")
}

// TestNeovim011Client loads the Neovim 0.11 snippet (vim.lsp.config,
// vim.lsp.enable, vim.fs.root), which needs Neovim 0.11 or later.
func TestNeovim011Client(t *testing.T) {
	nvim := neovim(t)
	if v := nvimVersion(t, nvim); v[0] == 0 && v[1] < 11 {
		skipSnippet(t, "nvim-0.11", fmt.Sprintf("the nvim-0.11 snippet of docs/editors.md needs Neovim 0.11+ (vim.lsp.config, vim.lsp.enable, vim.fs.root); this machine has %d.%d.%d", v[0], v[1], v[2]))
	}
	runNeovim(t, "nvim-0.11")
}

func neovim(t *testing.T) string {
	t.Helper()
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatalf("nvim is not installed; %s", setup)
	}
	return nvim
}

var nvimVersionRE = regexp.MustCompile(`^NVIM v(\d+)\.(\d+)\.(\d+)`)

// nvimVersion is the version `nvim --version` prints first.
func nvimVersion(t *testing.T, nvim string) [3]int {
	t.Helper()
	out, err := exec.Command(nvim, "--version").Output()
	if err != nil {
		t.Fatalf("nvim --version: %v", err)
	}
	m := nvimVersionRE.FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("nvim --version printed no version: %q", out)
	}
	var v [3]int
	for i := range v {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return v
}

// runNeovim writes the snippet NAME of docs/editors.md to an init.lua,
// starts Neovim with it as a reader's init file (-u), then the test
// script, which opens the plugin and runs the steps.
func runNeovim(t *testing.T, name string) {
	t.Helper()
	s := snippet(t, name)
	if s.lang != "lua" {
		t.Fatalf("snippet %s is ```%s, not ```lua", name, s.lang)
	}
	init := filepath.Join(t.TempDir(), "init.lua")
	if err := os.WriteFile(init, []byte(s.text), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(repoRoot(t), "internal", "lsp", "e2e", "nvim", "test.lua")
	runClientScript(t, "Neovim with the "+name+" snippet", []string{"PLUGIN_LSP_RUN_CMD=" + neovimRunCommand(t)},
		neovim(t), "--headless", "--clean", "-u", init, "-c", "luafile "+script)
}

var nvimRunRE = regexp.MustCompile("`:(lua vim\\.lsp\\.codelens\\.run\\(\\))`")

// neovimRunCommand is the Ex command the Neovim sections give to run the
// tool of a lens line; the script runs it as typed.
func neovimRunCommand(t *testing.T) string {
	t.Helper()
	doc := editorsDoc(t)
	sec, _, _ := strings.Cut(doc[strings.Index(doc, "## Neovim 0.7"):], "## Helix")
	m := nvimRunRE.FindAllStringSubmatch(sec, -1)
	if len(m) < 2 {
		t.Fatalf("the Neovim sections of docs/editors.md no longer give `:lua vim.lsp.codelens.run()` (for 0.7 and 0.11) as the run command")
	}
	return m[0][1]
}

// runClientScript builds the server, copies the example and runs a client
// (argv) in the plugin's directory, with plugin-lsp on PATH as the docs
// assume. The script reads PLUGIN_LSP_BIN, PLUGIN_DIR, REPO_DIR, RESULTS,
// EXPLORE_DIR (copyExplored) and env from the environment, then the results it wrote are checked.
func runClientScript(t *testing.T, who string, env []string, argv ...string) {
	t.Helper()
	bin := buildServer(t)
	plugin := copyExample(t)
	results := filepath.Join(t.TempDir(), "results.txt")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = plugin
	cmd.Env = append(os.Environ(), "PLUGIN_LSP_BIN="+bin, "PLUGIN_DIR="+plugin, "REPO_DIR="+repoRoot(t), "RESULTS="+results, "EXPLORE_DIR="+copyExplored(t),
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.Env = append(cmd.Env, env...)
	cmd.Env = append(cmd.Env, nativeReachEnv(t)...)
	cmd.Stdin = nil
	out, err := cmd.CombinedOutput()
	if len(out) > 0 {
		t.Logf("%s output:\n%s", who, out)
	}
	checkResults(t, who, results, err)
}

// checkResults reads the RESULTS file a client script wrote: "ok <step>"
// lines pass, "skip <step>: …" and "# note" lines are logged, anything else fails, and
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
		case strings.HasPrefix(line, "skip "), strings.HasPrefix(line, "# "):
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
