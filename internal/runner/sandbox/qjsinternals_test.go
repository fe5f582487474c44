package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/fastschema/qjs"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

const qjsModule = "github.com/fastschema/qjs"

// qjsBuildVersion is the version of qjs compiled into this test binary,
// read from where qjs.New's source was (a module-cache path holds
// "qjs@<version>"; a test binary carries no module versions).
func qjsBuildVersion(t *testing.T) string {
	file, _ := runtime.FuncForPC(reflect.ValueOf(qjs.New).Pointer()).FileLine(reflect.ValueOf(qjs.New).Pointer())
	_, after, ok := strings.Cut(filepath.ToSlash(file), "/fastschema/qjs@")
	if !ok {
		return "an unknown version (qjs.New is in " + file + ", not in a module cache: a replace directive?)"
	}
	v, _, _ := strings.Cut(after, "/")
	return v
}

// TestQJSInternals fails loudly when a qjs upgrade moves anything that
// qjsinternals.go reaches past qjs's exported API: the version, the
// embedded module, the proxy constructor, the layout of the structs whose
// unexported fields newQJSRuntime sets (a field added, removed, renamed or
// retyped), and that a runtime made that way runs JavaScript and calls Go.
func TestQJSInternals(t *testing.T) {
	got := qjsBuildVersion(t)
	changed := func(what string, args ...any) {
		t.Helper()
		t.Errorf("%s is %s, but internal/runner/sandbox/qjsinternals.go reaches into the internals of %s, and this changed: %s.\n"+
			"Re-read qjs's runtime.go (New, initializeRuntime), context.go, mem.go and proxy.go, then update "+
			"qjsinternals.go, newQJSRuntime in instance.go, qjsVersion and this test.",
			qjsModule, got, qjsVersion, fmt.Sprintf(what, args...))
	}
	if got != qjsVersion {
		changed("the version")
	}

	if len(qjsWasm) < 1<<19 || !bytes.HasPrefix(qjsWasm, []byte("\x00asm")) {
		changed("qjs.wasmBytes (the embedded QuickJS module, read by go:linkname) is missing or not wasm (%d bytes)", len(qjsWasm))
	}
	if qjsCreateFuncProxy(qjs.NewProxyRegistry()) == nil {
		changed("qjs.createFuncProxyWithRegistry (go:linkname) returned nil")
	}

	// Every field of the three structs, with the ones newQJSRuntime sets
	// marked; a field qjs.New sets that newQJSRuntime does not would be
	// a silent zero.
	type field struct {
		name, typ string
		set       bool // newQJSRuntime sets it; else qjs.New leaves it zero too
	}
	layouts := []struct {
		v    any
		want []field
	}{
		{qjs.Runtime{}, []field{
			{"context", "*qjs.Context", true}, {"free", "api.Function", true}, {"handle", "*qjs.Handle", true},
			{"malloc", "api.Function", true}, {"mem", "*qjs.Mem", true}, {"module", "api.Module", true},
			{"option", "qjs.Option", true}, {"registry", "*qjs.ProxyRegistry", true}, {"wrt", "wazero.Runtime", true},
		}},
		{qjs.Context{}, []field{
			{"Context", "context.Context", true}, {"global", "*qjs.Value", false}, // cached by Context.Global
			{"handle", "*qjs.Handle", true}, {"runtime", "*qjs.Runtime", true},
		}},
		{qjs.Mem{}, []field{{"mem", "api.Memory", true}, {"mu", "sync.Mutex", false}}},
	}
	for _, l := range layouts {
		rt := reflect.TypeOf(l.v)
		var have []string
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			have = append(have, f.Name+" "+f.Type.String())
		}
		sort.Strings(have)
		var want []string
		for _, f := range l.want {
			want = append(want, f.name+" "+f.typ)
		}
		if strings.Join(have, ", ") != strings.Join(want, ", ") {
			changed("the fields of %s are {%s}, newQJSRuntime was written for {%s}", rt, strings.Join(have, ", "), strings.Join(want, ", "))
		}
	}
	// setQJSField refuses what does not fit, naming the version.
	if err := setQJSField(new(qjs.Runtime), "noSuchField", 1); err == nil || !strings.Contains(err.Error(), qjsVersion) {
		t.Errorf("setQJSField on a missing field: %v", err)
	}
	if err := setQJSField(new(qjs.Runtime), "wrt", 1); err == nil || !strings.Contains(err.Error(), "wrt") {
		t.Errorf("setQJSField with a wrong type: %v", err)
	}

	// A runtime built by newQJSRuntime (no image: New_QJS runs) evaluates
	// JavaScript and calls a Go function through the linked proxy.
	e := engine(t)
	rt, mod, _, err := e.maker.newRuntime(context.Background(), e.options(), nil)
	if err != nil {
		changed("newQJSRuntime failed: %v", err)
		return
	}
	defer e.maker.forget(mod)
	var called bool
	rt.Context().SetFunc("goAdd", func(this *qjs.This) (*qjs.Value, error) {
		called = true
		a := this.Args()
		return this.Context().NewInt32(a[0].Int32() + a[1].Int32()), nil
	})
	v, err := rt.Context().Eval("<internals>", qjs.Code("goAdd(40, 1) + 1"))
	if err != nil {
		changed("a runtime built by newQJSRuntime cannot evaluate: %v", err)
		return
	}
	defer v.Free()
	if !called || v.Int32() != 42 {
		changed("a Go function called through qjsCreateFuncProxy: called %v, result %d (want 42)", called, v.Int32())
	}
}

// BenchmarkQJSFieldWrites is the cost of the reflection newQJSRuntime
// does per sandbox (the ten field writes through setQJSField), to set
// beside BenchmarkPhasePrepare's whole sandbox.
func BenchmarkQJSFieldWrites(b *testing.B) {
	e := engine(b)
	mod, err := e.maker.instantiate(context.Background(), 0)
	if err != nil {
		b.Fatal(err)
	}
	defer e.maker.forget(mod)
	var wrt wazero.Runtime = e.maker.wrt
	var m api.Module = mod
	malloc, free := mod.ExportedFunction("malloc"), mod.ExportedFunction("free")
	reg := qjs.NewProxyRegistry()
	opts := e.options()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rt := new(qjs.Runtime)
		qctx := &qjs.Context{Context: context.Background()}
		mem := new(qjs.Mem)
		for _, s := range []struct {
			obj  any
			name string
			v    any
		}{
			{mem, "mem", mod.Memory()}, {rt, "wrt", wrt}, {rt, "module", m}, {rt, "malloc", malloc}, {rt, "free", free},
			{rt, "mem", mem}, {rt, "option", opts}, {rt, "context", qctx}, {rt, "registry", reg}, {qctx, "runtime", rt},
		} {
			if err := setQJSField(s.obj, s.name, s.v); err != nil {
				b.Fatal(err)
			}
		}
	}
}
