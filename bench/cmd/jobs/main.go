// Command jobs measures issue 16's bar "-j 2 ≥ 1.8x -j 1" on the NDJSON
// dump and on the GitOps tree (the inputs bench/cmd/dump and bench/cmd/tree
// lay out): whole processes, -o none -q, in interleaved rounds, with -j 1
// and -j 2, and, with -base, an earlier build's runs in the same rounds.
// Rows: the dump --no-validate and validating, with the CRD cache warm and
// with --no-cache; the tree warm and --no-cache, and warm without -q (the
// issue's own command, whose findings are written). Within a round, -j 1
// runs first in even rounds, -j 2 in odd ones, and with -base the two
// builds' runs of each -j swap places every other pair of rounds: a run
// right after another of the same size finds the host's memory backed
// already, and with a fixed order the base, always second, gained 0.05-0.2
// in its -j 2 ratio over the same code (README, "The harness's order").
// It prints, for each run,
// the median and range over the rounds of wall time, CPU time (user+sys)
// and peak RSS, and the ratios measured round by round (median, quartiles
// and range): -j 2 against -j 1 (wall) for each binary, and this build's
// runs against the base's, with the load average at each round's start
// and end. With -ceiling, each round also runs two -j 1 processes of this
// build at once, and the row prints what the machine allowed in the same
// rounds: twice the time of one -j 1 process alone (the round's) against
// the time the two took together. On the shared 2-core machine this moves
// between 1.75x and 1.97x from one hour to the next, and -j 2 cannot beat
// it; a -j 2 ratio read beside it says how much of the gap to 2x is the
// command line's own. With -quiet, the runs' output goes to /dev/null
// instead of pipes this program reads, and their peak RSS is not polled
// (200 reads of /proc a second): the harness then takes nothing from the
// two cores beside starting and waiting.
//
//	cd bench && go run ./cmd/jobs -base /tmp/jp       # or: make bench-jobs JOBS_BASE=/tmp/jp
//	go run ./cmd/jobs -base /tmp/jp -dump /tmp/dumpdir/dump.ndjson \
//	  -dump-crds "$(cat /tmp/dumpcrds)" -tree /tmp/h16a-tree/tree -rounds 5
//
// Without -dump it writes the dump bench/cmd/dump and bench/cmd/tree write
// (the JSON form of the corpus resources of the 8 CRDs with the most
// resources, repeated to 500,000 lines) to a temporary directory; with
// -dump, -dump-crds gives its CRD flags as one string ("--crd a --crd b
// ..."). The tree is DIR/crds and DIR/crs (default: the corpus itself,
// which bench/cmd/tree copies). Warm runs are preceded by one untimed run
// of each binary that fills the cache.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jsonprune/jsonprune/bench/internal/wholeproc"
)

