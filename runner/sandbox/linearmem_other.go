//go:build !linux && !darwin

package sandbox

import "github.com/tetratelabs/wazero/experimental"

// newLinearMemory: elsewhere (Windows), an instance's linear memory is a Go slice.
func newLinearMemory(capacity, max uint64) experimental.LinearMemory {
	return newGoMemory(capacity, max)
}
