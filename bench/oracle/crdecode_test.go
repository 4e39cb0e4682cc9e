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

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
)

// The vectors below are the ones shared/reference/kubernetes-behaviour.md quotes with their
// outputs (vector IDs in the names; "S<section>" where the document gives an example without
// an ID). Bodies are re-typed from the document's descriptions.
//
// Where the document and the real code disagree, the expectation is the real code's and the
// disagreement is listed here and marked DISAGREES at the vector:
//
//  D1 (section 8.6): "flow nesting over 10000: `yaml: exceeded max depth of 10000`" holds only
//     when the nesting is on the first line; elsewhere go-yaml adds the line like for block
//     nesting: `yaml: line 6: exceeded max depth of 10000`.
//  D2 (sections 0 and 8.4, P83/P84): "whether the handler rejects it later was not checked" - the
//     create handler's scope.AcceptsGroupVersion check right after decoding rejects a body whose
//     group (or version) differs from the endpoint's, in every mode: `the API version in the data
//     (Example.com/v1) does not match the expected API version (example.com/v1)`. A kind that
//     differs only (P84, "widget") passes the decoder and that check; only the later validation
//     (`kind: Invalid value: "widget": must be Widget`, read in registry/customresource/
//     validator.go, not run here) rejects it. Not a contradiction, an answer.
//  D3 (Appendix A): the appendix's `mapOfObj: {additionalProperties: {properties: {y: ...}}}`
//     does not define a property "y": loaded from YAML, the plain key y is the YAML 1.1 boolean
//     true, so the property is named "true" (the gotcha the document itself describes in 2.3).
//     A body's spec.mapOfObj.k.y is pruned (vector S2.3-y-is-true).
//
// Outputs the document leaves open and that the vectors pin (real code): Y19's object (the
// merged value wins over an earlier explicit key), D07's line (the first merged map's line) and
// winner (the first map), the exact pre-scan texts for non-string apiVersion/kind, an
// "APIVersion"-only body (accepted by the pre-scan, not pruned, then rejected by the
// group/version check with an empty group/version), the 100-error cap on root metadata unknowns.

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
// mode's warnings and object, and that Ignore mode (the non-strict serializer chosen by the
// create handler, k8s.io/apiserver/pkg/endpoints/handlers/create.go) produces the same object
// without strict errors.
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

