package errors

import (
	"encoding/json"
	"testing"
)

func TestInvalidMessage(t *testing.T) {
	a := &FieldError{Type: FieldInvalid, Field: "spec.a", BadValue: "x", Detail: "m"}
	b := &FieldError{Type: FieldTooLong, Field: "spec.b", BadValue: "<value omitted>", Detail: "may not be more than 3 bytes"}
	n := &FieldError{Type: FieldInvalid, Field: "<nil>", BadValue: "", Detail: `"spec.any" must validate at least one schema (anyOf)`}
	for _, c := range []struct {
		errs FieldErrors
		want string
	}{
		{nil, `Widget.example.com "w" is invalid`},
		// CAP02: two identical errors are printed once.
		{FieldErrors{a, a}, `Widget.example.com "w" is invalid: spec.a: Invalid value: "x": m`},
		{FieldErrors{a, b, a, n}, `Widget.example.com "w" is invalid: [spec.a: Invalid value: "x": m, spec.b: Too long: may not be more than 3 bytes, <nil>: Invalid value: "": "spec.any" must validate at least one schema (anyOf)]`},
	} {
		if got := InvalidMessage("Widget", "example.com", "w", c.errs); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
	if got := InvalidMessage("Widget", "", "a\"b", nil); got != `Widget "a\"b" is invalid` {
		t.Errorf("got %s", got)
	}
}

func TestCauses(t *testing.T) {
	a := &FieldError{Type: FieldInvalid, Field: "spec.a", BadValue: "x", Detail: "m"}
	n := &FieldError{Type: FieldInvalid, Field: "<nil>", BadValue: "", Detail: "d"}
	got, _ := json.Marshal(FieldErrors{a, a, n}.Causes())
	want := `[{"reason":"FieldValueInvalid","message":"Invalid value: \"x\": m","field":"spec.a"},` +
		`{"reason":"FieldValueInvalid","message":"Invalid value: \"x\": m","field":"spec.a"},` +
		`{"reason":"FieldValueInvalid","message":"Invalid value: \"\": d","field":"\u003cnil\u003e"}]`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
