//go:build unix

package decoder

import "syscall"

// processCPU is the process's CPU time so far (user+sys, every thread),
// in nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
