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
// memLimitBase instead, where the live data leaves room, at the price of
// more frequent collections while the live data is near it: after each
// collection the limit is raised, if need be, to the live heap plus
// memLimitHeadroom or a quarter of it (whichever is more), and once the
// live heap is past the base (a huge document, a huge CRD, --dump of
// hundreds of CRDs) to twice it, the runtime's default pace: the collector
// never runs back to back, and a run that cannot fit pays no more than
// without the limit. So does a run whose collections take more than
// memLimitGCShare of the CPU so far (its live data sitting just under the
// base).
//
// Under the limit the collector runs at the pace gcPercent sets, unless
// GOGC is in the environment.
//
// A GOMEMLIMIT in the environment is the user's choice: then jsonprune sets
// no limit.
const (
	memLimitBase     = 80 << 20
	memLimitHeadroom = 16 << 20
	// the runtime's memory besides the heap (stacks, its own tables),
	// which the limit counts too
	memLimitOverhead = 8 << 20
)

// gcPercent is the collector's pace (GOGC) the command line sets: a
// collection when the heap has grown by twice what was live after the
// last one, instead of the runtime's once. Most of a large run's live heap
// is the compiled CRDs it holds, which every collection marks again, so a
// collection half as often saves most of the collector's CPU: on the
// corpus tree 7% of -j 1's wall time and 12% of -j 2's, where collections
// also stop the workers (README, "The collector's pace"), for a peak 15-20
// MiB higher, within memLimitBase.
const gcPercent = 200

var memLimit atomic.Int64

// paceByLimit leaves the collector's pace to the soft memory limit alone
// (GOGC off under it) and reports whether it did: for a run over many
// files (a tree: inputShape), whose live heap is small (the compiled CRDs
// in use and the files in flight, 15-20 MB on the corpus tree). At
// GOGC=200 such a run collects every 30-60 MB, eight times on the corpus
// tree, the first ones while its heap is still growing; under the limit
// it collects three times, its heap at about the limit, which hugeHeap
// then backs with huge pages whole (pacedHeapBytes). Collections cost
// -j 2 more than -j 1 (both workers assist and wait at the pauses): with
// the heap prepared so, the tree's -j 2 runs 7% faster and its -j 1 1%
// (README, Performance, "Startup and the collector on trees"), for a peak
// of 82-89 MiB instead of 57-72. A stream or a dump keeps GOGC=200: there
// the larger heap measured no faster. Nothing changes when GOGC or GOMEMLIMIT is set.
func paceByLimit() bool {
	if _, set := os.LookupEnv("GOGC"); set {
		return false
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return false
	}
	debug.SetGCPercent(-1)
	return true
}

// setMemoryLimit sets the collector's pace unless GOGC is set and the soft
// memory limit unless GOMEMLIMIT is set.
func setMemoryLimit() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
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

var (
	samples = []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/cpu/classes/gc/total:cpu-seconds"},
		{Name: "/cpu/classes/user:cpu-seconds"},
	}
	gaveUp atomic.Bool
)

// memLimitGCShare is the share of the CPU the collector may take, so far
// in the run, before the limit gives way to the runtime's default pace (it
// takes 15-20% on the corpus tree without the limit).
const memLimitGCShare = 0.3

// adjustMemoryLimit raises the limit when the live heap leaves less room
// under it than the headroom. It only ever raises it.
func adjustMemoryLimit() {
	s := samples[:3:3]
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindFloat64 || s[2].Value.Kind() != metrics.KindFloat64 {
		return
	}
	live := int64(s[0].Value.Uint64())
	if gc, user := s[1].Value.Float64(), s[2].Value.Float64(); gc > memLimitGCShare*(gc+user) && live > memLimitBase/2 {
		gaveUp.Store(true)
	}
	want := live + max(memLimitHeadroom, live/4) + memLimitOverhead
	if live > memLimitBase || gaveUp.Load() {
		// the base is out of reach, or keeping to it costs too much: the
		// runtime's default pace (GOGC=100, the heap twice the live data)
		want = 2*live + memLimitOverhead
	}
	if want > memLimit.Load() {
		memLimit.Store(want)
		debug.SetMemoryLimit(want)
	}
}
