package objectmeta_test

import (
	"fmt"

	"github.com/jsonprune/jsonprune/internal/objectmeta"
)

func ExampleValidator_Validate() {
	var v objectmeta.Validator

	// root metadata, as the decoder emits it after normalisation
	meta := []byte(`{"finalizers":["cleanup"],"labels":{"-bad":"ok"},"name":"Foo","ownerReferences":[{"apiVersion":"a/b/c","kind":"K","name":"n","uid":""}]}`)
	for _, err := range v.Validate(meta, objectmeta.ValidateOptions{}, nil) {
		fmt.Println(string(err.Type), "|", err.Field, "|", err.Detail[:min(len(err.Detail), 40)])
	}

	// the same names are fine in an embedded resource, which only refuses
	// path-segment breakers
	fmt.Println(v.Validate([]byte(`{"name":"Foo","generateName":"Foo-"}`), objectmeta.ValidateOptions{Embedded: true, Path: "spec.e.metadata"}, nil))
	fmt.Println(v.Validate([]byte(`{"name":"a/b"}`), objectmeta.ValidateOptions{Embedded: true, Path: "spec.e.metadata"}, nil).Error())

	// a generated name is checked with a placeholder for its random part
	fmt.Println(v.Validate([]byte(`{"generateName":"x_"}`), objectmeta.ValidateOptions{}, nil)[1].Error()[:39])

	// TypeMeta, root and embedded
	fmt.Println(objectmeta.ValidateTypeMeta("widget", "example.com/v1", "Widget", "example.com/v1", nil).Error())
	fmt.Println(objectmeta.ValidateEmbeddedTypeMeta("spec.e", true, "v1", false, "", nil).Error())

	// finalizer warnings of a successful create
	fmt.Println(v.Warnings(meta, nil))

	// the name helpers
	fmt.Println(objectmeta.IsDNS1123Label("a.b"), objectmeta.IsPathSegmentName(".."))
	// Output:
	// FieldValueInvalid | metadata.name | a lowercase RFC 1123 subdomain must cons
	// FieldValueInvalid | metadata.labels | name part must consist of alphanumeric c
	// FieldValueInvalid | metadata.ownerReferences[0].apiVersion | must be <group>/<version> or <version>
	// FieldValueRequired | metadata.ownerReferences[0].uid | must not be empty
	// []
	// spec.e.metadata.name: Invalid value: "a/b": may not contain '/'
	// metadata.name: Invalid value: "x_xxxxx"
	// kind: Invalid value: "widget": must be Widget
	// spec.e.kind: Required value
	// [metadata.finalizers: "cleanup": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers]
	// [must not contain dots] [may not be '..']
}
