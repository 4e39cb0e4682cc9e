// Command dump reproduces the NDJSON dump rows of README's Performance
// section (issue 16): the command line on an NDJSON dump of the corpus
// resources of the 8 CRDs with the most resources (500,000 lines, the dump
// bench/cmd/tree writes), with -j 1 and -j 2, with and without value
// validation, against the Kubernetes reference chain over the same dump, in
// interleaved rounds. Every run is a whole process (start-up, CRD loading
// and compilation, reading, decoding); it prints, for each row, the median
// and range over the rounds of CPU time (user+sys), wall time and peak RSS,
// and the ratios measured round by round, with the date, the commit and the
// load average.
//
//	cd bench && go run ./cmd/dump                  # or: make bench-dump
//	go run ./cmd/dump -rounds 7 -keep -dir /tmp/jpdump
//	go run ./cmd/dump -base /tmp/jsonprune-of-an-earlier-commit   # the same rounds, with its -j 1 and -j 2
//
// The reference chain (this program run with -reference) is the decode,
// prune and default path of the API server's CR handler, oracle.Pipeline
// without re-marshalling (jsonprune runs with -o none), for each line with
// the structural schema of its apiVersion and kind (read from the line
// with a byte search, as the server knows them from the URL), serially:
// it has no parallel mode, so its comparison is per core, CPU against
// CPU, against jsonprune --no-validate -j 1. bench/ has no reference chain
// that validates values as a whole program (the server's validator runs
// only in bench/conformance's tests), so the validating rows are compared
// with the same non-validating chain, which flatters the reference.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/jsonprune/jsonprune/bench/internal/wholeproc"
	"github.com/jsonprune/jsonprune/bench/oracle"
)

