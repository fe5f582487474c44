package lockfile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// The source-tree hash is the sha256 of the sorted lines
//
//	<sha256 hex of the file's bytes>  <slash path relative to the directory>\n
//
// over every regular file of the directory, exactly as sha256sum prints
// them. It is reproducible with coreutils (LC_ALL=C sorts bytes):
//
//	cd DIR && find . -type f -printf '%P\0' | xargs -0 sha256sum | LC_ALL=C sort | sha256sum
//
// A symlink anywhere in the tree is an error naming it: what the card
// approves must be the bytes in the directory, not what a link points to.
// Other non-regular files (sockets, devices, pipes) are refused the same way.

// TreeHash returns the source-tree hash of dir as 64 hex digits.
func TreeHash(dir string) (string, error) {
	lines, err := TreeLines(dir)
	if err != nil {
		return "", err
	}
	return HashLines(lines), nil
}

// TreeLines returns the sorted sha256sum lines the hash is taken over
// (each ends in "\n").
func TreeLines(dir string) ([]string, error) {
	files, err := TreeFiles(dir, nil, nil)
	if err != nil {
		return nil, err
	}
	return SumLines(files), nil
}

// TreeFiles walks dir (refusing symlinks and other non-regular files) and
// returns every regular file's sha256 hex by slash path. read reads a
// file's bytes by absolute path (nil: the disk; an editor passes its
// unsaved buffers); skip leaves a relative path out (nil: none).
func TreeFiles(dir string, read func(string) ([]byte, error), skip func(rel string) bool) (map[string]string, error) {
	sums := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, rerr := filepath.Rel(dir, p)
		if rerr != nil {
			return rerr
		}
		rel = filepath.ToSlash(rel)
		switch t := d.Type(); {
		case t&fs.ModeSymlink != 0:
			if p == dir {
				return nil // the directory argument itself may be a link to it
			}
			target, _ := os.Readlink(p)
			return fmt.Errorf("%s is a symlink (to %s): a plugin directory must hold its files, not links", rel, target)
		case d.IsDir():
			return nil
		case !t.IsRegular():
			return fmt.Errorf("%s is not a regular file (%s)", rel, t)
		}
		if skip != nil && skip(rel) {
			return nil
		}
		var sum string
		var err2 error
		if read != nil {
			var b []byte
			if b, err2 = read(p); err2 == nil {
				h := sha256.Sum256(b)
				sum = hex.EncodeToString(h[:])
			}
		} else {
			sum, err2 = fileSum(p)
		}
		if err2 != nil {
			return err2
		}
		sums[rel] = sum
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sums, nil
}

// SumLines renders TreeFiles as sorted sha256sum lines.
func SumLines(files map[string]string) []string {
	lines := make([]string, 0, len(files))
	for rel, sum := range files {
		lines = append(lines, sumLine(sum, rel))
	}
	sort.Strings(lines) // byte order, as LC_ALL=C sort
	return lines
}

// HashLines is the sha256 hex of the concatenated lines.
func HashLines(lines []string) string {
	h := sha256.New()
	for _, l := range lines {
		io.WriteString(h, l)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func fileSum(p string) (string, error) {
	// A file swapped for a FIFO or a device after the walk is refused
	// here, not waited on.
	f, _, err := checker.OpenRegular(p, checker.MaxFileSize)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sumLine prints one line as GNU sha256sum does: a name holding a
// backslash, a newline or a carriage return is escaped (\\, \n, \r) and the
// line starts with a backslash.
func sumLine(sum, name string) string {
	if strings.ContainsAny(name, "\\\n\r") {
		esc := strings.NewReplacer("\\", "\\\\", "\n", "\\n", "\r", "\\r").Replace(name)
		return "\\" + sum + "  " + esc + "\n"
	}
	return sum + "  " + name + "\n"
}
