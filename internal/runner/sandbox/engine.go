// Package sandbox runs one JavaScript page in a fresh QuickJS-WASM runtime
// (github.com/fastschema/qjs v0.0.6) with zero ambient authority: no file
// system, no environment, no qjs:std/qjs:os/qjs:bjson, no code from
// strings, no timer outliving the call, a 128 MiB memory cap, a wall
// deadline, and host methods that exist only when granted. docs/sandbox.md
// lists every qjs pitfall and how it is closed here.
//
// The package knows nothing about plugins, fetch rules or fixtures: the
// runner passes compiled JavaScript and Go host methods.
package sandbox

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/fastschema/qjs"
)

//go:embed prelude.js
var preludeJS string

//go:embed web.js
var webJS string

// preludeSource is the prelude calling web.js, minified (whitespace,
// syntax; names are kept: pages see URL.name, stack frames of the glue
// are dropped anyway). QuickJS keeps a function's source and debug
// information in its bytecode, so a third less text is a third less
// bytecode for every runtime to load. On a minifier error the text is
// used as it is.
func preludeSource() string {
	src := preludeJS + "(globalThis.__bridge, " + webJS + ");"
	r := api.Transform(src, api.TransformOptions{
		Loader: api.LoaderJS, Target: api.ESNext, LogLevel: api.LogLevelSilent,
		MinifyWhitespace: true, MinifySyntax: true, LegalComments: api.LegalCommentsNone,
	})
	if len(r.Errors) > 0 || len(r.Code) == 0 {
		return src
	}
	return string(r.Code)
}

// Defaults.
const (
	DefaultMemoryCapBytes = 128 << 20
	DefaultLogCapBytes    = 64 << 10
	DefaultResultCapBytes = 4 << 20
	// LogEntryOverhead is what each console call costs against the log cap
	// besides its message (an empty message is not free).
	LogEntryOverhead = 32
	// MaxLogEntries caps the number of console calls kept per run.
	MaxLogEntries = 1024
	// MaxQueuedBytes bounds the host results (fetch responses) finished
	// but not yet taken by the page; a host goroutine waits for room.
	MaxQueuedBytes = 16 << 20
)

// Options configure an Engine.
type Options struct {
	// CacheDir keeps wazero's compiled module on disk across processes
	// (first run in a new process: ~0.1 s instead of ~1 s). Empty: memory only.
	CacheDir string
	// Spare is how many sandboxes are prepared ahead of time (default 1;
	// negative: none).
	Spare int
	// LogCapBytes caps console output per run (default 64 KiB).
	LogCapBytes int
	// ResultCapBytes caps the JSON result per run (default 4 MiB).
	ResultCapBytes int
	// NoPageImages evaluates the page on every run instead of restoring
	// an image taken after its evaluation (pageimage.go); for comparison.
	NoPageImages bool
}

// Engine prepares sandboxes and runs jobs in them. It is safe for
// concurrent use; each Run gets its own fresh runtime.
type Engine struct {
	opts     Options
	wasm     []byte // qjs.wasm with a declared 128 MiB memory maximum
	maker    *instanceMaker
	img      *image // the prepared instance's memory every sandbox starts from (instance.go); nil: none
	sets     setImages
	pageImgs pageImages // images after a page's module evaluation (pageimage.go)
	tmp      string     // private empty directory; the sandbox root is below it and never exists
	root     string
	spare    chan *sandbox
	refill   chan struct{}
	used     chan *sandbox // used sandboxes the refiller closes before it refills
	done     chan struct{}
	wg       sync.WaitGroup
	closing  sync.WaitGroup // sandboxes being freed
	closeOne sync.Once

	// prelude is the prelude's bytecode, compiled (not run) in the first
	// runtime NewEngine makes, then only read. It lives in Go memory: each
	// runtime loads its own copy, so no run can alter what the next loads.
	prelude []byte
	// pages is the bytecode of the pages run so far, by content (bytecode.go).
	pages codeCache

	// next is the image spares are made from: the last set of granted
	// methods a run used (nil: the engine's image). A run with that set
	// starts with nothing to copy.
	next atomic.Pointer[image]

	// onPath counts sandboxes prepared on a run's path (no spare ready).
	onPath atomic.Int64
	// fromPageImage counts runs that started from a page image.
	fromPageImage atomic.Int64

	// skipWazeroClose never closes a used instance: the leak qjs had
	// (soak test comparison only).
	skipWazeroClose bool
}

