//go:build darwin || freebsd || netbsd

package main

import (
	"os"
	"syscall"
)

// fileIdentity is what the stat of a file gives of its identity and
// times (fileStat's Dev, Ino, Mtime and Ctime).
func fileIdentity(fi os.FileInfo) (fileStat, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStat{}, false
	}
	return fileStat{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Mtime: st.Mtimespec.Nano(), Ctime: st.Ctimespec.Nano()}, true
}
