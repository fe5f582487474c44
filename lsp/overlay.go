package lsp

import (
	"os"

	"github.com/plugin-lsp/plugin-lsp/analysis"
)

// document is one file open in the editor: its text as typed, which wins
// over the disk.
type document struct {
	uri     string // as the client sent it
	path    string // OS path
	version int32
	text    []byte
}

// newOverlayFS is the snapshot one check reads: the editor's unsaved
// buffers over the disk.
func newOverlayFS(files map[string][]byte) analysis.FS {
	return &analysis.Overlay{Files: files}
}

// fileExists reports whether path is a regular file on disk.
func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
