package main

import (
	"bytes"
	"os"
	"testing"
)

// The checked-in sample must be what the tool makes now (the Kubernetes modules, the oracle
// and the generator all feed into it). Regenerate with:
//
//	go run ./cmd/crvectors -every 25 -out testdata/crvectors.jsonl
func TestSampleUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	const corpus = "../../../../shared/corpus"
	if _, err := os.Stat(corpus + "/index.json"); err != nil {
		t.Skip("no corpus:", err)
	}
	want, err := os.ReadFile("../../testdata/crvectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := run(&got, corpus, 4, 1, 1, 25, 3, []string{"Strict"}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("testdata/crvectors.jsonl is out of date (%d bytes now, %d checked in); regenerate it", got.Len(), len(want))
	}
}
