package conformance

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/bench/oracle"
	"github.com/jsonprune/jsonprune/schemaauto"
	sigsyaml "sigs.k8s.io/yaml"
)

const (
	sharedCorpus = "../../../shared/corpus/crds"
	casesDir     = "../../schemaauto/testdata/structural/cases"
)

func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".json")) {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestStructuralDifferential runs every CRD of the shared corpus and every
// structural test case (as a CRD, or wrapped in one) through the real
// ValidateCustomResourceDefinition and through schemaauto's CRD.Validate,
// and compares the schema-related messages. Messages whose order the
// reference leaves to Go map iteration are compared as sets when the two
// lists differ only in order and the reference itself reorders them.
func TestStructuralDifferential(t *testing.T) {
	var inputs []string
	if _, err := os.Stat(sharedCorpus); err == nil {
		inputs = append(inputs, files(t, sharedCorpus)...)
	} else {
		t.Logf("SKIP corpus part: %s not found (../shared must sit beside the checkout)", sharedCorpus)
	}
	inputs = append(inputs, files(t, casesDir)...)

	compared, exact, unordered := 0, 0, 0
	for _, f := range inputs {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		isCRD := strings.Contains(string(data), "kind: CustomResourceDefinition") || strings.Contains(string(data), `"CustomResourceDefinition"`)
		if !isCRD {
			data = wrapSchema(data)
		}
		want, err := oracle.CRDViolations(data)
		if err != nil {
			// the reference's strict reading refused the file; so must we
			if _, ours := schemaauto.ParseCRDs(data); ours == nil {
				t.Errorf("%s: the reference refuses it (%v), jsonprune reads it", f, err)
			}
			continue
		}
		want = oracle.FilterSchemaErrors(want)
		crds, err := schemaauto.ParseCRDs(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		var got []string
		for _, c := range crds {
			got = append(got, c.Validate().Strings()...)
		}
		compared++
		switch {
		case slices.Equal(got, want):
			exact++
		case slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) && reordered(data, want):
			unordered++
		default:
			t.Errorf("%s:\n got %s\nwant %s", f, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
		}
	}
	t.Logf("compared %d CRDs: %d identical, %d identical up to the reference's random order", compared, exact, unordered)
}

// reordered reports whether the reference itself returns the messages of
// data in another order on some run (Go map iteration).
func reordered(data []byte, first []string) bool {
	for range 200 {
		again, err := oracle.CRDViolations(data)
		if err != nil {
			return false
		}
		if !slices.Equal(oracle.FilterSchemaErrors(again), first) {
			return true
		}
	}
	return false
}

// wrapSchema makes a bare schema the single version of a minimal valid v1
// CRD, as bench/cmd/golden does for its "asCRD" records.
func wrapSchema(schema []byte) []byte {
	js, err := sigsyaml.YAMLToJSON(schema)
	if err != nil {
		return schema // not a schema; both sides will refuse it
	}
	return []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.example.com"},
"spec":{"group":"example.com","scope":"Namespaced",
"names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":` + string(js) + `}}]}}`)
}
