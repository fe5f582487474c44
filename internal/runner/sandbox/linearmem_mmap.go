//go:build linux || darwin

package sandbox

import "syscall"

// newMapping returns an anonymous private mapping of size bytes
// (MAP_NORESERVE: address space only; a page takes RAM once it is
// written), outside the Go heap, or nil when the system refuses it. A
// linear memory moves there when it grows past its Go buffer
// (linearMemory.Reallocate):
//   - growing it never copies again (a Go slice grown from 40 to 58 MiB
//     left both copies to the collector),
//   - all its pages go back to the system when the instance is closed
//     (unmap), not at the scavenger's pace,
//   - the Go collector's goal is not raised by memory it cannot free
//     anyway (with GOGC=100 every MiB of a Go-heap linear memory let
//     another MiB of garbage wait).
func newMapping(size uint64) []byte {
	if size == 0 || size > 1<<30 {
		return nil
	}
	buf, err := syscall.Mmap(-1, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	return buf
}

// unmap returns a mapping made by newMapping to the system.
func unmap(buf []byte) { _ = syscall.Munmap(buf[:cap(buf)]) }
