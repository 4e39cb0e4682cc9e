package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"
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
	} else if !strings.Contains(os.Getenv("GODEBUG"), "memprofilerate=") {
		// no heap profile is written: the runtime need not sample the
		// allocations for one (by default one per 512 KiB, each with its
		// stack recorded in a table whose pages are first read, then
		// written: with -j 2 a page fault each that stops the other core;
		// 4% of the CPU of a run over the corpus tree)
		runtime.MemProfileRate = 0
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
