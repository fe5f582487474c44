package tstypes

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current output")

// golden renders one schema as the module testdata/golden/<name>.d.ts.
func golden(t *testing.T, name string, schema []byte) []byte {
	t.Helper()
	typ, decls, err := ConvertJSON(schema, "Input")
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b bytes.Buffer
	b.WriteString("// Generated from testdata/schemas/" + name + ".json by TestGolden (go test ./internal/checker/tstypes -update).\n")
	b.WriteString("export type Input = " + typ + ";\n")
	for _, d := range decls {
		b.WriteString("export " + d + "\n")
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	schemas, _ := filepath.Glob("testdata/schemas/*.json")
	if len(schemas) < 20 {
		t.Fatalf("%d schemas, want at least 20", len(schemas))
	}
	for _, s := range schemas {
		name := strings.TrimSuffix(filepath.Base(s), ".json")
		text, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		got := golden(t, name, text)
		path := filepath.Join("testdata", "golden", name+".d.ts")
		if *update {
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./internal/checker/tstypes -update and review the result)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s:\n%s", name, path, got)
		}
	}
}

// tscPath is the TypeScript compiler installed by scripts/test.sh.
func tscPath(t *testing.T) string {
	t.Helper()
	p, _ := filepath.Abs("testdata/tsc/node_modules/typescript/bin/tsc")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("TypeScript compiler missing: %v\nIt is the npm package in internal/checker/tstypes/testdata/tsc: run ./scripts/test.sh (it runs npm ci there; CI does this too).", err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is not on PATH: %v", err)
	}
	return p
}

var tscLine = regexp.MustCompile(`(?m)^(.+?)\((\d+),(\d+)\): error (TS\d+): `)

// tsc runs tsc --noEmit on a project and returns "file:line TScode" for
// each error, file relative to the project directory.
func tsc(t *testing.T, project string) []string {
	t.Helper()
	cmd := exec.Command("node", tscPath(t), "--noEmit", "--pretty", "false", "-p", ".")
	cmd.Dir = project
	out, err := cmd.CombinedOutput()
	if err != nil && len(tscLine.FindAll(out, -1)) == 0 {
		t.Fatalf("tsc -p %s: %v\n%s", project, err, out)
	}
	var errs []string
	for _, m := range tscLine.FindAllSubmatch(out, -1) {
		errs = append(errs, filepath.ToSlash(string(m[1]))+":"+string(m[2])+" "+string(m[4]))
	}
	sort.Strings(errs)
	return errs
}

// expected reads the "// error TSnnnn" annotations of the .ts files under
// dir/sub, as tsc would print them.
func expected(t *testing.T, dir, sub string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, sub, "*.ts"))
	var out []string
	ann := regexp.MustCompile(`// error (TS\d+)`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, f)
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range ann.FindAllStringSubmatch(line, -1) {
				out = append(out, filepath.ToSlash(rel)+":"+itoa(i+1)+" "+m[1])
			}
		}
	}
	sort.Strings(out)
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }

