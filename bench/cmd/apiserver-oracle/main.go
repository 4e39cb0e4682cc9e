// Command apiserver-oracle compares jsonprune with a real kube-apiserver
// v1.37.2 (package bench/apiserver) on the shared corpus and prints the
// verdict table and every difference.
//
//	go run ./cmd/apiserver-oracle                 # the whole corpus, mutations, vectors
//	go run ./cmd/apiserver-oracle -every 4        # every 4th CR of each family
//	go run ./cmd/apiserver-oracle -vectors-out testdata/apiserver-vectors.jsonl
//
// The binary comes from `make oracle-apiserver-build` (bench/.cache) or
// $JSONPRUNE_APISERVER_BIN. It exits 1 when the server cannot start or a
// case cannot be run, 2 when there are differences not listed in
// testdata/apiserver-known-differences.txt (or a CRD the server refused)
// or value validation differs from the server's 422 causes, 0 otherwise. SIGINT
// and SIGTERM stop the server (by its process id) before exiting.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/jsonprune/jsonprune/bench/apiserver"
)

func main() {
	every := flag.Int("every", 1, "post every n-th CR of each family (1: all)")
	mutate := flag.Int("mutate", 8, "mutate every n-th posted CR of each family (0: none)")
	vectors := flag.Bool("vectors", true, "post the explicit vectors (issue 14's type-meta defects)")
	crvectors := flag.String("crvectors", filepath.Join("testdata", "crvectors.jsonl"), "also post the bodies of this crvectors file (\"\": none)")
	vectorsOut := flag.String("vectors-out", "", "write the vectors' server answers to this JSONL file")
	corpus := flag.String("corpus", filepath.Join("..", "..", "shared", "corpus"), "shared/corpus")
	workers := flag.Int("workers", 4, "requests in flight")
	report := flag.String("report", "", "write every outcome that is not identical to this JSONL file")
	knownFile := flag.String("known", filepath.Join("testdata", "apiserver-known-differences.txt"), "known differences, reported but not failing")
	diffMax := flag.Int("diff-max", 0, "differences listed per group (0: all)")
	flag.Parse()
	apiserver.QuietKlog()
	bin, err := apiserver.Binary(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "apiserver-oracle:", err)
		os.Exit(1)
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	res, err := apiserver.Run(ctx, apiserver.Config{Bin: bin, Root: *corpus, Every: *every, MutateEvery: *mutate,
		Vectors: *vectors, CRVectors: *crvectors, VectorsFile: *vectorsOut, Workers: *workers, ReportFile: *report, DiffMax: *diffMax, Out: os.Stdout})
	if err != nil {
		fmt.Fprintln(os.Stderr, "apiserver-oracle:", err)
		os.Exit(1)
	}
	known, err := apiserver.LoadKnown(*knownFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "apiserver-oracle:", err)
		os.Exit(1)
	}
	if bad := apiserver.Unexpected(res.Outcomes, known); len(bad) > 0 {
		fmt.Fprintf(os.Stderr, "apiserver-oracle: %d differences not in %s (or CRDs the server refused), e.g. %s\n", len(bad), *knownFile, apiserver.Key(bad[0]))
		os.Exit(2)
	}
	// value validation's differences fail the run as TestAPIServerOracle
	// fails on them
	if val := apiserver.ValidationDifferences(res.Outcomes); len(val) > 0 {
		fmt.Fprintf(os.Stderr, "apiserver-oracle: value validation differs from the server's in %d cases, e.g. %s [%s %s]\n", len(val), val[0].Case.Name, val[0].Case.Format(), val[0].Case.Mode)
		os.Exit(2)
	}
	fmt.Printf("apiserver-oracle: no difference beyond the %d known ones listed in %s\n", res.Total.Different, *knownFile)
}
