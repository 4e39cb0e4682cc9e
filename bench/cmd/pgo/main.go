// Command pgo writes cmd/jsonprune/default.pgo, the CPU profile that `go
// build` and `go install` use for profile-guided optimisation of the
// command line (-pgo=auto, the default, takes default.pgo from the main
// package's directory). It builds the command line without a profile,
// runs it on the workloads README's Performance section measures, with
// $JSONPRUNE_CPUPROFILE set, and merges their profiles:
//
//   - the NDJSON dump of bench/cmd/dump (the JSON form of the corpus
//     resources of the 8 CRDs with the most resources), with --no-validate
//     and validating, -j 1, the CRD cache warm;
//   - the corpus as a GitOps tree (--crd corpus/crds -R corpus/crs,
//     Strict), the cache warm and with --no-cache (parsing and compiling
//     CRDs from YAML, run once: it takes about as long as the others).
//
// Each profile weighs by the CPU its run took. Run it from bench/ (make pgo) after a change to the hot paths;
// a stale profile still builds (Go matches it to the code by function
// and line offset, and ignores what no longer matches), it only helps
// less.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/jsonprune/jsonprune/bench/internal/wholeproc"
)

func main() {
	corpus := flag.String("corpus", "../../shared/corpus", "the shared corpus (corpus/index.json, crds/, crs/)")
	out := flag.String("o", "../cmd/jsonprune/default.pgo", "the merged profile")
	lines := flag.Int("lines", 200000, "lines of the NDJSON dump")
	runs := flag.Int("runs", 3, "runs of each workload")
	flag.Parse()

	root, err := filepath.Abs("..")
	check(err)
	dir, err := os.MkdirTemp("", "jsonprune-pgo-")
	check(err)
	defer os.RemoveAll(dir)
	bin, _, err := wholeproc.Build(root, dir, "-pgo=off")
	check(err)
	crds, dump, _, err := wholeproc.WriteDump(*corpus, dir, *lines, 8)
	check(err)
	var dumpArgs []string
	for _, c := range crds {
		dumpArgs = append(dumpArgs, "--crd", c)
	}
	cache := []string{"XDG_CACHE_HOME=" + filepath.Join(dir, "cache"), "HOME=" + dir}
	tree := []string{"--crd", filepath.Join(*corpus, "crds"), "-R", "--field-validation", "Strict", "-o", "none", "-q", filepath.Join(*corpus, "crs")}
	workloads := []struct {
		name string
		runs int
		args []string
	}{
		{"dump --no-validate", *runs, append(append([]string{}, dumpArgs...), "--no-validate", "-j", "1", "-o", "none", "-q", dump)},
		{"dump validating", *runs, append(append([]string{}, dumpArgs...), "-j", "1", "-o", "none", "-q", dump)},
		{"tree", *runs, tree},
		// one run: it takes about as long as the others together
		{"tree --no-cache", 1, append([]string{"--no-cache"}, tree...)},
	}
	var profiles []string
	for _, w := range workloads {
		// a first run fills the CRD cache (and is not profiled)
		if _, err := wholeproc.Run(bin, w.args, cache); err != nil {
			check(fmt.Errorf("%s: %w", w.name, err))
		}
		for i := 0; i < w.runs; i++ {
			p := filepath.Join(dir, fmt.Sprintf("%d-%d.prof", len(profiles), i))
			m, err := wholeproc.Run(bin, w.args, append([]string{"JSONPRUNE_CPUPROFILE=" + p}, cache...))
			check(err)
			fmt.Fprintf(os.Stderr, "%s: %.2f s CPU\n", w.name, m.CPU().Seconds())
			profiles = append(profiles, p)
		}
	}
	merged, err := exec.Command("go", append([]string{"tool", "pprof", "-proto"}, profiles...)...).Output()
	check(err)
	check(os.WriteFile(*out, merged, 0o644))
	fmt.Fprintf(os.Stderr, "wrote %s (%d bytes) from %d profiles\n", *out, len(merged), len(profiles))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgo:", err)
		os.Exit(1)
	}
}
