package main

import (
	"os"
	"syscall"
)

// isTerminalFd reports whether f is a console.
func isTerminalFd(f *os.File) bool {
	c, err := f.SyscallConn()
	if err != nil {
		return false
	}
	console := false
	if c.Control(func(fd uintptr) {
		var mode uint32
		console = syscall.GetConsoleMode(syscall.Handle(fd), &mode) == nil
	}) != nil {
		return false
	}
	return console
}