func main() {
	base := flag.String("base", "", "an earlier jsonprune binary, run in the same rounds")
	bin := flag.String("bin", "", "the jsonprune binary (default: built from the repository)")
	corpus := flag.String("corpus", "../../shared/corpus", "the shared corpus (corpus/index.json, crds/, crs/)")
	dump := flag.String("dump", "", "the NDJSON dump (default: written from the corpus; none: no dump rows)")
	dumpCRDs := flag.String("dump-crds", "", "with -dump: the dump's CRD flags, one string")
	tree := flag.String("tree", "", "the tree, DIR/crds and DIR/crs (default: the corpus; none: no tree rows)")
	rounds := flag.Int("rounds", 5, "interleaved rounds")
	only := flag.String("only", "", "run only the rows whose name holds this")
	ceiling := flag.Bool("ceiling", false, "also run two -j 1 processes at once in each round: what the machine allows")
	quiet := flag.Bool("quiet", false, "the runs' output to /dev/null, not read through pipes, and their peak RSS not polled")
	flag.Parse()
	if *quiet {
		run = wholeproc.RunQuiet
	}

	commit := ""
	if *bin == "" {
		dir, err := os.MkdirTemp("", "jsonprune-jobs-")
		if err != nil {
			fail(err)
		}
		defer os.RemoveAll(dir)
		root, _ := filepath.Abs("..")
		if *bin, commit, err = wholeproc.Build(root, dir); err != nil {
			fail(err)
		}
	}
	if *dump == "" {
		dir, err := os.MkdirTemp("", "jsonprune-jobs-dump-")
		if err != nil {
			fail(err)
		}
		defer os.RemoveAll(dir)
		var crds []string
		if crds, *dump, _, err = wholeproc.WriteDump(*corpus, dir, 500000, 8); err != nil {
			fail(err)
		}
		*dumpCRDs = "--crd " + strings.Join(crds, " --crd ")
	}
	if *dump == "none" {
		*dump = ""
	}
	switch *tree {
	case "":
		*tree = *corpus
	case "none":
		*tree = ""
	}
	type row struct {
		name string
		args []string
	}
	var rows []row
	common := []string{"-o", "none", "-q"}
	if *dump != "" {
		crds := strings.Fields(*dumpCRDs)
		for _, v := range []struct{ name, flag string }{{"dump --no-validate", "--no-validate"}, {"dump validating", ""}} {
			for _, c := range []struct{ name, flag string }{{"warm", ""}, {"--no-cache", "--no-cache"}} {
				args := append(append([]string{}, common...), crds...)
				for _, f := range []string{v.flag, c.flag} {
					if f != "" {
						args = append(args, f)
					}
				}
				rows = append(rows, row{v.name + ", " + c.name, append(args, *dump)})
			}
		}
	}
	if *tree != "" {
		for _, c := range []struct{ name, flag string }{{"warm", ""}, {"--no-cache", "--no-cache"}} {
			args := append(append([]string{}, common...), "--crd", filepath.Join(*tree, "crds"), "-R", filepath.Join(*tree, "crs"))
			if c.flag != "" {
				args = append(args, c.flag)
			}
			rows = append(rows, row{"tree, " + c.name, args})
		}
		// the issue's own command: without -q, the findings are written
		// (to stderr, read through a pipe)
		rows = append(rows, row{"tree, warm, findings written (no -q)", []string{"-o", "none", "--crd", filepath.Join(*tree, "crds"), "-R", filepath.Join(*tree, "crs")}})
	}
	bins := []struct{ name, path string }{{"this", *bin}}
	if *base != "" {
		bins = append(bins, struct{ name, path string }{"base", *base})
	}
	fmt.Printf("jobs: %s, this build %s %s, base %s, %d rounds, load at start %s\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), *bin, commit, *base, *rounds, wholeproc.LoadAvg())
	for _, r := range rows {
		if *only != "" && !strings.Contains(r.name, *only) {
			continue
		}
		if !strings.Contains(r.name, "no-cache") { // fill the cache
			for _, b := range bins {
				if _, err := wholeproc.Run(b.path, append([]string{"-j", "1"}, r.args...), nil); err != nil {
					fail(err)
				}
			}
		}
		// runs[bin][j-1][round]
		runs := make([][2][]wholeproc.Measurement, len(bins))
		var pairs []time.Duration // with -ceiling: two -j 1 processes at once, this build
		var loads []string
		for round := range *rounds {
			l := wholeproc.LoadAvg()
			for k := 1; k <= 2; k++ {
				j := k // -j 1 first in even rounds, -j 2 first in odd ones
				if round%2 == 1 {
					j = 3 - k
				}
				for i := range bins {
					bi := i // this build first in rounds 0, 1, 4, 5, ...; the base first in 2, 3, 6, 7, ...
					if round/2%2 == 1 {
						bi = len(bins) - 1 - i
					}
					b := bins[bi]
					m, err := run(b.path, append([]string{"-j", fmt.Sprint(j)}, r.args...), nil)
					if err != nil {
						fail(err)
					}
					runs[bi][j-1] = append(runs[bi][j-1], m)
				}
			}
			if *ceiling {
				d, err := runPair(*bin, append([]string{"-j", "1"}, r.args...))
				if err != nil {
					fail(err)
				}
				pairs = append(pairs, d)
			}
			loads = append(loads, strings.Fields(l)[0]+"-"+strings.Fields(wholeproc.LoadAvg())[0])
		}
		fmt.Printf("\n## %s (load, 1 min, at each round's start-end: %s)\n", r.name, strings.Join(loads, " "))
		fmt.Printf("| run | wall | CPU | of which system | minor page faults | peak RSS |\n|---|---|---|---|---|---|\n")
		for bi, b := range bins {
			for j := range 2 {
				ms := runs[bi][j]
				fmt.Printf("| %s -j %d | %s | %s | %s | %s | %s |\n", b.name, j+1,
					stat(ms, func(m wholeproc.Measurement) float64 { return m.Wall.Seconds() }, "%.3f s"),
					stat(ms, func(m wholeproc.Measurement) float64 { return m.CPU().Seconds() }, "%.3f s"),
					stat(ms, func(m wholeproc.Measurement) float64 { return m.Sys.Seconds() }, "%.3f s"),
					stat(ms, func(m wholeproc.Measurement) float64 { return float64(m.MinorFaults) }, "%.0f"),
					rssStat(ms))
			}
		}
		wall := func(m wholeproc.Measurement) float64 { return m.Wall.Seconds() }
		for bi, b := range bins {
			fmt.Printf("| %s: -j 2 against -j 1, wall | %s |\n", b.name, ratio(runs[bi][0], runs[bi][1], wall))
		}
		if *ceiling {
			xs := make([]float64, len(pairs))
			for i, d := range pairs {
				xs[i] = 2 * runs[0][0][i].Wall.Seconds() / d.Seconds()
			}
			q1, q3 := wholeproc.Quartiles(xs)
			fmt.Printf("| what the machine allowed: two -j 1 processes of this build at once against one alone | **%.2fx** (quartiles %.2f-%.2f, range %.2f-%.2f) |\n", wholeproc.Median(xs), q1, q3, wholeproc.Min(xs), wholeproc.Max(xs))
		}
		if len(bins) > 1 {
			fmt.Printf("| this -j 2 against base -j 2, wall | %s |\n", ratio(runs[1][1], runs[0][1], wall))
			fmt.Printf("| this -j 1 against base -j 1, wall | %s |\n", ratio(runs[1][0], runs[0][0], wall))
			cpu := func(m wholeproc.Measurement) float64 { return m.CPU().Seconds() }
			fmt.Printf("| this -j 1 against base -j 1, CPU | %s |\n", ratio(runs[1][0], runs[0][0], cpu))
		}
	}
	fmt.Printf("\nload at the end %s\n", wholeproc.LoadAvg())
}

// run runs and measures one process: wholeproc.Run, or with -quiet
// wholeproc.RunQuiet.
var run = wholeproc.Run

// runPair runs two processes of bin with args at once and returns the
// time until both have exited.
func runPair(bin string, args []string) (time.Duration, error) {
	start := time.Now()
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := run(bin, args, nil)
			errs <- err
		}()
	}
	err1, err2 := <-errs, <-errs
	if err1 != nil {
		return 0, err1
	}
	return time.Since(start), err2
}

