// Command ratios reads `go test -bench` output and prints, for each
// benchmark, its speed relative to a base benchmark of the same group,
// measured side by side: the i-th result of each is paired with the i-th
// result of the base. Run the benchmarks in rounds (one go test run each),
// so that each round runs the contenders of a group one after the other
// and gives one ratio; the median of the rounds is robust to a shared
// machine's noise, whose load changes from one second to the next and
// slows both contenders of a round alike (with -count N, go test runs each
// sub-benchmark N times in a row instead).
//
//	for i in $(seq 10); do go test -run '^$' -bench BenchmarkUnknownShare ./decoder/; done | (cd bench && go run ./cmd/ratios -base floor-token-copy)
//
// A ratio above 1 means faster than the base: ns/op(base) / ns/op(benchmark).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

func main() {
	base := flag.String("base", "", "the name of the base sub-benchmark (the last element of its name)")
	flag.Parse()
	if *base == "" {
		fmt.Fprintln(os.Stderr, "usage: go test -bench ... -count N | ratios -base NAME")
		os.Exit(2)
	}
	rows, err := ratios(os.Stdin, *base)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, r := range rows {
		fmt.Println(r)
	}
}

var line = regexp.MustCompile(`^(Benchmark\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op`)

// ratios computes, per benchmark, the median and range of its ratios to
// the base of its group, pairing the i-th result of each with the i-th of
// the base (one round: one go test run of the group).
func ratios(r io.Reader, base string) ([]string, error) {
	results := map[string][]float64{} // benchmark → ns/op, in order
	var order []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ns, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			return nil, err
		}
		if _, seen := results[m[1]]; !seen {
			order = append(order, m[1])
		}
		results[m[1]] = append(results[m[1]], ns)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var out []string
	for _, name := range order {
		i := strings.LastIndexByte(name, '/')
		if i < 0 || name[i+1:] == base {
			continue
		}
		baseName := name[:i+1] + base
		var rs []float64
		bs, xs := results[baseName], results[name]
		for k := 0; k < len(bs) && k < len(xs); k++ {
			if xs[k] > 0 {
				rs = append(rs, bs[k]/xs[k])
			}
		}
		if len(rs) == 0 {
			continue
		}
		slices.Sort(rs)
		out = append(out, fmt.Sprintf("%-60s %.2fx %s (median of %d rounds, %.2f-%.2f)", name, rs[len(rs)/2], base, len(rs), rs[0], rs[len(rs)-1]))
	}
	return out, nil
}
