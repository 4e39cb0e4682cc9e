package yaml11_test

import (
	"errors"
	"fmt"

	"github.com/jsonprune/jsonprune/internal/yaml11"
)

func Example() {
	src := []byte(`apiVersion: example.com/v1
kind: Widget
spec:
  replicas: 1.0
  ratio: 2.50
  mode: 0777
  enabled: yes
  y: on
  big: 12345678901234567890
  replicas: 3
---
# an empty document gives no value
---
- 1e400
`)
	docs, err := yaml11.Decode(src, yaml11.Options{})
	var dups *yaml11.DuplicateKeysError
	if errors.As(err, &dups) {
		fmt.Println(err)
		for _, d := range dups.Duplicates {
			fmt.Printf("document %d, line %d, in %v: key %s\n", d.Document, d.Line, d.Path, d.Key)
		}
	} else if err != nil {
		fmt.Println("fatal:", err)
		return
	}
	for _, doc := range docs {
		fmt.Printf("%#v\n", doc)
	}
	// Output:
	// yaml: unmarshal errors:
	//   line 10: key "replicas" already set in map
	// document 0, line 10, in [spec]: key "replicas"
	// map[string]interface {}{"apiVersion":"example.com/v1", "kind":"Widget", "spec":map[string]interface {}{"big":1.2345678901234567e+19, "enabled":true, "mode":511, "ratio":2.5, "replicas":3, "true":true}}
	// []interface {}{"1e400"}
}
