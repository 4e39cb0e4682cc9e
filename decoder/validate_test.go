package decoder

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
)

const valCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        required: [spec]
        properties:
          apiVersion: {type: string, enum: [example.com/v1]}
          metadata:
            type: object
            properties:
              name: {type: string, maxLength: 5, pattern: '^w'}
          spec:
            type: object
            required: [size]
            maxProperties: 9
            properties:
              replicas: {type: integer, minimum: 0}
              size: {type: string, enum: [small, large]}
              name: {type: string, maxLength: 3, pattern: '^[a-z]+$'}
              ratio: {type: number, multipleOf: 0.5, nullable: true}
              port: {x-kubernetes-int-or-string: true}
              tags:
                type: array
                maxItems: 2
                items: {type: string, format: uuid}
              labels:
                type: object
                additionalProperties: {type: string, minLength: 2}
              fill: {type: integer, default: 7, maximum: 10}
              obj:
                type: object
                additionalProperties: false
              e:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
              em:
                type: object
                x-kubernetes-embedded-resource: true
                properties:
                  metadata:
                    type: object
                    properties:
                      name: {type: string, maxLength: 4}
              any:
                x-kubernetes-int-or-string: true
                anyOf: [{type: integer}, {type: string}]
                not: {enum: [bad]}
              lm:
                type: object
                required: [k]
                additionalProperties: {type: string}
              set:
                type: array
                x-kubernetes-list-type: set
                items: {type: string}
              p:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                required: [a, "b\u0000c"]
                properties:
                  a: {type: string}
              cm:
                type: object
                minProperties: 2
                maxProperties: 3
                additionalProperties: {type: string, minLength: 2}
