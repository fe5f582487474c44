package sandbox

import (
	"fmt"
	"reflect"
	"unsafe" // go:linkname and the unexported-field writes below

	"github.com/fastschema/qjs"
)

// This file is the only place that reaches into github.com/fastschema/qjs
// past its exported API. Each reach is written against qjsVersion, and
// TestQJSInternals (qjsinternals_test.go) fails with a message naming the
// version and what changed when a qjs upgrade moves one of them:
//
//  1. qjsWasm reads the QuickJS-ng module qjs embeds (qjs.wasmBytes), so
//     the repository keeps no second 1 MB copy. The engine patches a
//     memory maximum into it (wasm.go) and compiles it in its own wazero
//     runtime.
//  2. qjsCreateFuncProxy is qjs's host-call bridge for one registry
//     (qjs.createFuncProxyWithRegistry): the engine's one "env" host
//     function hands each call to the calling instance's own registry.
//  3. setQJSField writes the unexported fields of qjs.Runtime, qjs.Context
//     and qjs.Mem that qjs.New would have set (instance.go:
//     newQJSRuntime), so that a qjs.Runtime wraps an instance the engine
//     made (from its image) instead of one qjs.New makes.
//
// Nothing here writes qjs's own state: no package variable of qjs is
// written (qjs.New, whose module cache and its hash key are guarded by
// qjs's mutex, is never called), and only the fields of objects this
// package has just allocated are set, before anything else sees them.
// Their cost is measured by BenchmarkQJSFieldWrites.

// qjsVersion is the qjs release the reaches of this file were written
// against (go.mod pins it).
const qjsVersion = "v0.0.6"

// qjsWasm is the QuickJS-ng WebAssembly module that qjs embeds
// (qjs.wasmBytes, from its qjs.wasm).
//
//go:linkname qjsWasm github.com/fastschema/qjs.wasmBytes
var qjsWasm []byte

// qjsCreateFuncProxy makes qjs's bridge from a QuickJS call of a Go
// function to the function registered in registry.
//
//go:linkname qjsCreateFuncProxy github.com/fastschema/qjs.createFuncProxyWithRegistry
func qjsCreateFuncProxy(registry *qjs.ProxyRegistry) qjs.JsFunctionProxy

// setQJSField sets the unexported field name of *obj (a qjs struct this
// package allocated) to v. A field that is missing or of another type is
// an error naming what changed, never a silent zero.
func setQJSField(obj any, name string, v any) error {
	f := reflect.ValueOf(obj).Elem().FieldByName(name)
	if !f.IsValid() {
		return fmt.Errorf("qjs changed (written against %s): %T has no field %s", qjsVersion, obj, name)
	}
	val := reflect.ValueOf(v)
	if !val.Type().AssignableTo(f.Type()) {
		return fmt.Errorf("qjs changed (written against %s): %T.%s is %s, not %s", qjsVersion, obj, name, f.Type(), val.Type())
	}
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(val)
	return nil
}
