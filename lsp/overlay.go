package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"time"

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

// overlayFS is an analysis.FS that serves the editor's unsaved buffers and
// falls back to the disk. It is an immutable snapshot: the server builds a
// new one for each check, so a check never sees half an edit.
type overlayFS struct {
	files map[string][]byte // OS path → text
	disk  analysis.FS
}

func newOverlayFS(files map[string][]byte) *overlayFS {
	return &overlayFS{files: files, disk: analysis.OSFS{}}
}

func (o *overlayFS) ReadFile(name string) ([]byte, error) {
	if b, ok := o.files[filepath.Clean(name)]; ok {
		return b, nil
	}
	return o.disk.ReadFile(name)
}

func (o *overlayFS) Lstat(name string) (fs.FileInfo, error) {
	if b, ok := o.files[filepath.Clean(name)]; ok {
		// An open buffer counts as a regular file even when it is not
		// saved yet; a symlink on disk keeps its own Lstat so that the
		// "outside the directory" checks still see it.
		if fi, err := o.disk.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return fi, nil
		}
		return bufferInfo{name: filepath.Base(name), size: int64(len(b))}, nil
	}
	return o.disk.Lstat(name)
}

func (o *overlayFS) EvalSymlinks(name string) (string, error) {
	real, err := o.disk.EvalSymlinks(name)
	if err == nil {
		return real, nil
	}
	if _, ok := o.files[filepath.Clean(name)]; ok {
		// Not on disk yet: resolve the directory, keep the base name.
		dir, derr := o.disk.EvalSymlinks(filepath.Dir(name))
		if derr != nil {
			return filepath.Clean(name), nil
		}
		return filepath.Join(dir, filepath.Base(name)), nil
	}
	return "", err
}

// bufferInfo describes an unsaved buffer.
type bufferInfo struct {
	name string
	size int64
}

func (b bufferInfo) Name() string       { return b.name }
func (b bufferInfo) Size() int64        { return b.size }
func (b bufferInfo) Mode() fs.FileMode  { return 0o644 }
func (b bufferInfo) ModTime() time.Time { return time.Time{} }
func (b bufferInfo) IsDir() bool        { return false }
func (b bufferInfo) Sys() any           { return nil }

// fileExists reports whether path is a regular file on disk.
func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