`

func newValDecoder(t *testing.T, opts ...Option) *Decoder {
	t.Helper()
	set := compileCRDText(t, valCRD)
	d, err := New(set, append([]Option{Validation(true)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestValidation holds the walk's validation to the API server's errors
// (texts from reference/kubernetes-validation.md), in its order, in every
// mode of reading.
func TestValidation(t *testing.T) {
	const head = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},`
	cases := []struct {
		name, doc string
		want      []string // the errors, in order; nil: valid
	}{
		{"valid", head + `"spec":{"size":"small","replicas":3}}`, nil},
		{"type and minimum", head + `"spec":{"size":"small","replicas":-1}}`,
			[]string{
				`spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0`,
				`.spec.replicas: Invalid value: -1: should be a non-negative integer`,
			}},
		{"string for integer", head + `"spec":{"size":"small","replicas":"3"}}`,
			[]string{
				`spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`,
				`.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 3 is of the type string, expected int64`,
			}},
		{"enum", head + `"spec":{"size":"medium"}}`,
			[]string{`spec.size: Unsupported value: "medium": supported values: "small", "large"`}},
		{"required", head + `"spec":{"replicas":1}}`,
			[]string{`spec.size: Required value`}},
		{"root required", head[:len(head)-1] + `}`,
			[]string{`spec: Required value`}},
		{"maxLength stops pattern", head + `"spec":{"size":"small","name":"ABCD"}}`,
			[]string{`spec.name: Too long: may not be more than 3 bytes`}},
		{"pattern", head + `"spec":{"size":"small","name":"AB"}}`,
			[]string{`spec.name: Invalid value: "AB": spec.name in body should match '^[a-z]+$'`}},
		{"nullable null passes", head + `"spec":{"size":"small","ratio":null}}`, nil},
		{"multipleOf", head + `"spec":{"size":"small","ratio":0.7}}`,
			[]string{`spec.ratio: Invalid value: 0.7: spec.ratio in body should be a multiple of 0.5`}},
		{"int-or-string", head + `"spec":{"size":"small","port":1.5}}`,
			[]string{`spec.port: Invalid value: "number": spec.port in body must be of type integer,string: "number"`}},
		{"array items and maxItems", head + `"spec":{"size":"small","tags":["x","0f1b2c3d-0000-4000-8000-000000000000","y"]}}`,
			[]string{
				`spec.tags[0]: Invalid value: "x": spec.tags[0] in body must be of type uuid: "x"`,
				`spec.tags[2]: Invalid value: "y": spec.tags[2] in body must be of type uuid: "y"`,
				`spec.tags: Too many: 3: must have at most 2 items`,
			}},
		{"map values", head + `"spec":{"size":"small","labels":{"a":"x"}}}`,
			[]string{`spec.labels.a: Invalid value: "x": spec.labels.a in body should be at least 2 chars long`}},
		// lengths in runes, as the server counts them: "é" is one rune of
		// two bytes, "éé" two of four, "ééé" three of six (maxLength 3
		// passes it; the pattern then fails it)
		{"minLength counts runes", head + `"spec":{"size":"small","labels":{"a":"é","b":"éé","c":"\u00e9\u00e9"}}}`,
			[]string{`spec.labels.a: Invalid value: "é": spec.labels.a in body should be at least 2 chars long`}},
		{"maxLength counts runes", head + `"spec":{"size":"small","name":"ééé"}}`,
			[]string{`spec.name: Invalid value: "ééé": spec.name in body should match '^[a-z]+$'`}},
		{"maxLength counts runes, too long", head + `"spec":{"size":"small","name":"éééé"}}`,
			[]string{`spec.name: Too long: may not be more than 3 bytes`}},
		{"property counts without a frame", head + `"spec":{"size":"small","cm":{"a":"xx","b":"yy"}}}`, nil},
		{"maxProperties without a frame, before members", head + `"spec":{"size":"small","cm":{"a":"x","b":"yy","c":"zz","d":"w"}}}`,
			[]string{
				`spec.cm: Too many: 4: must have at most 3 items`,
				`spec.cm.a: Invalid value: "x": spec.cm.a in body should be at least 2 chars long`,
				`spec.cm.d: Invalid value: "w": spec.cm.d in body should be at least 2 chars long`,
			}},
		{"minProperties without a frame, a duplicate counted once", head + `"spec":{"size":"small","cm":{"a":"xx","a":"x"}}}`,
			[]string{
				`spec.cm: Invalid value: 1: spec.cm in body should have at least 2 properties`,
				`spec.cm.a: Invalid value: "x": spec.cm.a in body should be at least 2 chars long`,
			}},
		{"maxProperties before members, defaults counted", head + `"spec":{"size":"small","replicas":-1,"name":"ab","ratio":1.5,"port":1,"tags":[],"labels":{},"obj":{},"e":{"apiVersion":"v1","kind":"K"}}}`,
			[]string{
				`spec: Too many: 10: must have at most 9 items`,
				`spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0`,
				`.spec.replicas: Invalid value: -1: should be a non-negative integer`,
			}},
		{"additionalProperties false", head + `"spec":{"size":"small","obj":{"k":1}}}`,
			[]string{`spec.obj: Invalid value: "k": spec.obj.k in body is a forbidden property`}},
		{"object for string", head + `"spec":{"size":{"a":1}}}`,
			[]string{
				`spec.size: Invalid value: "object": spec.size in body must be of type string: "object"`,
				`spec.size: Unsupported value: {}: supported values: "small", "large"`,
			}},
		{"metadata name (8b) before the schema (8c)", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"W"},"spec":{"size":"x"}}`,
			[]string{
				`metadata.name: Invalid value: "W": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
				`metadata.name: Invalid value: "W": metadata.name in body should match '^w'`,
				`spec.size: Unsupported value: "x": supported values: "small", "large"`,
			}},
		{"the schema's own metadata.name (META26, META27)", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"abcdef"},"spec":{"size":"small"}}`,
			[]string{"metadata.name: Too long: may not be more than 5 bytes"}},
		{"the schema's own metadata.name pattern", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"x"},"spec":{"size":"small"}}`,
			[]string{`metadata.name: Invalid value: "x": metadata.name in body should match '^w'`}},
		{"no metadata", `{"apiVersion":"example.com/v1","kind":"Widget","spec":{"size":"small"}}`,
			[]string{`metadata.name: Required value: name or generateName is required`}},
		{"embedded resource (8e) after the schema", head + `"spec":{"size":"x","e":{"kind":"Foo_Bar","metadata":{"name":"a/b"}}}}`,
			[]string{
				`spec.size: Unsupported value: "x": supported values: "small", "large"`,
				`spec.e.apiVersion: Required value`,
				`spec.e.kind: Invalid value: "Foo_Bar": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
				`spec.e.metadata.name: Invalid value: "a/b": may not contain '/'`,
			}},
		{"an embedded resource's metadata against its declared schema (the schema step)", head + `"spec":{"size":"small","em":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"abcde","labels":{"a":"b"}}}}}`,
			[]string{`spec.em.metadata.name: Too long: may not be more than 4 bytes`}},
		{"an embedded resource's metadata valid against its declared schema", head + `"spec":{"size":"small","em":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"abcd"}}}}`, nil},
		{"valid embedded resource", head + `"spec":{"size":"small","e":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"Foo"}}}}`, nil},
		{"required under preserve-unknown-fields", head + `"spec":{"size":"small","p":{"a":"x","b\u0000c":1}}}`, nil},
		{"required unknown key absent", head + `"spec":{"size":"small","p":{"x":1,"b":2}}}`,
			[]string{"spec.p.a: Required value", "spec.p.b\x00c: Required value"}},
		{"scale: a float (SUB04)", head + `"spec":{"size":"small","replicas":2.0}}`,
			[]string{`.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 2 is of the type float64, expected int64`}},
		{"scale: beyond int32 (SUB03)", head + `"spec":{"size":"small","replicas":2147483648}}`,
			[]string{`.spec.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647`}},
		{"scale: strings below the scale paths take the string lane", head + `"spec":{"size":"small","replicas":1,"p":{"a":"x","b\u0000c":"y"},"em":{"apiVersion":"v1","kind":"K","metadata":{"name":"abcde"}}}}`,
			[]string{`spec.em.metadata.name: Too long: may not be more than 4 bytes`}},
		{"scale: a name with an escape is the path's", head + `"spec":{"size":"small","re\u0070licas":"3"}}`,
			[]string{
				`spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`,
				`.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 3 is of the type string, expected int64`,
			}},
		{"scale: the last of duplicates wins", head + `"spec":{"replicas":"x","size":"small","replicas":2}}`, nil},
		{"scale: a string beside the path, then the path", head + `"spec":{"size":"small","name":"ab","replicas":"2"}}`,
			[]string{
				`spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`,
				`.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 2 is of the type string, expected int64`,
			}},
		{"scale: status pruned (the schema has none)", head + `"spec":{"size":"small"},"status":{"replicas":"x"}}`, nil},
		// the scale cases below were checked against a real kube-apiserver
		// v1.37.2 (bench/cmd/apiserver-oracle, a MachineDeployment's
		// spec.replicas and spec): Go's %v of the pruned value, and the whole
		// path named when a prefix holds no object
		{"scale: an object, pruned", head + `"spec":{"size":"small","replicas":{"a":1,"b":[1]}}}`,
			[]string{`spec.replicas: Invalid value: "object": spec.replicas in body must be of type integer: "object"`,
				`.spec.replicas: Invalid value: 0: .spec.replicas accessor error: map[] is of the type map[string]interface {}, expected int64`}},
		{"scale: an array", head + `"spec":{"size":"small","replicas":[1,"x y",{"c":true},1.5,2e8]}}`,
			[]string{`spec.replicas: Invalid value: "array": spec.replicas in body must be of type integer: "array"`,
				`.spec.replicas: Invalid value: 0: .spec.replicas accessor error: [1 x y map[] 1.5 2e+08] is of the type []interface {}, expected int64`}},
		{"scale: a string where the path wants an object", head + `"spec":"x"}`,
			[]string{`spec: Invalid value: "string": spec in body must be of type object: "string"`,
				`.spec.replicas: Invalid value: 0: .spec.replicas accessor error: x is of the type string, expected map[string]interface{}`}},
		{"scale: an array where the path wants an object", head + `"spec":[1,{"replicas":2},"y"]}`,
			[]string{`spec: Invalid value: "array": spec in body must be of type object: "array"`,
				`.spec.replicas: Invalid value: 0: .spec.replicas accessor error: [1 map[] y] is of the type []interface {}, expected map[string]interface{}`}},
		{"scale: a number where the path wants an object", head + `"spec":5}`,
			[]string{`spec: Invalid value: "integer": spec in body must be of type object: "integer"`,
				`.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 5 is of the type int64, expected map[string]interface{}`}},
		{"anyOf passes", head + `"spec":{"size":"small","any":"abc"}}`, nil},
		{"not (J09)", head + `"spec":{"size":"small","any":"bad"}}`,
			[]string{`<nil>: Invalid value: "": "spec.any" must not validate the schema (not)`}},
		{"list-type set (LT01)", head + `"spec":{"size":"small","set":["a","b","a"]}}`,
			[]string{`spec.set[2]: Duplicate value: "a"`}},
		{"pruned null fails required", head + `"spec":{"size":null}}`,
			[]string{`spec.size: Required value`}},
	}
	for _, c := range cases {
		for _, mode := range []string{"fast", "slow", "noscan"} {
			t.Run(c.name+"/"+mode, func(t *testing.T) {
				d := newValDecoder(t)
				d.forceSlow, d.noScan = mode == "slow", mode == "noscan"
				_, err := d.AppendPrune(nil, []byte(c.doc))
				got := errorTexts(d)
				if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
					t.Fatalf("errors:\n got %q\nwant %q", got, c.want)
				}
				if (err != nil) != (c.want != nil) {
					t.Fatalf("err = %v", err)
				}
				if err != nil && !strings.HasPrefix(err.Error(), `Widget.example.com "`) || err != nil && strings.HasPrefix(c.doc, head) && !strings.HasPrefix(err.Error(), `Widget.example.com "w" is invalid: `) {
					t.Fatalf("err = %v", err)
				}
			})
		}
	}
}

