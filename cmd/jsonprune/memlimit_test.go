package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestMemoryLimit: without GOMEMLIMIT the command line sets the base
// limit, and after a collection with more live data than it leaves room
// for, twice the live heap (past the base, the runtime's own pace); with GOMEMLIMIT it sets nothing.
func TestMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)

	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(math.MaxInt64)
	setMemoryLimit()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set: limit %d", got)
	}

	// t.Setenv cannot unset: setMemoryLimit's check is LookupEnv
	memLimit.Store(memLimitBase)
	debug.SetMemoryLimit(memLimitBase)
	if got := debug.SetMemoryLimit(-1); got != memLimitBase {
		t.Fatalf("limit %d", got)
	}
	live := make([]byte, memLimitBase) // more than the base leaves room for
	runtime.GC()
	adjustMemoryLimit()
	if got := debug.SetMemoryLimit(-1); got < 2*int64(len(live)) {
		t.Errorf("limit %d with %d bytes live", got, len(live))
	}
	runtime.KeepAlive(live)
}
