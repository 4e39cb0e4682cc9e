package fuzz

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// Regression tests: every failure the fuzz targets or the hostile-input
// tests found, as a regular test. Known bugs, not fixed yet, are skipped
// with their reason.

// TestRegressionSyntaxErrorDependsOnPath: the same invalid document gives a
// different syntax error (text and offset) from AppendPrune and DecodeMap,
// because jsontext reports a trailing comma at the comma when read token by
// token and at the closing brace when read as a whole value. The reference
// (encoding/json) points at the brace: `{"a":1,}` is "invalid character '}'
// looking for beginning of object key string" at offset 8.
func TestRegressionSyntaxErrorDependsOnPath(t *testing.T) {
	// fixed: syntax errors differed between AppendPrune and DecodeMap ({"kind":"X","a":{"b":1,}}: '}' at 23 vs ',' at 22); every path now reports the error of one scan of the whole document
	fx := mustFixture(t)
	for doc, at := range map[string]string{
		`{"kind":"X","a":{"b":1,}}`: "}}", // kept whole: ReadValue vs tokens
		`{"kind":"X","a":{0}}`:      "0}",
		`{"a":1,}`:                  "}",
		`{` + widgetTM + `,"spec":{"list":[{"x":"a",}]}}`:                 "}]",
		`{` + widgetTM + `,"metadata":{"name":"n",},"spec":{}}`:           "},\"spec",
		`{` + widgetTM + `,"spec":{"name":"n","name":"m","replicas":1,}}`: "}}", // a duplicate too: the slow path
	} {
		d := must(decoder.New(fx.set))
		_, e1 := d.AppendPrune(nil, []byte(doc))
		_, e2 := d.DecodeMap([]byte(doc))
		e3 := d.Validate([]byte(doc))
		if e1 == nil || e2 == nil || e3 == nil || e1.Error() != e2.Error() || e1.Error() != e3.Error() {
			t.Errorf("%s:\nAppendPrune: %v\nDecodeMap:   %v\nValidate:    %v", doc, e1, e2, e3)
			continue
		}
		// where encoding/json reports it
		var de *jperrors.DecodeError
		if want := int64(strings.LastIndex(doc, at)); !errors.As(e1, &de) || de.Offset != want {
			t.Errorf("%s: %v, want offset %d", doc, e1, want)
		}
	}
}

// TestRegressionNumberOffsetInRawValue: a number a float64 cannot hold
// (1e700) is a fatal error located at the number, except inside a value the
// decoder reads whole (an unknown subtree, a kept one, metadata): there the
// offset is that of the ':' before the value (decoder.rawValue and the
// metadata fast path take d.offset() before reading the value, which is the
// end of the previous token, not the start of the value).
func TestRegressionNumberOffsetInRawValue(t *testing.T) {
	// fixed: number errors inside raw values point at the ':' before the value ({"kind":"X","metadata":  {"generation":1e700}}: offset 36, not 39)
	fx := mustFixture(t)
	for _, doc := range []string{
		`{"kind":"X","a":{"":  1e700}}`,
		`{"kind":"X","metadata":  {"generation":1e700}}`,
		`{` + widgetTM + `,"spec":{"unknown":  [1e700]}}`,
		`{` + widgetTM + `,"spec":{"unknown": {"a":1e700}}}`,
	} {
		want := int64(strings.Index(doc, "1e700"))
		d := must(decoder.New(fx.set))
		for _, run := range []struct {
			name string
			f    func() error
		}{
			{"AppendPrune", func() error { _, err := d.AppendPrune(nil, []byte(doc)); return err }},
			{"DecodeMap", func() error { _, err := d.DecodeMap([]byte(doc)); return err }},
			{"Validate", func() error { return d.Validate([]byte(doc)) }},
		} {
			var de *jperrors.DecodeError
			if err := run.f(); !errors.As(err, &de) {
				t.Errorf("%s %s: error %v", run.name, doc, err)
			} else if de.Offset != want {
				t.Errorf("%s %s: offset %d, want %d (%v)", run.name, doc, de.Offset, want, err)
			}
		}
	}
}

