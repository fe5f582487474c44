//go:build !unix

package checker

import "io/fs"

// linkCount is 1 where FileInfo does not say (Windows): hard links are
// not refused there, and the rename still never writes through one.
func linkCount(fs.FileInfo) uint64 { return 1 }