// Section 3: pruning.
func TestCRPruning(t *testing.T) {
	runVectors(t, []crVector{
		// P07: additionalProperties: true empties object values (also inside arrays) and reports
		// their keys.
		{id: "P07", body: w(`{"apTrue":{"s":"v","o":{"x":1,"y":{"z":1}},"l":[{"a":1},2]}}`),
			want:   wobj(`{"apTrue":{"s":"v","o":{},"l":[{},2]}}`),
			strict: unknown("spec.apTrue.l[0].a", "spec.apTrue.o.x", "spec.apTrue.o.y")},
		// R04/R05: additionalProperties: false keeps the keys, with the same emptying.
		{id: "R04-R05", crd: "gadget-crd.yaml", body: g(`{"apFalse":{"k":"v","o":{"x":1}}}`),
			want: gobj(`{"apFalse":{"k":"v","o":{}},"o":{"w":7,"x":1},"du":{"a":"x"}}`), strict: unknown("spec.apFalse.o.x")},
		// R08: preserve-unknown-fields plus additionalProperties: the values go to prune with a
		// nil schema.
		{id: "R08", crd: "gadget-crd.yaml", body: g(`{"pap":{"s":1,"o":{"x":1},"l":[{"y":1}]}}`),
			want:   gobj(`{"pap":{"s":1,"o":{},"l":[{}]},"o":{"w":7,"x":1},"du":{"a":"x"}}`),
			strict: unknown("spec.pap.l[0].y", "spec.pap.o.x")},
		// P50/R09: preserve-unknown-fields is inherited by array items; the items' properties
		// switch pruning back on.
		{id: "P50", body: w(`{"preservedList":[{"k":"a","extra":1,"nested":{"z":1}}],"preserved":{"known":{"k":"a","u":1},"free":{"z":1}}}`),
			want:   wobj(`{"preservedList":[{"k":"a","extra":1,"nested":{"z":1}}],"preserved":{"known":{"k":"a"},"free":{"z":1}}}`),
			strict: unknown("spec.preserved.known.u")},
		{id: "R09", crd: "gadget-crd.yaml", body: g(`{"l":[{"p":{"a":"x","b":1},"free":{"z":1}},[1,{"q":1}]]}`),
			want:   gobj(`{"l":[{"p":{"a":"x"},"free":{"z":1}},[1,{"q":1}]],"o":{"w":7,"x":1},"du":{"a":"x"}}`),
			strict: unknown("spec.l[0].p.b")},
		// R11 (request path): embedded apiVersion/kind survive pruning whatever their type, then
		// coercion rejects them (fatal).
		{id: "R11-kind", body: w(`{"embedded":{"apiVersion":"v1","kind":5}}`),
			fatal:   "spec.embedded.kind: Invalid value: 5: must be a string",
			handler: widgetHandled + "spec.embedded.kind: Invalid value: 5: must be a string"},
		{id: "R11-apiVersion", body: w(`{"embeddedStrict":{"apiVersion":{},"kind":"K"}}`),
			fatal: "spec.embeddedStrict.apiVersion: Invalid value: {}: must be a string"},
		// P33: other keys of an embedded node without preserve are pruned.
		{id: "P33", body: w(`{"embeddedStrict":{"apiVersion":"v1","kind":"K","other":1,"spec":{"a":"x","b":1}}}`),
			want:   wobj(`{"embeddedStrict":{"apiVersion":"v1","kind":"K","spec":{"a":"x"}}}`),
			strict: unknown("spec.embeddedStrict.other", "spec.embeddedStrict.spec.b")},
		// R12/P68: apiVersion/kind/metadata under a non-embedded object are ordinary unknowns.
		{id: "P68-R12", body: w(`{"obj":{"apiVersion":"v1","kind":"K","metadata":{},"inner":"i"}}`),
			want:   wobj(`{"obj":{"inner":"i"}}`),
			strict: unknown("spec.obj.apiVersion", "spec.obj.kind", "spec.obj.metadata")},
		// P49/R14: no type checks: a string for an integer survives, an object for an array loses
		// its keys, an array for an object has its elements pruned with a nil schema.
		{id: "P49-R14", body: w(`{"replicas":"3","list":{"x":"a"},"obj":[{"inner":"a"},"s"]}`),
			want:   wobj(`{"replicas":"3","list":{},"obj":[{},"s"]}`),
			strict: unknown("spec.list.x", "spec.obj[0].inner")},
		// P52/R15: int-or-string is a node without properties.
		{id: "P52-R15", body: w(`{"intOrString":{"a":1}}`), want: wobj(`{"intOrString":{}}`), strict: unknown("spec.intOrString.a")},
		{id: "P52-scalars", body: w(`{"intOrString":"5","anyVal":{"x":[1,{"y":2}]}}`), want: wobj(`{"intOrString":"5","anyVal":{"x":[1,{"y":2}]}}`)},
		// P69: duplicates inside an unknown subtree are still reported; pruning reports only the
		// deleted key.
		{id: "P69", body: w(`{"foo":{"a":1,"a":2,"b":{"c":1}}}`), want: wobj(`{}`),
			strict: cat(dup("spec.foo.a"), unknown("spec.foo"))},
		// 3: keys are raw: "a.b" is a property here; the empty key is "spec."; "unk[0]" reads
		// like an index.
		{id: "S3-raw-keys", body: w(`{"a.b":"x","a[0]":"y","ключ":"z","":1,"unk[0]":2,"a.c":3}`),
			want:   wobj(`{"a.b":"x","a[0]":"y","ключ":"z"}`),
			strict: unknown("spec.", "spec.a.c", "spec.unk[0]")},
		// P09: quotes and control characters are inserted verbatim.
		{id: "P09", body: w(`{"q\"uote":1,"t\tab":2,"b\\s":3}`), want: wobj(`{}`),
			strict: unknown(`spec.b\s`, `spec.q"uote`, "spec.t\tab")},
		// P85: a property declared only inside anyOf is pruned.
		{id: "P85", crd: "gadget-crd.yaml", body: g(`{"anyOfOnly":{"a":"x","b":"y"}}`),
			want: gobj(`{"anyOfOnly":{"a":"x"},"o":{"w":7,"x":1},"du":{"a":"x"}}`), strict: unknown("spec.anyOfOnly.b")},
		// Root: unknown root keys; apiVersion/kind/metadata are never touched by pruning.
		{id: "S3-root", body: `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"status":{"phase":"p","x":1},"extra":{"a":1}}`,
			want:   `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"status":{"phase":"p"}}`,
			strict: unknown("extra", "status.x")},
	})
}