// TestValidationRootName: the 422's name is the root metadata's, unquoted,
// whichever way the metadata was checked: quickMetadata on the strings as
// read (a valid name, the error elsewhere), or objectmeta's full checks
// (metadata that quickRootMeta cannot call valid), in every mode.
func TestValidationRootName(t *testing.T) {
	// valCRD's schema declares the name (the general step): this one not
	crd := strings.Replace(valCRD, "              name: {type: string, maxLength: 5, pattern: '^w'}\n", "", 1)
	if crd == valCRD {
		t.Fatal("valCRD no longer declares metadata.name as this test expects")
	}
	set := compileCRDText(t, crd)
	const tail = `"spec":{"size":"small","replicas":-1}}`
	cases := []struct{ meta, want string }{
		{`{"name":"w"}`, `Widget.example.com "w" is invalid: [spec.replicas: `},
		{`{"name":"w\u0078"}`, `Widget.example.com "wx" is invalid: [spec.replicas: `},
		{`{"name":"w","labels":{"a":"-bad"}}`, `Widget.example.com "w" is invalid: [metadata.labels: Invalid value: "-bad": `},
		{`{"name":"w\u0078","labels":{"a":"-bad"}}`, `Widget.example.com "wx" is invalid: [metadata.labels: `},
		{`{"generateName":"w-"}`, `Widget.example.com "" is invalid: [spec.replicas: `},
		{`{"name":"w","ownerReferences":[]}`, `Widget.example.com "w" is invalid: [spec.replicas: `},
	}
	for _, c := range cases {
		for _, mode := range []string{"fast", "slow", "noscan"} {
			for _, out := range []string{"bytes", "none"} {
				d := must(New(set, Validation(true)))
				d.forceSlow, d.noScan = mode == "slow", mode == "noscan"
				doc := []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":` + c.meta + `,` + tail)
				var err error
				if out == "bytes" {
					_, err = d.AppendPrune(nil, doc)
				} else {
					err = d.Validate(doc)
				}
				if err == nil || !strings.HasPrefix(err.Error(), c.want) {
					t.Errorf("%s %s/%s: err = %v, want the prefix %s", c.meta, mode, out, err, c.want)
				}
				if r := d.Result().Invalid(); r == nil || !strings.HasPrefix(r.Error(), c.want) {
					t.Errorf("%s %s/%s: Result().Invalid() = %v, want the prefix %s", c.meta, mode, out, r, c.want)
				}
			}
		}
	}
}

// TestValidationAllocs: a valid document allocates nothing in steady
// state with validation on, in every output mode but the map's.
func TestValidationAllocs(t *testing.T) {
	d := newValDecoder(t)
	doc := []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","labels":{"a":"b"}},` +
		`"spec":{"size":"small","replicas":3,"name":"ab","ratio":1.5,"port":"http","tags":["0f1b2c3d-0000-4000-8000-000000000000"],` +
		`"labels":{"k":"vv"},"em":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"abcd","labels":{"x":"y"}}}}}`)
	buf := make([]byte, 0, 4096)
	for _, mode := range []string{"prune", "validate"} {
		n := testing.AllocsPerRun(50, func() {
			var err error
			if mode == "prune" {
				_, err = d.AppendPrune(buf[:0], doc)
			} else {
				err = d.Validate(doc)
			}
			if err != nil {
				t.Fatal(err)
			}
		})
		if n != 0 {
			t.Errorf("%s: %v allocations per valid document", mode, n)
		}
	}
}

// TestStrictDuplicatesPastTheCap: the API server lists 100 duplicate
// fields a document and drops the rest without a word (issue 14, defect
// 5): the message is its text; the count stays in Dropped.
func TestStrictDuplicatesPastTheCap(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":"small"`)
	for i := range 150 {
		fmt.Fprintf(&b, `,"x%d":1,"x%d":2`, i, i)
	}
	b.WriteString(`}}`)
	d := newValDecoder(t, FieldValidation(Strict))
	_, err := d.AppendPrune(nil, []byte(b.String()))
	var se *jperrors.StrictError
	if !errors.As(err, &se) || se.Dropped != 50 || se.DroppedDuplicates != 50 || strings.Contains(err.Error(), "more") ||
		strings.Count(err.Error(), "duplicate field") != 100 || strings.Count(err.Error(), "unknown field") != 150 {
		t.Fatalf("dropped %d/%d, %d duplicate, %d unknown: %.300s", se.Dropped, se.DroppedDuplicates, strings.Count(err.Error(), "duplicate field"), strings.Count(err.Error(), "unknown field"), err.Error()[len(err.Error())-300:])
	}
}

