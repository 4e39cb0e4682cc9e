package validate_test

import (
	"fmt"

	"github.com/jsonprune/jsonprune/validate"
)

func mustCompile(n validate.Node) *validate.Rules {
	r, err := validate.Compile(n)
	if err != nil {
		panic(err)
	}
	return r
}

// A value tree is validated against a whole schema tree, junctors
// included: the int-or-string pattern with its generated anyOf reports the
// type error, the pathless anyOf line, then the errors of the best failing
// branch (the integer one, with its range check).
func ExampleTree_Validate() {
	port := &validate.Tree{
		Rules: mustCompile(validate.Node{IntOrString: true}),
		AnyOf: []*validate.Tree{
			{Rules: mustCompile(validate.Node{Type: "integer"})},
			{Rules: mustCompile(validate.Node{Type: "string"})},
		},
	}
	root := &validate.Tree{
		Rules: mustCompile(validate.Node{Type: "object"}),
		Properties: map[string]*validate.Tree{
			"spec": {
				Rules:      mustCompile(validate.Node{Type: "object", Keywords: map[string]any{"required": []any{"name"}}}),
				Properties: map[string]*validate.Tree{"port": port},
			},
		},
	}
	for _, e := range root.Validate("", map[string]any{"spec": map[string]any{"port": 80.5}}) {
		fmt.Println(e)
	}
	// Output:
	// spec.port: Invalid value: "number": spec.port in body must be of type integer,string: "number"
	// <nil>: Invalid value: "": "spec.port" must validate at least one schema (anyOf)
	// spec.port: Invalid value: "number": spec.port in body must be of type integer: "number"
	// <nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.port
	// spec.name: Required value
}

// Junctors gives a streaming caller step 2 alone; oneOf with two passing
// branches reports how many passed and no branch errors.
func ExampleTree_Junctors() {
	t := &validate.Tree{OneOf: []*validate.Tree{
		{Rules: mustCompile(validate.Node{Type: "integer"})},
		{Rules: mustCompile(validate.Node{Keywords: map[string]any{"minimum": 0.0}})},
		{Rules: mustCompile(validate.Node{Type: "string"})},
	}}
	for _, e := range t.Junctors("spec.n", int64(3)) {
		fmt.Println(e)
	}
	fmt.Println(len(t.Junctors("spec.n", true)), "errors for a boolean (only the minimum branch passes)")
	// Output:
	// <nil>: Invalid value: "": "spec.n" must validate one and only one schema (oneOf). Found 2 valid alternatives
	// 0 errors for a boolean (only the minimum branch passes)
}

// List types: a set compares scalars as Go values (int64 1 and float64 1
// differ) and objects by their JSON; a map list by its key fields.
func ExampleListTypeErrors() {
	fmt.Println(validate.ListTypeErrors("spec.l", "set", nil, []any{"a", int64(1), 1.0, "a"}))
	ports := []any{
		map[string]any{"port": int64(80), "protocol": "TCP"},
		map[string]any{"protocol": "TCP", "port": int64(80), "name": "http"},
		nil,
		map[string]any{},
	}
	for _, e := range validate.ListTypeErrors("spec.ports", "map", []string{"port", "protocol"}, ports) {
		fmt.Println(e)
	}
	// Output:
	// spec.l[3]: Duplicate value: "a"
	// spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}
	// spec.ports[3]: Duplicate value: {}
}

// ListTypes walks a value tree as the server's list-type step does, with
// field.Path paths (map keys bracketed).
func ExampleTree_ListTypes() {
	t := &validate.Tree{Properties: map[string]*validate.Tree{
		"spec": {Properties: map[string]*validate.Tree{
			"byZone": {AdditionalProperties: &validate.Tree{ListType: "set"}},
		}},
	}}
	v := map[string]any{"spec": map[string]any{"byZone": map[string]any{"eu.1": []any{"a", "b", "a"}}}}
	fmt.Println(t.ListTypes("", v))
	// Output:
	// spec.byZone[eu.1][2]: Duplicate value: "a"
}
