package sandbox

import (
	"errors"
	"fmt"
)

// PageSize is the WebAssembly page size.
const PageSize = 64 << 10

// patchMemoryMax returns a copy of a wasm module whose single defined
// memory declares maxPages as its maximum. qjs's Option.MemoryLimit is not
// enforced for large allocations (a 64 MiB limit let memory reach 4 GiB);
// a declared maximum makes memory.grow fail, malloc return NULL and
// QuickJS throw a clean "out of memory".
func patchMemoryMax(wasm []byte, maxPages uint32) ([]byte, error) {
	// Every section is checked first: a truncated or malformed module
	// fails here, not later inside wazero.
	secs, err := sections(wasm)
	if err != nil {
		return nil, err
	}
	for _, sec := range secs {
		if sec.id != 5 { // not the memory section
			continue
		}
		i, start, end := sec.at, sec.body, sec.end
		body := wasm[start:end]
		count, n1, err := uleb(body)
		if err != nil || count != 1 {
			return nil, fmt.Errorf("memory section: want exactly one memory, got %d (%v)", count, err)
		}
		flags := body[n1]
		if flags > 1 {
			return nil, fmt.Errorf("memory section: unsupported limits flags %#x (shared or 64-bit memory)", flags)
		}
		min, n2, err := uleb(body[n1+1:])
		if err != nil {
			return nil, fmt.Errorf("memory section: %w", err)
		}
		if uint64(maxPages) < min {
			return nil, fmt.Errorf("memory maximum %d pages is below the module's minimum %d", maxPages, min)
		}
		rest := body[n1+1+n2:]
		if flags == 1 { // drop the existing maximum
			_, n3, err := uleb(rest)
			if err != nil {
				return nil, fmt.Errorf("memory section: %w", err)
			}
			rest = rest[n3:]
		}
		nb := append([]byte{}, body[:n1]...)
		nb = append(nb, 1)
		nb = appendUleb(nb, min)
		nb = appendUleb(nb, uint64(maxPages))
		nb = append(nb, rest...)
		out := make([]byte, 0, len(wasm)+8)
		out = append(out, wasm[:i]...)
		out = append(out, 5)
		out = appendUleb(out, uint64(len(nb)))
		out = append(out, nb...)
		out = append(out, wasm[end:]...)
		return out, nil
	}
	return nil, errors.New("module defines no memory (imported memory is not supported)")
}

func uleb(b []byte) (v uint64, n int, err error) {
	var shift uint
	for n < len(b) && n < 10 {
		c := b[n]
		n++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, n, nil
		}
		shift += 7
	}
	return 0, 0, errors.New("bad LEB128 number")
}

func appendUleb(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			b = append(b, c|0x80)
			continue
		}
		return append(b, c)
	}
}

// stripCustomSections returns a copy of a wasm module without its custom
// sections (id 0: DWARF .debug_*, producers, target_features). Nothing in
// the sandbox reads them, and the DWARF lines cost the most on a new
// process's first run: with them wazero keeps a source map of every
// instruction and its on-disk cache stores it as 8-byte numbers that it
// reads back one read() call each (~155,000 calls, ~65 % of a first run's
// CPU). Without them the cache entry holds the code and one offset per
// function, and traps still say what trapped (the message, not a line).
func stripCustomSections(wasm []byte) ([]byte, error) {
	secs, err := sections(wasm)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(wasm))
	out = append(out, wasm[:8]...)
	for _, sec := range secs {
		if sec.id != 0 {
			out = append(out, wasm[sec.at:sec.end]...)
		}
	}
	return out, nil
}

// section is one section of a wasm module: wasm[at] is its id, its body
// is wasm[body:end].
type section struct {
	id            byte
	at, body, end int
}

// sections lists a module's sections, checking that each fits.
func sections(wasm []byte) ([]section, error) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return nil, errors.New("not a wasm module")
	}
	var out []section
	for i := 8; i < len(wasm); {
		size, n, err := uleb(wasm[i+1:])
		if err != nil {
			return nil, fmt.Errorf("section at %d: %w", i, err)
		}
		start := i + 1 + n
		end := start + int(size)
		if end > len(wasm) || end < start {
			return nil, fmt.Errorf("section at %d overruns the module", i)
		}
		out = append(out, section{id: wasm[i], at: i, body: start, end: end})
		i = end
	}
	return out, nil
}