// FuzzValidation: validation never panics, and every mode of reading (the
// scanner, jsontext, the slow path) gives the same errors, output and
// verdict for the same document.
func FuzzValidation(f *testing.F) {
	const head = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},`
	for _, s := range []string{
		head + `"spec":{"size":"small","replicas":-1,"tags":["x"],"labels":{"a":"x"},"obj":{"k":1}}}`,
		head + `"spec":{"size":{"a":[1,{"b":null}]},"ratio":null,"port":1.5,"e":{"kind":"K","metadata":{"name":"a/b"}}}}`,
		`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"size":"small","size":"large"}}`,
		head + `"spec":{"size":"small","e":{"apiVersion":"v1","kind":"K","metadata":{"name":"Foo","namespace":"NS_"}}}}`,
		head + `"spec":{"size":"small","any":"bad","set":["a","a",1],"p":{"x":1}}}`,
		head + `"spec":{"size":"small","lm":{"k":"v","k":null},"p":{"a":"x","a":null}}}`,
		head + `"spec":{"size":"small","replicas":{"a":[1,"x"]},"replicas":[1,{"b":2}]},"spec":[1]}`,
		head + `"spec":"x","spec":{"size":"small","replicas":"x","replicas":null}}`,
		// the root's lane with validation: apiVersion and kind taken at once
		// (either order, spaced), then its other members, a status
		`{"kind":"Widget","apiVersion":"example.com/v1","spec":{"size":"small"},"metadata":{"name":"w"},"status":{"replicas":"x"}}`,
		`{ "apiVersion" : "example.com/v1" , "kind" : "Widget" , "spec" : {"size":"x"} , "status" : "s" }`,
		// keeperCRD: the scale paths inside values kept verbatim
		`{"apiVersion":"example.com/v1","kind":"Keeper","metadata":{"name":"k"},"spec":{"a":{"replicas":"x"}},"status":{"n":1.5}}`,
		`{"apiVersion":"example.com/v1","kind":"Keeper","metadata":{"name":"k"},"spec":{"a":[{"replicas":1}],"b":{"c":{}}},"status":{"sel":{"x":1}}}`,
		// Keeper declares no metadata: the root metadata's one step
		// (quickMetadata) on the scanner, the general step elsewhere
		`{"apiVersion":"example.com/v1","kind":"Keeper","metadata":{"name":"kx","namespace":"ns","labels":{"a.b/c":"d","e":"-f"}},"spec":{"a":{"replicas":"x"}}}`,
		`{"apiVersion":"example.com/v1","kind":"Keeper","metadata":{"generateName":"k-","annotations":{"A.b/C":"x"},"finalizers":["a/b","orphan"]},"spec":{}}`,
		`{"apiVersion":"example.com/v1","kind":"Keeper","metadata":{"name":"K","generation":-1,"uid":"u","labels":{}},"spec":{}}`,
	} {
		f.Add([]byte(s))
	}
	dec := map[string]*Decoder{}
	for _, mode := range []string{"fast", "slow", "noscan"} {
		set := compileCRDText(f, valCRD+"---\n"+keeperCRD)
		d, err := New(set, Validation(true))
		if err != nil {
			f.Fatal(err)
		}
		d.forceSlow, d.noScan = mode == "slow", mode == "noscan"
		dec[mode] = d
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		var first string
		for _, mode := range []string{"fast", "slow", "noscan"} {
			d := dec[mode]
			out, err := d.AppendPrune(nil, doc)
			got := respelled(out)
			if err != nil {
				got = "error: " + err.Error()
			}
			if inv := d.Result().Invalid(); inv != nil {
				for _, e := range inv.Errors {
					got += fmt.Sprintf("\n%d %s", e.Offset, e.Error())
				}
			}
			if mode == "fast" {
				first = got
			} else if got != first && !strings.Contains(first, "duplicate field") {
				t.Fatalf("%s differs from fast:\n%s\n%s", mode, got, first)
			}
		}
		// PruneReader, written out as it reads: the same output, findings
		// and errors (whole values held until checked)
		checkStreamed(t, dec["fast"], "PruneReader", doc)
	})
}

// scaleCRD is a namespaced example.com/v1 CRD of kind and plural with a
// scale subresource (scale, a YAML flow mapping) and the root schema
// schema (YAML indented under openAPIV3Schema).
func scaleCRD(kind, plural, scale, schema string) string {
	return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ` + plural + `.example.com}
spec:
  group: example.com
  names: {kind: ` + kind + `, plural: ` + plural + `}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      scale: ` + scale + `
    schema:
      openAPIV3Schema:
` + schema
}

// keeperCRD keeps its whole object verbatim and has scale paths inside
// it, one three segments deep (FuzzValidation).
// respelled is the JSON text out with every string quoted as jsontext
// quotes it, the rest as it is: the fast metadata path writes strings as
// they were spelled, the value tree's path re-quotes them (the same JSON),
// and only that may differ between the modes of reading.
func respelled(out []byte) string {
	var buf bytes.Buffer
	dec := jsontext.NewDecoder(bytes.NewReader(out), jsontext.AllowDuplicateNames(true))
	enc := jsontext.NewEncoder(&buf, jsontext.AllowDuplicateNames(true))
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF {
			return buf.String()
		}
		if err != nil || enc.WriteToken(tok) != nil {
			return string(out) // not JSON: as it is
		}
	}
}

var keeperCRD = scaleCRD("Keeper", "keepers", "{specReplicasPath: .spec.a.replicas, statusReplicasPath: .status.n, labelSelectorPath: .status.sel}",
	"        type: object\n        x-kubernetes-preserve-unknown-fields: true\n")

// errorTexts is the texts of the last document's validation errors, in
// order (nil: it is valid).
func errorTexts(d *Decoder) []string {
	var got []string
	if inv := d.Result().Invalid(); inv != nil {
		for _, e := range inv.Errors {
			got = append(got, e.Error())
		}
	}
	return got
}

