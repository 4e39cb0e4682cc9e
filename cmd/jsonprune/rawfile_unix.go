//go:build unix

package main

import (
	"io"
	"io/fs"
	"syscall"
)

// A rawFile reads a regular file with plain read system calls. os.File
// registers every file it opens with the runtime's poller, which a regular
// file refuses (an epoll_ctl and four fcntl calls per file, and as many
// again to close it): on a tree of thousands of small inputs that was a
// good part of what the one reading goroutine spends. Its errors are
// os.File's: *fs.PathError naming the operation and the file.
type rawFile struct {
	fd   int
	name string
}

func openRaw(name string) (*rawFile, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &rawFile{fd: fd, name: name}, nil
	}
}

func (f *rawFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	p = p[:min(len(p), 1<<30)]
	for {
		n, err := syscall.Read(f.fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		}
		if n == 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *rawFile) close() { syscall.Close(f.fd) }

// size is the file's size, -1 if it cannot be had (fstat: no path to
// look up, unlike the stat of a directory walk).
func (f *rawFile) size() int64 {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(f.fd, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return -1
		}
		return st.Size
	}
}