// TestRegressionDuplicateRetractCorruptsOutput: on the slow path, a
// duplicate removes the earlier occurrence of its member from the output
// (decoder.retract). When that occurrence is the first member of its object,
// the comma removed with it is the next member's, whose recorded start then
// points one byte before the object's first member; retracting that member
// too removes the object's '{' (and, one more time, the ':' before it, and
// so on backwards), so the output is not JSON, is silently corrupted, or the
// index goes negative and the decoder panics (found by FuzzDecode).
func TestRegressionDuplicateRetractCorruptsOutput(t *testing.T) {
	// fixed: retracting the first member of an object twice corrupts the output ({"kind":"x","a":1,"kind":"x","a":2} gives "kind":"x","a":2}) or panics (index out of range [-1])
	fx := mustFixture(t)
	for _, doc := range []string{
		`{"kind":"x","a":1,"kind":"x","a":2}`,
		`{"kind":"x","m":{"a":1,"b":2,"a":3,"b":4}}`,
		`{"kind":"x","m":{"a":1,"b":2,"c":3,"a":4,"b":5,"c":6}}`,
		`{"kind":"x","m":{"a":{},"b":{},"c":{},"a":{},"b":{},"c":{}}}`,
		`{` + widgetTM + `,"spec":{"name":"a","replicas":1,"name":"b","replicas":2}}`,
		// panics: index out of range [-1]
		`{"apiVersion":"","kind":"x","metadata":{},"apiVersion":"","kind":"x","metadata":{}}`,
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic: %v", doc, r)
				}
			}()
			d := must(decoder.New(fx.set))
			out, err := d.AppendPrune(nil, []byte(doc))
			if err != nil {
				t.Errorf("%s: %v", doc, err)
				return
			}
			m, err := d.DecodeMap([]byte(doc))
			if err != nil {
				t.Errorf("%s: DecodeMap: %v", doc, err)
				return
			}
			tree, err := parseTree(out)
			if err != nil || !jsontext.Value(out).IsValid() {
				t.Errorf("%s: invalid output %s", doc, out)
				return
			}
			if !equalValues(tree.toAny(), any(m), false) {
				t.Errorf("%s: output %s, map %v", doc, out, m)
			}
		}()
	}
}

