package validate

import (
	"math"
	"testing"
	"unicode/utf8"
)

// fuzzNodes cover every check Check and AppendErrors run on scalars.
var fuzzNodes = func() []*Rules {
	nodes := []Node{
		{Type: "string", Pattern: "^[a-c]+x?$", Keywords: kw{"maxLength": int64(6), "minLength": int64(2)}},
		{Type: "integer", Keywords: kw{"multipleOf": 3.0, "minimum": -5.5, "maximum": 100.0}},
		{Type: "integer", Format: "int32", Keywords: kw{"multipleOf": 0.5, "maximum": 2.5, "exclusiveMaximum": true}},
		{Type: "number", Format: "float", Keywords: kw{"multipleOf": 0.2, "minimum": 0.0, "exclusiveMinimum": true}},
		{Keywords: kw{"multipleOf": 1.5, "maximum": 1e30, "enum": []any{int64(3), 4.5, "A", true, nil, map[string]any{}}}},
		{IntOrString: true, Format: "date-time", Nullable: true, Keywords: kw{"maxLength": int64(30), "minimum": 1.0}},
		{Type: "boolean", Keywords: kw{"enum": []any{true}}},
		{Type: "string", Pattern: "(?!x)"},
	}
	for f := range stringFormats {
		nodes = append(nodes, Node{Type: "string", Format: f}, Node{Format: f})
	}
	var rs []*Rules
	for _, n := range nodes {
		r, err := Compile(n)
		if err != nil {
			panic(err)
		}
		rs = append(rs, r)
	}
	return rs
}()

// FuzzCheck: Check's verdict is exactly "AppendErrors appends nothing", and
// neither panics, for strings, numbers (as literals and as floats), booleans
// and null.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"", "abc", "2020-01-01T10:20:30Z", "1h", "3 days", "::ffff:1.2.3.4", "10.0.0.0/8",
		"01:23:45:67:89:ab", "0321751043", "4111111111111111", "rgb(1,2,3)", "YWJj", "a@b.c", "/x", "example.com",
		"123e4567-e89b-42d3-a456-426614174000", "12", "-0", "1e400", "9223372036854775808", "0.30000000000000004"} {
		f.Add(s, 0.0, uint8(0))
	}
	f.Add("", 1.5, uint8(2))
	f.Add("", 3.5e38, uint8(2))
	f.Fuzz(func(t *testing.T, s string, fl float64, which uint8) {
		var v Scalar
		switch which % 5 {
		case 0:
			if !utf8.ValidString(s) {
				return // the decoder hands over valid UTF-8
			}
			v = S(s)
		case 1:
			v = ParseNumber([]byte(s))
		case 2:
			if math.IsNaN(fl) || math.IsInf(fl, 0) {
				return
			}
			v = F(fl)
		case 3:
			v = B(len(s)%2 == 0)
		case 4:
			v = N
		}
		for _, r := range fuzzNodes {
			ok := r.Check(v)
			errs := r.AppendErrors(nil, "spec.x", v)
			if ok != (len(errs) == 0) {
				t.Fatalf("%+v: Check = %v, errors %q", v, ok, errs.Strings())
			}
		}
	})
}
