package oracle

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

)

// The vectors below are the ones shared/reference/kubernetes-behaviour.md quotes with their
// outputs (vector IDs in the names; "S<section>" where the document gives an example without
// an ID). Bodies are re-typed from the document's descriptions.
//
// Where the document and the real code disagree, the expectation is the real code's and the
// disagreement is listed here and marked DISAGREES at the vector:
//
//  D1 (section 8.2): the YAML scalar 1e3 is the string "1e3", not int64 1000: go-yaml v2 only
//     resolves plain scalars with a '.' as floats (YAML 1.1), so 1e3 stays a string; 1.0 is
//     int64 1 as documented.
//  D2 (sections 0 and 8.4, P83/P84): "whether the handler rejects it later was not checked" - the
//     create handler's scope.AcceptsGroupVersion check right after decoding rejects a body whose
//     group (or version) differs from the endpoint's, in every mode: `the API version in the data
//     (Example.com/v1) does not match the expected API version (example.com/v1)`. A kind that
//     differs only (P84, "widget") passes the decoder and that check; only the later validation
//     (`kind: Invalid value: "widget": must be Widget`) rejects it.
//
// (more are added below as they are found)

var (
	decoderCache   = map[string]*CRDecoder{}
	decoderCacheMu sync.Mutex
)

// testDecoder returns the CRDecoder of a testdata CRD file ("" = widget-crd.yaml).
func testDecoder(t *testing.T, file string) *CRDecoder {
	t.Helper()
	if file == "" {
		file = "widget-crd.yaml"
	}
	decoderCacheMu.Lock()
	defer decoderCacheMu.Unlock()
	if d, ok := decoderCache[file]; ok {
		return d
	}
	data, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewCRDecoder(data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	decoderCache[file] = d
	return d
}

const widgetHead = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":`

// w is a Widget body with the given spec JSON.
func w(spec string) string { return widgetHead + spec + "}" }

// wobj is the expected object of w(spec) when the result's spec is want (the defaults
// defaulted="dflt" and nullableDefaulted="nd" are added when want does not mention them).
func wobj(want string) string {
	var spec map[string]any
	if err := json.Unmarshal([]byte(want), &spec); err != nil {
		panic(fmt.Sprintf("wobj(%s): %v", want, err))
	}
	for k, v := range map[string]any{"defaulted": "dflt", "nullableDefaulted": "nd"} {
		if _, ok := spec[k]; !ok {
			spec[k] = v
		}
	}
	b, err := json.Marshal(map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w"}, "spec": spec})
	if err != nil {
		panic(err)
	}
	return string(b)
}

const gadgetHead = `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":`

func g(spec string) string { return gadgetHead + spec + "}" }

// gobj is the expected Gadget object for a result spec (no defaults added).
func gobj(spec string) string {
	return `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":` + spec + "}"
}

// yw is a YAML Widget body: the head lines 1-5 are apiVersion, kind, metadata, name, spec:, so
// the first line of specLines is line 6.
func yw(specLines ...string) string {
	return "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n" + strings.Join(specLines, "\n") + "\n"
}

func unknown(paths ...string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = `unknown field "` + p + `"`
	}
	return out
}

func dup(paths ...string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = "duplicate field " + fmt.Sprintf("%q", p)
	}
	return out
}

func cat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

const (
	cantGetVK     = "couldn't get version/kind; json parse error: "
	widgetHandled = `Widget in version "v1" cannot be handled as a Widget: `
	unrecognized  = "the object provided is unrecognized (must be of type Widget): "
)

type crVector struct {
	id   string
	crd  string // testdata file; "" = widget-crd.yaml
	body string
	yaml bool
	mode string // "" = Strict

	want    string   // expected Object as JSON; "" = nil (fatal)
	wantAny []string // alternatives for want when the result is NONDETERMINISTIC
	strict  []string // expected Strict
	fatal   string   // expected FatalRaw
	handler string   // expected HandlerMessage, checked when non-empty
	gvm     string   // expected GroupVersionMismatch
	warn    []string // when non-nil: the body is also decoded in Warn mode and Warnings compared
	headers []string // when non-nil: WarningHeaders of the Warn-mode decode
}

func canonJSON(t *testing.T, s string) string {
	t.Helper()
	if s == "" {
		return "null"
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad expected JSON %s: %v", s, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func objectJSON(t *testing.T, o map[string]any) string {
	t.Helper()
	if o == nil {
		return "null"
	}
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatalf("marshal object: %v", err)
	}
	return string(b)
}

