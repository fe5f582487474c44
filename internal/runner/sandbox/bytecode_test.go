package sandbox

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A page run from cached bytecode behaves exactly like its first run:
// same result, same error, same stack positions, and the script name
// given to the job (part of the cache key) is the one in the trace.
func TestPageBytecodeCache(t *testing.T) {
	e := engine(t)
	src := page("let n = 0;\nfunction main(x) {\n  n++;\n  if (x.fail) throw new Error(\"boom \" + n);\n  return { n, x };\n}")
	runAs := func(name, input string) Outcome {
		return e.Run(context.Background(), Job{Name: name, Code: src, Input: []byte(input), Timeout: 5 * time.Second})
	}
	for i := 0; i < 3; i++ {
		// top-level state starts over: every run loads a fresh copy
		out := runAs("cached.js", `{"a":1}`)
		if !out.OK || string(out.Result) != `{"n":1,"x":{"a":1}}` {
			t.Fatalf("run %d: %+v %+v", i, out, out.Err)
		}
	}
	var first string
	for i := 0; i < 2; i++ {
		out := runAs("cached.js", `{"fail":true}`)
		if out.OK || out.Err.Kind != KindThrown || out.Err.Message != "boom 1" {
			t.Fatalf("run %d: %+v %+v", i, out, out.Err)
		}
		if !strings.Contains(out.Err.Stack, "cached.js:4:") {
			t.Fatalf("stack %q", out.Err.Stack)
		}
		if i == 0 {
			first = out.Err.Stack
		} else if out.Err.Stack != first {
			t.Fatalf("stack changed from %q to %q", first, out.Err.Stack)
		}
	}
	out := runAs("other.js", `{"fail":true}`)
	if out.OK || !strings.Contains(out.Err.Stack, "other.js:4:") || strings.Contains(out.Err.Stack, "cached.js") {
		t.Fatalf("renamed: %+v", out.Err)
	}
	// A page that does not parse fails the same way every time (nothing is cached).
	for i := 0; i < 2; i++ {
		out := e.Run(context.Background(), Job{Name: "bad.js", Code: "var __page = {;", Timeout: 5 * time.Second})
		if out.OK || out.Err.Kind != KindCompile || out.Err.Name != "SyntaxError" {
			t.Fatalf("run %d: %+v", i, out.Err)
		}
	}
}

func TestCodeCacheBounded(t *testing.T) {
	var c codeCache
	for i := 0; i < 3*maxCachedPages; i++ {
		c.put(codeKey("p.js", strings.Repeat("x", i)), []byte{1})
		if len(c.m) > maxCachedPages {
			t.Fatalf("%d entries", len(c.m))
		}
	}
	c.put(codeKey("big.js", ""), make([]byte, maxCachedBytecode+1))
	if c.get(codeKey("big.js", "")) != nil {
		t.Fatal("an oversized bytecode was cached")
	}
	if c.get(codeKey("a.js", "x")) != nil || codeKey("a.js", "x") == codeKey("a.jsx", "") {
		t.Fatal("key collision")
	}
}