// Section 4: ObjectMeta at the root and in embedded resources.
func TestCRObjectMeta(t *testing.T) {
	const head = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":`
	m := func(meta string) string { return head + meta + "}" }
	// Without a spec in the body defaulting adds nothing: the defaults are below spec.
	mobj := func(meta string) string {
		return `{"apiVersion":"example.com/v1","kind":"Widget","metadata":` + meta + `}`
	}
	var metaUnknown, metaPaths []string
	for i := range 150 {
		metaUnknown = append(metaUnknown, fmt.Sprintf(`"u%03d":1`, i))
		metaPaths = append(metaPaths, fmt.Sprintf("metadata.u%03d", i))
	}
	runVectors(t, []crVector{
		// 4.2 item 5: the 100-error cap of sigs.k8s.io/json applies to root metadata unknowns.
		{id: "S4.2-cap", body: m(`{"name":"w",` + strings.Join(metaUnknown, ",") + `}`), want: mobj(`{"name":"w"}`),
			strict: unknown(metaPaths[:100]...)},
		// P22/K07/G10: ObjectMeta matching is case-sensitive; unknowns in sorted re-marshal order.
		{id: "P22-K07-G10", body: m(`{"name":"w","Name":"x","Labels":{"a":"b"},"zz":1}`), want: mobj(`{"name":"w"}`),
			strict: unknown("metadata.Labels", "metadata.Name", "metadata.zz")},
		// P25: order of nested metadata unknowns follows the sorted re-marshal.
		{id: "P25", body: m(`{"name":"w","ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","extra":1}],"managedFields":[{"manager":"m","bogus":1}]}`),
			want:   mobj(`{"name":"w","ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u"}],"managedFields":[{"manager":"m"}]}`),
			strict: unknown("metadata.managedFields[0].bogus", "metadata.ownerReferences[0].extra")},
		// Nothing inside labels, annotations or fieldsV1 is unknown.
		{id: "S4.2-opaque", body: m(`{"name":"w","labels":{"Any.Key/x":"v"},"managedFields":[{"manager":"m","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"x":1}}}]}`),
			want: mobj(`{"name":"w","labels":{"Any.Key/x":"v"},"managedFields":[{"manager":"m","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"x":1}}}]}`)},
		// P18: metadata duplicates come from the whole-body decode; last wins.
		{id: "P18", body: m(`{"name":"a","name":"b"}`), want: mobj(`{"name":"b"}`), strict: dup("metadata.name")},
		// 4.2 item 7: malformed known fields are fatal, in every mode.
		{id: "S4.2-labels", body: m(`{"labels":{"a":1}}`), fatal: "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string",
			handler: widgetHandled + "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"},
		{id: "S4.2-name", body: m(`{"name":5}`), fatal: "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"},
		{id: "S4.2-string", body: m(`"x"`), fatal: "json: cannot unmarshal string into Go value of type v1.ObjectMeta"},
		{id: "S4.2-finalizers", body: m(`{"finalizers":"x"}`), fatal: "json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type []string"},
		{id: "S4.2-generation", body: m(`{"generation":1.5}`), fatal: "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64"},
		{id: "S4.2-grace", body: m(`{"deletionGracePeriodSeconds":"x"}`), fatal: "json: cannot unmarshal string into Go struct field ObjectMeta.deletionGracePeriodSeconds of type int64"},
		{id: "S4.2-timestamp", body: m(`{"creationTimestamp":"yesterday"}`), fatal: `parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
		// P31: an unknown and a malformed field: only the fatal error.
		{id: "P31", body: m(`{"foo":1,"name":5}`), fatal: "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"},
		// 4.2 item 9: normalisation on restore.
		{id: "S4.2-normalise", body: m(`{"name":"w","labels":null,"annotations":{},"finalizers":[],` +
			`"creationTimestamp":"2020-01-01T01:02:03.999+02:00","ownerReferences":[{"uid":"u"},null],"generation":2.0}`),
			want: mobj(`{"name":"w","creationTimestamp":"2019-12-31T23:02:03Z","generation":2,` +
				`"ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":"u"},{"apiVersion":"","kind":"","name":"","uid":""}]}`)},
		{id: "S4.2-normalise2", body: m(`{"name":"w","annotations":{"a":null},"generation":1e1,"creationTimestamp":null}`),
			want: mobj(`{"name":"w","annotations":{"a":""},"generation":10}`)},
		// P30: metadata: null becomes {}.
		{id: "P30", body: m(`null`), want: mobj(`{}`)},
		// DISAGREES D3: Appendix A's mapOfObj property `y` is the property "true".
		{id: "S2.3-y-is-true", body: w(`{"mapOfObj":{"k":{"y":"a","true":"b"}}}`),
			want: wobj(`{"mapOfObj":{"k":{"true":"b"}}}`), strict: unknown("spec.mapOfObj.k.y")},
		// 4.3: embedded resources; P77: the two path syntaxes for an additionalProperties key.
		{id: "P77", body: w(`{"embedded":{"metadata":{"foo":1}},"embeddedList":[{"metadata":{"foo":1}}],"embeddedMap":{"k.1":{"metadata":{"foo":1}}},"mapOfObj":{"k.1":{"true":"a","zz":1}}}`),
			want: wobj(`{"embedded":{"metadata":{}},"embeddedList":[{"metadata":{}}],"embeddedMap":{"k.1":{"metadata":{}}},"mapOfObj":{"k.1":{"true":"a"}}}`),
			strict: unknown("spec.mapOfObj.k.1.zz",
				"spec.embedded.metadata.foo", "spec.embeddedList[0].metadata.foo", "spec.embeddedMap[k.1].metadata.foo")},
		{id: "S4.3-malformed", body: w(`{"embedded":{"metadata":{"name":5}}}`),
			fatal: `spec.embedded.metadata: Invalid value: {"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`},
		// C09: embedded metadata: null becomes {}; creationTimestamp is removed when zero.
		{id: "C09", body: w(`{"embedded":{"apiVersion":"v1","kind":"K","metadata":null},"embeddedList":[{"metadata":{"name":"n","creationTimestamp":null}}]}`),
			want: wobj(`{"embedded":{"apiVersion":"v1","kind":"K","metadata":{}},"embeddedList":[{"metadata":{"name":"n"}}]}`)},
	})
}

// Sections 5 and 6: null pruning and defaulting.
func TestCRNullsAndDefaults(t *testing.T) {
	runVectors(t, []crVector{
		// P39: a non-nullable preserve node with a null value is deleted.
		{id: "P39", body: w(`{"anyVal":null}`), want: wobj(`{}`)},
		// P40: non-nullable nulls without default are deleted, nullable ones kept, defaulted ones
		// replaced by the default (non-nullable) or kept (nullable).
		{id: "P40", body: w(`{"nonNullable":null,"nullableField":null,"defaulted":null,"nullableDefaulted":null,"obj":{"deep":null}}`),
			want: wobj(`{"nullableField":null,"defaulted":"dflt","nullableDefaulted":null,"obj":{}}`)},
		// Null array elements are never removed; additionalProperties values are; unknown nulls
		// under preserve-unknown-fields are kept.
		{id: "N02-N04", body: w(`{"strList":[null,"a"],"labelsLike":{"a":null,"b":"x"},"preserved":{"u":null},"list":[null]}`),
			want: wobj(`{"strList":[null,"a"],"labelsLike":{"b":"x"},"preserved":{"u":null},"list":[null]}`)},
		// N01: defaulting replaces null array elements with the items default, null
		// additionalProperties values with theirs.
		{id: "N01", crd: "gadget-crd.yaml", body: g(`{"dl":[null,"x"],"dm":{"k":null,"j":"v"}}`),
			want: gobj(`{"dl":["I","x"],"dm":{"k":"D","j":"v"},"o":{"w":7,"x":1},"du":{"a":"x"}}`)},
		// Section 6: a default's sub-fields get their own defaults; defaults are pruned at load
		// (2.1: {a: x, unk: 1} becomes {"a":"x"}).
		{id: "S6-nested-defaults", crd: "gadget-crd.yaml", body: g(`{}`), want: gobj(`{"o":{"w":7,"x":1},"du":{"a":"x"}}`)},
		{id: "S6-present", crd: "gadget-crd.yaml", body: g(`{"o":{},"du":null}`), want: gobj(`{"o":{"w":7},"du":{"a":"x"}}`)},
	})
}