// TestResultKindNotStale: a document that is no object has no apiVersion
// or kind, whatever the document before had.
func TestResultKindNotStale(t *testing.T) {
	d := newValDecoder(t)
	d.AppendPrune(nil, []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":"small"}}`))
	d.AppendPrune(nil, []byte(`[1]`))
	if av, k := d.Result().APIVersion(), d.Result().Kind(); av != "" || k != "" {
		t.Fatalf("apiVersion %q, kind %q", av, k)
	}
}

// wholeCRD has nodes checked on their whole value: a list-type map and
// set, an enum on an object, junctors on an object and on a scalar.
const wholeCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port, protocol]
                items:
                  type: object
                  required: [port]
                  properties:
                    port: {type: integer}
                    protocol: {type: string, default: TCP}
                    name: {type: string}
              tags:
                type: array
                x-kubernetes-list-type: set
                items: {type: number}
              mode:
                type: object
                enum: [{a: 1}, {a: 2.5, b: ["x\"y"]}]
                x-kubernetes-preserve-unknown-fields: true
              choice:
                type: object
                properties:
                  num: {type: integer}
                  str: {type: string}
                anyOf: [{required: [num]}, {required: [str]}]
              v:
                x-kubernetes-int-or-string: true
                anyOf: [{minimum: 300}, {maxLength: 3}]
`

// TestValidationAllocsWhole: a valid document whose nodes are checked on
// their whole value (a list-type map and set, junctors on an object and on
// a scalar, numbers and strings with escapes in them) allocates nothing
// either: the value is read back without allocating (readBack); and an
// invalid one still gets the errors, which keep their values. (An enum on
// an object is read back the same way, but its check, validate's
// CheckEnum, compares with reflect and allocates.)
func TestValidationAllocsWhole(t *testing.T) {
	set := compileCRDText(t, wholeCRD)
	d := must(New(set, Validation(true)))
	doc := []byte(`{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{` +
		`"ports":[{"port":80,"name":"h\u00e9"},{"port":80,"protocol":"UDP"},{"port":443}],"tags":[1,2.5,1e3,-7],` +
		`"choice":{"str":"x"},"v":12345}}`)
	buf := make([]byte, 0, 4096)
	for _, mode := range []string{"prune", "validate"} {
		n := testing.AllocsPerRun(50, func() {
			var err error
			if mode == "prune" {
				_, err = d.AppendPrune(buf[:0], doc)
			} else {
				err = d.Validate(doc)
			}
			if err != nil {
				t.Fatal(err)
			}
		})
		if n != 0 {
			t.Errorf("%s: %v allocations per valid document", mode, n)
		}
	}
	bad := []byte(`{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{` +
		`"ports":[{"port":80},{"port":80,"protocol":"TCP"}],"tags":[2.5,2.5],"mode":{"a":3},"choice":{},"v":"x"}}`)
	_, err := d.AppendPrune(nil, bad)
	var inv *jperrors.InvalidError
	if !errors.As(err, &inv) {
		t.Fatalf("not invalid: %v", err)
	}
	want := []string{
		`spec.mode: Unsupported value: {"a":3}: supported values: "{\"a\":1}", "{\"a\":2.5,\"b\":[\"x\\\"y\"]}"`,
		`<nil>: Invalid value: "": "spec.choice" must validate at least one schema (anyOf)`,
		`spec.choice.num: Required value`,
		`spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}`,
		`spec.tags[1]: Duplicate value: 2.5`,
	}
	got := errorTexts(d)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("errors:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

const presenceCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gizmos.example.com}
spec:
  group: example.com
  names: {kind: Gizmo, plural: gizmos}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              one:
                type: object
                properties: {a: {type: string}, b: {type: string}, c: {type: string, default: x}, d: {type: string, nullable: true}}
                oneOf: [{required: [a]}, {required: [b]}]
              any:
                type: object
                required: [d]
                properties: {a: {type: string, maxLength: 2}, b: {type: string}, c: {type: string}, d: {type: string}}
                anyOf: [{required: [a, b]}, {required: [c]}]
                not: {required: [b, c]}
              all:
                type: object
                properties: {a: {type: string}, b: {type: string}, c: {type: string}, d: {type: string}}
                allOf: [{required: [a]}, {oneOf: [{required: [b]}, {required: [c]}]}]
                x-kubernetes-preserve-unknown-fields: true
              typed:
                type: object
                properties: {a: {type: string}, b: {type: string}}
                oneOf: [{required: [a], properties: {a: {maxLength: 1}}}, {required: [b], minProperties: 2}]
`

