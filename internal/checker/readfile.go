package checker

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxFileSize is the largest plugin file read or hashed: the manifest,
// pages and what they import, native modules, fixtures.json and every file
// the review hashes. A bigger file is refused with ErrTooLarge.
const MaxFileSize = 64 << 20

// ErrNotRegular and ErrTooLarge are the refusals of the plugin-file reader
// (besides ErrOutside): a FIFO, a device or a socket would block a read or
// never end; a huge file would fill the memory.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = fmt.Errorf("larger than %d MiB", MaxFileSize>>20)
)

// ReadPluginFile is the one reader of a plugin's files: rel (a manifest
// path, see Clean) is resolved inside dir, following symlinks, and read
// through fsys. It refuses a path that leaves dir (ErrOutside), anything
// but a regular file (ErrNotRegular) and a file over MaxFileSize
// (ErrTooLarge). Plugin.ReadFile caches it; the compiler, the runner and
// the language server call one of the two.
func ReadPluginFile(fsys FS, dir, rel string) ([]byte, error) {
	c, err := Clean(rel)
	if err != nil {
		return nil, err
	}
	if err := checkInside(fsys, dir, c); err != nil {
		return nil, err
	}
	b, err := fsys.ReadFile(joinRel(dir, c))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c, unwrapPath(err))
	}
	if len(b) > MaxFileSize { // an editor buffer
		return nil, fmt.Errorf("%s: %w", c, ErrTooLarge)
	}
	return b, nil
}

// unwrapPath drops the absolute path of an *fs.PathError (messages name
// the plugin-relative path instead).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// OpenRegular opens a file for reading without ever blocking: a FIFO or a
// device is opened non-blocking and refused (ErrNotRegular) after fstat,
// and a file over max bytes is refused (ErrTooLarge). The file's size is
// returned with it.
func OpenRegular(name string, max int64) (*os.File, int64, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, fileKind(fi.Mode()))}
	}
	if fi.Size() > max {
		f.Close()
		return nil, 0, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%d bytes: %w", fi.Size(), ErrTooLarge)}
	}
	return f, fi.Size(), nil
}

// ReadRegular reads a whole regular file of at most max bytes (see
// OpenRegular); a file that grows past max while it is read is refused.
func ReadRegular(name string, max int64) ([]byte, error) {
	f, size, err := OpenRegular(name, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, 0, size+1)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > max {
			return nil, &fs.PathError{Op: "read", Path: name, Err: ErrTooLarge}
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return m.Type().String()
}
