package decoder_test

import (
	"fmt"
	"strings"

	"github.com/jsonprune/jsonprune/decoder"
	"github.com/jsonprune/jsonprune/schemaauto"
)

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: jobs.ops.example.com}
spec:
  group: ops.example.com
  names: {kind: Job, plural: jobs}
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
              shell: {type: string}
              retries: {type: integer, default: 3}
`

const body = `{"apiVersion":"ops.example.com/v1","kind":"Job",
 "metadata":{"name":"nightly","garbage":1},
 "spec":{"shell":"echo hi","privileged":true,"shell":"echo bye"}}`

func newDecoder(opts ...decoder.Option) *decoder.Decoder {
	crds, err := schemaauto.ParseCRDs([]byte(crd))
	if err != nil {
		panic(err)
	}
	set, err := schemaauto.CompileCRDs(crds)
	if err != nil {
		panic(err)
	}
	d, err := decoder.New(set, opts...)
	if err != nil {
		panic(err)
	}
	return d
}

// Prune to bytes: what the API server would store, and every finding.
func ExampleDecoder_AppendPrune() {
	d := newDecoder()
	out, err := d.AppendPrune(nil, []byte(body))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	for _, f := range d.Result().Findings() {
		fmt.Printf("%s (line %d, %s)\n", f.Message(), f.Line, f.Pointer)
	}
	// Output:
	// {"apiVersion":"ops.example.com/v1","kind":"Job","metadata":{"name":"nightly"},"spec":{"shell":"echo bye","retries":3}}
	// duplicate field "spec.shell" (line 3, /spec/shell)
	// unknown field "metadata.garbage" (line 2, /metadata/garbage)
	// unknown field "spec.privileged" (line 3, /spec/privileged)
}

// Decode to a map, as a serializer does (integers are int64).
func ExampleDecoder_DecodeMap() {
	d := newDecoder(decoder.FieldValidation(decoder.Ignore))
	m, err := d.DecodeMap([]byte(body))
	if err != nil {
		panic(err)
	}
	spec := m["spec"].(map[string]any)
	fmt.Printf("%v %T\n", spec, spec["retries"])
	// Output:
	// map[retries:3 shell:echo bye] int64
}

// Validate only, with the API server's Strict field validation.
func ExampleDecoder_Validate() {
	d := newDecoder(decoder.FieldValidation(decoder.Strict))
	err := d.Validate([]byte(body))
	fmt.Println(err)
	// Output:
	// strict decoding error: duplicate field "spec.shell", unknown field "metadata.garbage", unknown field "spec.privileged"
}

// Prune a document read from a reader to a writer while reading it: memory
// stays flat however large the document (here a list of 100,000 items).
func ExampleDecoder_PruneReader() {
	d := newDecoder()
	items := strings.Repeat(`"x",`, 100_000)
	in := strings.NewReader(`{"apiVersion":"ops.example.com/v1","kind":"Job","metadata":{"name":"big"},` +
		`"spec":{"shell":"echo","args":[` + items + `"x"]}}`)
	var out strings.Builder
	if err := d.PruneReader(&out, in); err != nil {
		panic(err)
	}
	fmt.Println(out.Len(), "bytes out")
	for _, f := range d.Result().Findings() {
		fmt.Printf("%s (offset %d, %s)\n", f.Message(), f.Offset, f.Pointer)
	}
	// Output:
	// 110 bytes out
	// unknown field "spec.args" (offset 97, /spec/args)
}
