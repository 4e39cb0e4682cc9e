//go:build linux || darwin || freebsd || netbsd

package main

import (
	"os"
	"syscall"
)

// fileIdentity is what the stat of a file gives of its identity and
// times (fileStat's Dev, Ino, Mtime and Ctime); statTimes, per system,
// reads the two times.
func fileIdentity(fi os.FileInfo) (fileStat, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStat{}, false
	}
	mtime, ctime := statTimes(st)
	return fileStat{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Mtime: mtime, Ctime: ctime}, true
}
