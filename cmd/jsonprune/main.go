package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/jsonprune/jsonprune/decoder"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// Exit statuses.
const (
	exitOK       = 0
	exitFindings = 1 // objects rejected (Strict findings, fatal decoding errors), or violations under --lint-crd
	exitUsage    = 2 // usage error, unreadable schema or input
)

func main() {
	setMemoryLimit()
	stop := startProfiles()
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, code := parseArgs(args, stdout, stderr)
	if o == nil {
		return code
	}
	// -j N runs on at most N cores, the runtime's own work (the garbage
	// collector) included, unless $GOMAXPROCS says otherwise: -j 1 is one
	// core, as a CI runner or a parallel make that gives it one expects
	if n := runtime.GOMAXPROCS(0); o.jobs < n && os.Getenv("GOMAXPROCS") == "" {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(o.jobs))
	}
	if len(o.lint) > 0 {
		return lintCRDs(o.lint, stdout, stderr)
	}
	// huge pages for the heap before it grows, first and alone: its
	// collection takes about 1 ms on an empty heap, where beside the CRD
	// index and the listing of the inputs, both allocating, it took 5-12
	// ms with -j 2 on the corpus tree and held back the pipeline's start
	// by 3-8 ms (README, "Huge pages first"). Several workers hold a heap
	// of their own each: with -j 2 the validating dump peaks at 66-68 MiB
	// against -j 1's 45, so past -j 1 the huge pages go to the limit too
	if large, many := inputShape(o.inputs); o.dump || large {
		size := hugeHeapBytes
		if many && paceByLimit() || o.jobs > 1 {
			size = pacedHeapBytes
		}
		hugeHeap(size)
	}
	opts := schemaauto.AllowSkeleton(o.skeleton)
	var set *schemaauto.Set
	var fixed *schemaauto.Automaton
	var err error
	ld := &crdLoad{jobs: o.jobs}
	crdf := &crdFailures{w: stderr, paths: o.crds}
	if !o.noCache {
		ld.cache, ld.cacheDir = crdCache()
	}
	if o.verbose {
		ld.verbose = func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) }
	}
	// the inputs are listed while the CRDs load (on a tree, two walks of
	// thousands of directory entries and stats, neither waiting for the
	// other)
	var inputs []input
	var listErr error
	bar := showProgress(o, stderr)
	listed := make(chan struct{})
	go func() {
		defer close(listed)
		if !o.dump {
			inputs, listErr = listInputs(o.inputs, o.recursive, bar)
		}
	}()
	defer func() { <-listed }()
	if o.schema != "" {
		if fixed, err = loadSchema(o.schema, opts); err != nil {
			fmt.Fprintf(stderr, "error: %s: %v\n", o.schema, err)
			return exitUsage
		}
	} else {
		// the progress display says what it does while the CRDs load
		if bar {
			fmt.Fprintf(stderr, "loading CRDs from %s...", strings.Join(o.crds, ", "))
		}
		set, err = loadCRDs(o.crds, ld, crdf.report, opts)
		if bar {
			fmt.Fprint(stderr, "\r\033[K")
		}
		if err != nil {
			schemaError(stderr, err, o.crds)
			return exitUsage
		}
		ld.logf("--crd: %s from %s (%s)", plural(ld.docs, "CustomResourceDefinition"), plural(ld.files, "file"), ld.skipped())
	}
	if o.dump {
		if set.CompileAll() != nil {
			return exitUsage // reported by crdf
		}
		return dump(set, fixed, o.schema, stdout, stderr)
	}
	if <-listed; listErr != nil {
		fmt.Fprintf(stderr, "error: %v\n", listErr)
		return exitUsage
	}
	status := prune(o, set, fixed, ld, crdf, inputs, stdin, stdout, stderr)
	if crdf.any() {
		status = exitUsage // a CRD an input needed does not compile
	}
	return status
}

// hugeHeapBytes is how much of the heap hugeHeap backs with huge pages
// for a large stream or dump with -j 1: about what such a run grows its
// heap to at GOGC=200 (the collector's goal stays under 50 MB), within
// memLimitBase.
const hugeHeapBytes = 48 << 20

// pacedHeapBytes is hugeHeap's size when the collector's pace is the
// memory limit (paceByLimit): the heap grows to about the limit.
const pacedHeapBytes = memLimitBase - memLimitOverhead

// inputShape reports whether the INPUT arguments are many or large enough
// for hugeHeap to pay (large): its collection and its first huge pages
// cost a few milliseconds, which a run over one small file would notice.
// It is decided before the inputs are listed (the heap grows while they
// are): a directory counts as large, as do 64 files or 4 MiB of them.
// Stdin does not: it may bring anything, and most often brings little.
// many is the tree's shape, a directory or 64 files, where paceByLimit
// pays.
func inputShape(args []string) (large, many bool) {
	if len(args) >= 64 {
		return true, true
	}
	var n int64
	for _, a := range args {
		if a == "-" {
			continue
		}
		info, err := os.Stat(a)
		switch {
		case err != nil:
		case info.IsDir():
			return true, true
		default:
			n += info.Size()
		}
	}
	return n >= 4<<20, false
}

// schemaError reports CRDs that cannot be loaded, with the hints a new
// user needs: which path --crd could not read, and for a CRD that is not
// structural, its violations one a line and the flags that deal with it.
func schemaError(stderr io.Writer, err error, paths []string) {
	var ce *schemaauto.CRDError
	var pe *fs.PathError
	switch {
	case errors.As(err, &ce) && len(ce.Violations) > 0:
		fmt.Fprintf(stderr, "error: CustomResourceDefinition %q is not structural; the API server refuses it:\n", ce.CRD)
		for _, v := range ce.Violations {
			fmt.Fprintf(stderr, "  %s\n", v.Error())
		}
		fmt.Fprintln(stderr, "  hint: --skeleton prunes by the fields its schema names anyway; --lint-crd FILE lists the violations of every CRD of a file")
	case errors.As(err, &pe):
		fmt.Fprintf(stderr, "error: --crd %s: %v\n", pe.Path, pe.Err)
		fmt.Fprintln(stderr, "  hint: --crd takes a CustomResourceDefinition manifest (YAML or JSON, one or many documents) or a directory of them")
	default:
		fmt.Fprintf(stderr, "error: %v\n", err)
	}
}