// Section 7: strict error texts and their order.
func TestCRStrictErrors(t *testing.T) {
	many := func(n int, dupl bool) (body string, paths []string) {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%03d":1`, i)
			if dupl {
				fmt.Fprintf(&b, `,"k%03d":2`, i)
			}
			paths = append(paths, fmt.Sprintf("spec.anyVal.k%03d", i))
		}
		return b.String(), paths
	}
	dupBody, dupPaths := many(150, true)
	unkBody, _ := many(150, false)
	var unkPaths []string
	for i := range 150 {
		unkPaths = append(unkPaths, fmt.Sprintf("spec.k%03d", i))
	}
	runVectors(t, []crVector{
		// 7.1: duplicate paths are strconv.Quote'd, unknown paths are not; keys are decoded.
		{id: "S7.1-quote", body: `{"apiVersion":"example.com/v1","kind":"Widget","q\"k":{"x":1,"x":2},"b\\s":{"y":1,"y":2},` +
			`"t\tk":{"z":1,"z":2},"\u0001":{"v":1,"v":2},"é":{"w":1,"w":2}}`,
			want: `{"apiVersion":"example.com/v1","kind":"Widget"}`,
			strict: cat([]string{`duplicate field "q\"k.x"`, `duplicate field "b\\s.y"`, `duplicate field "t\tk.z"`, `duplicate field "\x01.v"`, `duplicate field "é.w"`},
				unknown("\x01", `b\s`, `q"k`, "t\tk", "é")),
			// Warning texts with control characters are dropped from the headers; the quoted
			// duplicate texts survive.
			headers: []string{`299 - "duplicate field \"q\\\"k.x\""`, `299 - "duplicate field \"b\\\\s.y\""`, `299 - "duplicate field \"t\\tk.z\""`,
				`299 - "duplicate field \"\\x01.v\""`, `299 - "duplicate field \"é.w\""`,
				`299 - "unknown field \"b\\s\""`, `299 - "unknown field \"q\"k\""`, `299 - "unknown field \"é\""`}},
		// P11: "priv\u0069leged" is a duplicate of "privileged"; last wins.
		{id: "P11", body: w(`{"privileged":true,"priv\u0069leged":false}`), want: wobj(`{"privileged":false}`), strict: dup("spec.privileged")},
		// P14: a triple occurrence is reported once.
		{id: "P14", body: w(`{"replicas":1,"replicas":2,"replicas":3}`), want: wobj(`{"replicas":3}`), strict: dup("spec.replicas")},
		// K02: duplicates inside the first occurrence's value come first.
		{id: "K02", body: w(`{"anyVal":{"a":{"b":[{"c":1,"c":2}],"b":3}}}`), want: wobj(`{"anyVal":{"a":{"b":3}}}`),
			strict: dup("spec.anyVal.a.b[0].c", "spec.anyVal.a.b")},
		// Duplicates inside both occurrences' values are reported once.
		{id: "S7.1-both", body: w(`{"anyVal":{"a":{"x":1,"x":2},"a":{"x":3,"x":4}}}`), want: wobj(`{"anyVal":{"a":{"x":4}}}`),
			strict: dup("spec.anyVal.a.x", "spec.anyVal.a")},
		// P17: duplicated and unknown: two errors.
		{id: "P17", body: w(`{"foo":1,"foo":2}`), want: wobj(`{}`), strict: cat(dup("spec.foo"), unknown("spec.foo"))},
		// P60: at most 100 strict errors per UnmarshalStrict call.
		{id: "P60", body: w(`{"anyVal":{` + dupBody + `}}`), want: wobj(`{"anyVal":{` + strings.ReplaceAll(unkBody, ":1", ":2") + `}}`),
			strict: dup(dupPaths[:100]...)},
		// P61: unknown fields are not capped.
		{id: "P61", body: w(`{` + unkBody + `}`), want: wobj(`{}`), strict: unknown(unkPaths...)},
		// 7.2: bytewise sort of pruned paths.
		{id: "S7.2-sort", body: w(`{"listX":1,"list":[{"b":1}],"List":1,"list2":1}`), want: wobj(`{"list":[{}]}`),
			strict: unknown("spec.List", "spec.list2", "spec.listX", "spec.list[0].b")},
		// P76: pruned paths sorted, then embedded metadata paths sorted, groups not merged.
		{id: "P76", body: `{"zroot":1,"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"aroot":1,` +
			`"spec":{"z":1,"embeddedList":[{"metadata":{"m3":1}}],"embedded":{"metadata":{"m2":1,"m1":1}},"a":1,"list":[{"q":1}]}}`,
			want:   wobj(`{"embeddedList":[{"metadata":{}}],"embedded":{"metadata":{}},"list":[{}]}`),
			strict: unknown("aroot", "spec.a", "spec.list[0].q", "spec.z", "zroot", "spec.embedded.metadata.m1", "spec.embedded.metadata.m2", "spec.embeddedList[0].metadata.m3")},
		// P47: the four groups: duplicates (document order), root metadata, pruning, embedded
		// metadata.
		{id: "P47", body: `{"apiVersion":"example.com/v1","kind":"Widget","spec":{"zz":1,"replicas":1,"replicas":2,"embedded":{"metadata":{"e":1}}},` +
			`"metadata":{"name":"w","mb":1,"ma":1,"name":"v"}}`,
			want:   `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"v"},"spec":{"replicas":2,"embedded":{"metadata":{}},"defaulted":"dflt","nullableDefaulted":"nd"}}`,
			strict: cat(dup("spec.replicas", "metadata.name"), unknown("metadata.ma", "metadata.mb", "spec.zz", "spec.embedded.metadata.e"))},
	})
}

