package apiserver

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"
)

// Config says what one oracle run does.
type Config struct {
	Bin  string // the oracle-apiserver binary
	Root string // shared/corpus
	// Every: post every Every-th CR of each family (1: the whole corpus).
	Every int
	// MutateEvery: mutate every MutateEvery-th chosen CR of each family
	// (0: no mutations).
	MutateEvery int
	Vectors     bool // the explicit vectors (issue 14's defects)
	// CRVectors: also post the bodies of this crvectors.jsonl file (""
	// : do not).
	CRVectors   string
	VectorsFile string // write the vectors' records here ("" : do not)
	// ReportFile: write every outcome that is not identical here, one JSON
	// object a line ("": do not).
	ReportFile string
	Workers    int
	DiffMax    int // differences listed per group (0: all)
	Out        io.Writer
}

// Result is what a run found.
type Result struct {
	Total Tally
	// Validation counts the value-validation verdicts.
	Validation ValTally
	Outcomes   []*Outcome
	CRDs       map[string]CRDOutcome
	Setup      time.Duration // server start, CRDs and namespaces
	Requests   time.Duration
}

// Run starts the server, installs the CRDs and namespaces, posts every
// case, compares, prints the verdict table and the differences to
// cfg.Out, and stops the server by its process id (also when ctx is
// cancelled or anything fails). A server that does not start is an error.
func Run(ctx context.Context, cfg Config) (res *Result, err error) {
	if cfg.Workers < 1 {
		cfg.Workers = 4
	}
	ix, err := LoadIndex(cfg.Root)
	if err != nil {
		return nil, err
	}
	every := max(cfg.Every, 1)
	cases, err := CorpusCases(cfg.Root, ix, SampleCRs(ix, every))
	if err != nil {
		return nil, err
	}
	if cfg.MutateEvery > 0 {
		cases = append(cases, MutationCases(cases, cfg.MutateEvery)...)
	}
	if cfg.Vectors {
		cases = append(cases, VectorCases()...)
	}
	if cfg.CRVectors != "" {
		cv, err := CRVectorCases(cfg.CRVectors, ix)
		if err != nil {
			return nil, err
		}
		cases = append(cases, cv...)
	}
	docs, bodies := map[string]bool{}, map[string]bool{}
	for _, c := range cases {
		bodies[c.Name] = true
		if c.Family != "vectors" && c.Family != "mutations" && c.Family != "crvectors" {
			docs[c.Name] = true
		}
	}
	which := "every CR"
	if every > 1 {
		which = fmt.Sprintf("every %d-th CR of each family", every)
	}
	fmt.Fprintf(cfg.Out, "oracle: %d cases: %d corpus documents (%s of %s) and %d mutated or explicit bodies; JSON and YAML, Strict and Warn\n",
		len(cases), len(docs), which, cfg.Root, len(bodies)-len(docs))

	t0 := time.Now()
	s, err := Start(ctx, cfg.Bin, 3*time.Minute)
	if err != nil {
		return nil, err
	}
	defer func() {
		if serr := s.Stop(); serr != nil && err == nil {
			err = serr
		}
		fmt.Fprintf(cfg.Out, "oracle: stopped kube-apiserver pid %d\n", s.Pid())
	}()
	fmt.Fprintf(cfg.Out, "oracle: kube-apiserver v1.37.2 + etcd pid %d at %s ready after %v\n", s.Pid(), s.URL, time.Since(t0).Round(time.Millisecond))
	o, err := Setup(ctx, s, cfg.Root, cases)
	if err != nil {
		return nil, fmt.Errorf("setup: %w\n--- server log ---\n%s", err, s.LogTail(40))
	}
	res = &Result{CRDs: o.CRDs, Setup: time.Since(t0)}
	bad := 0
	for _, c := range o.CRDs {
		if c.Error != "" {
			bad++
			fmt.Fprintf(cfg.Out, "oracle: CRD %s not installed: %s\n", c.File, oneLine(c.Error))
		}
	}
	fmt.Fprintf(cfg.Out, "oracle: %d CRDs Established (%d refused), namespaces created, after %v\n", len(o.CRDs)-bad, bad, res.Setup.Round(time.Millisecond))
	t1 := time.Now()
	outs, err := o.RunAll(ctx, cases, cfg.Workers)
	if err != nil {
		return nil, fmt.Errorf("%w\n--- server log ---\n%s", err, s.LogTail(40))
	}
	res.Requests = time.Since(t1)
	res.Outcomes = outs
	fmt.Fprintf(cfg.Out, "oracle: %d requests in %v\n\n", len(outs), res.Requests.Round(time.Millisecond))
	res.Total = WriteTable(cfg.Out, outs)
	fmt.Fprintf(cfg.Out, "(identical: same status, same 400 message, same decoder Warning headers and the same object after the stated normalisations; %d of them only with numbers compared by value)\n", res.Total.NumberSpelling)
	WriteDifferences(cfg.Out, outs, cfg.DiffMax)
	res.Validation = WriteValidationTable(cfg.Out, outs, cfg.DiffMax)
	WriteOtherWarnings(cfg.Out, outs)
	if cfg.ReportFile != "" {
		if err := WriteReport(cfg.ReportFile, outs); err != nil {
			return res, err
		}
		fmt.Fprintf(cfg.Out, "oracle: wrote %s\n", cfg.ReportFile)
	}
	if cfg.VectorsFile != "" {
		if err := WriteVectors(cfg.VectorsFile, outs); err != nil {
			return res, err
		}
		fmt.Fprintf(cfg.Out, "oracle: wrote %s\n", cfg.VectorsFile)
	}
	return res, nil
}

// EnvRequire names the environment variable that makes a missing binary or
// corpus a failure instead of a skip (the make targets set it).
const EnvRequire = "JSONPRUNE_APISERVER"

// Required reports whether EnvRequire is set to 1.
func Required() bool { return os.Getenv(EnvRequire) == "1" }
