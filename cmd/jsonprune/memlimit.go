package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// The soft memory limit the command line sets itself (issue 16): with the
// Go runtime's default alone (GOGC=100) the heap grows to twice what is
// live before a collection, and a run over many CRDs peaks at about twice
// its working set (the compiled CRDs held, the CRD compiling, the documents
// in flight). jsonprune asks the runtime to keep its memory under
// memLimitBase instead, where the live data leaves room: after each
// collection the limit is raised, if need be, to the live heap plus
// memLimitHeadroom or a quarter of it (whichever is more), so that a run
// whose live data outgrows the base (a huge document, a huge CRD) collects
// as often as it must and no more: it never runs the collector back to back.
//
// A GOMEMLIMIT in the environment is the user's choice: then jsonprune sets
// nothing. GOGC is left alone.
const (
	memLimitBase     = 80 << 20
	memLimitHeadroom = 16 << 20
	// the runtime's memory besides the heap (stacks, its own tables),
	// which the limit counts too
	memLimitOverhead = 8 << 20
)

var memLimit atomic.Int64

// setMemoryLimit sets the soft memory limit unless GOMEMLIMIT is set.
func setMemoryLimit() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	memLimit.Store(memLimitBase)
	debug.SetMemoryLimit(memLimitBase)
	watchGC(new(gcTick))
}

// gcTick is an object whose finalizer runs after each collection (it
// re-arms itself); large enough not to go to the tiny allocator.
type gcTick struct{ _ [32]byte }

func watchGC(t *gcTick) {
	runtime.SetFinalizer(t, func(t *gcTick) {
		adjustMemoryLimit()
		watchGC(t)
	})
}

var liveSample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// adjustMemoryLimit raises the limit when the live heap leaves less room
// under it than the headroom. It only ever raises it.
func adjustMemoryLimit() {
	s := liveSample[:1:1]
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	live := int64(s[0].Value.Uint64())
	want := live + max(memLimitHeadroom, live/4) + memLimitOverhead
	if want > memLimit.Load() {
		memLimit.Store(want)
		debug.SetMemoryLimit(want)
	}
}