// TestPresenceJunctors: junctors that the presence of properties decides
// (presenceNode) give the same errors as the whole value read back and
// checked by the node's validation tree, for every combination of present,
// null and absent members, in every mode of reading and output, and on
// the corpus.
func TestPresenceJunctors(t *testing.T) {
	set := compileCRDText(t, presenceCRD)
	run := func(d *Decoder, doc []byte) string {
		var b strings.Builder
		out, err := d.AppendPrune(nil, doc)
		fmt.Fprintf(&b, "bytes %s %v\n", out, err)
		_, err = d.DecodeMap(doc)
		fmt.Fprintf(&b, "map %v\n", err)
		fmt.Fprintf(&b, "none %v\n", d.Validate(doc))
		d.forceSlow = true
		_, err = d.AppendPrune(nil, doc)
		d.forceSlow = false
		fmt.Fprintf(&b, "slow %v\n", err)
		return b.String()
	}
	compare := func(d *Decoder, doc []byte) (invalid bool) {
		t.Helper()
		presenceOff = true
		want := run(d, doc)
		presenceOff = false
		d.val.reqs, d.val.reqA = nil, nil // the caches hold the programs
		if got := run(d, doc); got != want {
			t.Errorf("%s:\nwith presence programs\n%s\nwithout\n%s", doc, got, want)
		}
		return strings.Contains(want, "invalid")
	}
	d := must(New(set, Validation(true)))
	values := []string{"", `"v"`, `null`, `"long"`}
	names := []string{"a", "b", "c", "d"}
	invalid, n := 0, 0
	for _, field := range []string{"one", "any", "all", "typed"} {
		for combo := range 1 << (2 * len(names)) {
			var members []string
			for i, name := range names {
				if v := values[(combo>>(2*i))&3]; v != "" {
					members = append(members, fmt.Sprintf("%q:%s", name, v))
				}
			}
			doc := fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"g"},"spec":{%q:{%s}}}`, field, strings.Join(members, ","))
			n++
			if compare(d, []byte(doc)) {
				invalid++
			}
		}
	}
	if invalid == 0 || invalid == n {
		t.Errorf("%d of %d invalid", invalid, n)
	}
	// a member repeated with a null that is pruned is absent: the last
	// value wins (required, and presence, see it missing)
	for _, doc := range []string{
		`{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"g"},"spec":{"any":{"c":"v","d":"v","d":null}}}`,
		`{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"g"},"spec":{"one":{"a":"v","a":null}}}`,
	} {
		if !compare(d, []byte(doc)) {
			t.Errorf("%s: valid", doc)
		}
	}
	c := needCorpus(t)
	dc := must(New(c.set, Validation(true)))
	for _, doc := range c.docs {
		compare(dc, doc)
	}
}

// TestRequiredAfterDuplicate: a required property whose last value is a
// pruned null is missing, on the fast and slow paths alike.
func TestRequiredAfterDuplicate(t *testing.T) {
	d := newValDecoder(t)
	doc := []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":"small","size":null}}`)
	_, err := d.AppendPrune(nil, doc)
	if err == nil || !strings.Contains(err.Error(), "spec.size: Required value") {
		t.Errorf("got %v, want spec.size: Required value", err)
	}
	// the same for a required name that is no property: a map's key whose
	// last value is a null, which null pruning drops (as it drops the
	// single "k": null)
	for _, lm := range []string{`{"k":null}`, `{"k":"v","k":null}`, `{"k":"v","j":"w","k":null}`} {
		doc := []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":"small","lm":` + lm + `}}`)
		_, err := d.AppendPrune(nil, doc)
		if err == nil || !strings.Contains(err.Error(), "spec.lm.k: Required value") {
			t.Errorf("%s: got %v, want spec.lm.k: Required value", lm, err)
		}
	}
	for _, lm := range []string{`{"k":null,"k":"v"}`, `{"k":"v","k":"w"}`} {
		doc := []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":"small","lm":` + lm + `}}`)
		if _, err := d.AppendPrune(nil, doc); err != nil && strings.Contains(err.Error(), "Required value") {
			t.Errorf("%s: got %v, want no Required value", lm, err)
		}
	}
}

// TestValidationRootLane: with validation the root takes the fast lane
// (takeTypeMeta for its apiVersion and kind, laneMember for its other
// members); its apiVersion and kind are checked against their declared
// schemas, located at their values, and a status that the status
// subresource drops before validating is not checked, in every mode of
// reading alike.
func TestValidationRootLane(t *testing.T) {
	const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        required: [spec, kind]
        properties:
          kind: {type: string, maxLength: 3}
          spec:
            type: object
            properties:
              cnt: {type: integer, minimum: 0}
              s: {type: string, maxLength: 2}
          status:
            type: object
            properties:
              cnt: {type: integer, minimum: 0}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: doohickeys.example.com}
spec:
  group: example.com
  names: {kind: Doohickey, plural: doohickeys}
  scope: Namespaced
  versions:
  - name: v2
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cnt: {type: integer, minimum: 0}
          status:
            type: object
            properties:
              cnt: {type: integer, minimum: 0}
