// Command golden runs the Kubernetes oracle (package oracle) over the structural-schema test
// vectors and the CRD corpus and writes golden files:
//
//	<out>/golden.json  one record per file of <cases> (sorted by file name)
//	<out>/corpus.json  one record per CRD file under <corpus>/crds (sorted by path)
//
// Run it from the bench directory: go run ./cmd/golden. See bench/README.md for the record format.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jsonprune/jsonprune/bench/oracle"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	sigsyaml "sigs.k8s.io/yaml"
)

// Record is one entry of golden.json / corpus.json.
type Record struct {
	// Case is the file name (golden.json) or the path relative to the corpus root (corpus.json).
	Case string `json:"case"`
	// Kind is "schema" (a bare JSONSchemaProps) or "crd".
	Kind string `json:"kind"`
	// DecodeError is set when the file could not be decoded at all (no other field is then set).
	DecodeError string `json:"decodeError,omitempty"`
	// Violations: for "schema", ValidateStructural(openAPIV3Schema) messages in returned order;
	// for "crd", the ValidateCustomResourceDefinition messages whose path starts with
	// spec.validation, spec.versions[ or spec.preserveUnknownFields, in ErrorList order.
	Violations []string `json:"violations"`
	// NewStructuralError: for "schema", NewStructural's error (Violations is then empty);
	// for "crd", one "<version>: <error>" line per version whose schema NewStructural rejects.
	NewStructuralError string `json:"newStructuralError,omitempty"`
	// AsCRD ("schema" only): the filtered ValidateCustomResourceDefinition messages when the schema
	// is wrapped in a minimal valid single-version v1 CRD (so paths are spec.validation...).
	AsCRD []string `json:"asCRD,omitempty"`
	// All: for "crd", the unfiltered ValidateCustomResourceDefinition messages; for "schema", the
	// unfiltered messages of the AsCRD wrapper, only when some of them are not schema messages.
	All []string `json:"all,omitempty"`
	// Strict: what the strict serializer (fieldValidation=Warn/Strict) reports while decoding
	// the file: YAML duplicate keys, duplicate and unknown fields. Not part of validation.
	Strict []string `json:"strict,omitempty"`
	// NondeterministicOrder: repeated runs returned the CRD messages in different orders (Go map
	// iteration in CRD OpenAPI/default validation); Violations, AsCRD and All are then sorted.
	NondeterministicOrder bool `json:"nondeterministicOrder,omitempty"`
}

var (
	casesDir  = flag.String("cases", "../schemaauto/testdata/structural/cases", "directory of case files")
	outDir    = flag.String("out", "../schemaauto/testdata/structural", "directory for golden.json and corpus.json")
	corpusDir = flag.String("corpus", "../../shared/corpus", "corpus root (CRDs are read from <corpus>/crds); empty to skip")
	caseRuns  = flag.Int("case-runs", 200, "validation runs per case with 2+ CRD messages, to detect nondeterministic order")
	corpRuns  = flag.Int("corpus-runs", 20, "validation runs per corpus CRD with 2+ messages, to detect nondeterministic order")
	workers   = flag.Int("j", runtime.GOMAXPROCS(0), "parallel workers")
)

func main() {
	flag.Parse()
	if err := generate(*casesDir, *outDir, *corpusDir, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "golden:", err)
		os.Exit(1)
	}
}

// generate writes golden.json (and corpus.json unless corpusDir is empty) into outDir.
func generate(casesDir, outDir, corpusDir string, log io.Writer) error {
	start := time.Now()
	caseFiles, err := listFiles(casesDir)
	if err != nil {
		return err
	}
	caseRecs := run(caseFiles, casesDir, *caseRuns, true)
	if err := writeJSON(filepath.Join(outDir, "golden.json"), caseRecs); err != nil {
		return err
	}
	fmt.Fprintf(log, "golden.json: %d cases (%s)\n", len(caseRecs), time.Since(start).Round(time.Millisecond))

	if corpusDir != "" {
		t := time.Now()
		corpFiles, err := listFiles(filepath.Join(corpusDir, "crds"))
		if err != nil {
			return err
		}
		for i := range corpFiles {
			corpFiles[i] = filepath.ToSlash(filepath.Join("crds", corpFiles[i]))
		}
		corpRecs := run(corpFiles, corpusDir, *corpRuns, false)
		if err := writeJSON(filepath.Join(outDir, "corpus.json"), corpRecs); err != nil {
			return err
		}
		n := 0
		for _, r := range corpRecs {
			if len(r.Violations) > 0 || r.DecodeError != "" || r.NewStructuralError != "" {
				n++
			}
		}
		fmt.Fprintf(log, "corpus.json: %d CRDs, %d with schema violations or errors (%s)\n", len(corpRecs), n, time.Since(t).Round(time.Millisecond))
	}
	fmt.Fprintf(log, "total %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "golden:", err)
		os.Exit(1)
	}
}

