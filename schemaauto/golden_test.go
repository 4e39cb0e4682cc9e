package schemaauto

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// goldenCase is one record of testdata/structural/golden.json, written by
// bench/cmd/golden from the real k8s.io/apiextensions-apiserver.
type goldenCase struct {
	Case               string   `json:"case"`
	Kind               string   `json:"kind"` // "schema" or "crd"
	Violations         []string `json:"violations"`
	NewStructuralError string   `json:"newStructuralError"`
	AsCRD              []string `json:"asCRD"`
	Strict             []string `json:"strict"`
	Nondeterministic   bool     `json:"nondeterministicOrder"`
}

// TestGoldenStructural compares jsonprune's structural check with the
// Kubernetes oracle on every case of testdata/structural/cases: for a bare
// schema, NewStructural's error and ValidateStructural's list; the same
// schema as the single version of a v1 CRD, the full CRD validation's
// schema-related list; for a CRD case, that list.
func TestGoldenStructural(t *testing.T) {
	var golden []goldenCase
	if err := json.Unmarshal(readFile(t, "testdata/structural/golden.json"), &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden) == 0 {
		t.Fatal("no golden cases")
	}
	same := func(got, want []string, unordered bool) bool {
		if unordered {
			got, want = slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
		}
		return strings.Join(got, "\n") == strings.Join(want, "\n")
	}
	for _, g := range golden {
		t.Run(strings.TrimSuffix(g.Case, ".yaml"), func(t *testing.T) {
			data := readFile(t, filepath.Join("testdata/structural/cases", g.Case))
			if len(g.Strict) > 0 {
				// the oracle's strict YAML reading rejects the file
				_, err := parseDocuments(data)
				if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(g.Strict[0], "yaml: unmarshal errors:\n")) {
					t.Errorf("strict YAML: got %v, want an error with %q", err, g.Strict)
				}
				return
			}
			if g.Kind == "crd" {
				crds, err := ParseCRDs(data)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, c := range crds {
					got = append(got, c.Validate().Strings()...)
				}
				if !same(got, g.Violations, g.Nondeterministic) {
					t.Errorf("CRD violations\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(g.Violations, "\n     "))
				}
				return
			}
			s, err := ParseSchema(data)
			if err != nil {
				t.Fatal(err)
			}
			nsErr := ""
			if err := newStructuralError(s); err != nil {
				nsErr = err.Error()
			}
			if nsErr != g.NewStructuralError {
				t.Errorf("NewStructural error\n got %q\nwant %q", nsErr, g.NewStructuralError)
			}
			if nsErr == "" {
				got := ValidateStructural(jperrors.NewFieldPath("openAPIV3Schema"), s).Strings()
				if !same(got, g.Violations, false) {
					t.Errorf("ValidateStructural\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(g.Violations, "\n     "))
				}
			}
			c := &CRD{APIVersion: crdV1, Name: "widgets.example.com", Group: "example.com", Kind: "Widget",
				Versions: []*Version{{Name: "v1", Served: true, Storage: true, Schema: s}}}
			if got := c.Validate().Strings(); !same(got, g.AsCRD, g.Nondeterministic) {
				t.Errorf("as a CRD\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(g.AsCRD, "\n     "))
			}
		})
	}
}