`
	set := compileCRDText(t, crd)
	docs := []string{
		`{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"cnt":1},"status":{"cnt":-1}}`,
		`{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"status":{"cnt":-1},"spec":{"cnt":-1,"s":"abc"}}`,
		`{"kind":"Gadget","apiVersion":"example.com/v1","spec":{"cnt":-2},"metadata":{"name":"g"},"status":"x"}`,
		`{ "apiVersion" : "example.com/v1" , "kind" : "Gadget" , "metadata":{"name":"g"},"spec":{"s":"abc"}}`,
		`{"apiVersion":"example.com/v2","kind":"Doohickey","metadata":{"name":"g"},"spec":{"cnt":1},"status":{"cnt":-1}}`,
		`{"apiVersion":"example.com/v2","kind":"Doohickey","metadata":{"name":"g"},"status":{"cnt":-1},"spec":{"cnt":-1}}`,
		`{"apiVersion":"example.com/v1","kind":"Gadget","Kind":"Gadget","metadata":{"name":"g"},"spec":{}}`,
		`{"apiVersion":"example.com/v1","kind":"Gadget","spec":{"cnt":1},"spec":{"cnt":-1}}`,
	}
	wantSome := []bool{true, true, true, true, true, true, true, true}
	for i, doc := range docs {
		var ref []string
		for _, mode := range []string{"slow", "noscan", "fast"} {
			d, err := New(set, Validation(true))
			if err != nil {
				t.Fatal(err)
			}
			d.forceSlow, d.noScan = mode == "slow", mode == "noscan"
			out, err := d.AppendPrune(nil, []byte(doc))
			got := []string{string(out), fmt.Sprint(err)}
			if inv := d.Result().Invalid(); inv != nil {
				for _, e := range inv.Errors {
					got = append(got, fmt.Sprintf("%d %s %s", e.Offset, e.Pointer, e.Error()))
				}
			}
			if mode == "slow" {
				ref = got
				if (len(got) > 2) != wantSome[i] {
					t.Errorf("doc %d: %q", i, got)
				}
				continue
			}
			if !slices.Equal(got, ref) {
				t.Errorf("doc %d, %s:\n got %q\nwant %q", i, mode, got, ref)
			}
		}
	}
}

// TestValidationListMapOneItem: a list-type map of at most one item is
// valid without being read back when its item is an object or null
// (enumValue), and is reported as the server reports it otherwise.
func TestValidationListMapOneItem(t *testing.T) {
	set := compileCRDText(t, wholeCRD)
	d := must(New(set, Validation(true)))
	for _, c := range []struct{ ports, want string }{
		{`[]`, ``},
		{`[{"port":80}]`, ``},
		{`[ {"port":80,"name":"x"} ]`, ``},
		{`[{"name":"x"}]`, `spec.ports[0].port: Required value`},
		{`[{"port":"80"}]`, `spec.ports[0].port: Invalid value: "string": spec.ports[0].port in body must be of type integer: "string"`},
		{`[null]`, `spec.ports[0]: Invalid value: "null": spec.ports[0] in body must be of type object: "null"`},
		{`["a"]`, `spec.ports[0]: Invalid value: "string": spec.ports[0] in body must be of type object: "string"; spec.ports[0]: Invalid value: "a": must be an object for an array of list-type map`},
		{`[3]`, `spec.ports[0]: Invalid value: "integer": spec.ports[0] in body must be of type object: "integer"; spec.ports[0]: Invalid value: 3: must be an object for an array of list-type map`},
		{`[{"port":80},{"port":80}]`, `spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}`},
	} {
		doc := `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"ports":` + c.ports + `}}`
		d.AppendPrune(nil, []byte(doc))
		got := errorTexts(d)
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("ports %s:\n got  %s\n want %s", c.ports, g, c.want)
		}
	}
}

// The validation flags are written into an automaton's states and
// properties the first time a decoder validates with it
// (schemaauto.State.ValueFlags), while other decoders may be pruning
// with it: run under -race, this checks that they share nothing. Each
// round compiles the CRD afresh, so that the first validating decode
// meets decoders already pruning.
func TestValidationFlagsConcurrent(t *testing.T) {
	doc := []byte(`{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{` +
		`"ports":[{"port":80,"name":"h"},{"port":443}],"tags":[1,2.5],"choice":{"str":"x"},"v":12345}}`)
	bad := []byte(`{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{` +
		`"ports":[{"port":80},{"port":80,"protocol":"TCP"}],"tags":[2.5,2.5],"mode":{"a":3},"choice":{},"v":"x"}}`)
	for range 4 {
		set := compileCRDText(t, wholeCRD)
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for g := range 8 {
			wg.Go(func() {
				d := must(New(set, Validation(g%2 == 0)))
				for range 20 {
					if _, err := d.AppendPrune(nil, doc); err != nil {
						errs <- err
						return
					}
					_, err := d.AppendPrune(nil, bad)
					if invalid := errors.As(err, new(*jperrors.InvalidError)); invalid != (g%2 == 0) {
						errs <- fmt.Errorf("validating %v: %v", g%2 == 0, err)
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	}
}

// TestValidationScaleSegments holds the scale subresource's check to the
// paths inside values kept verbatim (preserve-unknown-fields, which the
// fast path copied whole: rawOK), on a path of three segments, one of 70
// bytes: the value at the path, names of the segments' lengths that are
// not them, a prefix that holds no object, and the status path.
func TestValidationScaleSegments(t *testing.T) {
	long, other := strings.Repeat("a", 70), strings.Repeat("b", 70)
	// spec and status kept as they are below their declarations, or the
	// whole object below the root's: on the fast path a value kept verbatim
	// was copied whole, and the paths inside it were not read
	schemas := map[string]string{
		"spec declared": `        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
`,
		"root preserved": `        type: object
        x-kubernetes-preserve-unknown-fields: true
`,
	}
	const head = `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},`
	path := ".spec.deep." + long
	cases := []struct {
		name, doc string
		want      []string
	}{
		{"at the path", head + `"spec":{"deep":{"` + long + `":2}}}`, nil},
		{"a string at the path", head + `"spec":{"deep":{"` + long + `":"x"}}}`,
			[]string{path + `: Invalid value: 0: ` + path + ` accessor error: x is of the type string, expected int64`}},
		{"a long name that is not the path's", head + `"spec":{"deep":{"` + other + `":"x","` + long[:63] + `":"y"}}}`, nil},
		{"names of the segments' lengths that are not them", head + `"spec":{"keep":"x","dee":{"` + long + `":"x"}},"state":"y"}`, nil},
		{"a prefix that holds no object", head + `"spec":{"deep":"x"}}`,
			[]string{path + `: Invalid value: 0: ` + path + ` accessor error: x is of the type string, expected map[string]interface{}`}},
		{"the status path (no status subresource: a create keeps status)", head + `"spec":{},"status":{"n":"x","m":"y"}}`,
			[]string{`.status.n: Invalid value: 0: .status.n accessor error: x is of the type string, expected int64`}},
	}
	for sname, schema := range schemas {
		set := compileCRDText(t, scaleCRD("Gadget", "gadgets", "{specReplicasPath: .spec.deep."+long+", statusReplicasPath: .status.n}", schema))
		for _, c := range cases {
			checkErrorsInModes(t, set, sname+"/"+c.name, c.doc, c.want)
		}
	}
}

// checkErrorsInModes decodes doc with validation in each mode of reading
// (fast, slow, noscan: subtests of name) and compares its errors' texts
// with want.
func checkErrorsInModes(t *testing.T, set *schemaauto.Set, name, doc string, want []string) {
	t.Helper()
	for _, mode := range []string{"fast", "slow", "noscan"} {
		t.Run(name+"/"+mode, func(t *testing.T) {
			d, err := New(set, Validation(true))
			if err != nil {
				t.Fatal(err)
			}
			d.forceSlow, d.noScan = mode == "slow", mode == "noscan"
			d.AppendPrune(nil, []byte(doc))
			if got := errorTexts(d); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("errors:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// TestValidationScaleDroppedStatus: with the status subresource a create
// drops the status before it validates, so the scale subresource's status
// paths find nothing there, a null no more than a string.
func TestValidationScaleDroppedStatus(t *testing.T) {
	crd := strings.Replace(scaleCRD("Gadget", "gadgets", "{specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}", `        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
