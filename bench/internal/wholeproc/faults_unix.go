//go:build unix

package wholeproc

import (
	"os"
	"syscall"
)

// minorFaults is the process's minor page faults (a first touch of a page
// of memory, or a copy-on-write), from its rusage.
func minorFaults(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Minflt)
	}
	return -1
}
