// Package wholeproc holds what the whole-process benchmark programs
// (bench/cmd/tree, bench/cmd/dump) share: the NDJSON dump they build from
// the corpus, and the statistics of interleaved rounds.
package wholeproc

import (
	"bytes"
	"os"
	"sort"
	"strings"
)

// Dump repeats the JSON documents of the n CRDs with the most documents
// (docs: documents by CRD file, ties broken by name) to lines lines, and
// returns those CRDs (docs' keys) and the dump.
func Dump(docs map[string][][]byte, n, lines int) (crds []string, dump []byte) {
	var byCount []string
	for c := range docs {
		byCount = append(byCount, c)
	}
	sort.Slice(byCount, func(i, j int) bool {
		if len(docs[byCount[i]]) != len(docs[byCount[j]]) {
			return len(docs[byCount[i]]) > len(docs[byCount[j]])
		}
		return byCount[i] < byCount[j]
	})
	var picked [][]byte
	for _, c := range byCount[:min(n, len(byCount))] {
		crds = append(crds, c)
		picked = append(picked, docs[c]...)
	}
	var b bytes.Buffer
	for i := range lines {
		if len(picked) == 0 {
			break
		}
		b.Write(picked[i%len(picked)])
		b.WriteByte('\n')
	}
	return crds, b.Bytes()
}

// Median is the median of xs (not empty).
func Median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Min is the least of xs (not empty).
func Min(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

// Max is the greatest of xs (not empty).
func Max(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// LoadAvg is the machine's load average over 1, 5 and 15 minutes
// ("unknown" where /proc/loadavg is not there).
func LoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