`), "      scale: {", "      status: {}\n      scale: {", 1)
	set := compileCRDText(t, crd)
	const head = `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"replicas":1},`
	for name, doc := range map[string]string{
		"a string":         head + `"status":{"replicas":"x"}}`,
		"a null":           head + `"status":{"replicas":null}}`,
		"a null, deeper":   head + `"status":{"a":{"b":null},"replicas":null}}`,
		"a null, not kept": head + `"status":{"replicas":null,"conditions":[null]}}`,
	} {
		checkErrorsInModes(t, set, name, doc, nil)
	}
}

// TestValidationScaleMask: the walk compares a value with the scale paths
// only while its parents lie on one (valState.scaleCur): names of the
// paths' segments elsewhere (a sibling subtree, an array's elements, a
// map's values, an object left and entered again) are at none of them,
// and a value at a path is found however its parents were walked
// (declared, kept verbatim, on the lane, with escapes, duplicated).
func TestValidationScaleMask(t *testing.T) {
	schemas := map[string]string{
		"declared": `        type: object
        properties:
          spec:
            type: object
            properties:
              scale: {type: object, x-kubernetes-preserve-unknown-fields: true}
              x:
                type: object
                properties:
                  replicas: {type: string}
                  scale: {type: object, x-kubernetes-preserve-unknown-fields: true}
              list: {type: array, items: {type: object, x-kubernetes-preserve-unknown-fields: true}}
              m: {type: object, additionalProperties: {type: object, x-kubernetes-preserve-unknown-fields: true}}
              n: {type: string}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
          other: {type: object, x-kubernetes-preserve-unknown-fields: true}
`,
		"root preserved": `        type: object
        x-kubernetes-preserve-unknown-fields: true
`,
	}
	const head = `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},`
	const sp = ".spec.scale.replicas"
	cases := []struct {
		name, doc string
		want      []string
	}{
		{"the segments' names elsewhere", head + `"spec":{"x":{"replicas":"a"},"scale":{"replicas":2}}}`, nil},
		{"the path left and a like one entered", head + `"spec":{"scale":{"replicas":2},"x":{"replicas":"a","scale":{"replicas":"b"}}}}`, nil},
		{"arrays and maps on the way", head + `"spec":{"list":[{"replicas":"a"},{"scale":{"replicas":"a"}}],"m":{"scale":{"replicas":"b"}},"scale":{"replicas":"c"}}}`,
			[]string{sp + `: Invalid value: 0: ` + sp + ` accessor error: c is of the type string, expected int64`}},
		{"another root member first", head + `"other":{"scale":{"replicas":"a"}},"spec":{"n":"x","scale":{"replicas":-1}}}`,
			[]string{sp + `: Invalid value: -1: should be a non-negative integer`}},
		{"the status paths", head + `"spec":{"scale":{"replicas":1}},"status":{"replicas":{"x":1},"sel":[1]}}`,
			[]string{`.status.replicas: Invalid value: 0: .status.replicas accessor error: map[x:1] is of the type map[string]interface {}, expected int64`,
				`.status.sel: Invalid value: "": .status.sel accessor error: [1] is of the type []interface {}, expected string`}},
		{"an escaped name", head + `"spec":{"sc\u0061le":{"replic\u0061s":"a"}}}`,
			[]string{sp + `: Invalid value: 0: ` + sp + ` accessor error: a is of the type string, expected int64`}},
		{"a prefix that holds an array", head + `"spec":{"scale":[{"replicas":1}]}}`,
			[]string{sp + `: Invalid value: 0: ` + sp + ` accessor error: [map[replicas:1]] is of the type []interface {}, expected map[string]interface{}`}},
		{"a duplicate: the last value wins", head + `"spec":{"scale":{"replicas":"a"},"scale":{"replicas":3}}}`, nil},
		{"a duplicate: the last value is wrong", head + `"spec":{"scale":{"replicas":3},"scale":{"replicas":"b"}}}`,
			[]string{sp + `: Invalid value: 0: ` + sp + ` accessor error: b is of the type string, expected int64`}},
		{"a null at a path", head + `"spec":{"scale":{"replicas":null}},"status":{"replicas":null}}`,
			[]string{sp + `: Invalid value: 0: ` + sp + ` accessor error: <nil> is of the type <nil>, expected int64`,
				`.status.replicas: Invalid value: 0: .status.replicas accessor error: <nil> is of the type <nil>, expected int64`}},
	}
	// what the declared schema adds: its own type error first
	declared := map[string][]string{"a prefix that holds an array": {`spec.scale: Invalid value: "array": spec.scale in body must be of type object: "array"`}}
	for sname, schema := range schemas {
		set := compileCRDText(t, scaleCRD("Gadget", "gadgets", "{specReplicasPath: "+sp+", statusReplicasPath: .status.replicas, labelSelectorPath: .status.sel}", schema))
		for _, c := range cases {
			want := c.want
			if sname == "declared" {
				want = append(slices.Clip(declared[c.name]), want...)
			}
			checkErrorsInModes(t, set, sname+"/"+c.name, c.doc, want)
		}
	}
}

// TestValidationCorpusModes: on every corpus CR, validation gives the same
// verdict and the same errors whatever the output (bytes, a map, none) and
// however the document is read (the scanner's fast path, the slow path,
// jsontext).
func TestValidationCorpusModes(t *testing.T) {
	c := needCorpus(t)
	d := must(New(c.set, Validation(true)))
	text := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	invalid := 0
	for i, doc := range c.docs {
		_, err := d.AppendPrune(nil, doc)
		want := text(err)
		if want != "" {
			invalid++
		}
		_, errMap := d.DecodeMap(doc)
		errNone := d.Validate(doc)
		d.forceSlow = true
		_, errSlow := d.AppendPrune(nil, doc)
		d.forceSlow, d.noScan = false, true
		_, errNoScan := d.AppendPrune(nil, doc)
		d.noScan = false
		for mode, err := range map[string]error{"map": errMap, "none": errNone, "slow": errSlow, "noscan": errNoScan} {
			if got := text(err); got != want {
				t.Errorf("corpus CR %d, %s:\n got %.300s\nwant %.300s", i, mode, got, want)
			}
		}
	}
	if invalid == 0 {
		t.Error("no corpus CR is invalid")
	}
	t.Logf("%d corpus CRs, %d invalid, each the same in 5 modes", len(c.docs), invalid)
}
