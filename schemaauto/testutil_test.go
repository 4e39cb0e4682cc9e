package schemaauto

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedDir is ../shared beside the checkout, where the corpus lives.
const sharedDir = "../../shared"

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// requireShared skips the test, saying why, when ../shared is absent.
func requireShared(t testing.TB, sub string) string {
	t.Helper()
	p := filepath.Join(sharedDir, sub)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("SKIP: %s not found (the shared corpus must sit beside the checkout as ../shared): %v", p, err)
	}
	return p
}
