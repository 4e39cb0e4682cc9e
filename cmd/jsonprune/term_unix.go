//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"os"
	"syscall"
	"unsafe"
)

// isTerminalFd reports whether f is a terminal: whether the terminal
// driver answers a request for its settings (as golang.org/x/term does;
// through SyscallConn, which leaves the descriptor's mode as it is).
func isTerminalFd(f *os.File) bool {
	c, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var errno syscall.Errno
	if c.Control(func(fd uintptr) {
		var t syscall.Termios
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, ioctlGetTermios, uintptr(unsafe.Pointer(&t)))
	}) != nil {
		return false
	}
	return errno == 0
}
