package main

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestHugeHeap checks that the heap's next pages are advised huge: a
// mapping of at least the size asked for carries the flag (smaps' VmFlags "hg").
func TestHugeHeap(t *testing.T) {
	if !thpOnRequest() {
		t.Skip("this system does not give transparent huge pages on request (/sys/kernel/mm/transparent_hugepage/enabled is not [madvise])")
	}
	hugeHeap(hugeHeapBytes)
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	var size int64
	advised := int64(0)
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) > 0 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":"):
			lo, hi, _ := strings.Cut(f[0], "-")
			a, _ := strconv.ParseUint(lo, 16, 64)
			b, _ := strconv.ParseUint(hi, 16, 64)
			size = int64(b - a)
		case len(f) > 0 && f[0] == "VmFlags:" && strings.Contains(line, " rd wr ") && strings.Contains(line, " hg"):
			advised = max(advised, size)
		}
	}
	if advised < hugeHeapBytes {
		t.Errorf("the largest writable mapping advised huge is %d bytes, want at least %d", advised, hugeHeapBytes)
	}
}
