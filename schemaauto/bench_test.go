package schemaauto

import (
	"fmt"
	"path/filepath"
	"testing"
	"unsafe"
)

const largestCRD = "corpus/crds/argo-workflows/argoproj.io_workflows.yaml"

// BenchmarkCompileLargestCRD parses and compiles the largest corpus CRD
// (2.8 MB, 10,505 schema nodes): load, structural check, compile.
func BenchmarkCompileLargestCRD(b *testing.B) {
	data := readFile(b, filepath.Join(requireShared(b, "corpus/crds"), "..", "..", largestCRD))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var states int
	for b.Loop() {
		crds, err := ParseCRDs(data)
		if err != nil {
			b.Fatal(err)
		}
		set, err := CompileCRDs(crds)
		if err != nil {
			b.Fatal(err)
		}
		states = set.Entries()[0].Automaton.NumStates()
	}
	b.ReportMetric(float64(states), "states")
}

// tableBytes is the memory held by an automaton's tables (states,
// properties with their names, length indexes, node information).
func tableBytes(a *Automaton) int {
	a.renderPaths()
	n := len(a.states)*int(unsafe.Sizeof(State{})) + len(a.props)*int(unsafe.Sizeof(Prop{})) +
		len(a.lenIndex)*4 + len(a.nodes)*int(unsafe.Sizeof(NodeInfo{}))
	for _, p := range a.props {
		n += len(p.Name)
	}
	for _, nd := range a.nodes {
		n += len(nd.Path)
	}
	return n
}

// BenchmarkCompileOnly separates compilation from YAML parsing.
func BenchmarkCompileOnly(b *testing.B) {
	data := readFile(b, filepath.Join(requireShared(b, "corpus/crds"), "..", "..", largestCRD))
	crds, err := ParseCRDs(data)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var set *Set
	for b.Loop() {
		if set, err = CompileCRDs(crds); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(tableBytes(set.Entries()[0].Automaton)), "table-bytes")
}

// lookupCase is a state and the decoded key bytes to look up in it.
type lookupCase struct {
	s   StateID
	key []byte
}

// lookupWorkload collects, from the largest corpus CRD, every object state
// whose property count falls in [lo, hi], and for each of its properties a
// hit plus a miss of the same length.
func lookupWorkload(b *testing.B, lo, hi int) (*Automaton, []lookupCase) {
	data := readFile(b, filepath.Join(requireShared(b, "corpus/crds"), "..", "..", largestCRD))
	crds, err := ParseCRDs(data)
	if err != nil {
		b.Fatal(err)
	}
	set, err := CompileCRDs(crds)
	if err != nil {
		b.Fatal(err)
	}
	a := set.Entries()[0].Automaton
	var cases []lookupCase
	for i := range a.states {
		ps := a.Props(StateID(i))
		if len(ps) < lo || len(ps) > hi || a.builtIn(StateID(i)) {
			continue
		}
		for _, p := range ps {
			cases = append(cases, lookupCase{StateID(i), []byte(p.Name)})
			miss := []byte(p.Name)
			miss[len(miss)-1] ^= 0x20 // same length, other case: unknown
			cases = append(cases, lookupCase{StateID(i), miss})
		}
	}
	if len(cases) == 0 {
		b.Skip("no states of that size")
	}
	return a, cases
}

// BenchmarkLookup compares the automaton's property lookup (linear scan up
// to linearLookupMax properties, binary search on (length, name) above)
// with one Go map per state, on decoded key bytes, by state size.
func BenchmarkLookup(b *testing.B) {
	for _, size := range []struct{ lo, hi int }{{1, 4}, {5, 8}, {9, 16}, {17, 40}, {41, 1000}} {
		name := fmt.Sprintf("props=%d-%d", size.lo, size.hi)
		b.Run(name+"/automaton", func(b *testing.B) {
			a, cases := lookupWorkload(b, size.lo, size.hi)
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				for _, c := range cases {
					if a.Lookup(c.s, c.key) >= 0 {
						n++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/lookup")
		})
		b.Run(name+"/binary", func(b *testing.B) {
			a, cases := lookupWorkload(b, size.lo, size.hi)
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range cases {
					binaryLookup(a, c.s, c.key)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/lookup")
		})
		b.Run(name+"/gomap", func(b *testing.B) {
			a, cases := lookupWorkload(b, size.lo, size.hi)
			maps := make([]map[string]int, len(a.states))
			for i := range a.states {
				ps := a.Props(StateID(i))
				maps[i] = make(map[string]int, len(ps))
				for j, p := range ps {
					maps[i][p.Name] = j
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range cases {
					if _, ok := maps[c.s][string(c.key)]; ok {
						_ = ok
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/lookup")
		})
	}
}

// binaryLookup is Lookup without the linear scan for small states.
func binaryLookup(a *Automaton, s StateID, name []byte) int {
	st := &a.states[s]
	ps := a.props[st.propStart:st.propEnd]
	lo, hi := 0, len(ps)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if propLess(ps[m].Name, name) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(ps) && ps[lo].Name == string(name) {
		return lo
	}
	return -1
}

func TestLookupAllocatesNothing(t *testing.T) {
	a := widget(t)
	spec := a.Props(a.Root())[a.Lookup(a.Root(), []byte("spec"))].Target
	keys := [][]byte{[]byte("replicas"), []byte("nope"), []byte("ключ"), []byte("")}
	if n := testing.AllocsPerRun(100, func() {
		for _, k := range keys {
			a.Lookup(spec, k)
		}
	}); n != 0 {
		t.Errorf("Lookup allocates %v per run", n)
	}
	// every property is found at its own index, misses are -1
	for s := range a.states {
		for i, p := range a.Props(StateID(s)) {
			if got := a.Lookup(StateID(s), []byte(p.Name)); got != i {
				t.Fatalf("state %d: Lookup(%q) = %d, want %d", s, p.Name, got, i)
			}
			if got := a.Lookup(StateID(s), []byte(p.Name+"\x00")); got != -1 {
				t.Fatalf("state %d: Lookup(%q) = %d, want -1", s, p.Name+"\x00", got)
			}
		}
	}
}
