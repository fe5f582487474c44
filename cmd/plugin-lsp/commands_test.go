package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sampleValue is a value of the kind a flag's placeholder names.
func sampleValue(f flagDef) string {
	v := strings.Split(f.value, "|")[0]
	switch v {
	case "D":
		return "1s"
	case "N":
		return "2"
	case "text", "fake":
		return v
	}
	return "x"
}

// Every flag of the table reaches its command's handler, in each of the
// spellings scanArgs accepts; a flag outside the table is refused by
// every command. The positional arguments make each command stop after
// parsing (no plugin there), so nothing runs.
func TestEveryTableFlagIsParsed(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-plugin-here")
	for _, c := range commands {
		if c.name == "help" || c.name == "version" {
			continue
		}
		pos := []string{missing}
		switch c.name {
		case "run":
			pos = []string{missing, "tool"}
		case "init":
			pos = []string{missing, missing + "2"} // two DIRs: refused after parsing
		case "serve":
			pos = []string{"extra"} // serve takes no argument: refused after parsing
		}
		for _, f := range c.flags {
			spellings := [][]string{{"--" + f.name}, {"-" + f.name}}
			if f.value != "" {
				v := sampleValue(f)
				spellings = [][]string{{"--" + f.name, v}, {"--" + f.name + "=" + v}, {"-" + f.name, v}}
			}
			if f.alias != "" {
				spellings = append(spellings, []string{"-" + f.alias})
			}
			for _, sp := range spellings {
				args := append(append([]string{c.name}, sp...), pos...)
				code, _, stderr := run(t, args...)
				stderr, _, _ = strings.Cut(stderr, "\n") // the usage follows the error
				if code != 2 || strings.Contains(stderr, "internal error") || strings.Contains(stderr, "unknown flag") ||
					strings.Contains(stderr, "needs a value") || strings.Contains(stderr, "takes no value") {
					t.Errorf("%q: exit %d, the flag was not parsed:\n%s", args, code, stderr)
				}
			}
		}
		code, _, stderr := run(t, append([]string{c.name, "--no-such-flag"}, pos...)...)
		if code != 2 || !strings.Contains(stderr, "unknown flag --no-such-flag") {
			t.Errorf("%s --no-such-flag: exit %d\n%s", c.name, code, stderr)
		}
	}
}

// `help CMD`, `CMD -h` and `CMD --help` print the same text, generated
// from the table: its synopsis first and each flag of the command.
func TestHelpOfEachCommand(t *testing.T) {
	_, mainHelp, _ := run(t, "help")
	for _, c := range commands {
		if !strings.Contains(mainHelp, "\n  "+c.synopsis()) {
			t.Errorf("help lacks %q:\n%s", c.synopsis(), mainHelp)
		}
		code, out, stderr := run(t, "help", c.name)
		if code != 0 || !strings.HasPrefix(out, "usage: plugin-lsp "+c.synopsis()+"\n") {
			t.Errorf("help %s: exit %d\n%s%s", c.name, code, out, stderr)
		}
		for _, f := range c.flags {
			if !regexp.MustCompile(`(?m)^  (-` + f.alias + `, )?` + regexp.QuoteMeta(f.spelling()) + `( |$)`).MatchString(out) {
				t.Errorf("help %s does not describe --%s:\n%s", c.name, f.name, out)
			}
		}
		if c.name == "help" || c.name == "version" {
			continue
		}
		for _, h := range []string{"-h", "--help"} {
			code, o, e := run(t, c.name, h)
			if c.name == "serve" { // stdout is the LSP stream
				o = e
			}
			if code != 0 || o != out {
				t.Errorf("%s %s: exit %d, differs from help %s:\n%s", c.name, h, code, c.name, o)
			}
		}
	}
	if code, _, stderr := run(t, "help", "nope"); code != 2 || !strings.Contains(stderr, `unknown command "nope"`) {
		t.Errorf("help nope: exit %d %s", code, stderr)
	}
}

// docFiles are the Markdown files that document commands.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) < 5 {
		t.Fatalf("docs/*.md: %v (%d files)", err, len(files))
	}
	return append([]string{"../../README.md"}, files...)
}

// codeLines returns the lines of fenced code blocks and the inline code
// spans of a Markdown text, each with its line number.
func codeLines(text string) (lines []string, at []int) {
	fenced := false
	span := regexp.MustCompile("`([^`]+)`")
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			lines, at = append(lines, l), append(at, i+1)
			continue
		}
		for _, m := range span.FindAllStringSubmatch(l, -1) {
			lines, at = append(lines, m[1]), append(at, i+1)
		}
	}
	return lines, at
}

