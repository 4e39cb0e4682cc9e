package main

import (
	"bytes"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"syscall"
	"unsafe"
)

// hugeHeap asks Linux to back the next n bytes of the Go heap with
// transparent huge pages (madvise MADV_HUGEPAGE), where the system leaves
// huge pages to the programs that ask for them ("madvise", the usual
// default); with "always" they are huge already, with "never" there is
// nothing to ask. Go's runtime does not ask for them itself.
//
// Why: a run over many inputs makes its heap of fresh memory, page by
// page, and each first touch of a 4 KiB page is a page fault. On the
// corpus tree that was some 12,000 faults a run and 10% of its CPU; with
// -j 2, each also stopped the other core (a copy-on-write fault flushes
// the translation cache of every core the process runs on), which is most
// of what -j 2 paid beyond -j 1. With huge pages the run takes some 2,000
// (README, "Huge pages for the heap", gives the measurement).
//
// How: the heap's next pages are made to exist now, as one large object
// (the runtime maps it, untouched: fresh memory is zero), so that the
// advice has a mapping to apply to; a collection frees the object, and the
// objects allocated next fill its pages, each 2 MiB of them one fault.
// Anything that fails leaves the heap as it was.
func hugeHeap(n int) {
	if os.Getenv("JSONPRUNE_HUGEPAGES") == "off" || !thpOnRequest() {
		return
	}
	// no collection of its own for the object: with the limit or the pace
	// in force, allocating it would start one, which runtime.GC would
	// wait for and then collect again (two collections at the start of
	// every run, 1-6 ms with -j 2 on the corpus tree)
	gcPercent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetMemoryLimit(max(limit, memLimit.Load())) // adjustMemoryLimit may have raised it
		debug.SetGCPercent(gcPercent)
	}()
	base, size := reserveHeap(n)
	const huge = 2 << 20
	start := base &^ (huge - 1)
	end := (base + size + huge - 1) &^ (huge - 1)
	syscall.Syscall(syscall.SYS_MADVISE, start, end-start, 14 /* MADV_HUGEPAGE */)
	runtime.GC()
}

// reserveHeap allocates an object of n bytes and returns where it was; the
// object is garbage as soon as it returns.
//
//go:noinline
func reserveHeap(n int) (uintptr, uintptr) {
	b := make([]byte, n)
	return uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b))
}

// thpOnRequest reports whether transparent huge pages are given to the
// mappings that ask for them, and only to them.
func thpOnRequest() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && bytes.Contains(b, []byte("[madvise]"))
}