// listFiles returns the .yaml/.yml/.json files under dir, relative to dir, sorted.
func listFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".yaml", ".yml", ".json":
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// run evaluates every file with a pool of workers; the result keeps the order of files.
func run(files []string, root string, runs int, withAsCRD bool) []Record {
	recs := make([]Record, len(files))
	idx := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, *workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range idx {
				data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(files[i])))
				if err != nil {
					check(err)
				}
				recs[i] = evaluate(files[i], data, runs, withAsCRD)
			}
		}()
	}
	for i := range files {
		idx <- i
	}
	close(idx)
	wg.Wait()
	return recs
}

func isCRD(data []byte) bool {
	var head struct {
		Kind string `json:"kind"`
	}
	if err := sigsyaml.Unmarshal(data, &head); err != nil {
		return false
	}
	return head.Kind == "CustomResourceDefinition"
}

func evaluate(name string, data []byte, runs int, withAsCRD bool) Record {
	if isCRD(data) {
		return evaluateCRD(name, data, runs)
	}
	rec := Record{Case: name, Kind: "schema", Violations: []string{}}
	props, strict, err := oracle.DecodeSchema(data)
	if err != nil {
		rec.DecodeError = err.Error()
		rec.Violations = nil
		return rec
	}
	rec.Strict = strict
	msgs := oracle.ValidateDecodedSchema(props)
	if len(msgs) == 1 && strings.HasPrefix(msgs[0], oracle.NewStructuralErrorPrefix) {
		rec.NewStructuralError = strings.TrimPrefix(msgs[0], oracle.NewStructuralErrorPrefix)
	} else {
		rec.Violations = msgs
	}
	if withAsCRD {
		wrapped, err := wrapInCRD(data)
		check(err)
		crd, _, err := oracle.DecodeCRD(wrapped)
		check(err)
		all, nondet := stableMessages(crd, runs)
		rec.AsCRD = oracle.FilterSchemaErrors(all)
		if rec.AsCRD == nil {
			rec.AsCRD = []string{}
		}
		rec.NondeterministicOrder = nondet
		if extra := slices.DeleteFunc(slices.Clone(all), oracle.IsSchemaMessage); len(extra) > 0 {
			// The wrapper is otherwise valid, so this is unexpected: show everything.
			rec.All = all
		}
	}
	return rec
}

func evaluateCRD(name string, data []byte, runs int) Record {
	rec := Record{Case: name, Kind: "crd", Violations: []string{}}
	crd, strict, err := oracle.DecodeCRD(data)
	if err != nil {
		rec.DecodeError = err.Error()
		rec.Violations = nil
		return rec
	}
	rec.Strict = strict
	all, nondet := stableMessages(crd, runs)
	rec.All = all
	rec.NondeterministicOrder = nondet
	rec.Violations = oracle.FilterSchemaErrors(all)
	if rec.Violations == nil {
		rec.Violations = []string{}
	}
	schemas, err := oracle.StructuralSchemasOf(crd)
	if err != nil {
		rec.NewStructuralError = "StructuralSchemas: " + err.Error()
	} else {
		rec.NewStructuralError = strings.Join(schemas.NewStructuralErrors(), "\n")
	}
	return rec
}

// stableMessages validates a decoded CRD up to runs times (only once if it has fewer than two
// messages); if the order changes between runs it returns the messages sorted, and true.
func stableMessages(crd *apiextensions.CustomResourceDefinition, runs int) ([]string, bool) {
	all := oracle.Messages(oracle.ValidateDecodedCRD(crd))
	if len(all) < 2 {
		return all, false
	}
	for r := 1; r < runs; r++ {
		if again := oracle.Messages(oracle.ValidateDecodedCRD(crd)); !slices.Equal(all, again) {
			slices.Sort(all)
			return all, true
		}
	}
	return all, false
}

// wrapInCRD puts a bare schema into a minimal, otherwise valid, single-version v1 CRD.
func wrapInCRD(schemaYAML []byte) ([]byte, error) {
	js, err := sigsyaml.YAMLToJSON(schemaYAML)
	if err != nil {
		return nil, err
	}
	crd := fmt.Sprintf(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.example.com"},
"spec":{"group":"example.com","scope":"Namespaced",
"names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":%s}}]}}`, js)
	return []byte(crd), nil
}

// writeJSON writes records as a JSON array, one record per line when it is short (up to
// compactWidth bytes) and indented with one message per line otherwise.
func writeJSON(path string, recs []Record) error {
	const compactWidth = 200
	var buf bytes.Buffer
	buf.WriteString("[\n")
	for i, r := range recs {
		compact, err := marshal(r, "")
		if err != nil {
			return err
		}
		buf.WriteString("  ")
		if len(compact) <= compactWidth {
			buf.Write(compact)
		} else {
			indented, err := marshal(r, "  ")
			if err != nil {
				return err
			}
			buf.Write(indented)
		}
		if i < len(recs)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("]\n")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func marshal(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if prefix != "" {
		enc.SetIndent(prefix, "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