func runVectors(t *testing.T, vectors []crVector) {
	seen := map[string]bool{}
	for _, v := range vectors {
		if seen[v.id] {
			t.Fatalf("duplicate vector id %s", v.id)
		}
		seen[v.id] = true
		t.Run(v.id, func(t *testing.T) {
			d := testDecoder(t, v.crd)
			mode := v.mode
			if mode == "" {
				mode = FieldValidationStrict
			}
			res, err := d.Decode([]byte(v.body), CROptions{YAML: v.yaml, FieldValidation: mode})
			if err != nil {
				t.Fatal(err)
			}
			got := objectJSON(t, res.Object)
			if v.wantAny != nil {
				ok := false
				for _, w := range v.wantAny {
					ok = ok || got == canonJSON(t, w)
				}
				if !ok {
					t.Errorf("object:\n got %s\nwant one of %q", got, v.wantAny)
				}
			} else if want := canonJSON(t, v.want); got != want {
				t.Errorf("object:\n got %s\nwant %s", got, want)
			}
			if !slices.Equal(res.Strict, v.strict) {
				t.Errorf("strict:\n got %q\nwant %q", res.Strict, v.strict)
			}
			if res.FatalRaw != v.fatal {
				t.Errorf("fatal:\n got %q\nwant %q", res.FatalRaw, v.fatal)
			}
			if v.handler != "" && res.HandlerMessage != v.handler {
				t.Errorf("handler message:\n got %q\nwant %q", res.HandlerMessage, v.handler)
			}
			if res.GroupVersionMismatch != v.gvm {
				t.Errorf("group/version check:\n got %q\nwant %q", res.GroupVersionMismatch, v.gvm)
			}
			checkInvariants(t, d, v, res)
			if v.warn != nil || v.headers != nil {
				wr, err := d.Decode([]byte(v.body), CROptions{YAML: v.yaml, FieldValidation: FieldValidationWarn})
				if err != nil {
					t.Fatal(err)
				}
				if v.warn != nil && !slices.Equal(wr.Warnings, v.warn) {
					t.Errorf("warnings:\n got %q\nwant %q", wr.Warnings, v.warn)
				}
				if v.headers != nil && !slices.Equal(wr.WarningHeaders, v.headers) {
					t.Errorf("warning headers:\n got %q\nwant %q", wr.WarningHeaders, v.headers)
				}
			}
		})
	}
}

// checkInvariants checks what holds for every vector: the Strict-mode handler message, Warn
// mode's warnings and object, and (reference section 0, last paragraph) that Ignore mode
// produces the same object without strict errors.
func checkInvariants(t *testing.T, d *CRDecoder, v crVector, res CRResult) {
	t.Helper()
	if v.mode != "" && v.mode != FieldValidationStrict {
		return
	}
	if res.FatalRaw == "" && len(res.Strict) > 0 {
		if want := "strict decoding error: " + strings.Join(res.Strict, ", "); res.StrictMessage != want {
			t.Errorf("StrictMessage %q, want %q", res.StrictMessage, want)
		}
		if !strings.HasSuffix(res.HandlerMessage, " cannot be handled as a "+d.Kind+": "+res.StrictMessage) {
			t.Errorf("HandlerMessage %q does not end with the strict message", res.HandlerMessage)
		}
	}
	if res.FatalRaw != "" && res.Object != nil {
		t.Errorf("fatal error with an object")
	}
	if v.wantAny != nil {
		return // nondeterministic objects cannot be compared across runs
	}
	for _, mode := range []string{FieldValidationWarn, FieldValidationIgnore} {
		r, err := d.Decode([]byte(v.body), CROptions{YAML: v.yaml, FieldValidation: mode})
		if err != nil {
			t.Fatal(err)
		}
		if res.FatalRaw != "" {
			if r.FatalRaw == "" {
				t.Errorf("%s: no fatal error, Strict had %q", mode, res.FatalRaw)
			}
			continue
		}
		if a, b := objectJSON(t, r.Object), objectJSON(t, res.Object); a != b {
			t.Errorf("%s object differs from Strict:\n %s\n %s", mode, a, b)
		}
		if r.HandlerMessage != r.GroupVersionMismatch {
			t.Errorf("%s: handler message %q", mode, r.HandlerMessage)
		}
		switch mode {
		case FieldValidationIgnore:
			if len(r.Strict) != 0 || len(r.Warnings) != 0 {
				t.Errorf("Ignore: strict %q, warnings %q", r.Strict, r.Warnings)
			}
		case FieldValidationWarn:
			if !slices.Equal(r.Strict, res.Strict) {
				t.Errorf("Warn strict %q differs from Strict %q", r.Strict, res.Strict)
			}
			var want []string
			for _, s := range res.Strict {
				want = append(want, parseYAMLWarnings(s)...)
			}
			if !slices.Equal(r.Warnings, want) {
				t.Errorf("Warn warnings %q, want %q", r.Warnings, want)
			}
		}
	}
}

