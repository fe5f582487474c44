package sandbox

import (
	"container/list"
	"encoding/hex"
	"sync"
	"time"
)

// Page images: a sandbox's memory after a page's bundle was evaluated
// (the granted host objects installed, the page's module code run, its
// exports set), by set of methods and page content. A run of that page
// restores one and calls the default export: no compile, no load, no
// module evaluation on its path (the Wizer idea applied to the page).
//
// An image is made off a run's path, in a sandbox restored from the set's
// image in which nothing else ever ran, with no run attached: a page
// whose top level calls the host (a log, a fetch, a timer) would see the
// answers of a sandbox without a run, so such a page gets no image and is
// evaluated on every run as before. What one run does to its copy of the
// memory is gone when the run ends: every run restores the image anew
// (TestNothingCrossesPageImages).
//
// Bounded: at most maxPageImages images and maxPageImageBytes of memory
// copies; the least recently used image goes first.
const (
	maxPageImages     = 32
	maxPageImageBytes = 128 << 20
	maxRefusedPages   = 1024
)

type pageImages struct {
	mu      sync.Mutex
	ll      *list.List // of *pageImage, most recently used first
	m       map[string]*list.Element
	bytes   int
	pending map[string]bool
	refused map[string]bool // pages whose top level calls the host
}

type pageImage struct {
	key string
	img *image
}

// pageKey names a page image: the granted methods and the page's content.
func pageKey(methods, name, code string) string {
	k := codeKey(name, code)
	return methods + "\x00" + hex.EncodeToString(k[:])
}

func (p *pageImages) get(key string) *image {
	p.mu.Lock()
	defer p.mu.Unlock()
	if el, ok := p.m[key]; ok {
		p.ll.MoveToFront(el)
		return el.Value.(*pageImage).img
	}
	return nil
}

// claim reports whether the caller should make key's image.
func (p *pageImages) claim(key string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.ll, p.m, p.pending, p.refused = list.New(), map[string]*list.Element{}, map[string]bool{}, map[string]bool{}
	}
	if p.m[key] != nil || p.pending[key] || p.refused[key] {
		return false
	}
	p.pending[key] = true
	return true
}

// done records key's image (nil: the page cannot have one).
func (p *pageImages) done(key string, img *image) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.pending, key)
	if img == nil {
		if len(p.refused) >= maxRefusedPages {
			p.refused = map[string]bool{}
		}
		p.refused[key] = true
		return
	}
	if len(img.mem) > maxPageImageBytes {
		return
	}
	p.m[key] = p.ll.PushFront(&pageImage{key: key, img: img})
	p.bytes += len(img.mem)
	for p.ll.Len() > maxPageImages || p.bytes > maxPageImageBytes {
		last := p.ll.Back()
		pi := last.Value.(*pageImage)
		p.ll.Remove(last)
		delete(p.m, pi.key)
		p.bytes -= len(pi.img.mem)
	}
}

// len is the number of images held.
func (p *pageImages) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ll == nil {
		return 0
	}
	return p.ll.Len()
}

// makePageImage makes the image of page (name, code) with the set of
// methods whose image is setImg, on its own goroutine (Engine.Close waits
// for it). The evaluation has the run's deadline too (timeout): a top
// level that ran to its end in the run may not end the second time (it
// read the clock, say), and nothing else would stop it.
func (e *Engine) makePageImage(key string, setImg *image, name, code string, timeout time.Duration) {
	select {
	case <-e.done:
		return
	default:
	}
	if e.img == nil || setImg == nil || !e.pageImgs.claim(key) {
		return
	}
	e.closing.Add(1)
	go func() {
		defer e.closing.Done()
		var img *image
		defer func() { e.pageImgs.done(key, img) }()
		sb, err := e.prepareFrom(setImg)
		if err != nil {
			return
		}
		defer sb.close()
		defer time.AfterFunc(timeout, sb.halt).Stop()
		defer func() {
			if recover() != nil { // halted (or trapped): no image
				img = nil
			}
		}()
		// What the top level could read that would then be baked into
		// every run: the clock, Math.random's state, crypto random (a
		// stray host call).
		clock := e.maker.clockReads(sb.mod)
		seed, ok := sb.mod.Memory().Read(setImg.randomAddr, 8)
		if !ok {
			return
		}
		seed = append([]byte(nil), seed...)
		if err := sb.evalPage(&e.pages, name, code); err != nil {
			return
		}
		if e.maker.clockReads(sb.mod) != clock {
			return // the top level read the time
		}
		if now, ok := sb.mod.Memory().Read(setImg.randomAddr, 8); !ok || string(now) != string(seed) {
			return // the top level called Math.random
		}
		sb.mu.Lock()
		stray := sb.stray
		sb.mu.Unlock()
		if stray > 0 {
			return // the page's top level called the host: no image
		}
		if _, ok := sb.reg.Get(3); ok {
			return // a proxy beyond the bridge and the context
		}
		mem, ok := sb.mod.Memory().Read(0, sb.mod.Memory().Size())
		if !ok {
			return
		}
		img = &image{mem: append([]byte(nil), mem...), rt: e.img.rt, ctx: e.img.ctx, randomAddr: e.img.randomAddr}
	}()
}
