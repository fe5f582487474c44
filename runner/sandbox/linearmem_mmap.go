//go:build linux || darwin

package sandbox

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// newLinearMemory backs an instance's linear memory with its own
// anonymous mapping of the memory's maximum (128 MiB of address space,
// MAP_NORESERVE), outside the Go heap:
//   - growing it never copies (a Go slice grown from 40 to 58 MiB left
//     both copies to the collector),
//   - pages take RAM only once they are written, and all of them go back
//     to the system when the instance is closed (munmap), not at the
//     scavenger's pace,
//   - the Go collector's goal is not raised by memory it cannot free
//     anyway (with GOGC=100 every MiB of a Go-heap linear memory let
//     another MiB of garbage wait).
//
// When the mapping fails, the memory is a Go slice (goMemory).
func newLinearMemory(capacity, max uint64) experimental.LinearMemory {
	if max == 0 || max > 1<<30 {
		return newGoMemory(capacity, max)
	}
	buf, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return newGoMemory(capacity, max)
	}
	return &mappedMemory{buf: buf}
}

type mappedMemory struct{ buf []byte }

func (m *mappedMemory) Reallocate(size uint64) []byte {
	if m.buf == nil || size > uint64(len(m.buf)) {
		return nil // over the declared maximum: memory.grow fails, malloc returns NULL
	}
	return m.buf[:size:size]
}

func (m *mappedMemory) Free() {
	if m.buf != nil {
		syscall.Munmap(m.buf)
		m.buf = nil
	}
}
