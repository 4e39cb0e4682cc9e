package gen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/bench/gen"
	"github.com/jsonprune/jsonprune/bench/oracle"
)

func widget(t *testing.T) (*oracle.CRDecoder, *gen.Schema) {
	t.Helper()
	data, err := os.ReadFile("../oracle/testdata/widget-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d, err := oracle.NewCRDecoder(data)
	if err != nil {
		t.Fatal(err)
	}
	js, err := d.SchemaJSON("v1")
	if err != nil {
		t.Fatal(err)
	}
	s, err := gen.ParseSchema(js)
	if err != nil {
		t.Fatal(err)
	}
	return d, s
}

func TestParseWriteRoundTrip(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `{"a":1,"a":2,"priv\u0069leged":true,"k` + "\xff" + `":"v\ud800","":null,"n":-0.0e+1}`,
		`[1,[2,[3,{"x":[]}]],"\"\\\/\b\f\n\r\t"]`,
	} {
		n, err := gen.Parse([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if out := n.String(); out != in {
			t.Errorf("round trip:\n got %s\nwant %s", out, in)
		}
	}
	for _, bad := range []string{`{"a":1,}`, `{"a" 1}`, `{'a':1}`, `[1]x`, `{"a":"` + "\t" + `"}`, ``} {
		if _, err := gen.Parse([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if got := gen.QuoteEscaped("privileged", func(i int, _ rune) bool { return i == 4 }); got != `"priv\u0069leged"` {
		t.Errorf("QuoteEscaped: %s", got)
	}
	if got := gen.QuoteEscaped("a😀", func(int, rune) bool { return true }); got != `"\u0061\ud83d\ude00"` {
		t.Errorf("QuoteEscaped: %s", got)
	}
}

func TestDeterministic(t *testing.T) {
	_, s := widget(t)
	run := func(seed int64) string {
		g := gen.New(seed)
		var b bytes.Buffer
		for range 5 {
			inst := g.Instance(s, "example.com/v1", "Widget")
			b.Write(inst)
			ms, err := g.Mutate(inst, s, 10)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range ms {
				fmt.Fprintf(&b, "\n%s %s %s", m.Kind, m.Detail, m.Body)
			}
			ms, err = g.MutateSyntax(inst, 3)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range ms {
				fmt.Fprintf(&b, "\n%s %s %q", m.Kind, m.Detail, m.Body)
			}
		}
		return b.String()
	}
	a, b, c := run(1), run(1), run(2)
	if a != b {
		t.Fatal("same seed, different output")
	}
	if a == c {
		t.Fatal("different seeds, same output")
	}
}

// Instances of the Widget schema decode without errors, and cover the schema's features.
func TestInstancesAreValid(t *testing.T) {
	d, s := widget(t)
	seen := map[string]bool{}
	for seed := range int64(200) {
		g := gen.New(seed)
		body := g.Instance(s, "example.com/v1", "Widget")
		if !json.Valid(body) {
			t.Fatalf("seed %d: invalid JSON %s", seed, body)
		}
		res, err := d.Decode(body, oracle.CROptions{FieldValidation: oracle.FieldValidationStrict})
		if err != nil {
			t.Fatal(err)
		}
		if res.FatalRaw != "" || len(res.Strict) != 0 {
			t.Fatalf("seed %d: %s\nfatal %q strict %q", seed, body, res.FatalRaw, res.Strict)
		}
		spec, _ := res.Object["spec"].(map[string]any)
		for k, v := range spec {
			if v == nil {
				seen[k+"=null"] = true
			} else {
				seen[k] = true
			}
		}
	}
	for _, k := range []string{"replicas", "name", "ratio", "a.b", "ключ", "list", "labelsLike", "mapOfObj", "apTrue", "preserved",
		"preservedList", "embedded", "embeddedStrict", "embeddedList", "embeddedMap", "intOrString", "anyVal", "obj",
		"nullableField=null", "nullableDefaulted=null"} {
		if !seen[k] {
			t.Errorf("no instance has spec.%s", k)
		}
	}
}

// Every family applies to a Widget instance, keeps (or, for syntax families, breaks) JSON
// validity, and produces what the oracle says it should where that is predictable.
func TestMutationFamilies(t *testing.T) {
	d, s := widget(t)
	strict := oracle.CROptions{FieldValidation: oracle.FieldValidationStrict}
	applied := map[string]int{}
	for seed := range int64(40) {
		g := gen.New(seed)
		body := g.Instance(s, "example.com/v1", "Widget")
		orig, err := d.Decode(body, strict)
		if err != nil {
			t.Fatal(err)
		}
		for _, fam := range slices.Concat(gen.Families(), gen.SyntaxFamilies()) {
			m, ok, err := g.Apply(body, s, fam)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				continue
			}
			applied[fam]++
			if m.Kind != fam {
				t.Fatalf("kind %q for family %q", m.Kind, fam)
			}
			// encoding/json also stops at 10000 levels, so depth-limit bodies one over it are
			// valid JSON that json.Valid rejects.
			if valid := json.Valid(m.Body); valid == m.Syntax && fam != "depth-limit" {
				t.Fatalf("%s (%s): json.Valid=%v: %.300q", fam, m.Detail, valid, m.Body)
			}
			res, err := d.Decode(m.Body, strict)
			if err != nil {
				t.Fatal(err)
			}
			hasDup := slices.ContainsFunc(res.Strict, func(s string) bool { return strings.HasPrefix(s, "duplicate field ") })
			switch {
			case m.Syntax:
				if res.FatalRaw == "" {
					t.Errorf("%s (%s): no fatal error for %.300q", fam, m.Detail, m.Body)
				}
			case fam == "duplicate-key" || fam == "duplicate-key-escaped" || fam == "many-duplicates" || fam == "metadata-duplicate":
				if res.FatalRaw == "" && !hasDup {
					t.Errorf("%s (%s): no duplicate reported: %q", fam, m.Detail, res.Strict)
				}
			case fam == "whitespace" || fam == "reorder" || fam == "escaped-key":
				a, _ := json.Marshal(res.Object)
				b, _ := json.Marshal(orig.Object)
				if !bytes.Equal(a, b) || !slices.Equal(res.Strict, orig.Strict) || res.FatalRaw != orig.FatalRaw {
					t.Errorf("%s (%s) changed the result:\n%s\n%s\n%q %q", fam, m.Detail, a, b, res.Strict, res.FatalRaw)
				}
			case fam == "depth-limit":
				over := strings.Contains(m.Detail, fmt.Sprintf("depth %d ", gen.DepthLimit+1))
				if got := strings.Contains(res.FatalRaw, "exceeded max depth"); got != over {
					t.Errorf("%s (%s): fatal %q", fam, m.Detail, res.FatalRaw)
				}
			case fam == "many-unknown":
				if res.FatalRaw == "" && len(res.Strict) < 95 {
					t.Errorf("%s (%s): %d strict errors", fam, m.Detail, len(res.Strict))
				}
			}
		}
	}
	for _, fam := range slices.Concat(gen.Families(), gen.SyntaxFamilies()) {
		if applied[fam] == 0 {
			t.Errorf("family %s never applied", fam)
		}
	}
}

func TestParseSchema(t *testing.T) {
	s, err := gen.ParseSchema([]byte(`{"type":"object","properties":{"m":{"type":"object","additionalProperties":true},` +
		`"n":{"type":"object","additionalProperties":{"type":"string"}},"l":{"type":"array","items":{"type":"integer","default":1}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Names, []string{"l", "m", "n"}) || !s.Properties["m"].APBool || !s.Properties["m"].APAllows ||
		s.Properties["n"].AdditionalProperties.Type != "string" || string(s.Properties["l"].Items.Default) != "1" {
		t.Fatalf("%+v", s)
	}
	if s, err := gen.ParseSchema([]byte("null")); s != nil || err != nil {
		t.Fatal(s, err)
	}
}
