// Command ratios reads `go test -bench` output and prints, for each
// benchmark, its speed relative to a base benchmark of the same group,
// measured side by side: with -count N every round runs the sub-benchmarks
// of a group one after the other, so each round gives one ratio, and the
// median of the rounds is robust to a shared machine's noise (whose load
// changes from one second to the next, slowing both contenders of a round
// alike).
//
//	go test -run '^$' -bench BenchmarkUnknownShare -count 10 ./decoder/ | (cd bench && go run ./cmd/ratios -base floor-token-copy)
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

// ratios computes, per benchmark, the median and range of its per-round
// ratios to the base of its group.
func ratios(r io.Reader, base string) ([]string, error) {
	type round map[string]float64 // benchmark → ns/op
	var rounds []round
	cur := round{}
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
		if _, seen := cur[m[1]]; seen { // the benchmark again: a new round
			rounds = append(rounds, cur)
			cur = round{}
		}
		cur[m[1]] = ns
		if !slices.Contains(order, m[1]) {
			order = append(order, m[1])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	rounds = append(rounds, cur)
	var out []string
	for _, name := range order {
		i := strings.LastIndexByte(name, '/')
		if i < 0 || name[i+1:] == base {
			continue
		}
		baseName := name[:i+1] + base
		var rs []float64
		for _, rd := range rounds {
			if b, ok := rd[baseName]; ok {
				if x, ok := rd[name]; ok && x > 0 {
					rs = append(rs, b/x)
				}
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
