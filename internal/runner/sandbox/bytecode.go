package sandbox

import (
	"crypto/sha256"
	"errors"
	"sync"

	"github.com/fastschema/qjs"
)

// Page bytecode cache. Parsing a page's source inside the sandbox costs
// ~0.7 ms for a small tool; loading its bytecode ~0.1 ms. A page is
// compiled (compile only: nothing runs) in the run's own runtime, after the
// prelude and before any page code, and its bytecode is kept by content.
// The bytes live in Go memory and each runtime loads its own copy, so a
// run cannot alter what a later run loads; a different name or a single
// changed byte of source is a different key.
const (
	maxCachedPages    = 256
	maxCachedBytecode = 32 << 20
)

type codeCache struct {
	mu    sync.Mutex
	m     map[[32]byte][]byte
	bytes int
}

func codeKey(name, code string) [32]byte {
	h := sha256.New()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write([]byte(code))
	var k [32]byte
	h.Sum(k[:0])
	return k
}

func (c *codeCache) get(k [32]byte) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}

func (c *codeCache) put(k [32]byte, bc []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(bc) > maxCachedBytecode {
		return
	}
	if c.m == nil || len(c.m) >= maxCachedPages || c.bytes+len(bc) > maxCachedBytecode {
		c.m, c.bytes = map[[32]byte][]byte{}, 0 // start over: simple, and bounded
	}
	if _, ok := c.m[k]; !ok {
		c.m[k] = bc
		c.bytes += len(bc)
	}
}

// evalPage evaluates the job's script from cached bytecode, compiling it
// first when this source has not been seen.
func (sb *sandbox) evalPage(cc *codeCache, name, code string) error {
	c := sb.rt.Context()
	key := codeKey(name, code)
	bc := cc.get(key)
	if bc == nil {
		var err error
		if bc, err = c.Compile(name, qjs.Code(code)); err != nil {
			return err
		}
		if len(bc) == 0 {
			return errors.New("SyntaxError: the page did not compile")
		}
		cc.put(key, bc)
	}
	v, err := c.Eval(name, qjs.Bytecode(bc))
	if err != nil {
		return err
	}
	v.Free()
	return nil
}
