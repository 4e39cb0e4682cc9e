package validate_test

import (
	"fmt"

	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/validate"
)

// A scalar is checked in one call; the errors are rendered only when Check
// fails.
func ExampleRules_Check() {
	r, err := validate.Compile(validate.Node{
		Type:     "integer",
		Keywords: map[string]any{"minimum": int64(1), "maximum": 1.5},
	})
	if err != nil {
		panic(err)
	}
	for _, lit := range []string{"1", "2", "2.5"} {
		v := validate.ParseNumber([]byte(lit))
		if r.Check(v) {
			fmt.Println(lit, "ok")
			continue
		}
		for _, e := range r.AppendErrors(nil, "spec.replicas", v) {
			fmt.Println(lit, e)
		}
	}
	// Output:
	// 1 <nil>: Invalid value: "": Maximum boundary value must be of type integer (default format) in spec.replicas
	// 2 <nil>: Invalid value: "": Maximum boundary value must be of type integer (default format) in spec.replicas
	// 2 spec.replicas: Invalid value: 2: spec.replicas in body should be less than or equal to 1.5
	// 2.5 spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"
	// 2.5 <nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.replicas
	// 2.5 <nil>: Invalid value: "": Maximum boundary value must be of type integer (default format) in spec.replicas
	// 2.5 spec.replicas: Invalid value: 2.5: spec.replicas in body should be less than or equal to 1.5
}

// Strings: maxLength counts runes, says "bytes", and stops the later string
// checks; the format check follows.
func ExampleRules_AppendErrors() {
	r, _ := validate.Compile(validate.Node{
		Type: "string", Format: "date-time", Pattern: "^2",
		Keywords: map[string]any{"maxLength": int64(3)},
	})
	v := validate.Scalar{Kind: validate.String, Str: []byte("héllo")}
	for _, e := range r.AppendErrors(nil, "spec.at", v) {
		fmt.Println(e)
	}
	// Output:
	// spec.at: Too long: may not be more than 3 bytes
	// spec.at: Invalid value: "héllo": spec.at in body must be of type date-time: "héllo"
}

// An object is checked in pieces, in the server's order: type, enum,
// minProperties/maxProperties, additionalProperties: false, then (after the
// properties) required.
func ExampleRules_AppendObjectErrors() {
	r, _ := validate.Compile(validate.Node{
		Type:                      "object",
		AdditionalPropertiesFalse: true,
		Keywords:                  map[string]any{"maxProperties": int64(1), "required": []any{"name"}},
	})
	obj := map[string]any{"a": int64(1), "b": int64(2)}
	var errs jperrors.FieldErrors
	errs = r.AppendTypeErrors(errs, "spec.o", validate.Scalar{Kind: validate.Object})
	errs = r.AppendEnumErrors(errs, "spec.o", obj)
	errs = r.AppendObjectErrors(errs, "spec.o", len(obj))
	if r.AdditionalPropertiesFalse() {
		for _, k := range []string{"a", "b"} { // the keys not declared as properties
			errs = append(errs, validate.ForbiddenProperty("spec.o", k))
		}
	}
	for _, k := range r.Required() {
		if _, ok := obj[k]; !ok {
			errs = append(errs, validate.RequiredError("spec.o", k))
		}
	}
	fmt.Println(jperrors.InvalidMessage("Widget", "example.com", "w", errs))
	// Output:
	// Widget.example.com "w" is invalid: [spec.o: Too many: 2: must have at most 1 item, spec.o: Invalid value: "a": spec.o.a in body is a forbidden property, spec.o: Invalid value: "b": spec.o.b in body is a forbidden property, spec.o.name: Required value]
}

// Enum matching converts scalars the way Go converts them: an integer matches
// a string member as a rune, a float matches an integer member by truncation;
// objects and arrays must be deeply equal; null never matches.
func ExampleRules_CheckEnum() {
	r, _ := validate.Compile(validate.Node{Keywords: map[string]any{
		"enum": []any{"A", int64(2), map[string]any{"a": int64(1)}},
	}})
	for _, v := range []any{int64(65), "65", 2.9, map[string]any{"a": 1.0}, nil} {
		fmt.Printf("%v %v\n", v, r.CheckEnum(v))
	}
	fmt.Println(r.AppendEnumErrors(nil, "spec.e", "B")[0])
	// Output:
	// 65 true
	// 65 false
	// 2.9 true
	// map[a:1] false
	// <nil> false
	// spec.e: Unsupported value: "B": supported values: "A", "2", "{\"a\":1}"
}

// An array's size checks come after its items' errors.
func ExampleRules_AppendArrayErrors() {
	r, _ := validate.Compile(validate.Node{Type: "array", Keywords: map[string]any{"minItems": int64(2), "maxItems": int64(3)}})
	fmt.Println(r.CheckArray(1), r.AppendArrayErrors(nil, "spec.l", 1)[0])
	fmt.Println(r.CheckArray(4), r.AppendArrayErrors(nil, "spec.l", 4)[0])
	// Output:
	// false spec.l: Invalid value: 1: spec.l in body should have at least 2 items
	// false spec.l: Too many: 4: must have at most 3 items
}
