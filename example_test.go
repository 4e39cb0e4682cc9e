package jsonprune_test

import (
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/jsonprune/jsonprune"
	"github.com/jsonprune/jsonprune/decoder"
)

// Strictly decode a YAML file against a CRD: the five lines.
func Example() {
	s, err := jsonprune.LoadCRDFiles("examples/widget-crd.yaml")
	if err == nil {
		_, err = s.PruneFile("examples/widget.yaml", decoder.FieldValidation(decoder.Strict))
	}
	fmt.Println(err)
	// Output:
	// examples/widget.yaml: strict decoding error: unknown field "metadata.garbage", unknown field "spec.hostNetwork", unknown field "spec.list[0].extra", unknown field "spec.mapOfObj.k1.z", unknown field "spec.preserved.known.extra", unknown field "status.surprise", unknown field "spec.embedded.metadata.bogus"
}

// Load the CRDs of a file or a directory once; the Schemas serve every
// goroutine.
func ExampleLoadCRDFiles() {
	s, err := jsonprune.LoadCRDFiles("examples")
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range s.Set().Entries() {
		fmt.Println(e.GVK)
	}
	// Output:
	// example.com/v1, Kind=Widget
}

// Prune one JSON document (the default mode is Warn: the unknown field is
// dropped, and reported by Validate or Decode).
func ExampleSchemas_Prune_json() {
	s, err := jsonprune.LoadCRDFiles("examples/widget-crd.yaml")
	if err != nil {
		log.Fatal(err)
	}
	out, err := s.Prune([]byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":2,"foo":1}}`),
		decoder.Defaulting(false))
	fmt.Println(string(out), err)
	// Output:
	// {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":2}} <nil>
}

// Prune one YAML document.
func ExampleSchemas_Prune_yaml() {
	s, err := jsonprune.LoadCRDFiles("examples/widget-crd.yaml")
	if err != nil {
		log.Fatal(err)
	}
	out, err := s.Prune([]byte(`
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec:
  replicas: 2
  foo: 1
`), decoder.Defaulting(false))
	fmt.Println(string(out), err)
	// Output:
	// {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":2}} <nil>
}

// Findings carry the line and column in the input the caller gave.
func ExampleSchemas_Validate() {
	s, err := jsonprune.LoadCRDFiles("examples/widget-crd.yaml")
	if err != nil {
		log.Fatal(err)
	}
	doc := []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  foo: 1\n  replicas: 2\n  replicas: 3\n")
	findings, err := s.Validate(doc)
	for _, f := range findings {
		fmt.Printf("%d:%d: %s\n", f.Line, f.Column, f.Message())
	}
	fmt.Println(err)
	// Output:
	// 8:3: duplicate field "spec.replicas"
	// 6:3: unknown field "spec.foo"
	// <nil>
}

// In Strict mode findings reject the document, and so does a kind no CRD
// serves.
func ExampleSchemas_Prune_strict() {
	s, err := jsonprune.LoadCRDFiles("examples/widget-crd.yaml")
	if err != nil {
		log.Fatal(err)
	}
	strict := decoder.FieldValidation(decoder.Strict)
	_, err = s.Prune([]byte(`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"foo":1}}`), strict)
	fmt.Println(err)
	_, err = s.Prune([]byte(`{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"b"}}`), strict)
	fmt.Println(err)
	// Output:
	// strict decoding error: unknown field "spec.foo"
	// line 1: no CRD serves this kind: apiVersion "v1", kind "ConfigMap"
}

// Read a stream of documents, YAML here, JSON (concatenated or NDJSON)
// alike.
func ExampleStream() {
	s, err := jsonprune.LoadCRDFiles("examples/widget-crd.yaml")
	if err != nil {
		log.Fatal(err)
	}
	input := `apiVersion: example.com/v1
kind: Widget
metadata: {name: a}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: b}
spec: {foo: 1}
`
	st, err := jsonprune.NewStream(s, strings.NewReader(input), decoder.Defaulting(false))
	if err != nil {
		panic(err)
	}
	for {
		obj, err := st.Next()
		if err == io.EOF {
			break
		}
		if obj == nil { // an error that ends the stream
			log.Fatal(err)
		}
		fmt.Printf("#%d line %d %s %s: %s\n", obj.Index, obj.Line, obj.APIVersion, obj.Kind, obj.JSON)
		for _, f := range obj.Findings {
			fmt.Printf("  %d:%d: %s\n", f.Line, f.Column, f.Message())
		}
	}
	// Output:
	// #0 line 1 example.com/v1 Widget: {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a"}}
	// #1 line 5 example.com/v1 Widget: {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"b"},"spec":{}}
	//   8:8: unknown field "spec.foo"
}

// Would the API server accept this object? Validation checks each value
// against its schema, as the server's create path does, in the same pass;
// each error is the server's text, located in the input.
func ExampleSchemas_Decode_validation() {
	s, err := jsonprune.LoadCRDFiles("examples/widget-crd.yaml")
	if err != nil {
		log.Fatal(err)
	}
	doc := `apiVersion: example.com/v1
kind: Widget
metadata:
  name: Big_Widget
spec:
  replicas: "3"
  privileged: yes
`
	obj, err := s.Decode([]byte(doc), decoder.Validation(true))
	if obj != nil && obj.Invalid != nil {
		for _, e := range obj.Invalid.Errors {
			fmt.Printf("%d:%d: %s\n", e.Line, e.Column, e.Error())
		}
	}
	fmt.Println(err != nil)
	// Output:
	// 3:1: metadata.name: Invalid value: "Big_Widget": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
	// 6:13: spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"
	// true
}
