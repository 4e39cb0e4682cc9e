//go:build !unix

package main

import "os"

// A rawFile is an os.File here: rawfile_unix.go says why Unix systems
// read regular files without it.
type rawFile struct{ *os.File }

func openRaw(name string) (*rawFile, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	return &rawFile{f}, nil
}

func (f *rawFile) close() { f.File.Close() }

// size is the file's size, -1 if it cannot be had.
func (f *rawFile) size() int64 {
	fi, err := f.File.Stat()
	if err != nil {
		return -1
	}
	return fi.Size()
}
