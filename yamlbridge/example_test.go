package yamlbridge_test

import (
	"fmt"
	"io"

	"github.com/jsonprune/jsonprune/decoder"
	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/yamlbridge"
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

const stream = `# nightly jobs
apiVersion: ops.example.com/v1
kind: Job
metadata: {name: nightly}
spec:
  shell: echo hi   # the command
  privileged: yes  # not in the schema
  shell: echo bye
---
defaults: &d {shell: echo merged, timeout: 10}
apiVersion: ops.example.com/v1
kind: Job
metadata: {name: merged}
spec:
  <<: *d
  retries: 1.0
`

func Example() {
	crds, err := schemaauto.ParseCRDs([]byte(crd))
	if err != nil {
		panic(err)
	}
	set, err := schemaauto.CompileCRDs(crds)
	if err != nil {
		panic(err)
	}
	d, err := decoder.New(set)
	if err != nil {
		panic(err)
	}
	r := yamlbridge.NewReader([]byte(stream))
	for {
		doc, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		out, err := d.AppendPruneSource(nil, doc.Source())
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s\n", out)
		for _, f := range d.Result().Findings() {
			line, col := doc.Position(f.Offset)
			fmt.Printf("  line %d, column %d: %s\n", line, col, f.Message())
		}
		y, err := doc.AppendYAML(nil, out)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s---\n", y)
	}
	// Output:
	// {"apiVersion":"ops.example.com/v1","kind":"Job","metadata":{"name":"nightly"},"spec":{"shell":"echo bye","retries":3}}
	//   line 8, column 3: duplicate field "spec.shell"
	//   line 7, column 3: unknown field "spec.privileged"
	// # nightly jobs
	// apiVersion: ops.example.com/v1
	// kind: Job
	// metadata: {name: nightly}
	// spec:
	//   shell: echo bye
	//   retries: 3
	// ---
	// {"apiVersion":"ops.example.com/v1","kind":"Job","metadata":{"name":"merged"},"spec":{"shell":"echo merged","retries":1}}
	//   line 10, column 1: unknown field "defaults"
	//   line 10, column 35: unknown field "spec.timeout"
	// apiVersion: ops.example.com/v1
	// kind: Job
	// metadata: {name: merged}
	// spec:
	//   shell: echo merged
	//   retries: 1.0
	// ---
}
