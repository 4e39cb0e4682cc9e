package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ETreeMemory runs the binary on the shared corpus as a GitOps tree
// (every CRD under --crd, every custom resource a file of its own): the
// CRDs compile on first use, so memory follows the CRDs a run uses, not the
// CRDs it is given, and each small input file costs a read window its size.
func TestE2ETreeMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	corpus := "../../../shared/corpus"
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("the shared corpus is missing (%v): clone it beside the checkout as ../shared", err)
	}
	crds, crs := filepath.Join(corpus, "crds"), filepath.Join(corpus, "crs")
	one, err := filepath.Glob(filepath.Join(crs, "cert-manager", "*.yaml"))
	if err != nil || len(one) == 0 {
		t.Fatalf("no cert-manager resource: %v", err)
	}
	// every CRD and one small input: one CRD compiled (all of them: 450 MiB)
	r := runBinary(t, nil, "--crd", crds, "-o", "none", one[0])
	if r.maxRSS == 0 || r.maxRSS > 48<<10 || strings.Contains(r.err, "internal error") {
		t.Errorf("one input: exit %d, peak RSS %d KiB; %s", r.code, r.maxRSS, r.err)
	}
	t.Logf("every CRD, one input: peak RSS %d KiB", r.maxRSS)
	// the whole tree: 222 of the 252 CRDs used, some 6 MiB of CRD text
	// compiled at a time (820 MiB before CRDs compiled lazily)
	r = runBinary(t, nil, "--crd", crds, "-R", crs, "--field-validation", "Strict", "-o", "none", "-q")
	if r.code != exitFindings || r.maxRSS == 0 || r.maxRSS > 160<<10 || strings.Contains(r.err, "internal error") {
		t.Errorf("tree: exit %d, peak RSS %d KiB", r.code, r.maxRSS)
	}
	t.Logf("the tree: peak RSS %d KiB", r.maxRSS)
}