// Section 7.1/7.2/8.2/8.3 for YAML bodies.
func TestCRYAML(t *testing.T) {
	yamlDup := func(lines ...string) string {
		return "yaml: unmarshal errors:\n  " + strings.Join(lines, "\n  ")
	}
	runVectors(t, []crVector{
		// Y04/Y06/Y07: all duplicates of a document are one strict error with line numbers.
		{id: "Y04-Y06-Y07", yaml: true, body: yw("  replicas: 1", "  replicas: 2", "  name: a", "  name: b"),
			want:    wobj(`{"replicas":2,"name":"b"}`),
			strict:  []string{yamlDup(`line 7: key "replicas" already set in map`, `line 9: key "name" already set in map`)},
			warn:    []string{`line 7: key "replicas" already set in map`, `line 9: key "name" already set in map`},
			handler: widgetHandled + "strict decoding error: yaml: unmarshal errors:\n  line 7: key \"replicas\" already set in map\n  line 9: key \"name\" already set in map"},
		// Y27: the YAML error comes first, then root metadata, pruning, embedded metadata.
		{id: "Y27", yaml: true, body: "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  foo: 1\nspec:\n  zz: 1\n  zz: 2\n  embedded:\n    metadata:\n      e: 1\n",
			want:   wobj(`{"embedded":{"metadata":{}}}`),
			strict: cat([]string{yamlDup(`line 8: key "zz" already set in map`)}, unknown("metadata.foo", "spec.zz", "spec.embedded.metadata.e"))},
		// Y18: an explicit key overriding a merged key is a duplicate.
		{id: "Y18", yaml: true, body: yw("  anyVal:", "    src: &a", "      x: 1", "    dst:", "      <<: *a", "      x: 2"),
			want:   wobj(`{"anyVal":{"src":{"x":1},"dst":{"x":2}}}`),
			strict: []string{yamlDup(`line 11: key "x" already set in map`)}},
		// Y19: with the merge after the explicit key, the line is the anchored source map's.
		// The merged value wins then.
		{id: "Y19", yaml: true, body: yw("  anyVal:", "    src: &a", "      x: 1", "    dst:", "      x: 2", "      <<: *a"),
			want:   wobj(`{"anyVal":{"src":{"x":1},"dst":{"x":1}}}`),
			strict: []string{yamlDup(`line 8: key "x" already set in map`)}},
		// D07: merging two maps with the same key; the line is the first source map's; the first
		// merged map wins.
		{id: "D07", yaml: true, body: yw("  anyVal:", "    a: &a {x: 1}", "    b: &b {x: 2}", "    c:", "      <<: [*a, *b]"),
			want:   wobj(`{"anyVal":{"a":{"x":1},"b":{"x":2},"c":{"x":1}}}`),
			strict: []string{yamlDup(`line 7: key "x" already set in map`)}},
		// D11: 1 and 0x1 are the same key, rendered bare.
		{id: "D11", yaml: true, body: yw("  anyVal:", "    1: a", "    0x1: b"),
			want: wobj(`{"anyVal":{"1":"b"}}`), strict: []string{yamlDup(`line 8: key 1 already set in map`)}},
		// Y12/Y13: "1" and 1 collide after conversion without an error; NONDETERMINISTIC winner.
		{id: "Y12-Y13", yaml: true, body: yw("  anyVal:", `    "1": a`, "    1: b"),
			wantAny: []string{wobj(`{"anyVal":{"1":"a"}}`), wobj(`{"anyVal":{"1":"b"}}`)}},
		// Y21: only the first document is read.
		{id: "Y21", yaml: true, body: yw("  replicas: 1") + "---\nfoo: bar\n", want: wobj(`{"replicas":1}`)},
		// 8.3: non-string keys; YAML 1.1 booleans as keys.
		{id: "S8.3-keys", yaml: true, body: yw("  anyVal:", "    1: a", "    1.10: b", "    16777217.0: c", "    1e3: d", "    100000000000000000000: e", "    on: f", "    n: g"),
			want: wobj(`{"anyVal":{"1":"a","1.1":"b","1.6777216e+07":"c","1000":"d","1e+20":"e","true":"f","false":"g"}}`)},
		{id: "S8.3-null-key", yaml: true, body: yw("  anyVal:", "    ~: a"),
			fatal: `unsupported map key of type: %!s(<nil>), key: <nil>, value: "a"`},
		{id: "S8.3-map-key", yaml: true, body: yw("  anyVal:", "    ? {a: 1}", "    : b"),
			fatal: `yaml: invalid map key: map[interface {}]interface {}{"a":1}`},
		{id: "S8.3-alias", yaml: true, body: yw("  anyVal: *nope"), fatal: "yaml: unknown anchor 'nope' referenced"},
		// 0 (2.1): a YAML syntax error is fatal and not wrapped.
		{id: "S0-yaml-syntax", yaml: true, body: yw("\tx: 1"), fatal: "yaml: line 6: found character that cannot start any token",
			handler: unrecognized + "yaml: line 6: found character that cannot start any token (61706956657273696f6e3a206578616d706c652e636f6d2f76310a6b696e ...)"},
		// 8.5: invalid UTF-8 is fatal in YAML; CRLF line endings are fine.
		{id: "S8.5-yaml-utf8", yaml: true, body: yw("  name: a\xffb"), fatal: "yaml: invalid leading UTF-8 octet"},
		{id: "S8.5-yaml-crlf", yaml: true, body: strings.ReplaceAll(yw("  name: a"), "\n", "\r\n"), want: wobj(`{"name":"a"}`)},
		// 8.2: a JSON body with the YAML content type goes through YAML too.
		{id: "S8.2-json-as-yaml", yaml: true, body: w(`{"ratio":1.0,"anyVal":[1e400]}`), want: wobj(`{"ratio":1,"anyVal":["1e400"]}`)},
		// 8.6: YAML alias bombs.
		{id: "S8.6-yaml-alias-bomb", yaml: true, body: yw(aliasBomb()...), fatal: "yaml: document contains excessive aliasing"},
	})
}

