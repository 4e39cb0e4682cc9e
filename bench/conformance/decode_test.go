package conformance

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jsonprune/jsonprune/bench/gen"
	"github.com/jsonprune/jsonprune/bench/oracle"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
	sigsyaml "sigs.k8s.io/yaml"
)

const corpusRoot = "../../../shared/corpus"

// pair is one CRD and a body to decode against it.
type pair struct {
	name string
	crd  string // file under the corpus
	body []byte
}

// side holds both implementations for one CRD.
type side struct {
	oracle *oracle.CRDecoder
	set    *schemaauto.Set
}

type comparison struct {
	compared, identical int
	intended            map[string]int // intended differences, by reason
}

// compareOne decodes body with both and compares the kept object, the
// strict findings (texts and order) and fatal errors.
func (c *comparison) compareOne(t *testing.T, name string, s side, body []byte, mode string) {
	t.Helper()
	want, err := s.oracle.Decode(body, oracle.CROptions{FieldValidation: mode})
	if err != nil {
		t.Fatalf("%s: oracle: %v", name, err)
	}
	m, _ := decoder.ParseMode(mode)
	d := must(decoder.New(s.set, decoder.FieldValidation(m)))
	if badUTF8(body) {
		// jsonprune rejects invalid UTF-8 (and lone surrogates) by default;
		// with AllowInvalidUTF8 it replaces them as the reference does
		if _, err := d.DecodeMap(body); err != nil && strings.Contains(err.Error(), "invalid") {
			c.intended["invalid UTF-8 is an error by default"]++
		}
		d = must(decoder.New(s.set, decoder.FieldValidation(m), decoder.AllowInvalidUTF8(true)))
	}
	got, gotErr := d.DecodeMap(body)
	var findings []string
	var strict *jperrors.StrictError
	if errors.As(gotErr, &strict) {
		for _, f := range strict.Findings {
			findings = append(findings, f.Message())
		}
		gotErr = nil
	} else if gotErr == nil {
		for _, f := range d.Result().Findings() {
			findings = append(findings, f.Message())
		}
	}
	c.compared++

	// fatal errors
	if want.FatalRaw != "" || gotErr != nil {
		var de *jperrors.DecodeError
		switch {
		case gotErr == nil:
			t.Errorf("%s: the reference fails (%s), jsonprune does not\n%.500s", name, want.FatalRaw, body)
		case want.FatalRaw == "":
			t.Errorf("%s: jsonprune fails (%v), the reference does not\n%.500s", name, gotErr, body)
		case errors.As(gotErr, &de) && de.Msg == strings.TrimPrefix(want.FatalRaw, "couldn't get version/kind; json parse error: ") && !isSyntax(want.FatalRaw):
			c.identical++
		case errors.As(gotErr, &de) && de.Msg == want.FatalRaw:
			c.identical++
		case isSyntax(want.FatalRaw) && strings.HasPrefix(de.Msg, "invalid JSON"):
			c.intended["syntax error texts are jsontext's, with a position"]++
		default:
			t.Errorf("%s: fatal error\n got %v\nwant %s\n%.500s", name, gotErr, want.FatalRaw, body)
		}
		return
	}

	// findings
	if strings.Join(findings, "\n") != strings.Join(want.Strict, "\n") {
		t.Errorf("%s: findings\n got %q\nwant %q\n%.500s", name, findings, want.Strict, body)
		return
	}
	// the kept object (in Strict mode with findings jsonprune writes nothing;
	// the map is compared in Warn mode)
	if mode != "Strict" || len(findings) == 0 {
		if !reflect.DeepEqual(normalize(got), normalize(want.Object)) {
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(want.Object)
			t.Errorf("%s: object\n got %s\nwant %s", name, gj, wj)
			return
		}
	}
	c.identical++
}

// badUTF8 reports invalid UTF-8 or a surrogate escape in a body.
func badUTF8(b []byte) bool {
	return !utf8.Valid(b) || strings.Contains(strings.ToLower(string(b)), `\ud8`) || strings.Contains(strings.ToLower(string(b)), `\ud9`) ||
		strings.Contains(strings.ToLower(string(b)), `\uda`) || strings.Contains(strings.ToLower(string(b)), `\udb`) ||
		strings.Contains(strings.ToLower(string(b)), `\udc`) || strings.Contains(strings.ToLower(string(b)), `\udd`) ||
		strings.Contains(strings.ToLower(string(b)), `\ude`) || strings.Contains(strings.ToLower(string(b)), `\udf`)
}

// isSyntax reports a JSON syntax error of the reference's pre-scan.
func isSyntax(msg string) bool {
	return strings.HasPrefix(msg, "couldn't get version/kind; json parse error: invalid character") ||
		strings.Contains(msg, "unexpected end of JSON input")
}

// normalize makes both sides' values comparable (nil maps, number types).
func normalize(v any) any {
	b, _ := json.Marshal(v)
	var out any
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	dec.Decode(&out)
	return out
}

