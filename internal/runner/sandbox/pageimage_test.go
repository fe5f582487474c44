package sandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// runUntilImaged runs job until a run starts from its page image (the
// image is made off the first runs' path); it fails after 200 runs.
func runUntilImaged(t *testing.T, e *Engine, job Job, check func(Outcome)) {
	t.Helper()
	for i := 0; i < 200; i++ {
		before := e.fromPageImage.Load()
		out := e.Run(context.Background(), job)
		check(out)
		if e.fromPageImage.Load() > before {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no run of the page started from a page image")
}

// TestPageImageRuns: a page's runs start from its image once it is made,
// and give what the evaluated page gives: the result, the log, the host
// call.
func TestPageImageRuns(t *testing.T) {
	e := engine(t)
	job := Job{Name: "page.js", Code: benchPage, Input: json.RawMessage(`{"isbn":"1"}`), Methods: []Method{benchFetch}, Timeout: time.Minute}
	check := func(out Outcome) {
		if !out.OK || !strings.Contains(string(out.Result), "The Hobbit") || len(out.Logs) != 1 || !strings.Contains(out.Logs[0].Message, "found The Hobbit") {
			t.Fatalf("%s %+v %+v", out.Result, out.Logs, out.Err)
		}
	}
	runUntilImaged(t, e, job, check)
	for i := 0; i < 5; i++ {
		before := e.fromPageImage.Load()
		check(e.Run(context.Background(), job))
		if e.fromPageImage.Load() != before+1 {
			t.Fatal("a later run of the page did not start from its image")
		}
	}
	// One byte of the page changed: another page, evaluated anew.
	other := job
	other.Code = strings.Replace(benchPage, "found ", "found: ", 1)
	before := e.fromPageImage.Load()
	if out := e.Run(context.Background(), other); !out.OK || !strings.Contains(out.Logs[0].Message, "found: The Hobbit") {
		t.Fatalf("%+v %+v", out.Logs, out.Err)
	}
	if e.fromPageImage.Load() != before {
		t.Fatal("a changed page ran from the old page's image")
	}
}

// TestNothingCrossesPageImages: module-level state and globals a run
// writes (the page's own closure, globalThis, the built-in prototypes, a
// timer left pending) are not seen by the next run of the same page, which
// starts from the same image; and the marker written never reaches an
// image or a later sandbox's memory.
func TestNothingCrossesPageImages(t *testing.T) {
	var raw [12]byte
	_, _ = rand.Read(raw[:])
	marker := "LEAK" + hex.EncodeToString(raw[:])
	// The marker is built at run time: the page's source (and so its
	// bytecode, in every image of the page) holds only its two halves, and
	// the top level (run when the image is made) does not join them.
	src := strings.ReplaceAll(`let calls = 0; const seen = [];
	function main() {
		const M = ["`+marker[:6]+`", "`+marker[6:]+`"].join("");
		calls++;
		const before = [calls, seen.length, typeof globalThis.mark, typeof Object.prototype.mark, typeof Array.prototype.mark, String(globalThis.late)];
		seen.push("MARKER"); globalThis.mark = "MARKER"; Object.prototype.mark = "MARKER"; Array.prototype.mark = "MARKER";
		const big = []; for (let i = 0; i < 1000; i++) big.push("MARKER" + i); globalThis.big = big;
		setTimeout(() => { globalThis.late = "MARKER"; }, 60000);
		return before.join(",");
	}`, `"MARKER"`, "M")
	e := engine(t)
	job := Job{Name: "page.js", Code: page(src), Timeout: time.Minute}
	want := "1,0,undefined,undefined,undefined,undefined"
	check := func(out Outcome) {
		var got string
		if !out.OK || json.Unmarshal(out.Result, &got) != nil || got != want {
			t.Fatalf("a run saw an earlier one: %s (want %s) %+v", out.Result, want, out.Err)
		}
	}
	runUntilImaged(t, e, job, check)
	for i := 0; i < 5; i++ {
		check(e.Run(context.Background(), job))
	}
	e.pageImgs.mu.Lock()
	for el := e.pageImgs.ll.Front(); el != nil; el = el.Next() {
		if bytes.Contains(el.Value.(*pageImage).img.mem, []byte(marker)) {
			t.Error("the marker reached a page image")
		}
	}
	e.pageImgs.mu.Unlock()
	for i := 0; i < 2; i++ {
		sb, err := e.get(e.spareImage())
		if err != nil {
			t.Fatal(err)
		}
		mem, _ := sb.mod.Memory().Read(0, sb.mod.Memory().Size())
		if bytes.Contains(mem, []byte(marker)) {
			t.Fatal("a later sandbox's memory holds the marker")
		}
		sb.close()
	}
}

// TestPageImageRefused: a page whose top level reads what must differ
// from run to run (the clock, Math.random, crypto random) or calls the
// host (a log) is evaluated on every run: no image, and each run gets its
// own value.
func TestPageImageRefused(t *testing.T) {
	e := engine(t)
	for name, top := range map[string]string{
		"Date.now":         `const v = String(Date.now()) + ":" + Math.floor(performance.now() * 1000);`,
		"new Date":         `const v = new Date().toISOString();`,
		"Math.random":      `const v = String(Math.random());`,
		"crypto":           `const v = Array.from(crypto.getRandomValues(new Uint8Array(8))).join(".");`,
		"console.log":      `console.log("top"); const v = "logged";`,
		"setTimeout":       `let v = "timer"; setTimeout(() => {}, 0);`,
		"fetch at the top": `const pending = http.fetch("https://api.example.com/books/1"); const v = "fetch";`,
	} {
		t.Run(name, func(t *testing.T) {
			job := Job{Name: "page.js", Code: page(top + ` function main() { return v; }`), Methods: []Method{benchFetch}, Timeout: time.Minute}
			values := map[string]bool{}
			before := e.fromPageImage.Load()
			key := pageKey(methodsKey(job.Methods), job.Name, job.Code)
			for i := 0; i < 8; i++ {
				out := e.Run(context.Background(), job)
				if !out.OK {
					t.Fatalf("%+v", out.Err)
				}
				if name == "console.log" && (len(out.Logs) != 1 || out.Logs[0].Message != "top") {
					t.Fatalf("run %d lost the top-level log: %+v", i, out.Logs)
				}
				values[string(out.Result)] = true
				time.Sleep(3 * time.Millisecond)
			}
			e.closing.Wait() // the image makers are done
			if e.fromPageImage.Load() != before {
				t.Fatal("a run started from an image of this page")
			}
			e.pageImgs.mu.Lock()
			refused, made := e.pageImgs.refused[key], e.pageImgs.m[key] != nil
			e.pageImgs.mu.Unlock()
			if !refused || made {
				t.Fatalf("the image maker did not refuse the page (refused %v, image %v)", refused, made)
			}
			if (name == "Date.now" || name == "Math.random" || name == "crypto") && len(values) < 2 {
				t.Fatalf("every run got the same value: %v", values)
			}
		})
	}
}

// TestPageImageControl: the same procedure as TestPageImageRefused on a
// page whose top level reads nothing that varies makes an image.
func TestPageImageControl(t *testing.T) {
	e := engine(t)
	job := Job{Name: "page.js", Code: page(`const v = "plain"; function main() { return v; }`), Methods: []Method{benchFetch}, Timeout: time.Minute}
	key := pageKey(methodsKey(job.Methods), job.Name, job.Code)
	for i := 0; i < 3; i++ {
		if out := e.Run(context.Background(), job); !out.OK {
			t.Fatalf("%+v", out.Err)
		}
	}
	e.closing.Wait()
	if e.pageImgs.get(key) == nil {
		t.Fatal("no image of a plain page")
	}
}

// TestPageImagesBounded: images are kept for at most maxPageImages pages.
func TestPageImagesBounded(t *testing.T) {
	e, err := NewEngine(Options{CacheDir: os.Getenv("PLUGIN_LSP_TEST_CACHE")})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for i := 0; i < maxPageImages+8; i++ {
		job := Job{Name: "page.js", Code: page("function main() { return " + strings.Repeat("1+", i) + "1 }"), Timeout: time.Minute}
		for j := 0; j < 3; j++ {
			if out := e.Run(context.Background(), job); !out.OK {
				t.Fatalf("%+v", out.Err)
			}
		}
	}
	e.closing.Wait()
	if n := e.pageImgs.len(); n == 0 || n > maxPageImages {
		t.Fatalf("%d page images (at most %d)", n, maxPageImages)
	}
}