// skipped says what loading the CRDs skipped.
func (ld *crdLoad) skipped() string {
	return "skipped: " + plural(ld.skippedDocs, "document") + " not a CRD, " + plural(len(ld.skippedFiles), "file") + " that did not parse"
}

// prune runs the pipeline over the inputs and returns the exit status.
func prune(o *options, set *schemaauto.Set, fixed *schemaauto.Automaton, ld *crdLoad, crdf *crdFailures, inputs []input, stdin io.Reader, stdout, stderr io.Writer) int {
	errs := &console{w: stderr}
	crdf.setWriter(errs)
	if _, err := decoder.New(nil, decoderOptions(o)...); err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	z, closeZ, err := compressor(stdout, o.compress)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	// -o none writes nothing: no 1 MiB buffer to clear and fault in
	// before the first input
	size := 1 << 20
	if o.output == outNone {
		size = 16
	}
	w := &writer{out: bufio.NewWriterSize(z, size), errs: errs, form: o.output}
	var closeReport func() error
	if o.report != "" {
		rw, c, err := openReport(o.report, stdout)
		if err != nil {
			fmt.Fprintf(stderr, "error: --report: %v\n", err)
			return exitUsage
		}
		w.rep, closeReport = bufio.NewWriterSize(rw, 1<<20), c
		w.rf, _ = newReportFormatter(o.reportFormat, w.rep) // checked by parseArgs
		if w.rf != nil {
			if err := w.rf.begin(); err != nil {
				fmt.Fprintf(stderr, "error: --report: %v\n", err)
				return exitUsage
			}
		}
	}
	if o.summary {
		w.sum = newSummary()
	}
	prog := newProgress(inputs)
	w.prog = prog
	if showProgress(o, stderr) {
		prog.show(errs, 250*time.Millisecond)
	}

	var cat *catalog
	if fixed == nil {
		cat = newCatalog(set)
	}
	runPipeline(o, inputs, stdin, set, func() *worker { return newWorker(o, set, fixed, cat) }, w, prog)

	prog.finish()
	status := w.tally.status()
	fail := func(what string, err error) {
		if err != nil && w.err == nil {
			w.err = fmt.Errorf("%s: %w", what, err)
		}
	}
	fail("write", w.out.Flush())
	fail("write", closeZ())
	if w.rep != nil {
		if w.rf != nil {
			fail("report", w.rf.end())
		}
		fail("report", w.rep.Flush())
		fail("report", closeReport())
	}
	if w.err != nil {
		fmt.Fprintf(stderr, "error: %v\n", w.err)
		status = exitUsage
	}
	if w.sum != nil {
		crds := ""
		if o.schema == "" && (ld.skippedDocs > 0 || len(ld.skippedFiles) > 0) {
			crds = fmt.Sprintf("%s from %s (%s)", plural(ld.docs, "CustomResourceDefinition"), plural(ld.files, "file"), ld.skipped())
		}
		w.sum.print(stderr, w.tally, len(inputs), prog.in.Load(), o.top, o.mode.String(), crds)
	}
	return status
}

// openReport opens the --report file ("-": stdout).
func openReport(name string, stdout io.Writer) (io.Writer, func() error, error) {
	if name == "-" {
		return stdout, func() error { return nil }, nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}

func dump(set *schemaauto.Set, fixed *schemaauto.Automaton, name string, stdout, stderr io.Writer) int {
	if fixed != nil {
		fmt.Fprintf(stdout, "# %s\n", name)
		if _, err := fixed.WriteTo(stdout); err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	for _, e := range set.Entries() {
		note := ""
		if e.Skeleton {
			note = " (skeleton of a non-structural schema)"
		}
		fmt.Fprintf(stdout, "# %s%s\n", e.GVK, note)
		if _, err := e.Automaton.WriteTo(stdout); err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return exitUsage
		}
	}
	return exitOK
}

// lintCRDs prints every violation of every CRD in files, as the API server
// reports them on create, and returns exitFindings if there was any.
func lintCRDs(files []string, stdout, stderr io.Writer) int {
	status := exitOK
	for _, f := range files {
		crds, err := readCRDs(f, &crdLoad{})
		if err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return exitUsage
		}
		for _, c := range crds {
			v := c.Validate()
			// the checks of values a create makes: patterns, defaults
			// against their schema, uniqueItems, nullable set/map items
			lv, warnings := c.LintValues()
			seen := map[string]bool{}
			for _, e := range v {
				seen[e.Error()] = true
			}
			for _, e := range lv {
				if !seen[e.Error()] { // a pattern the structural check reported
					v = append(v, e)
				}
			}
			for _, w := range warnings {
				fmt.Fprintf(stdout, "%s: CustomResourceDefinition %q: warning: %s\n", f, c.Name, w)
			}
			if len(v) == 0 {
				fmt.Fprintf(stdout, "%s: CustomResourceDefinition %q: structural\n", f, c.Name)
				continue
			}
			status = exitFindings
			fmt.Fprintf(stdout, "%s: CustomResourceDefinition %q is invalid:\n", f, c.Name)
			for _, e := range v {
				fmt.Fprintf(stdout, "  %s\n", e.Error())
			}
		}
	}
	return status
}
