package main

import (
	"math"
	"os"
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

// TestPaceByLimit: a run over many files leaves the pace to the limit
// (GOGC off), unless GOGC or GOMEMLIMIT is set.
func TestPaceByLimit(t *testing.T) {
	old := debug.SetGCPercent(gcPercent)
	defer debug.SetGCPercent(old)
	if _, set := os.LookupEnv("GOGC"); !set {
		if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
			paceByLimit()
			if got := debug.SetGCPercent(gcPercent); got != -1 {
				t.Errorf("GOGC %d, want off (-1)", got)
			}
		} else {
			t.Log("GOMEMLIMIT is set: the case without it is not run")
		}
	} else {
		t.Log("GOGC is set: the case without it is not run")
	}
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(v, func(t *testing.T) {
			t.Setenv(v, "100")
			debug.SetGCPercent(gcPercent)
			paceByLimit()
			if got := debug.SetGCPercent(gcPercent); got != gcPercent {
				t.Errorf("with %s set: GOGC %d, want %d", v, got, gcPercent)
			}
		})
	}
}