func loadPairs(t *testing.T) ([]pair, map[string]side) {
	idx, err := os.ReadFile(filepath.Join(corpusRoot, "index.json"))
	if err != nil {
		t.Skipf("SKIP: the shared corpus is not available at %s: %v", corpusRoot, err)
	}
	var index struct {
		CRs []struct{ File, CRD string } `json:"crs"`
	}
	if err := json.Unmarshal(idx, &index); err != nil {
		t.Fatal(err)
	}
	sides := map[string]side{}
	var pairs []pair
	for _, cr := range index.CRs {
		if _, ok := sides[cr.CRD]; !ok {
			data, err := os.ReadFile(filepath.Join(corpusRoot, cr.CRD))
			if err != nil {
				t.Fatal(err)
			}
			o, err := oracle.NewCRDecoder(data)
			if err != nil {
				t.Fatalf("%s: %v", cr.CRD, err)
			}
			crds, err := schemaauto.ParseCRDs(data)
			if err != nil {
				t.Fatal(err)
			}
			set, err := schemaauto.CompileCRDs(crds)
			if err != nil {
				t.Fatal(err)
			}
			sides[cr.CRD] = side{o, set}
		}
		y, err := os.ReadFile(filepath.Join(corpusRoot, cr.File))
		if err != nil {
			t.Fatal(err)
		}
		body, err := sigsyaml.YAMLToJSON(y)
		if err != nil {
			t.Fatalf("%s: %v", cr.File, err)
		}
		pairs = append(pairs, pair{cr.File, cr.CRD, body})
	}
	return pairs, sides
}

// TestDecodeCorpusDifferential decodes every corpus CR (as JSON) with the
// API server's chain and with jsonprune, in Warn and Strict mode.
func TestDecodeCorpusDifferential(t *testing.T) {
	pairs, sides := loadPairs(t)
	c := &comparison{intended: map[string]int{}}
	for _, p := range pairs {
		for _, mode := range []string{"Warn", "Strict"} {
			c.compareOne(t, p.name+" ("+mode+")", sides[p.crd], p.body, mode)
		}
	}
	t.Logf("corpus: %d comparisons, %d identical, intended differences %v", c.compared, c.identical, c.intended)
}

// schemaFor returns the generator's view of a CRD version's schema.
func schemaFor(t *testing.T, o *oracle.CRDecoder, version string) *gen.Schema {
	js, err := o.SchemaJSON(version)
	if err != nil || js == nil {
		return nil
	}
	s, err := gen.ParseSchema(js)
	if err != nil {
		t.Fatalf("gen.ParseSchema: %v", err)
	}
	return s
}

func versionOf(body []byte) string {
	var tm struct{ APIVersion string }
	json.Unmarshal(body, &tm)
	if i := strings.LastIndexByte(tm.APIVersion, '/'); i >= 0 {
		return tm.APIVersion[i+1:]
	}
	return tm.APIVersion
}

// TestDecodeMutationDifferential mutates every corpus CR with the seeded
// generator (unknown fields at every depth, duplicates, case variants,
// escaped keys, nulls, wrong types, metadata junk, embedded resources,
// numbers, syntax damage) and compares both implementations on each.
func TestDecodeMutationDifferential(t *testing.T) {
	pairs, sides := loadPairs(t)
	perDoc := 6
	if testing.Short() {
		perDoc = 2
	}
	g := gen.New(20261122)
	c := &comparison{intended: map[string]int{}}
	families := map[string]int{}
	for _, p := range pairs {
		s := sides[p.crd]
		sch := schemaFor(t, s.oracle, versionOf(p.body))
		if sch == nil {
			continue
		}
		muts, err := g.Mutate(p.body, sch, perDoc)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		for _, m := range muts {
			families[m.Kind]++
			c.compareOne(t, p.name+" ["+m.Kind+": "+m.Detail+"]", s, m.Body, "Warn")
		}
	}
	t.Logf("mutations: %d comparisons, %d identical, intended differences %v; families %v", c.compared, c.identical, c.intended, families)
}

// TestDecodeInstanceDifferential generates instances of every corpus CRD's
// served versions and compares both implementations on each.
func TestDecodeInstanceDifferential(t *testing.T) {
	_, sides := loadPairs(t)
	g := gen.New(7)
	c := &comparison{intended: map[string]int{}}
	for name, s := range sides {
		for _, v := range s.oracle.Served {
			sch := schemaFor(t, s.oracle, v)
			if sch == nil {
				continue
			}
			for i := range 3 {
				body := g.Instance(sch, s.oracle.Group+"/"+v, s.oracle.Kind)
				c.compareOne(t, name+" "+v+" #"+itoa(i), s, body, "Warn")
			}
		}
	}
	t.Logf("instances: %d comparisons, %d identical, intended differences %v", c.compared, c.identical, c.intended)
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// must returns v, panicking on err: for constructors whose options are
// known to be good.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