// aliasBomb returns spec lines of a "billion laughs" document.
func aliasBomb() []string {
	lines := []string{"  anyVal:", `    a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`}
	for i := 1; i < 9; i++ {
		refs := strings.Repeat(fmt.Sprintf("*a%d,", i-1), 9)
		lines = append(lines, fmt.Sprintf("    a%d: &a%d [%s]", i, i, refs[:len(refs)-1]))
	}
	return lines
}

// Section 8.1 and 8.2: numbers, by the Go type they decode to (spec.anyVal is
// preserve-unknown-fields, so any value survives).
func TestCRNumbers(t *testing.T) {
	d := testDecoder(t, "")
	for _, tc := range []struct {
		yaml  bool
		lit   string
		want  string // "%T %v" of the decoded value
		fatal string
	}{
		{lit: "1e3", want: "float64 1000"},
		{lit: "1E3", want: "float64 1000"},
		{lit: "1.0", want: "float64 1"},
		{lit: "-0", want: "int64 0"},
		{lit: "-0.0", want: "float64 -0"},
		{lit: "9223372036854775807", want: "int64 9223372036854775807"},
		{lit: "9223372036854775808", want: "float64 9.223372036854776e+18"},
		{lit: "-9223372036854775809", want: "float64 -9.223372036854776e+18"},
		{lit: "123456789012345678901234567890", want: "float64 1.2345678901234568e+29"},
		{lit: "1e-400", want: "float64 0"},
		{lit: "1e400", fatal: "json: cannot unmarshal number 1e400 into Go value of type float64"},
		{lit: "01", fatal: cantGetVK + "invalid character '1' after object key:value pair"},
		{lit: "NaN", fatal: cantGetVK + "invalid character 'N' looking for beginning of value"},

		{yaml: true, lit: "1.0", want: "int64 1"},
		{yaml: true, lit: "1e3", want: "int64 1000"},
		{yaml: true, lit: "2.50", want: "float64 2.5"},
		{yaml: true, lit: "0x1F", want: "int64 31"},
		{yaml: true, lit: "0777", want: "int64 511"},
		{yaml: true, lit: "0o17", want: "int64 15"},
		{yaml: true, lit: "0b101", want: "int64 5"},
		{yaml: true, lit: "1_000", want: "int64 1000"},
		{yaml: true, lit: "+1", want: "int64 1"},
		{yaml: true, lit: "-0", want: "int64 0"},
		{yaml: true, lit: "-0.0", want: "int64 0"},
		{yaml: true, lit: "12345678901234567890", want: "float64 1.2345678901234567e+19"},
		{yaml: true, lit: "9223372036854775808", want: "float64 9.223372036854776e+18"},
		{yaml: true, lit: "1e400", want: "string 1e400"},
		{yaml: true, lit: ".inf", fatal: "json: unsupported value: +Inf"},
		{yaml: true, lit: ".nan", fatal: "json: unsupported value: NaN"},
		{yaml: true, lit: "1:20", want: "string 1:20"},
		{yaml: true, lit: "2001-12-14", want: "string 2001-12-14"},
		{yaml: true, lit: "!!binary aGVsbG8=", want: "string hello"},
		{yaml: true, lit: "y", want: "bool true"},
		{yaml: true, lit: "yes", want: "bool true"},
		{yaml: true, lit: "on", want: "bool true"},
		{yaml: true, lit: "True", want: "bool true"},
		{yaml: true, lit: "n", want: "bool false"},
		{yaml: true, lit: "no", want: "bool false"},
		{yaml: true, lit: "off", want: "bool false"},
	} {
		body := w(`{"anyVal":` + tc.lit + `}`)
		if tc.yaml {
			body = yw("  anyVal: " + tc.lit)
		}
		res, err := d.Decode([]byte(body), CROptions{YAML: tc.yaml, FieldValidation: FieldValidationStrict})
		if err != nil {
			t.Fatal(err)
		}
		if res.FatalRaw != tc.fatal {
			t.Errorf("yaml=%v %s: fatal %q, want %q", tc.yaml, tc.lit, res.FatalRaw, tc.fatal)
			continue
		}
		if tc.fatal != "" {
			continue
		}
		v := res.Object["spec"].(map[string]any)["anyVal"]
		if got := fmt.Sprintf("%T %v", v, v); got != tc.want {
			t.Errorf("yaml=%v %s: %s, want %s", tc.yaml, tc.lit, got, tc.want)
		}
		if len(res.Strict) != 0 {
			t.Errorf("yaml=%v %s: strict %q", tc.yaml, tc.lit, res.Strict)
		}
	}
}