// NewEngine compiles the patched module (or loads it from CacheDir), makes
// the image every sandbox starts from, and (when Spare > 0) the first spare
// sandboxes. qjs.New is never called: the engine makes its instances in its
// own wazero runtime (instance.go).
func NewEngine(opts Options) (*Engine, error) {
	if opts.LogCapBytes <= 0 {
		opts.LogCapBytes = DefaultLogCapBytes
	}
	if opts.ResultCapBytes <= 0 {
		opts.ResultCapBytes = DefaultResultCapBytes
	}
	if opts.Spare == 0 {
		opts.Spare = 1
	}
	if len(qjsWasm) == 0 {
		return nil, errors.New("sandbox: qjs embedded wasm not found (qjs changed?)")
	}
	wasm, err := stripCustomSections(qjsWasm)
	if err == nil {
		wasm, err = patchMemoryMax(wasm, DefaultMemoryCapBytes/PageSize)
	}
	if err != nil {
		return nil, fmt.Errorf("sandbox: patching qjs.wasm: %w", err)
	}
	// The deadline's checks (stopcheck.go); a module they cannot be added
	// to keeps wazero's per-call watcher instead.
	fuel := false
	if fw, err := addFuelChecks(wasm); err == nil {
		wasm, fuel = fw, true
	}
	tmp, err := os.MkdirTemp("", "plugin-lsp-sandbox-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	e := &Engine{
		opts: opts,
		wasm: wasm,
		tmp:  tmp,
		// A mount whose parent does not exist: every file system call in
		// the sandbox fails with ENOENT; nothing of the host is visible.
		root:   filepath.Join(tmp, "absent", "root"),
		done:   make(chan struct{}),
		refill: make(chan struct{}, 1),
	}
	if e.maker, err = newInstanceMaker(opts.CacheDir, e.root, wasm, fuel); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	sb, err := e.prepare()
	if err != nil {
		e.maker.close()
		os.RemoveAll(tmp)
		return nil, err
	}
	// The image: this first sandbox, prelude loaded, before anything else
	// runs in it. Without one (takeImage failed) every sandbox is prepared
	// the slow way, just as safe.
	e.img, _ = takeImage(sb)
	sb.close()
	if opts.Spare > 0 {
		e.spare = make(chan *sandbox, opts.Spare)
		e.used = make(chan *sandbox, opts.Spare)
		e.wg.Add(1)
		go e.refiller()
		e.kick()
	}
	return e, nil
}

// takeImage copies a freshly prepared sandbox's memory. It then calls
// Math.random() in that sandbox to find its state (the sandbox is closed
// afterwards, never used for a run).
func takeImage(sb *sandbox) (img *image, err error) {
	defer func() {
		if r := recover(); r != nil {
			img, err = nil, fmt.Errorf("%v", firstLine(fmt.Sprint(r)))
		}
	}()
	if f, ok := sb.reg.Get(1); !ok || f == nil {
		return nil, errors.New("the bridge is not proxy 1")
	}
	if c, ok := sb.reg.Get(2); !ok || c != sb.rt.Context() {
		return nil, errors.New("the context is not proxy 2")
	}
	if _, ok := sb.reg.Get(3); ok {
		return nil, errors.New("more proxies than the bridge")
	}
	mem, ok := sb.mod.Memory().Read(0, sb.mod.Memory().Size())
	if !ok {
		return nil, errors.New("cannot read the memory")
	}
	img = &image{mem: append([]byte(nil), mem...), rt: sb.rt.Raw(), ctx: sb.rt.Context().Raw()}
	if img.randomAddr, err = findRandomState(sb.rt, uint32(img.ctx)); err != nil {
		return nil, err
	}
	return img, nil
}

// options are the qjs options of every runtime.
func (e *Engine) options() qjs.Option {
	return qjs.Option{
		CWD:                e.root,
		CloseOnContextDone: !e.maker.fuel,
		CacheDir:           e.opts.CacheDir,
		Stdout:             io.Discard,
		Stderr:             io.Discard,
		GCThreshold:        gcThreshold,
	}
}