// rssStat is stat of the peak RSS, where it was measured.
func rssStat(ms []wholeproc.Measurement) string {
	if len(ms) == 0 || ms[0].RSSKB < 0 {
		return "not measured (-quiet)"
	}
	return stat(ms, func(m wholeproc.Measurement) float64 { return float64(m.RSSKB) / 1024 }, "%.0f MiB")
}

// stat is the median (min-max) of f over ms.
func stat(ms []wholeproc.Measurement, f func(wholeproc.Measurement) float64, format string) string {
	xs := make([]float64, len(ms))
	for i, m := range ms {
		xs[i] = f(m)
	}
	return fmt.Sprintf(format+" ("+format+"-"+format+")", wholeproc.Median(xs), wholeproc.Min(xs), wholeproc.Max(xs))
}

// ratio is the median of before/after, round by round (how many times
// faster after is; above 1: faster), with its quartiles and range: on a
// shared machine single rounds stray far, and the quartiles say how far
// the median may move in another set of rounds.
func ratio(before, after []wholeproc.Measurement, f func(wholeproc.Measurement) float64) string {
	xs := make([]float64, len(before))
	for i := range before {
		xs[i] = f(before[i]) / f(after[i])
	}
	q1, q3 := wholeproc.Quartiles(xs)
	return fmt.Sprintf("**%.2fx** (quartiles %.2f-%.2f, range %.2f-%.2f)", wholeproc.Median(xs), q1, q3, wholeproc.Min(xs), wholeproc.Max(xs))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "jobs:", err)
	os.Exit(1)
}