// The golden declarations compile, and the usage files fail exactly where
// their annotations say, with those codes.
func TestGoldenWithTsc(t *testing.T) {
	got := tsc(t, "testdata")
	want := expected(t, "testdata", "use")
	if len(want) < 15 {
		t.Fatalf("only %d annotated errors", len(want))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tsc errors differ\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// copyPlugin copies a plugin directory (not its .plugin/ or tsconfig.json)
// to a temporary directory.
func copyPlugin(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	err := filepath.Walk(from, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if rel == ".plugin" || rel == "tsconfig.json" || rel == "node_modules" {
			if fi.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		dst := filepath.Join(to, rel)
		if fi.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

func writeTypes(t *testing.T, dir string) {
	t.Helper()
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	wrote, err := WriteFiles(p)
	want := ".plugin/types.d.ts,.plugin/fixtures.schema.json,.plugin/tests.schema.json,tsconfig.json"
	if NativeTypes(p) != nil {
		want = ".plugin/types.d.ts,.plugin/fixtures.schema.json,.plugin/tests.schema.json,.plugin/native.d.ts,tsconfig.json"
	}
	if err != nil || strings.Join(wrote, ",") != want {
		t.Fatalf("WriteFiles: %v %v", wrote, err)
	}
	if Stale(p) {
		t.Fatal("stale right after WriteFiles")
	}
	again, err := WriteFiles(p)
	if err != nil || len(again) != 0 {
		t.Fatalf("second WriteFiles rewrote %v (%v)", again, err)
	}
}

// The bundled example type-checks clean against its generated types, and
// its committed .plugin/types.d.ts is what the generator gives today.
func TestExampleTypeChecks(t *testing.T) {
	ex := "../../../testdata/example/books"
	p, err := checker.Load(checker.OSFS{}, ex)
	if err != nil {
		t.Fatal(err)
	}
	if Stale(p) {
		t.Errorf("%s/.plugin/types.d.ts is stale: run go run ./cmd/plugin-lsp types %s", ex, ex)
	}
	dir := copyPlugin(t, ex)
	writeTypes(t, dir)
	if errs := tsc(t, dir); len(errs) != 0 {
		t.Errorf("the example does not type-check:\n%s", strings.Join(errs, "\n"))
	}
}

// A plugin whose pages misuse their input, the response and the host API
// gets exactly the annotated TypeScript errors; the clean page none.
func TestMisusesAreTypeErrors(t *testing.T) {
	dir := copyPlugin(t, "testdata/plugins/misuse")
	writeTypes(t, dir)
	got := tsc(t, dir)
	want := expected(t, dir, "code")
	if len(want) < 6 {
		t.Fatalf("only %d annotated errors", len(want))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tsc errors differ\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestDepthIsBounded(t *testing.T) {
	var s any = map[string]any{"type": "string"}
	for range 10000 {
		s = map[string]any{"type": "array", "items": s}
	}
	typ, _ := Convert(s, "X")
	if !strings.Contains(typ, "unknown") || strings.Count(typ, "[]") > MaxDepth+2 {
		t.Errorf("depth not bounded: %d levels", strings.Count(typ, "[]"))
	}
}

// The "good" test plugins (written to check clean) against their generated
// types: clean, except where the types find a real mistake the checker
// cannot see. good-notes reads collections.query's entries as notes, but
// query resolves to [{ key, value }] (internal/runner/collections.go): n.tags is
// undefined at run time.
func TestGoodPluginsTypeCheck(t *testing.T) {
	known := map[string][]string{
		"good-notes": {"code/find-notes.ts:5 TS2352"},
	}
	dirs, _ := filepath.Glob("../../../testdata/plugins/good-*")
	n := 0
	for _, d := range dirs {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue
		}
		n++
		name := filepath.Base(d)
		t.Run(name, func(t *testing.T) {
			dir := copyPlugin(t, d)
			p, err := checker.Load(checker.OSFS{}, dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := WriteFiles(p); err != nil {
				t.Fatal(err)
			}
			if got := tsc(t, dir); strings.Join(got, "\n") != strings.Join(known[name], "\n") {
				t.Errorf("tsc: got %q, want %q", got, known[name])
			}
		})
	}
	if n < 5 {
		t.Fatalf("only %d good plugins", n)
	}
}

// ConvertJSON is Convert for schema text.
func ConvertJSON(text []byte, prefix string) (string, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber() // numbers as written, as SchemaValue gives them
	var s any
	if err := dec.Decode(&s); err != nil {
		return "", nil, err
	}
	t, d := Convert(s, prefix)
	return t, d, nil
}

// A native module checked through JSDoc (// @ts-check) and the
// TypeScript source of another get exactly the annotated errors from the
// generated .plugin/native.d.ts: a ctx member the tool does not require,
// a secret name capabilities.credentials does not declare, an input field
// that is not in the schema or has another type.
func TestNativeMisusesAreTypeErrors(t *testing.T) {
	dir := copyPlugin(t, "testdata/plugins/native-misuse")
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	wrote, err := WriteFiles(p)
	if err != nil || !slices.Contains(wrote, NativePath) {
		t.Fatalf("WriteFiles: %v %v", wrote, err)
	}
	if Stale(p) {
		t.Fatal("stale right after WriteFiles")
	}
	got := tsc(t, filepath.Join(dir, "native"))
	var want []string
	ann := regexp.MustCompile(`// error (TS\d+)`)
	for _, f := range []string{"chat.js", "src/compiled.ts"} {
		data, err := os.ReadFile(filepath.Join(dir, "native", f))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range ann.FindAllStringSubmatch(line, -1) {
				want = append(want, f+":"+itoa(i+1)+" "+m[1])
			}
		}
	}
	sort.Strings(want)
	if len(want) < 10 {
		t.Fatalf("only %d annotated errors", len(want))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tsc errors differ\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A plugin without native tools gets no native.d.ts (and types.d.ts is
// what it was); when a plugin drops its native tools, the generated
// native.d.ts goes, while one the author wrote stays.
func TestNativeTypesOnlyWithNativeTools(t *testing.T) {
	dir := copyPlugin(t, "testdata/plugins/native-misuse")
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFiles(p); err != nil {
		t.Fatal(err)
	}
	native := filepath.Join(dir, filepath.FromSlash(NativePath))
	if _, err := os.Stat(native); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(`{"name":"native-misuse","version":"1.0.0","sdk":1}`), 0o644)
	p, _ = checker.Load(checker.OSFS{}, dir)
	if NativeTypes(p) != nil {
		t.Fatal("NativeTypes without native tools")
	}
	if _, err := WriteFiles(p); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(native); err == nil {
		t.Error("the generated native.d.ts outlived the native tools")
	}
	os.WriteFile(native, []byte("export type Mine = 1;\n"), 0o644)
	if _, err := WriteFiles(p); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(native); string(data) != "export type Mine = 1;\n" {
		t.Error("an author's native.d.ts was touched")
	}
}
