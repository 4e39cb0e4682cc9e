package apiserver

import (
	"bytes"
	"context"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// corpusRoot is shared/corpus beside the repository (as the other tests of
// bench/ find it).
func corpusRoot() string {
	if r := os.Getenv("JSONPRUNE_CORPUS"); r != "" {
		return r
	}
	return filepath.Join("..", "..", "..", "shared", "corpus")
}

func knownDifferences(t *testing.T) map[string]bool {
	m, err := LoadKnown(filepath.Join("..", "testdata", "apiserver-known-differences.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func key(o *Outcome) string { return Key(o) }

// TestAPIServerOracle is the CI sample of the oracle: every
// $JSONPRUNE_APISERVER_EVERY-th CR of each family (default 4: 624 of the
// 2,458 documents), mutations of every 8th of those, the explicit vectors
// and the bodies of testdata/crvectors.jsonl (the re-assembled oracle's
// vectors); JSON and YAML, Strict and Warn. A difference not listed in
// testdata/apiserver-known-differences.txt fails it. With
// JSONPRUNE_APISERVER_UPDATE=1 it rewrites testdata/apiserver-vectors.jsonl.
func TestAPIServerOracle(t *testing.T) {
	if os.Getenv(EnvRequire) == "0" || testing.Short() {
		t.Skipf("SKIP: the kube-apiserver oracle is off (%s=0 or -short)", EnvRequire)
	}
	bin, err := Binary("..")
	if err != nil {
		if Required() {
			t.Fatalf("%s=1: %v", EnvRequire, err)
		}
		t.Skipf("SKIP: %v (set %s=1 to make this a failure)", err, EnvRequire)
	}
	root := corpusRoot()
	if _, err := os.Stat(filepath.Join(root, "index.json")); err != nil {
		if Required() {
			t.Fatalf("%s=1: the shared corpus is not available: %v", EnvRequire, err)
		}
		t.Skipf("SKIP: the shared corpus is not available at %s: %v", root, err)
	}
	every := 4
	if s := os.Getenv("JSONPRUNE_APISERVER_EVERY"); s != "" {
		if every, err = strconv.Atoi(s); err != nil || every < 1 {
			t.Fatalf("JSONPRUNE_APISERVER_EVERY=%q: want a positive integer", s)
		}
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	ctx, cancel2 := context.WithTimeout(ctx, 20*time.Minute)
	defer cancel2()
	cfg := Config{Bin: bin, Root: root, Every: every, MutateEvery: 8, Vectors: true, Workers: 4, DiffMax: 0,
		CRVectors: filepath.Join("..", "testdata", "crvectors.jsonl"), Out: testWriter{t, new([]byte)}}
	cfg.ReportFile = os.Getenv("JSONPRUNE_APISERVER_REPORT")
	if os.Getenv("JSONPRUNE_APISERVER_UPDATE") == "1" {
		cfg.VectorsFile = filepath.Join("..", "testdata", "apiserver-vectors.jsonl")
	}
	res, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]bool{}
	for _, o := range res.Outcomes {
		if o.Case.Family != "vectors" && o.Case.Family != "mutations" && o.Case.Family != "crvectors" {
			docs[o.Case.Name] = true
		}
	}
	if len(docs) < 500 {
		t.Errorf("the sample has %d corpus documents; CI's sample must have at least 500", len(docs))
	}
	known := knownDifferences(t)
	for _, o := range Unexpected(res.Outcomes, known) {
		outcomeError(t, o)
	}
	for _, o := range res.Outcomes {
		if known[key(o)] && o.Verdict != Different {
			t.Logf("listed in apiserver-known-differences.txt but now %s: %s", o.Verdict, key(o))
		}
	}
	// value validation: the server's 422 causes and jsonprune's errors
	validationErrors(t, res.Outcomes)
	if res.Validation.Compared == 0 {
		t.Error("no request was compared for value validation")
	}
	t.Run("shapes", func(t *testing.T) { oracleShapes(ctx, t, bin) })
}

// oracleShapes posts the bodies of testdata/shapes, CRD shapes that the
// shared corpus has none of (scale paths inside values kept verbatim,
// where jsonprune's fast path once copied the values whole and missed
// them), each as JSON and YAML, Strict and Warn, to a server of their own:
// every outcome and every value validation must be the server's.
func oracleShapes(ctx context.Context, t *testing.T, bin string) {
	cfg := Config{Bin: bin, Root: filepath.Join("..", "testdata", "shapes"), Every: 1, Workers: 4, Out: testWriter{t, new([]byte)}}
	res, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, o := range res.Outcomes {
		switch o.Verdict {
		case Identical:
		case ServerInvalid:
			refused++
		default:
			outcomeError(t, o)
		}
	}
	validationErrors(t, res.Outcomes)
	// 32 bodies, 19 of them refused, each in 4 ways
	if len(res.Outcomes) != 128 || res.Validation.Compared != 128 || refused != 76 {
		t.Errorf("%d outcomes, %d compared for value validation, %d refused: want 128, 128 and 76 (testdata/shapes)", len(res.Outcomes), res.Validation.Compared, refused)
	}
}

// outcomeError reports an outcome that fails the oracle, both sides
// summed up.
func outcomeError(t *testing.T, o *Outcome) {
	t.Helper()
	t.Errorf("%s: %s [%s %s] %s\n  server:    %s\n  jsonprune: %s\n  %s", o.Verdict, o.Case.Name, o.Case.Format(), o.Case.Mode, o.Category, o.Server, o.JSONPrune, o.Detail)
}

// validationErrors reports each outcome whose value validation differs
// from the server's.
func validationErrors(t *testing.T, outs []*Outcome) {
	t.Helper()
	for _, o := range ValidationDifferences(outs) {
		t.Errorf("validation differs: %s [%s %s]\n  %s", o.Case.Name, o.Case.Format(), o.Case.Mode, o.ValidationDetail)
	}
}

// testWriter logs what Run writes, a line at a time.
type testWriter struct {
	t   *testing.T
	buf *[]byte
}

func (w testWriter) Write(p []byte) (int, error) {
	*w.buf = append(*w.buf, p...)
	for {
		i := bytes.IndexByte(*w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		w.t.Log(string((*w.buf)[:i]))
		*w.buf = (*w.buf)[i+1:]
	}
}

// TestRecordedVectors replays testdata/apiserver-vectors.jsonl, the real
// server's answers to the explicit vectors (issue 14's type-meta defects
// and mutations), against jsonprune without a server. Differences not in
// testdata/apiserver-known-differences.txt fail it.
func TestRecordedVectors(t *testing.T) {
	root := corpusRoot()
	if _, err := os.Stat(filepath.Join(root, "index.json")); err != nil {
		t.Skipf("SKIP: the shared corpus is not available at %s: %v", root, err)
	}
	cases, resps, recs, err := ReadVectors(filepath.Join("..", "testdata", "apiserver-vectors.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no recorded vectors")
	}
	o := &Oracle{Root: root}
	known := knownDifferences(t)
	var outs []*Outcome
	for i := range cases {
		out, err := o.Replay(&cases[i], resps[i])
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
		switch {
		case out.Verdict == Different && !known[key(out)]:
			t.Errorf("new difference: %s [%s %s] %s\n  server:    %s\n  jsonprune: %s\n  %s", out.Case.Name, out.Case.Format(), out.Case.Mode, out.Category, out.Server, out.JSONPrune, out.Detail)
		case out.Verdict != Different && known[key(out)]:
			t.Logf("listed in apiserver-known-differences.txt but now %s: %s", out.Verdict, key(out))
		}
		if out.Verdict != recs[i].Verdict {
			t.Logf("%s [%s %s]: %s when recorded, %s now", out.Case.Name, out.Case.Format(), out.Case.Mode, recs[i].Verdict, out.Verdict)
		}
	}
	var b strings.Builder
	WriteTable(&b, outs)
	t.Log("\n" + b.String())
}

// TestMain silences klog: the warning recorder that recorderHeaders runs
// logs "exceeded max warning header size, truncating" through it.
func TestMain(m *testing.M) {
	QuietKlog()
	os.Exit(m.Run())
}