// Section 8.4: case sensitivity and the case-insensitive apiVersion/kind pre-scan.
func TestCRCase(t *testing.T) {
	const mismatch = `the API version in the data (%s) does not match the expected API version (example.com/v1)`
	runVectors(t, []crVector{
		// P21: CR properties are matched exactly.
		{id: "P21", body: `{"apiVersion":"example.com/v1","kind":"Widget","Spec":{"replicas":1},"spec":{"Replicas":1,"Name":"x"}}`,
			want:   `{"apiVersion":"example.com/v1","kind":"Widget","spec":{"defaulted":"dflt","nullableDefaulted":"nd"}}`,
			strict: unknown("Spec", "spec.Name", "spec.Replicas")},
		// P83: another group (case included) is not pruned and gives no decoder error; the
		// handler's group/version check then rejects it (DISAGREES D2: not checked by the
		// document).
		{id: "P83", body: `{"apiVersion":"Example.com/v1","kind":"Widget","spec":{"foo":1,"nonNullable":null}}`,
			want: `{"apiVersion":"Example.com/v1","kind":"Widget","spec":{"foo":1,"nonNullable":null}}`,
			gvm:  fmt.Sprintf(mismatch, "Example.com/v1"), handler: fmt.Sprintf(mismatch, "Example.com/v1")},
		// P84: another kind passes the decoder and the group/version check.
		{id: "P84", body: `{"apiVersion":"example.com/v1","kind":"widget","spec":{"foo":1}}`,
			want: `{"apiVersion":"example.com/v1","kind":"widget","spec":{"foo":1}}`},
		// P87: the pre-scan is case-insensitive and last-wins.
		{id: "P87", body: `{"apiVersion":"example.com/v1","APIVersion":"a/b/c","kind":"Widget"}`,
			fatal: "unexpected GroupVersion string: a/b/c", handler: unrecognized + `unexpected GroupVersion string: a/b/c ({"apiVersion":"example.com/v1" ...)`},
		{id: "P87-before", body: `{"APIVersion":"a/b/c","apiVersion":"example.com/v1","kind":"Widget"}`,
			want: `{"apiVersion":"example.com/v1","kind":"Widget"}`, strict: unknown("APIVersion")},
		// P88: only "Kind": the pre-scan finds it, the map has no kind.
		{id: "P88", body: `{"apiVersion":"example.com/v1","Kind":"Widget"}`,
			fatal:   `Object 'Kind' is missing in '{"apiVersion":"example.com/v1","Kind":"Widget"}'`,
			handler: unrecognized + `Object 'Kind' is missing in '{"apiVersion":"example.com/v1","Kind":"Widget"}' ({"apiVersion":"example.com/v1" ...)`},
		// Only "APIVersion": no group in the map, so no pruning; the handler's check fails.
		{id: "S8.4-APIVersion-only", body: `{"APIVersion":"example.com/v1","kind":"Widget","spec":{"foo":1}}`,
			want: `{"APIVersion":"example.com/v1","kind":"Widget","spec":{"foo":1}}`,
			gvm:  fmt.Sprintf(mismatch, ""), handler: fmt.Sprintf(mismatch, "")},
		// Non-string apiVersion/kind fail in the pre-scan.
		{id: "S8.4-kind-number", body: `{"apiVersion":"example.com/v1","kind":5}`,
			fatal: cantGetVK + "json: cannot unmarshal number into Go struct field .kind of type string"},
		{id: "S8.4-apiVersion-object", body: `{"apiVersion":{},"kind":"Widget"}`,
			fatal: cantGetVK + "json: cannot unmarshal object into Go struct field .apiVersion of type string"},
		{id: "S8.4-kind-null", body: `{"apiVersion":"example.com/v1","kind":null}`,
			fatal: `Object 'Kind' is missing in '{"apiVersion":"example.com/v1","kind":null}'`},
	})
}

