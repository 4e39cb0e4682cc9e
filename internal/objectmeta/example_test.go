package objectmeta_test

import (
	"encoding/json"
	"fmt"

	"github.com/jsonprune/jsonprune/internal/objectmeta"
)

func ExampleNormalize() {
	metadata := map[string]any{
		"name":              "w",
		"Name":              "unknown: matching is case-sensitive",
		"generation":        2.0,
		"creationTimestamp": "2020-01-01T01:02:03.999+02:00",
		"labels":            map[string]any{"app": nil},
		"annotations":       map[string]any{},
		"ownerReferences":   []any{map[string]any{"uid": "u", "extra": true}},
	}
	meta, unknown, err := objectmeta.Normalize(metadata, objectmeta.Options{ReportUnknown: true})
	out, _ := json.Marshal(meta)
	fmt.Println(string(out))
	fmt.Println(unknown, err)

	_, _, err = objectmeta.Normalize(map[string]any{"generation": 1.5}, objectmeta.Options{})
	fmt.Println(err)

	meta, _, err = objectmeta.Normalize(map[string]any{
		"name":   "kept",
		"labels": map[string]any{"a": "b", "c": int64(5)},
	}, objectmeta.Options{DropMalformed: true})
	fmt.Println(meta, err)
	// Output:
	// {"creationTimestamp":"2019-12-31T23:02:03Z","generation":2,"labels":{"app":""},"name":"w","ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":"u"}]}
	// [metadata.Name metadata.ownerReferences[0].extra] <nil>
	// json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64
	// map[name:kept] <nil>
}

func ExampleCoerceEmbedded() {
	embedded := map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata":   map[string]any{"name": "cm", "foo": "bar", "creationTimestamp": nil},
	}
	unknown, err := objectmeta.CoerceEmbedded(embedded, "spec.template", objectmeta.Options{ReportUnknown: true})
	fmt.Println(embedded["metadata"], unknown, err)

	_, err = objectmeta.CoerceEmbedded(map[string]any{"kind": int64(5)}, "spec.template", objectmeta.Options{})
	fmt.Println(err)

	_, err = objectmeta.CoerceEmbedded(map[string]any{"metadata": map[string]any{"name": int64(5)}}, "spec.template", objectmeta.Options{})
	fmt.Println(err)
	// Output:
	// map[name:cm] [spec.template.metadata.foo] <nil>
	// spec.template.kind: Invalid value: 5: must be a string
	// spec.template.metadata: Invalid value: {"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string
}
