package scaffold

import (
	"os"
	"path/filepath"
	"testing"
)

func TestKebabCase(t *testing.T) {
	for in, want := range map[string]string{
		"greet": "greet", "lookupBook": "lookup-book", "HTTPGet2": "http-get2", "getV2Item": "get-v2-item",
		"get_v2_item": "get-v2-item", "forecast3Day": "forecast3-day", "X": "x", "ABC": "abc", "_": "",
		"__init__": "init", "a__b": "a-b", "URLFor": "url-for",
	} {
		if got := kebabCase(in); got != want {
			t.Errorf("kebabCase(%q) = %q, want %q", in, got, want)
		}
	}
}

// A new tool's files never land on another tool's: the kebab-case stem,
// then the name as written, then numbered.
func TestNewToolFilesAvoidsTakenStems(t *testing.T) {
	dir := t.TempDir()
	if got := newToolFiles(dir, "fooBar").base; got != "foo-bar" {
		t.Errorf("fooBar in an empty plugin: %q", got)
	}
	if got := newToolFiles(dir, "_").base; got != "tool" {
		t.Errorf("_: %q", got)
	}
	os.MkdirAll(filepath.Join(dir, "code"), 0o755)
	os.MkdirAll(filepath.Join(dir, "tests"), 0o755)
	os.WriteFile(filepath.Join(dir, "code", "foo-bar.ts"), nil, 0o644)
	if got := newToolFiles(dir, "foo_bar").base; got != "foo_bar" {
		t.Errorf("foo_bar beside code/foo-bar.ts: %q", got)
	}
	os.WriteFile(filepath.Join(dir, "tests", "foo_bar.json"), nil, 0o644) // a test only, no page
	if got := newToolFiles(dir, "foo_bar").base; got != "foo-bar-2" {
		t.Errorf("foo_bar beside code/foo-bar.ts and tests/foo_bar.json: %q", got)
	}
}

// The page's function is never a reserved word or a global the page uses.
func TestJSFunctionName(t *testing.T) {
	for in, want := range map[string]string{"forecast": "forecast", "delete": "deleteTool", "http": "httpTool", "default": "defaultTool", "Error": "ErrorTool", "_": "_"} {
		if got := jsFunctionName(in); got != want {
			t.Errorf("jsFunctionName(%q) = %q, want %q", in, got, want)
		}
	}
}
