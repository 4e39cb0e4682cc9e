package main

import (
	"strings"
	"testing"
)

func TestRatios(t *testing.T) {
	in := `goos: linux
BenchmarkX/a/prune-2     10  200 ns/op  5 MB/s
BenchmarkX/a/copy-2      10  100 ns/op
BenchmarkX/b/prune-2     10  100 ns/op
BenchmarkX/b/copy-2      10  100 ns/op
BenchmarkX/a/prune-2     10  100 ns/op
BenchmarkX/a/copy-2      10  300 ns/op
BenchmarkX/b/prune-2     10  50 ns/op
BenchmarkX/b/copy-2      10  100 ns/op
BenchmarkX/a/prune-2     10  100 ns/op
BenchmarkX/a/copy-2      10  150 ns/op
PASS
`
	got, err := ratios(strings.NewReader(in), "copy")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"BenchmarkX/a/prune                                           1.50x copy (median of 3 rounds, 0.50-3.00)",
		"BenchmarkX/b/prune                                           2.00x copy (median of 2 rounds, 1.00-2.00)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
