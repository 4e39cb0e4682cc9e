package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestGoldenUpToDate regenerates the golden files into a temporary directory and compares them
// with the checked-in ones. corpus.json is compared only when the corpus is present.
func TestGoldenUpToDate(t *testing.T) {
	const testdata = "../../../schemaauto/testdata/structural"
	corpus := "../../../../shared/corpus"
	if _, err := os.Stat(filepath.Join(corpus, "crds")); err != nil {
		corpus = ""
	}
	if testing.Short() {
		corpus = ""
	}
	out := t.TempDir()
	if err := generate(filepath.Join(testdata, "cases"), out, corpus, io.Discard); err != nil {
		t.Fatal(err)
	}
	names := []string{"golden.json"}
	if corpus != "" {
		names = append(names, "corpus.json")
	}
	for _, name := range names {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(testdata, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is out of date: run `go run ./cmd/golden` in bench/", name)
		}
	}
}
