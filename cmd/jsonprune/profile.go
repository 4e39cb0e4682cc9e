package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
)

// startProfiles writes a CPU profile to $JSONPRUNE_CPUPROFILE, an
// execution trace to $JSONPRUNE_TRACE (go tool trace; -pprof=sync shows
// where goroutines wait) and, at the end, a heap profile to
// $JSONPRUNE_MEMPROFILE (all unset: nothing). They are for measuring the
// command line (issue 16), not an interface.
func startProfiles() (stop func()) {
	var cpu *os.File
	if p := os.Getenv("JSONPRUNE_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil && pprof.StartCPUProfile(f) == nil {
			cpu = f
		}
	}
	var tr *os.File
	if p := os.Getenv("JSONPRUNE_TRACE"); p != "" {
		if f, err := os.Create(p); err == nil && trace.Start(f) == nil {
			tr = f
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
		if tr != nil {
			trace.Stop()
			tr.Close()
		}
		if p := os.Getenv("JSONPRUNE_MEMPROFILE"); p != "" {
			if f, err := os.Create(p); err == nil {
				pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		}
	}
}
