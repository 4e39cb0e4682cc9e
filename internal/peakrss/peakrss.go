// Package peakrss measures the peak resident set size of a child process,
// for the command line's end-to-end tests and its dump benchmark.
package peakrss

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Wait waits for cmd (started) to exit and returns its error and its peak
// RSS in KiB, read from /proc/<pid>/status (VmHWM) while it runs, every
// interval: the rusage of a child would count the memory of this process,
// which the child shares until exec. The peak is 0 where /proc is absent.
func Wait(cmd *exec.Cmd, interval time.Duration) (peakKiB int64, err error) {
	var peak atomic.Int64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			if kb := vmHWM(cmd.Process.Pid); kb > 0 {
				peak.Store(kb)
			}
			select {
			case <-done:
				return
			case <-time.After(interval):
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	<-stopped
	return peak.Load(), err
}

// vmHWM reads the peak RSS of a process, in KiB (0 if it is gone).
func vmHWM(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return 0
}
