package main

import (
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfiles writes a CPU profile to $JSONPRUNE_CPUPROFILE and, at the
// end, a heap profile to $JSONPRUNE_MEMPROFILE (both unset: nothing). They
// are for measuring the command line (issue 16), not an interface.
func startProfiles() (stop func()) {
	var cpu *os.File
	if p := os.Getenv("JSONPRUNE_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil && pprof.StartCPUProfile(f) == nil {
			cpu = f
		}
	}
	if p := os.Getenv("JSONPRUNE_MEMPROFILE"); p != "" {
		runtime.MemProfileRate = 64 << 10
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if p := os.Getenv("JSONPRUNE_MEMPROFILE"); p != "" {
			if f, err := os.Create(p); err == nil {
				pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		}
	}
}