// TestRegressionPruneValueEmptyLeadingKey: schemaauto.Automaton.PruneValue
// drops the empty names at the start of an unknown field's path: under a
// property named "" the reference (checked with bench/oracle) and the
// decoder report ".u", and under two of them "..u"; PruneValue reports "u"
// (found by FuzzSchemaAndDocument).
func TestRegressionPruneValueEmptyLeadingKey(t *testing.T) {
	// fixed: PruneValue renders the path of "u" under the property "" as "u", the reference as ".u"
	s, err := schemaauto.ParseSchema([]byte(`{"type":"object","properties":{"":{"type":"object","properties":{"":{"type":"object"}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	a, err := schemaauto.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	for doc, want := range map[string]string{
		`{"":{"u":1}}`:      ".u",
		`{"":{"":{"u":1}}}`: "..u",
	} {
		tree, _ := parseTree([]byte(doc))
		got := a.PruneValue(tree.toAny(), a.Root())
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: PruneValue gives %q, want %q", doc, got, want)
		}
		// the decoder agrees with the reference
		d := must(decoder.NewForAutomaton(a))
		if err := d.Validate([]byte(`{"apiVersion":"ex.com/v1","kind":"Ex",` + doc[1:])); err != nil {
			t.Fatal(err)
		}
		if f := d.Result().Findings(); len(f) != 1 || f[0].Path != want {
			t.Errorf("%s: decoder gives %v, want %q", doc, f, want)
		}
	}
}

// TestRegressionDuplicateDropsLaterFatal: when a duplicate retracts an
// earlier member (the last value wins), decoder.retract restores the fatal
// error to what it was before that member's value, dropping also the fatal
// errors of the members decoded after it, or bringing back one that an
// earlier retraction had dropped. So a malformed embedded resource after the
// first of two root "metadata" members is accepted, and the bytes output
// holds a member without a value ("kind":}); and a document whose last
// metadata is malformed reports the error of the overridden one. The
// reference (checked with bench/oracle) rejects the first documents and
// reports the last metadata's error (found by FuzzJSONAndYAML and
// FuzzSchemaAndDocument).
func TestRegressionDuplicateDropsLaterFatal(t *testing.T) {
	// fixed: a duplicate drops the fatal errors of the members between its two occurrences ({"apiVersion":"example.com/v1","kind":"Widget","metadata":{},"spec":{"embeddedStrict":{"kind":5}},"metadata":{}} is accepted as ..."kind":}...)
	fx := mustFixture(t)
	for doc, want := range map[string]string{
		`{` + widgetTM + `,"metadata":{},"spec":{"embeddedStrict":{"kind":5}},"metadata":{}}`:        `spec.embeddedStrict.kind: Invalid value: 5: must be a string`,
		`{` + widgetTM + `,"metadata":{},"spec":{"embedded":{"metadata":{"name":5}}},"metadata":{}}`: `spec.embedded.metadata: Invalid value: {"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`,
		`{` + widgetTM + `,"spec":{"labelsLike":{},"embedded":{"kind":5},"labelsLike":{}}}`:          `spec.embedded.kind: Invalid value: 5: must be a string`,
		// the error of the overridden metadata comes back when spec is retracted
		`{` + widgetTM + `,"metadata":1,"spec":{},"metadata":[],"spec":{}}`: `json: cannot unmarshal array into Go value of type v1.ObjectMeta`,
	} {
		d := must(decoder.New(fx.set))
		out, err := d.AppendPrune(nil, []byte(doc))
		var de *jperrors.DecodeError
		if !errors.As(err, &de) || de.Msg != want {
			t.Errorf("%s:\nerror %v, output %s\nwant %s", doc, err, out, want)
		}
		if _, err := d.DecodeMap([]byte(doc)); !errors.As(err, &de) || de.Msg != want {
			t.Errorf("%s: DecodeMap: error %v, want %s", doc, err, want)
		}
	}
}

// TestRegressionDuplicateCheckQuadratic: on the slow path (a document with
// a duplicate name anywhere, AllowInvalidUTF8(true), and every document of a
// TokenSource such as YAML), decoder.seenBefore compares each name of an
// object that is not a property with every earlier one, and retract shifts
// every later member: quadratic in the width of an object. 40,000 short
// names and one duplicate take about 4 s where the fast path takes 15 ms;
// 300,000 names (a 3 MiB body, the API server's limit) take minutes. The
// test compares the time of 8x the names with 8x the time, a linear bound
// with a wide margin (quadratic work gives 64x) (found by
// TestHostileManyKeys).
func TestRegressionDuplicateCheckQuadratic(t *testing.T) {
	// fixed: the slow path duplicate check was quadratic in the width of an object (40,000 names and one duplicate: 4 s)
	fx := mustFixture(t)
	for _, c := range []struct {
		name  string
		where string
		dup   bool
		opts  []decoder.Option
	}{
		{"one duplicate, kept object", "anyVal", true, nil},
		{"one duplicate, map", "labelsLike", true, nil},
		{"one duplicate, unknown names", "obj", true, nil},
		{"AllowInvalidUTF8, no duplicate", "anyVal", false, []decoder.Option{decoder.AllowInvalidUTF8(true)}},
	} {
		run := func(n int) time.Duration {
			spec := `"` + c.where + `":{` + manyKeys(n, `"v"`)
			if c.dup {
				spec += `,"k0":"w"`
			}
			doc := widgetDoc(spec+`}`, "")
			d := must(decoder.New(fx.set, c.opts...))
			start := time.Now()
			if _, err := d.AppendPrune(nil, doc); err != nil {
				t.Fatal(err)
			}
			return time.Since(start)
		}
		run(1000) // warm up
		small, large := run(5000), run(40000)
		if large > 500*time.Millisecond && large > 32*small {
			t.Errorf("%s: 5,000 names %v, 40,000 names %v (%.0fx)", c.name, small, large, float64(large)/float64(small))
		}
	}
}

// TestRegressionFindingsLineColumn: Result.Findings (and Result.Err, which
// calls it) computes each finding's line and column with
// errors.LineColumn, which scans the document from its start: the cost is
// the number of findings times the size of the document. A 2.7 MB document
// with 200,000 unknown fields (findings capped at 10,000) decodes in about
// 70 ms, and listing its findings takes about 500 ms, every time
// (found by TestHostileManyKeys). The test compares the two, with a wide
// margin.
func TestRegressionFindingsLineColumn(t *testing.T) {
	// fixed: Result.Findings scanned the document from the start for each finding (10,000 findings of 2.7 MB: 0.5 s)
	fx := mustFixture(t)
	doc := widgetDoc(manyKeys(200_000, `"v"`), "")
	d := must(decoder.New(fx.set))
	start := time.Now()
	if _, err := d.AppendPrune(nil, doc); err != nil {
		t.Fatal(err)
	}
	decode := time.Since(start)
	start = time.Now()
	f := d.Result().Findings()
	list := time.Since(start)
	if len(f) != decoder.DefaultMaxFindings {
		t.Fatalf("%d findings", len(f))
	}
	if list > 200*time.Millisecond && list > 2*decode {
		t.Errorf("decoding %v, listing the findings %v", decode, list)
	}
}

// TestRegressionCoercionOrder: with several malformed members of embedded
// resources, the decoder reported the first in the document, so a JSON
// document and its YAML spelling (whose members the reference's YAML path
// sorts) gave different errors: "spec.embedded.kind" against
// "spec.embedded.apiVersion" (found by FuzzJSONAndYAML in CI). The reference
// picks by Go map order; the decoder now picks by name, ancestors first.
func TestRegressionCoercionOrder(t *testing.T) {
	fx := mustFixture(t)
	const want = `spec.embedded.apiVersion: Invalid value: 5: must be a string`
	for _, doc := range []string{
		`{` + widgetTM + `,"spec":{"embedded":{"kind":5,"apiVersion":5}}}`,
		`{` + widgetTM + `,"spec":{"embedded":{"apiVersion":5,"kind":5}}}`,
		`{` + widgetTM + `,"spec":{"embedded":{"metadata":{"name":1},"kind":5,"apiVersion":5}}}`,
	} {
		d := must(decoder.New(fx.set))
		_, err := d.AppendPrune(nil, []byte(doc))
		var de *jperrors.DecodeError
		if !errors.As(err, &de) || de.Msg != want {
			t.Errorf("%s: error %v, want %s", doc, err, want)
		}
		if _, err := d.DecodeMap([]byte(doc)); !errors.As(err, &de) || de.Msg != want {
			t.Errorf("%s: DecodeMap: error %v, want %s", doc, err, want)
		}
	}
}

// TestRegressionSkeletonMetaDefault: a schema the reference refuses (an
// embedded resource's metadata typed string, with the default "d") compiled
// by its skeleton wrote that default as the metadata: {"a":{"metadata":"d"}}
// (found by FuzzSchemaAndDocument). The skeleton now drops the defaults
// inside resource meta that do not decode as ObjectMeta.
func TestRegressionSkeletonMetaDefault(t *testing.T) {
	s, err := schemaauto.ParseSchema([]byte(`{"type":"object","properties":{"a":{"type":"object","default":{},"x-kubernetes-embedded-resource":true,
		"properties":{"a":{"type":"string"},"metadata":{"type":"string","default":"d"}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := schemaauto.Compile(s); err == nil {
		t.Fatal("the schema is structural")
	}
	a, err := schemaauto.Compile(s, schemaauto.AllowSkeleton(true))
	if err != nil {
		t.Fatal(err)
	}
	out, err := must(decoder.NewForAutomaton(a)).AppendPrune(nil, []byte(`{"apiVersion":"ex.com/v1","kind":"Ex"}`))
	if want := `{"apiVersion":"ex.com/v1","kind":"Ex","a":{}}`; err != nil || string(out) != want {
		t.Errorf("got %s, %v; want %s", out, err, want)
	}
}
