package lsp

import (
	"bytes"
	"os"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// document is one file open in the editor: its text as typed, which wins
// over the disk.
type document struct {
	uri     string // as the client sent it
	path    string // OS path
	version int32
	text    []byte
	// sameAsDisk: opened with the text of the file on disk, and not
	// changed since (see Server.adopt).
	sameAsDisk bool
}

// newOverlayFS is the file system one check reads: the editor's unsaved
// buffers over the disk.
func newOverlayFS(files map[string][]byte) checker.FS {
	return &checker.Overlay{Files: files}
}

// sameAsDisk reports whether text is the content of the regular file at
// path (a document opened unchanged).
func sameAsDisk(path string, text []byte) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(text)) {
		return false
	}
	b, err := os.ReadFile(path)
	return err == nil && bytes.Equal(b, text)
}

// fileExists reports whether path is a regular file on disk.
func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