func TestWidgetCRDIsValid(t *testing.T) {
	data, err := os.ReadFile("testdata/widget-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := CRDViolations(data)
	if err != nil || len(msgs) != 0 {
		t.Fatalf("widget CRD: %q, %v", msgs, err)
	}
}

// Section 0: the pipeline, the modes and the handler's rendering (7.3).
func TestCRPipeline(t *testing.T) {
	runVectors(t, []crVector{
		{id: "S0-strict-unknown", body: w(`{"replicas":1,"foo":1}`),
			want: wobj(`{"replicas":1}`), strict: unknown("spec.foo"),
			handler: widgetHandled + `strict decoding error: unknown field "spec.foo"`},
		{id: "S7.3-strict-message", body: w(`{"foo":1,"obj":{"yy":1}}`),
			want: wobj(`{"obj":{}}`), strict: unknown("spec.foo", "spec.obj.yy"),
			handler: widgetHandled + `strict decoding error: unknown field "spec.foo", unknown field "spec.obj.yy"`,
			warn:    unknown("spec.foo", "spec.obj.yy"),
			headers: []string{`299 - "unknown field \"spec.foo\""`, `299 - "unknown field \"spec.obj.yy\""`}},
		{id: "S0-no-errors", body: w(`{"replicas":2}`), want: wobj(`{"replicas":2}`)},
		// P82: a version without a schema: everything but apiVersion/kind/metadata is pruned.
		{id: "P82", crd: "noschema-crd.yaml",
			body: `{"apiVersion":"example.com/v1","kind":"Bare","metadata":{"name":"b"},"spec":{"a":1},"status":{}}`,
			want: `{"apiVersion":"example.com/v1","kind":"Bare","metadata":{"name":"b"}}`, strict: unknown("spec", "status")},
		// P79: v1beta1, preserveUnknownFields defaults to true: no pruning, no null pruning;
		// root metadata, embedded coercion, duplicates and defaulting still apply.
		{id: "P79", crd: "legacy-v1beta1-crd.yaml",
			body: `{"apiVersion":"example.com/v1","kind":"Legacy","metadata":{"name":"l","foo":1},"extra":1,` +
				`"spec":{"a":"x","a":"y","unk":1,"nonNullable":null,"embedded":{"apiVersion":"v1","kind":"K","metadata":{"bar":1}}}}`,
			want: `{"apiVersion":"example.com/v1","kind":"Legacy","metadata":{"name":"l"},"extra":1,` +
				`"spec":{"a":"y","unk":1,"nonNullable":null,"d":"dflt","embedded":{"apiVersion":"v1","kind":"K","metadata":{}}}}`,
			strict: cat(dup("spec.a"), unknown("metadata.foo", "spec.embedded.metadata.bar"))},
		// Y29: an empty YAML document: the strict path prints the original bytes, the
		// non-strict one the converted JSON.
		{id: "Y29-strict", body: "", yaml: true, fatal: "Object 'Kind' is missing in ''",
			handler: unrecognized + "Object 'Kind' is missing in '' (<empty>)"},
		{id: "Y29-ignore", body: "", yaml: true, mode: FieldValidationIgnore, fatal: "Object 'Kind' is missing in 'null'"},
		// 7.3: the summary of an unrecognized body.
		{id: "S7.3-summary-empty", body: "", fatal: cantGetVK + "unexpected end of JSON input",
			handler: unrecognized + cantGetVK + "unexpected end of JSON input (<empty>)"},
		{id: "S7.3-summary-long", body: `{"apiVersion":"example.com/v1","kind":"Widget",}`,
			fatal:   cantGetVK + "invalid character '}' looking for beginning of object key string",
			handler: unrecognized + cantGetVK + `invalid character '}' looking for beginning of object key string ({"apiVersion":"example.com/v1" ...)`},
		{id: "S7.3-summary-hex", body: `[1]`,
			fatal:   cantGetVK + "json: cannot unmarshal array into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }",
			handler: unrecognized + cantGetVK + "json: cannot unmarshal array into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" } (5b315d)"},
		// A fatal error after the pre-scan carries the body's kind.
		{id: "S0-fatal-with-kind", body: w(`{"ratio":1e400}`),
			fatal:   "json: cannot unmarshal number 1e400 into Go value of type float64",
			handler: widgetHandled + "json: cannot unmarshal number 1e400 into Go value of type float64"},
		// 7.3 Warn mode: control characters drop the header, quotes are escaped.
		{id: "S7.3-warn-control", body: w(`{"t\tk":1,"q\"k":2}`), want: wobj(`{}`),
			strict:  unknown("spec.q\"k", "spec.t\tk"),
			warn:    unknown("spec.q\"k", "spec.t\tk"),
			headers: []string{`299 - "unknown field \"spec.q\"k\""`}},
	})
}