// Section 8.5 (JSON), 8.6 and 8.7.
func TestCRTextLimits(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	// The root object and spec are levels 1 and 2.
	ok := w(`{"anyVal":` + nest(9998) + `}`)
	tooDeep := w(`{"anyVal":` + nest(9999) + `}`)
	block := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat(" ", i) + "a:\n")
		}
		return b.String()
	}
	runVectors(t, []crVector{
		// P44/P45: invalid UTF-8 bytes become U+FFFD, in keys too, so they can collide.
		{id: "P44-P45", body: w("{\"k\xfe\":1,\"k\xff\":2}"), want: wobj(`{}`),
			strict: cat(dup("spec.k\uFFFD"), unknown("spec.k\uFFFD"))},
		{id: "S8.5-values", body: w("{\"name\":\"a\xffb\",\"anyVal\":[\"\\ud800\",\"\\udfff\",\"\\ud83d\\ude00\"]}"),
			want: wobj(`{"name":"a\ufffdb","anyVal":["\ufffd","\ufffd","😀"]}`)},
		{id: "S8.5-bom", body: "\xef\xbb\xbf" + w(`{}`), fatal: cantGetVK + "invalid character 'ï' looking for beginning of value"},
		{id: "S8.5-control", body: w("{\"name\":\"a\tb\"}"), fatal: cantGetVK + `invalid character '\t' in string literal`},
		// 8.6: 10000 levels are accepted, the 10001st bracket is not.
		{id: "S8.6-depth-ok", body: ok, want: wobj(`{"anyVal":` + nest(9998) + `}`)},
		{id: "S8.6-depth", body: tooDeep, fatal: cantGetVK + "invalid character '[' exceeded max depth"},
		{id: "S8.6-yaml-flow", yaml: true, body: nest(10001), fatal: "yaml: exceeded max depth of 10000"},
		// DISAGREES D1: with a line number when not on the first line.
		{id: "S8.6-yaml-flow-line", yaml: true, body: yw("  anyVal: " + nest(10001)), fatal: "yaml: line 6: exceeded max depth of 10000"},
		{id: "S8.6-yaml-block", yaml: true, body: block(10001), fatal: "yaml: line 10001: exceeded max depth of 10000"},
		// 8.7: syntax errors surface in the pre-scan.
		{id: "S8.7-trailing-comma", body: `{"a":1,}`, fatal: cantGetVK + "invalid character '}' looking for beginning of object key string"},
		{id: "S8.7-no-colon", body: `{"a" 1}`, fatal: cantGetVK + "invalid character '1' after object key"},
		{id: "S8.7-literal", body: `{"a":tru}`, fatal: cantGetVK + "invalid character '}' in literal true (expecting 'e')"},
		{id: "S8.7-eof", body: `{"a":"x`, fatal: cantGetVK + "unexpected end of JSON input"},
		{id: "S8.7-after", body: `{"a":1}x`, fatal: cantGetVK + "invalid character 'x' after top-level value"},
		{id: "S8.7-quote", body: `{'a':1}`, fatal: cantGetVK + `invalid character '\'' looking for beginning of object key string`},
		{id: "S8.7-escape", body: `{"a":"\x"}`, fatal: cantGetVK + "invalid character 'x' in string escape code"},
		// P59: trailing data after the object.
		{id: "P59", body: w(`{}`) + `{"kind":"Widget"}`, fatal: cantGetVK + "invalid character '{' after top-level value"},
	})
}

// Warn mode with more than 4096 runes of warnings: the real recorder truncates and drops.
func TestCRWarningBudget(t *testing.T) {
	d := testDecoder(t, "")
	var b strings.Builder
	for i := range 150 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%s%03d":1`, strings.Repeat("x", 40), i)
	}
	res, err := d.Decode([]byte(w("{"+b.String()+"}")), CROptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 150 || len(res.WarningHeaders) == 0 || len(res.WarningHeaders) >= 150 {
		t.Fatalf("%d warnings, %d headers", len(res.Warnings), len(res.WarningHeaders))
	}
	if res.HandlerMessage != "" || res.Object == nil {
		t.Fatalf("Warn mode must accept the object: %q", res.HandlerMessage)
	}
}

// The reference's vectors about the algorithms' options that the request path never uses,
// checked on the exported functions directly.
func TestCRAlgorithmsDirect(t *testing.T) {
	s := testDecoder(t, "").Schema("v1")
	obj := func() map[string]any {
		return map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w"}, "spec": map[string]any{"x": int64(1)}}
	}
	track := structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}
	// R02: a nil schema with isResourceRoot=false deletes and records every key.
	o := obj()
	if got := pruning.PruneWithOptions(o, nil, false, track); !slices.Equal(got, []string{"apiVersion", "kind", "metadata", "spec"}) || len(o) != 0 {
		t.Errorf("R02: %q, %v", got, o)
	}
	// R03: with a schema and isResourceRoot=false the root apiVersion/kind/metadata are deleted
	// without being recorded.
	o = obj()
	if got := pruning.PruneWithOptions(o, s, false, track); !slices.Equal(got, []string{"spec.x"}) || len(o) != 1 {
		t.Errorf("R03: %q, %v", got, o)
	}
	// R11: embedded apiVersion/kind survive pruning whatever their type.
	o = map[string]any{"spec": map[string]any{"embedded": map[string]any{"apiVersion": int64(1), "kind": map[string]any{}}}}
	if got := pruning.PruneWithOptions(o, s, true, track); len(got) != 0 || len(o["spec"].(map[string]any)["embedded"].(map[string]any)) != 2 {
		t.Errorf("R11: %q, %v", got, o)
	}
	// C08: with isResourceRoot=false the root apiVersion/kind/metadata are not coerced.
	o = map[string]any{"apiVersion": int64(1), "kind": int64(5), "metadata": "x"}
	if ferr, _ := schemaobjectmeta.CoerceWithOptions(nil, o, s, false, schemaobjectmeta.CoerceOptions{}); ferr != nil {
		t.Errorf("C08: %v", ferr)
	}
	// G03: drop mode drops a malformed top-level metadata key entirely, keeps the others.
	o = map[string]any{"metadata": map[string]any{"name": "n", "labels": map[string]any{"a": int64(1), "b": "x"}}}
	meta, found, _, err := schemaobjectmeta.GetObjectMetaWithOptions(o, schemaobjectmeta.ObjectMetaOptions{DropMalformedFields: true})
	if err != nil || !found || meta.Name != "n" || meta.Labels != nil {
		t.Errorf("G03: %+v %v %v", meta, found, err)
	}
	o = map[string]any{"metadata": []any{}}
	if _, _, _, err := schemaobjectmeta.GetObjectMetaWithOptions(o, schemaobjectmeta.ObjectMetaOptions{DropMalformedFields: true}); err == nil ||
		err.Error() != "invalid metadata: expected object, got []interface {}" {
		t.Errorf("G03 non-object: %v", err)
	}
}
