// Package atomicfile writes a file so that no reader ever sees part of it:
// the parts go to a temporary file in the same directory, which is then
// renamed into place. The caches of compiled CRDs and the command line's
// index of CRD files use it, so that concurrent runs share them safely.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write writes the parts, one after the other, to the file p, creating its
// directory if needed. On an error nothing is left behind (the temporary
// file is removed) and p is as it was.
func Write(p string, parts ...[]byte) error {
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	for _, b := range parts {
		if err == nil {
			_, err = f.Write(b)
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