var (
	invocation = regexp.MustCompile(`plugin-lsp ([a-z]+)\b`)
	flagToken  = regexp.MustCompile(`(?:^|[\s\[|])--?([a-z][a-z-]*)`)
)

// The README's command list is the table: one synopsis line per command,
// each equal to the generated one, so a flag added in code and not in the
// README fails, and so does one the README lists that the code lacks.
func TestReadmeCommandListIsTheTable(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "## Commands\n")
	if start < 0 {
		t.Fatal("README.md has no ## Commands section")
	}
	block := text[start:]
	open := strings.Index(block, "```text\n")
	if open < 0 {
		t.Fatal("## Commands has no ```text block")
	}
	block = block[open+len("```text\n"):]
	block = block[:strings.Index(block, "```")]
	var listed []string
	for _, l := range strings.Split(block, "\n") {
		if !strings.HasPrefix(l, "plugin-lsp ") {
			continue
		}
		syn, _, _ := strings.Cut(l, "  ") // the description follows two or more spaces
		listed = append(listed, strings.TrimPrefix(syn, "plugin-lsp "))
	}
	var want []string
	for _, c := range commands {
		want = append(want, c.synopsis())
	}
	for _, w := range want {
		if !slices.Contains(listed, w) {
			t.Errorf("README.md ## Commands lacks (or differs from) the synopsis\n  plugin-lsp %s", w)
		}
	}
	for _, l := range listed {
		if !slices.Contains(want, l) {
			t.Errorf("README.md ## Commands lists\n  plugin-lsp %s\nwhich is not the synopsis of any command", l)
		}
	}
}

// Wherever README.md and docs/*.md show a plugin-lsp command (a code
// block or an inline code span), each flag given to it is one of its
// flags in the table, and a synopsis (a line "plugin-lsp CMD [--…") is
// the generated one.
func TestDocsUseOnlyTableFlags(t *testing.T) {
	checked := 0
	for _, file := range docFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines, at := codeLines(string(b))
		for i, l := range lines {
			if c := strings.Index(l, " #"); c >= 0 {
				l = l[:c] // a shell comment
			}
			ms := invocation.FindAllStringSubmatchIndex(l, -1)
			for j, m := range ms {
				cmd := lookup(l[m[2]:m[3]])
				if cmd == nil {
					continue // "plugin-lsp reads …", a path
				}
				end := len(l)
				if j+1 < len(ms) {
					end = ms[j+1][0]
				}
				seg, _, _ := strings.Cut(l[m[0]:end], "  ") // a description follows two spaces
				where := filepath.Base(file) + ":" + strconv.Itoa(at[i])
				if strings.HasPrefix(seg, "plugin-lsp "+cmd.name+" [--") {
					if strings.TrimSpace(seg) != "plugin-lsp "+cmd.synopsis() {
						t.Errorf("%s: synopsis\n  %s\nis not the command's\n  plugin-lsp %s", where, strings.TrimSpace(seg), cmd.synopsis())
					}
				}
				for _, f := range flagToken.FindAllStringSubmatch(seg[len("plugin-lsp "+cmd.name):], -1) {
					checked++
					ok := false
					for _, d := range cmd.flags {
						ok = ok || d.name == f[1] || d.alias == f[1]
					}
					if !ok && !(f[1] == "h" || f[1] == "help") {
						t.Errorf("%s: plugin-lsp %s has no flag --%s (in %q)", where, cmd.name, f[1], strings.TrimSpace(seg))
					}
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d flags found in the docs: is the scan broken?", checked)
	}
}

// A command is its table entry: dispatch calls the entry's run, so each
// name of the table reaches its own command (its help names it) and a name
// outside the table is refused.
func TestDispatchReadsTheTable(t *testing.T) {
	for _, c := range commands {
		if c.run == nil {
			t.Errorf("%s: no run in the command table", c.name)
			continue
		}
		if c.name == "serve" || c.name == "version" || c.name == "help" {
			continue
		}
		code, stdout, stderr := run(t, c.name, "-h")
		if code != 0 || !strings.Contains(stdout+stderr, "plugin-lsp "+c.name) {
			t.Errorf("%s -h: exit %d, not its usage:\n%s%s", c.name, code, stdout, stderr)
		}
	}
	for _, v := range []string{"version", "--version"} {
		if code, stdout, _ := run(t, v); code != 0 || !strings.HasPrefix(stdout, "plugin-lsp ") {
			t.Errorf("%s: exit %d: %q", v, code, stdout)
		}
	}
	if code, _, stderr := run(t, "no-such-command"); code != 2 || !strings.Contains(stderr, `unknown command "no-such-command"`) {
		t.Errorf("an unknown command: exit %d\n%s", code, stderr)
	}
}