func main() {
	corpus := flag.String("corpus", "../../shared/corpus", "the shared corpus (corpus/index.json, crds/, crs/)")
	dir := flag.String("dir", "", "where to write the dump and the binary (default: a temporary directory)")
	keep := flag.Bool("keep", false, "keep the dump and the binary")
	rounds := flag.Int("rounds", 5, "interleaved rounds")
	lines := flag.Int("lines", 500000, "lines of the NDJSON dump")
	dumpCRDs := flag.Int("dump-crds", 8, "CRDs whose resources make the dump (those with the most resources)")
	noRef := flag.Bool("no-reference", false, "leave the reference chain out")
	base := flag.String("base", "", "another jsonprune binary (an earlier commit's) to run with --no-validate -j 1 and -j 2 in the same rounds")
	reference := flag.Bool("reference", false, "internal: run the reference chain on the dump (the last argument) with the CRDs (the others) and exit")
	flag.Parse()
	if *rounds < 1 {
		fmt.Fprintln(os.Stderr, "-rounds must be at least 1")
		os.Exit(2)
	}
	if *reference {
		args := flag.Args()
		check(runReference(args[:len(args)-1], args[len(args)-1]))
		return
	}

	root, err := filepath.Abs("..")
	check(err)
	if *dir == "" {
		*dir, err = os.MkdirTemp("", "jsonprune-dump-")
		check(err)
	}
	if !*keep {
		defer os.RemoveAll(*dir)
	}
	jp, commit, err := wholeproc.Build(root, *dir)
	check(err)
	self, err := os.Executable()
	check(err)

	crds, dump, size, err := wholeproc.WriteDump(*corpus, *dir, *lines, *dumpCRDs)
	check(err)
	var crdArgs []string
	for _, c := range crds {
		crdArgs = append(crdArgs, "--crd", c)
	}
	jpArgs := func(extra ...string) []string {
		return append(append(append([]string{}, crdArgs...), "--no-cache", "-o", "none", "-q"), append(extra, dump)...)
	}
	// the command line's default: the CRDs compiled by an earlier run read
	// from the cache (a cache of this run's own, warmed before the rounds)
	cacheDir := filepath.Join(*dir, "cache")
	warmEnv := []string{"XDG_CACHE_HOME=" + cacheDir}
	warmArgs := func(extra ...string) []string {
		return append(append(append([]string{}, crdArgs...), "-o", "none", "-q"), append(extra, dump)...)
	}
	type row struct {
		name string
		bin  string
		args []string
		env  []string
	}
	rows := []row{
		{"jsonprune `--no-validate -j 1`", jp, jpArgs("--no-validate", "-j", "1"), nil},
		{"jsonprune `--no-validate -j 2`", jp, jpArgs("--no-validate", "-j", "2"), nil},
		{"jsonprune `-j 1` (validating)", jp, jpArgs("-j", "1"), nil},
		{"jsonprune `-j 2` (validating)", jp, jpArgs("-j", "2"), nil},
		{"jsonprune `--no-validate -j 1`, CRD cache warm", jp, warmArgs("--no-validate", "-j", "1"), warmEnv},
		{"jsonprune `--no-validate -j 2`, CRD cache warm", jp, warmArgs("--no-validate", "-j", "2"), warmEnv},
	}
	const warm1, warm2 = 4, 5
	check(os.RemoveAll(cacheDir))
	if _, err := wholeproc.Run(jp, warmArgs("--no-validate"), warmEnv); err != nil {
		check(err)
	}
	ref, baseRow := -1, -1
	if !*noRef {
		ref = len(rows)
		rows = append(rows, row{"reference chain (decode, prune, default; serial)", self, append(append([]string{"-reference"}, crds...), dump), nil})
	}
	if *base != "" {
		baseRow = len(rows)
		rows = append(rows, row{"base binary `--no-validate -j 1`", *base, jpArgs("--no-validate", "-j", "1"), nil},
			row{"base binary `--no-validate -j 2`", *base, jpArgs("--no-validate", "-j", "2"), nil})
	}
	loadBefore := wholeproc.LoadAvg()
	results := make([][]measurement, len(rows))
	for r := range *rounds {
		fmt.Fprintf(os.Stderr, "round %d/%d (%s)\n", r+1, *rounds, wholeproc.LoadAvg())
		for i, rw := range rows {
			results[i] = append(results[i], measure(rw.bin, rw.args, rw.env))
		}
	}

	fmt.Printf("%s, commit %s, %d interleaved rounds, %d CPUs, load average %s before, %s after\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), commit, *rounds, runtime.NumCPU(), loadBefore, wholeproc.LoadAvg())
	fmt.Printf("%d CRDs, %d-line NDJSON dump (%.0f MB); jsonprune with --no-cache -o none -q unless the CRD cache is said warm\n\n", len(crds), *lines, float64(size)/1e6)
	fmt.Println("| run | CPU (user+sys), median (range) | wall, median (range) | peak RSS |")
	fmt.Println("|---|---:|---:|---:|")
	for i, rw := range rows {
		ms := results[i]
		fmt.Printf("| %s | %s | %s | %.0f MiB |\n", rw.name, spread(ms, cpuOf), spread(ms, wallOf), wholeproc.Median(each(ms, func(m measurement) float64 { return float64(m.RSSKB) / 1024 })))
	}
	ratio := func(name string, num, den int, f func(measurement) float64) {
		var rs []float64
		for k := range results[num] {
			rs = append(rs, f(results[num][k])/f(results[den][k]))
		}
		fmt.Printf("| %s | %.2fx (%.2f-%.2f) |\n", name, wholeproc.Median(rs), wholeproc.Min(rs), wholeproc.Max(rs))
	}
	fmt.Println("\n| ratio, round by round | median (range) |")
	fmt.Println("|---|---:|")
	ratio("`--no-validate`: `-j 2` against `-j 1`, wall", 0, 1, wallOf)
	ratio("validating: `-j 2` against `-j 1`, wall", 2, 3, wallOf)
	ratio("`--no-validate`, CRD cache warm: `-j 2` against `-j 1`, wall", warm1, warm2, wallOf)
	ratio("`--no-validate`: `-j 2` CPU over `-j 1` CPU (the cost of going parallel)", 1, 0, cpuOf)
	if ref >= 0 {
		ratio("reference chain against `--no-validate -j 1`, CPU (per core)", ref, 0, cpuOf)
		ratio("reference chain against `--no-validate -j 1`, CRD cache warm, CPU (per core; issue 16's bar)", ref, warm1, cpuOf)
		ratio("reference chain against `--no-validate -j 1`, wall", ref, 0, wallOf)
		ratio("reference chain against `--no-validate -j 2`, wall", ref, 1, wallOf)
		ratio("reference chain (not validating) against validating `-j 1`, CPU", ref, 2, cpuOf)
	}
	if baseRow >= 0 {
		ratio("base binary: `--no-validate`, `-j 2` against `-j 1`, wall", baseRow, baseRow+1, wallOf)
		ratio("`--no-validate -j 2`: base binary against this one, wall", baseRow+1, 1, wallOf)
		ratio("`--no-validate -j 2`: base binary against this one, CPU", baseRow+1, 1, cpuOf)
		ratio("`--no-validate -j 1`: base binary against this one, CPU", baseRow, 0, cpuOf)
	}
	if *keep {
		fmt.Println("\nthe dump and the binary are in", *dir+"; the first run:")
		fmt.Println(jp, strings.Join(rows[0].args, " "))
	}
}

// runReference is the reference chain over a dump: the CRDs' structural
// schemas as the handler builds them, then oracle.Pipeline on each line
// with its version's schema.
func runReference(crdFiles []string, dump string) error {
	type key struct{ apiVersion, kind string }
	schemas := map[key]*structuralschema.Structural{}
	for _, f := range crdFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		d, err := oracle.NewCRDecoder(data)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		for _, v := range d.Served {
			schemas[key{d.Group + "/" + v, d.Kind}] = d.Schema(v)
		}
	}
	f, err := os.Open(dump)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	var docs, findings, unknown int
	for sc.Scan() {
		line := sc.Bytes()
		s, ok := schemas[key{field(line, `"apiVersion":"`), field(line, `"kind":"`)}]
		if !ok {
			unknown++
			continue
		}
		_, n := oracle.Pipeline(line, s, false)
		docs++
		findings += n
	}
	if err := sc.Err(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "reference: %d documents, %d findings, %d of no known kind\n", docs, findings, unknown)
	return nil
}

// field is the first string value after name in line (a byte search: the
// dump's lines are compact JSON).
func field(line []byte, name string) string {
	i := bytes.Index(line, []byte(name))
	if i < 0 {
		return ""
	}
	v := line[i+len(name):]
	if j := bytes.IndexByte(v, '"'); j >= 0 {
		return string(v[:j])
	}
	return ""
}

type measurement = wholeproc.Measurement

func cpuOf(m measurement) float64  { return m.CPU().Seconds() }
func wallOf(m measurement) float64 { return m.Wall.Seconds() }

// measure runs a command and measures its CPU (user+sys), wall time and
// peak RSS.
func measure(bin string, args, env []string) measurement {
	m, err := wholeproc.Run(bin, args, env)
	check(err)
	return m
}

func each(ms []measurement, f func(measurement) float64) []float64 {
	var xs []float64
	for _, m := range ms {
		xs = append(xs, f(m))
	}
	return xs
}

func spread(ms []measurement, f func(measurement) float64) string {
	xs := each(ms, f)
	return fmt.Sprintf("%.2f s (%.2f-%.2f)", wholeproc.Median(xs), wholeproc.Min(xs), wholeproc.Max(xs))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
