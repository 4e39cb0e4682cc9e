package schemaauto

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// corpusCRDFiles lists every CRD file of ../shared/corpus/crds, sorted.
func corpusCRDFiles(t testing.TB) []string {
	dir := requireShared(t, "corpus/crds")
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json")) {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatalf("no CRD files under %s", dir)
	}
	return files
}

// TestCorpusCRDs walks every CRD of the shared corpus: each must load and
// either compile or be reported non-structural with exactly the messages
// the Kubernetes oracle printed for it (testdata/structural/corpus.json,
// made by bench/cmd/golden from the real apiextensions-apiserver).
func TestCorpusCRDs(t *testing.T) {
	files := corpusCRDFiles(t)
	var golden []struct {
		Case       string   `json:"case"`
		Violations []string `json:"violations"`
	}
	if err := json.Unmarshal(readFile(t, "testdata/structural/corpus.json"), &golden); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	for _, g := range golden {
		want[g.Case] = g.Violations
	}
	var compiled, versions, states, nonStructural int
	for _, f := range files {
		rel, _ := filepath.Rel(filepath.Join(sharedDir, "corpus"), f)
		rel = filepath.ToSlash(rel)
		crds, err := ParseCRDs(readFile(t, f))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		w, ok := want[rel]
		if !ok {
			t.Errorf("%s: not in testdata/structural/corpus.json; regenerate it with bench/cmd/golden", rel)
		}
		var got []string
		for _, c := range crds {
			got = append(got, c.Validate().Strings()...)
		}
		if strings.Join(got, "\n") != strings.Join(w, "\n") {
			t.Errorf("%s: violations\n got %q\nwant %q", rel, got, w)
		}
		set, err := CompileCRDs(crds)
		if len(w) > 0 {
			nonStructural++
			if err == nil {
				t.Errorf("%s: non-structural CRD compiled", rel)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		compiled++
		for _, e := range set.Entries() {
			versions++
			states += e.Automaton.NumStates()
		}
	}
	t.Logf("corpus: %d CRD files, %d compiled (%d versions, %d states), %d non-structural", len(files), compiled, versions, states, nonStructural)
	if compiled+nonStructural != len(files) {
		t.Errorf("only %d of %d corpus CRDs accounted for", compiled+nonStructural, len(files))
	}
}