// gcThreshold: QuickJS collects cycles once its allocations grow by this
// many bytes. At its default (256 KiB) a collection over the whole prelude
// (the web globals included) ran during most calls, ~1 ms each; a
// runtime serves one call and is discarded, and the 128 MiB cap holds
// either way (a memory bomb still ends in "out of memory").
const gcThreshold = 8 << 20

func (e *Engine) kick() {
	select {
	case e.refill <- struct{}{}:
	default:
	}
}

// refiller keeps the spare channel full so that a Run starts with a
// runtime that already has the prelude loaded.
func (e *Engine) refiller() {
	defer e.wg.Done()
	for {
		select {
		case <-e.done:
			return
		case <-e.refill:
		case sb := <-e.used:
			e.free(sb)
		}
		for len(e.spare) < cap(e.spare) {
			// Used sandboxes first: their memories serve the new ones
			// (memPool).
			for drained := false; !drained; {
				select {
				case sb := <-e.used:
					e.free(sb)
				default:
					drained = true
				}
			}
			sb, err := e.prepareFrom(e.spareImage())
			if err != nil {
				break // Run prepares its own and reports the error
			}
			select {
			case e.spare <- sb:
			case <-e.done:
				sb.close()
				return
			}
		}
	}
}

// spareImage is the image the next spares are made from.
func (e *Engine) spareImage() *image {
	if img := e.next.Load(); img != nil {
		return img
	}
	return e.img
}

// get returns a prepared sandbox whose memory is a copy of want (the
// engine's image or a set's; nil only when the engine has none): a spare
// when one is ready (made from want: nothing to do; from another image:
// overwritten with want, or replaced when its memory is larger than
// want's), else a new one. Taking a spare does not wake the refiller: the
// run would share the CPU with the next runtime's preparation, so the
// refill starts when the run ends (closeLater). A run that finds no spare
// wakes it at once: runs are arriving faster than spares.
func (e *Engine) get(want *image) (*sandbox, error) {
	if e.spare != nil {
		select {
		case sb := <-e.spare:
			if sb.img == want {
				return sb, nil
			}
			if want != nil && sb.img != nil && sb.memorySize() <= int64(len(want.mem)) && sb.restore(want) == nil {
				return sb, nil
			}
			e.closeLater(sb)
		default:
			e.kick()
		}
	}
	e.onPath.Add(1)
	return e.prepareFrom(want)
}

// closeLater frees a used sandbox off the caller's path: the refiller
// closes it and then prepares the next spare (one wake-up, and the freed
// memory serves the new sandbox), or, when the refiller is busy or there
// is none, a goroutine of its own.
// A runtime that grew past bigRuntimeBytes (a memory bomb, a large
// result) leaves the Go heap holding its pages after it is freed; they are
// handed back to the OS at once instead of at the scavenger's pace
// (measured: 534 MB → 25 MB RSS after repeated 128 MiB runs).
func (e *Engine) closeLater(sb *sandbox) {
	select {
	case <-e.done: // the engine is closing: free it here
		sb.close()
		return
	default:
	}
	if e.spare != nil {
		// One wake-up: the refiller closes it, then refills.
		select {
		case e.used <- sb:
			return
		default:
		}
		e.kick()
	}
	e.closing.Add(1)
	go func() {
		defer e.closing.Done()
		e.free(sb)
	}()
}

// free closes a used sandbox.
func (e *Engine) free(sb *sandbox) {
	big := sb.memorySize() > bigRuntimeBytes
	sb.close()
	if big {
		debug.FreeOSMemory()
	}
}

const bigRuntimeBytes = 32 << 20

// Close stops the refiller, closes the spare sandboxes and removes the
// private directory. Runs in flight finish normally.
func (e *Engine) Close() {
	e.closeOne.Do(func() {
		close(e.done)
		e.wg.Wait()
		e.closing.Wait()
		if e.spare != nil {
			for {
				select {
				case sb := <-e.spare:
					sb.close()
					continue
				case sb := <-e.used:
					sb.close()
					continue
				default:
				}
				break
			}
		}
		e.maker.close()
		os.RemoveAll(e.tmp)
	})
}
