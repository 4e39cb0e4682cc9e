package schemaauto_test

import (
	"fmt"
	"os"

	"github.com/jsonprune/jsonprune/schemaauto"
)

const exampleCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: jobs.operations.example.com}
spec:
  group: operations.example.com
  names: {kind: MaintenanceNightlyJob, plural: jobs}
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
              machines: {type: array, items: {type: string}}
`

// Compile a CRD and prune an object with the reference's algorithm: the
// unspecified "privileged" field of the structural-schema blog is dropped.
func ExampleCompileCRDs() {
	crds, err := schemaauto.ParseCRDs([]byte(exampleCRD))
	if err != nil {
		panic(err)
	}
	set, err := schemaauto.CompileCRDs(crds)
	if err != nil {
		panic(err)
	}
	e, ok := set.Lookup("operations.example.com/v1", "MaintenanceNightlyJob")
	fmt.Println(ok, e.GVK)

	obj := map[string]any{
		"apiVersion": "operations.example.com/v1",
		"kind":       "MaintenanceNightlyJob",
		"spec": map[string]any{
			"shell":      "echo hi",
			"machines":   []any{"az1-master1"},
			"privileged": true,
		},
	}
	fmt.Println(e.Automaton.PruneValue(obj, e.Automaton.Root()))
	// Output:
	// true operations.example.com/v1, Kind=MaintenanceNightlyJob
	// [spec.privileged]
}

// Validate reports what the API server would say when the CRD is created.
func ExampleCRD_Validate() {
	crds, err := schemaauto.ParseCRDs([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: jobs.operations.example.com}
spec:
  group: operations.example.com
  names: {kind: MaintenanceNightlyJob, plural: jobs}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        properties:
          spec:
            type: object
            oneOf:
            - properties: {command: {type: string}}
`))
	if err != nil {
		panic(err)
	}
	for _, v := range crds[0].Validate() {
		fmt.Println(v)
	}
	// Output:
	// spec.validation.openAPIV3Schema.properties[spec].oneOf[0].properties[command].type: Forbidden: must be empty to be structural
	// spec.validation.openAPIV3Schema.type: Required value: must not be empty at the root
}

// A non-structural schema can still be pruned by its skeleton.
func ExampleCompile_skeleton() {
	s, err := schemaauto.ParseSchema([]byte(`{"anyOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}]}`))
	if err != nil {
		panic(err)
	}
	if _, err := schemaauto.Compile(s); err != nil {
		fmt.Println("rejected:", err != nil)
	}
	a, err := schemaauto.Compile(s, schemaauto.AllowSkeleton(true))
	if err != nil {
		panic(err)
	}
	obj := map[string]any{"a": 1, "b": 2, "c": 3}
	fmt.Println(a.PruneValue(obj, a.Root()), obj)
	// Output:
	// rejected: true
	// [c] map[a:1 b:2]
}

// WriteTo prints the state table.
func ExampleAutomaton_WriteTo() {
	s, err := schemaauto.ParseSchema([]byte(`{"type": "object", "properties": {"spec": {"type": "object",
		"x-kubernetes-preserve-unknown-fields": true, "properties": {"n": {"type": "integer", "default": 1}}}}}`))
	if err != nil {
		panic(err)
	}
	a, err := schemaauto.Compile(s)
	if err != nil {
		panic(err)
	}
	a.WriteTo(os.Stdout)
	// Output:
	// automaton: 39 states, root s36, ObjectMeta s35, prunes
	// s0 any  (no schema: pruned)
	// s1 any preserve  (no schema: kept)
	// s36 object embedded defaults-below  openAPIV3Schema
	//     "apiVersion" → s1 (apiVersion)
	//     "kind" → s1 (kind)
	//     "metadata" → s35 (metadata)
	//     "spec" → s37
	// s37 object preserve defaults-props defaults-below  openAPIV3Schema.properties[spec]
	//     "n" → s38
	// s38 integer default  openAPIV3Schema.properties[spec].properties[n]
	//     default 1
	// s2-s35 built-in metav1.ObjectMeta (root s35)
}

// Validate a decoded object (a value tree) against a CRD version's schema.
func ExampleVersion_ValidateValue() {
	crds, err := schemaauto.ParseCRDs([]byte(`apiVersion: apiextensions.k8s.io/v1
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
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              replicas: {type: integer, minimum: 0}
              size: {type: string, enum: [small, large]}
              tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
`))
	if err != nil {
		panic(err)
	}
	obj := map[string]any{"spec": map[string]any{"replicas": int64(-1), "tags": []any{"a", "a"}}}
	errs, err := crds[0].Version("v1").ValidateValue(obj)
	for _, e := range errs {
		fmt.Println(e)
	}
	fmt.Println(err)
	// Output:
	// spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0
	// spec.size: Required value
	// spec.tags[1]: Duplicate value: "a"
	// <nil>
}
