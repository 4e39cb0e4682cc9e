package validate

import (
	"math"
	"slices"
	"strings"
	"testing"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

func S(s string) Scalar  { return Scalar{Kind: String, Str: []byte(s)} }
func I(i int64) Scalar   { return Scalar{Kind: Int, Int: i} }
func F(f float64) Scalar { return Scalar{Kind: Float, Float: f} }
func B(b bool) Scalar    { return Scalar{Kind: Bool, Bool: b} }

var N = Scalar{Kind: Null}

type kw = map[string]any

// vcase is one scalar checked against one node at a path; want is the
// server's error lines in order (shared/reference/kubernetes-validation.md;
// vector IDs in the names).
type vcase struct {
	name string
	node Node
	path string
	v    Scalar
	want []string
}

func runCases(t *testing.T, cases []vcase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Compile(c.node)
			if err != nil {
				t.Fatal(err)
			}
			got := r.AppendErrors(nil, c.path, c.v).Strings()
			if len(got) == 0 {
				got = nil
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
			if ok := r.Check(c.v); ok != (len(c.want) == 0) {
				t.Errorf("Check = %v", ok)
			}
		})
	}
}

func TestType(t *testing.T) {
	integer := Node{Type: "integer"}
	runCases(t, []vcase{
		{"T01-string-on-integer", integer, "spec.int", S("x"), []string{`spec.int: Invalid value: "string": spec.int in body must be of type integer: "string"`}},
		{"T-bool-on-string", Node{Type: "string"}, "spec.s", B(true), []string{`spec.s: Invalid value: "boolean": spec.s in body must be of type string: "boolean"`}},
		{"T-int-on-string", Node{Type: "string"}, "spec.s", I(5), []string{`spec.s: Invalid value: "integer": spec.s in body must be of type string: "integer"`}},
		{"T-float-on-string", Node{Type: "string"}, "spec.s", F(0.5), []string{`spec.s: Invalid value: "number": spec.s in body must be of type string: "number"`}},
		{"T-int-on-number", Node{Type: "number"}, "spec.n", I(5), nil},
		{"T-float-1.0-on-integer", integer, "spec.int", F(1), nil},
		{"T-float-1e3-on-integer", integer, "spec.int", F(1e3), nil},
		{"T-float-neg0-on-integer", integer, "spec.int", F(math.Copysign(0, -1)), nil},
		{"T07-float-on-integer", integer, "spec.int", F(1.5), []string{
			`spec.int: Invalid value: "number": spec.int in body must be of type integer: "number"`,
			`<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.int`}},
		{"T09-near-integer", integer, "spec.int", F(1.0000000001), []string{
			`<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.int`}},
		{"T11-beyond-int64", integer, "spec.int", F(9223372036854775808), []string{
			`spec.int: Invalid value: "number": spec.int in body must be of type integer: "number"`,
			`<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.int`}},
		{"T12-int64-beyond-2^53", integer, "spec.int", I(9007199254740993), nil},
		{"T13-1e300", integer, "spec.int", F(1e300), []string{
			`spec.int: Invalid value: "number": spec.int in body must be of type integer: "number"`,
			`<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.int`}},
		{"T-root-path-is-nil", Node{Type: "string"}, "", I(1), []string{`<nil>: Invalid value: "integer":  in body must be of type string: "integer"`}},
		{"T-untyped-accepts-all", Node{}, "spec.a", B(true), nil},
		{"N04-nullable-minLength-null", Node{Type: "string", Nullable: true, Keywords: kw{"minLength": int64(2)}}, "spec.n", N, nil},
		{"N06-null-item", Node{Type: "string"}, "spec.l[0]", N, []string{`spec.l[0]: Invalid value: "null": spec.l[0] in body must be of type string: "null"`}},
		{"N-null-untyped", Node{Keywords: kw{"maxLength": int64(1)}}, "spec.a", N, nil},
		{"IOS07-float-on-int-or-string", Node{IntOrString: true}, "spec.ios", F(1.5), []string{
			`spec.ios: Invalid value: "number": spec.ios in body must be of type integer,string: "number"`}},
		{"IOS04-1.0-on-int-or-string", Node{IntOrString: true}, "spec.ios", F(1), nil},
		{"IOS-bool", Node{IntOrString: true}, "spec.ios", B(false), []string{
			`spec.ios: Invalid value: "boolean": spec.ios in body must be of type integer,string: "boolean"`}},
		{"IOS-null", Node{IntOrString: true}, "spec.ios", N, []string{
			`spec.ios: Invalid value: "null": spec.ios in body must be of type integer,string: "null"`}},
		{"IOS11-bounds-numbers-only", Node{IntOrString: true, Keywords: kw{"maximum": 3.0}}, "spec.ios", S("99"), nil},
		{"IOS10-maxLength-strings-only", Node{IntOrString: true, Keywords: kw{"maxLength": int64(1)}}, "spec.ios", I(12345), nil},
		{"IOS-maximum", Node{IntOrString: true, Keywords: kw{"maximum": 3.0}}, "spec.ios", I(4), []string{
			`spec.ios: Invalid value: 4: spec.ios in body should be less than or equal to 3`}},
	})
}

func TestFormats(t *testing.T) {
	f := func(id, format, v string, ok bool) vcase {
		c := vcase{name: id + "-" + format + "-" + v, node: Node{Type: "string", Format: format}, path: "spec.f", v: S(v)}
		if !ok {
			q := jperrors.RenderValue(v)
			c.want = []string{`spec.f: Invalid value: ` + q + `: spec.f in body must be of type ` + format + `: ` + q}
		}
		return c
	}
	runCases(t, []vcase{
		f("F10", "byte", "YWJj", true), f("F11", "byte", "YWI=", true), f("F12", "byte", "", false), f("F13", "byte", "YWJ", false),
		f("F14", "date", "2020-01-31", true), f("F15", "date", "2020-02-30", false),
		f("F16", "date-time", "2020-01-01T10:20:30Z", true), f("F17", "date-time", "2020-01-01t10:20:30.5+01:00", true),
		f("F18", "date-time", "2020-01-01T10:20:30", false), f("F19", "date-time", "2020-01-01T24:00:00Z", false),
		f("F20", "datetime", "2020-01-01T23:59:59z", true),
		f("F21", "duration", "3 days", true), f("F22", "duration", "5", false), f("F23", "duration", "1y", false),
		f("F21b", "duration", "1h30m", true), f("F21c", "duration", "2 weeks", true), f("F21d", "duration", "7µs", true),
		f("F24", "uuid", "123E4567E89B12D3A456426614174000", true), f("F25", "uuid", "123e4567-e89b-12d3-a456-42661417400", false),
		f("F26", "uuid3", "123e4567-e89b-32d3-a456-426614174000", true), f("F27", "uuid4", "123e4567-e89b-42d3-c456-426614174000", false),
		f("F28", "uuid5", "123e4567-e89b-52d3-B456-426614174000", true),
		f("F29", "hostname", "example.com", true), f("F30", "hostname", "1.2.3.4", false), f("F31", "hostname", "localhost", true),
		f("F31b", "hostname", strings.Repeat("a", 64)+".com", false),
		f("F32", "ipv4", "01.002.3.4", true), f("F33", "ipv4", "::ffff:1.2.3.4", true), f("F34", "ipv4", "256.1.1.1", false),
		f("F35", "ipv6", "2001:db8::1", true), f("F36", "ipv6", "fe80::1%eth0", false),
		f("F37", "cidr", "10.0.0.1/8", true), f("F38", "cidr", "010.0.0.0/8", true), f("F39", "cidr", "10.0.0.0/33", false),
		f("F40", "mac", "0123.4567.89ab", true), f("F41", "mac", "01:23:45:67:89", false),
		f("F42", "email", "Jane <a@example.com>", true), f("F43", "email", "a@", false),
		f("F44", "uri", "/abs/path", true), f("F45", "uri", "rel/path", false),
		f("F46", "isbn", "978-0321751041", true), f("F47", "isbn10", "032175104X", false), f("F48", "isbn13", "9780321751042", false),
		f("F46b", "isbn10", "0-321-75104-3", true),
		f("F49", "creditcard", "4111 1111 1111 1111", true), f("F49b", "creditcard", "4111111111111112", false),
		f("F50", "ssn", "123-45-6789", true), f("F50b", "ssn", "123456789", false),
		f("F51", "hexcolor", "#A1B2C3", true), f("F52", "hexcolor", "#ffff", false),
		f("F53", "rgbcolor", "rgb( 1 , 2 , 255 )", true), f("F53b", "rgbcolor", "rgb(256,0,0)", false),
		f("F54", "bsonobjectid", "507f1f77bcf86cd799439011", true), f("F54b", "bsonobjectid", "507f1f77bcf86cd79943901g", false),
		f("F55", "password", "", true),
		f("F56", "k8s-short-name", "my-name", true), f("F57", "k8s-short-name", "My-Name", false),
		f("F58", "k8s-long-name", "a.b-c.d", true), f("F59", "k8s-long-name", "a..b", false),
		f("F61", "uu-id", "nope", false),
		{"F60-UUID-ignored", Node{Type: "string", Format: "UUID"}, "spec.f", S("nope"), nil},
		{"F62-int-or-string-ignored", Node{Type: "string", Format: "int-or-string"}, "spec.f", S("nope"), nil},
		{"F02-int32-range", Node{Type: "integer", Format: "int32"}, "spec.f", I(1 << 31), []string{
			`<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.f`}},
		{"F03-int32-range-neg", Node{Type: "integer", Format: "int32"}, "spec.f", I(-1<<31 - 1), []string{
			`<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.f`}},
		{"F04-int32-float", Node{Type: "integer", Format: "int32"}, "spec.f", F(1.5), []string{
			`spec.f: Invalid value: "float64": spec.f in body must be of type int32: "float64"`,
			`<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.f`}},
		{"F06-int64-float", Node{Type: "integer", Format: "int64"}, "spec.f", F(1.5), []string{
			`spec.f: Invalid value: "float64": spec.f in body must be of type int64: "float64"`,
			`<nil>: Invalid value: "": Checked value must be of type integer with format int64 in spec.f`}},
		{"F07-float-range", Node{Type: "number", Format: "float"}, "spec.f", F(3.5e38), []string{
			`<nil>: Invalid value: "": Checked value must be of type number with format float in spec.f`}},
		{"F07b-double", Node{Type: "number", Format: "double"}, "spec.f", F(3.5e38), nil},
		{"F09-date-on-integer-ignored", Node{Type: "integer", Format: "date"}, "spec.f", I(1), nil},
		{"F65-int-on-date-time", Node{Format: "date-time"}, "spec.f", I(5), []string{
			`spec.f: Invalid value: "int64": spec.f in body must be of type date-time: "int64"`}},
		{"F65b-string-node", Node{Type: "string", Format: "date-time"}, "spec.f", I(5), []string{
			`spec.f: Invalid value: "int64": spec.f in body must be of type date-time: "int64"`}},
		{"F67-bool-on-uuid", Node{Type: "string", Format: "uuid"}, "spec.f", B(true), []string{
			`spec.f: Invalid value: "": spec.f in body must be of type uuid: ""`}},
		{"F70-string-on-int32", Node{Type: "integer", Format: "int32"}, "spec.f", S("x"), []string{
			`spec.f: Invalid value: "string": spec.f in body must be of type integer: "string"`}},
		{"F71-int-or-string-format-string", Node{IntOrString: true, Format: "date"}, "spec.f", S("x"), []string{
			`spec.f: Invalid value: "x": spec.f in body must be of type date: "x"`}},
		{"F72-int-or-string-format-int", Node{IntOrString: true, Format: "date"}, "spec.f", I(5), nil},
		{"F-format-after-string-checks", Node{Type: "string", Format: "uuid", Keywords: kw{"minLength": int64(3)}}, "spec.f", S("x"), []string{
			`spec.f: Invalid value: "x": spec.f in body should be at least 3 chars long`,
			`spec.f: Invalid value: "x": spec.f in body must be of type uuid: "x"`}},
	})
}

func TestStringKeywords(t *testing.T) {
	max3 := Node{Type: "string", Keywords: kw{"maxLength": int64(3)}}
	runCases(t, []vcase{
		{"STR01-maxLength", max3, "spec.s", S("abcd"), []string{`spec.s: Too long: may not be more than 3 bytes`}},
		{"STR02-maxLength-1-byte", Node{Type: "string", Keywords: kw{"maxLength": int64(1)}}, "spec.s", S("ab"), []string{`spec.s: Too long: may not be more than 1 byte`}},
		{"STR04-runes-counted", max3, "spec.s", S("éééé"), []string{`spec.s: Too long: may not be more than 3 bytes`}},
		{"STR05-3-runes-pass", max3, "spec.s", S("ééé"), nil},
		{"STR08-fffd-one-rune", max3, "spec.s", S("ab\uFFFD"), nil},
		{"STR09-minLength", Node{Type: "string", Keywords: kw{"minLength": int64(2)}}, "spec.s", S("a"), []string{
			`spec.s: Invalid value: "a": spec.s in body should be at least 2 chars long`}},
		{"STR11-number-skips-string-checks", Node{Type: "string", Keywords: kw{"maxLength": int64(1)}}, "spec.s", I(12345), []string{
			`spec.s: Invalid value: "integer": spec.s in body must be of type string: "integer"`}},
		{"PAT01-pattern", Node{Type: "string", Pattern: "^a"}, "spec.p", S("ba"), []string{
			`spec.p: Invalid value: "ba": spec.p in body should match '^a'`}},
		{"PAT02-search", Node{Type: "string", Pattern: "b"}, "spec.p", S("abc"), nil},
		{"PAT05-maxLength-stops", Node{Type: "string", Pattern: "^a", Keywords: kw{"maxLength": int64(2), "minLength": int64(5)}}, "spec.p", S("bbb"), []string{
			`spec.p: Too long: may not be more than 2 bytes`}},
		{"PAT06-minLength-stops", Node{Type: "string", Pattern: "^a", Keywords: kw{"minLength": int64(5)}}, "spec.p", S("bbb"), []string{
			`spec.p: Invalid value: "bbb": spec.p in body should be at least 5 chars long`}},
		{"PAT08-quoting", Node{Type: "string", Pattern: "^x"}, "spec.p", S("a\"b\nc"), []string{
			`spec.p: Invalid value: "a\"b\nc": spec.p in body should match '^x'`}},
		{"PAT09-invalid-pattern", Node{Type: "string", Pattern: "^(?!x)"}, "spec.p", S("y"), []string{
			"spec.p: Invalid value: \"y\": spec.p in body should match '^(?!x), but pattern is invalid: error parsing regexp: invalid or unsupported Perl syntax: `(?!`'"}},
		{"PUF03-untyped-maxLength", Node{Keywords: kw{"maxLength": int64(1)}}, "spec.u", S("ab"), []string{`spec.u: Too long: may not be more than 1 byte`}},
	})
}

func TestNumberKeywords(t *testing.T) {
	runCases(t, []vcase{
		{"NUM01-minimum", Node{Type: "integer", Keywords: kw{"minimum": 2.0}}, "spec.n", I(1), []string{
			`spec.n: Invalid value: 1: spec.n in body should be greater than or equal to 2`}},
		{"NUM02-exclusiveMinimum", Node{Type: "integer", Keywords: kw{"minimum": 2.0, "exclusiveMinimum": true}}, "spec.n", I(2), []string{
			`spec.n: Invalid value: 2: spec.n in body should be greater than 2`}},
		{"NUM03-maximum", Node{Type: "number", Keywords: kw{"maximum": 10.0}}, "spec.n", F(10.5), []string{
			`spec.n: Invalid value: 10.5: spec.n in body should be less than or equal to 10`}},
		{"NUM04-exclusiveMaximum", Node{Type: "number", Keywords: kw{"maximum": 10.0, "exclusiveMaximum": true}}, "spec.n", I(10), []string{
			`spec.n: Invalid value: 10: spec.n in body should be less than 10`}},
		{"NUM05-float-on-integer-bounds", Node{Type: "integer", Keywords: kw{"maximum": 1.0}}, "spec.n", F(1.5), []string{
			`spec.n: Invalid value: "number": spec.n in body must be of type integer: "number"`,
			`<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.n`,
			`spec.n: Invalid value: 1.5: spec.n in body should be less than or equal to 1`}},
		{"NUM06-integral-float-prints-bare", Node{Type: "number", Keywords: kw{"maximum": 10.0}}, "spec.n", F(11), []string{
			`spec.n: Invalid value: 11: spec.n in body should be less than or equal to 10`}},
		{"NUM08-truncated-minimum", Node{Type: "number", Keywords: kw{"minimum": 0.5}}, "spec.n", I(0), nil},
		{"NUM08b-float-not-truncated", Node{Type: "number", Keywords: kw{"minimum": 0.5}}, "spec.n", F(0), []string{
			`spec.n: Invalid value: 0: spec.n in body should be greater than or equal to 0.5`}},
		{"NUM09-exponent", Node{Type: "number", Keywords: kw{"maximum": 1e21}}, "spec.n", F(2e21), []string{
			`spec.n: Invalid value: 2e+21: spec.n in body should be less than or equal to 1e+21`}},
		{"NUM10-min-above-max", Node{Type: "integer", Keywords: kw{"minimum": 3.0, "maximum": 1.0}}, "spec.n", I(2), []string{
			`spec.n: Invalid value: 2: spec.n in body should be greater than or equal to 3`,
			`spec.n: Invalid value: 2: spec.n in body should be less than or equal to 1`}},
		{"NUM11-exclusive-alone", Node{Type: "integer", Keywords: kw{"exclusiveMaximum": true}}, "spec.n", I(2), nil},
		{"MUL01-multipleOf", Node{Type: "integer", Keywords: kw{"multipleOf": 2.0}}, "spec.m", I(3), []string{
			`spec.m: Invalid value: 3: spec.m in body should be a multiple of 2`}},
		{"MUL03-float-multiple", Node{Type: "number", Keywords: kw{"multipleOf": 0.1}}, "spec.m", F(0.3), nil},
		{"MUL04-float-not-multiple", Node{Type: "number", Keywords: kw{"multipleOf": 0.1}}, "spec.m", F(0.35), []string{
			`spec.m: Invalid value: 0.35: spec.m in body should be a multiple of 0.1`}},
		{"MUL07-factor-truncated-to-0", Node{Type: "number", Keywords: kw{"multipleOf": 0.5}}, "spec.half", I(3), []string{
			`spec.half: Invalid value: 0: factor MultipleOf declared for spec.half must be positive: 0`}},
		{"MUL07b-float-value", Node{Type: "number", Keywords: kw{"multipleOf": 0.5}}, "spec.half", F(3), nil},
		{"MUL08-fractional-factor-on-integer", Node{Type: "integer", Keywords: kw{"multipleOf": 0.5}}, "spec.m", I(3), []string{
			`<nil>: Invalid value: "": MultipleOf value must be of type integer (default format) in spec.m`}},
		{"MUL09-fractional-maximum-on-integer", Node{Type: "integer", Keywords: kw{"maximum": 1.5}}, "spec.imaxfrac", I(1), []string{
			`<nil>: Invalid value: "": Maximum boundary value must be of type integer (default format) in spec.imaxfrac`}},
		{"MUL09b-and-above", Node{Type: "integer", Keywords: kw{"maximum": 1.5}}, "spec.imaxfrac", I(2), []string{
			`<nil>: Invalid value: "": Maximum boundary value must be of type integer (default format) in spec.imaxfrac`,
			`spec.imaxfrac: Invalid value: 2: spec.imaxfrac in body should be less than or equal to 1.5`}},
		{"MUL09c-minimum", Node{Type: "integer", Keywords: kw{"minimum": 0.5}}, "spec.i", I(1), []string{
			`<nil>: Invalid value: "": Minimum boundary value must be of type integer (default format) in spec.i`}},
		{"MUL10-order", Node{Type: "integer", Keywords: kw{"multipleOf": 3.0, "minimum": 5.0, "maximum": 0.0}}, "spec.o", I(4), []string{
			`spec.o: Invalid value: 4: spec.o in body should be a multiple of 3`,
			`spec.o: Invalid value: 4: spec.o in body should be greater than or equal to 5`,
			`spec.o: Invalid value: 4: spec.o in body should be less than or equal to 0`}},
		{"MUL11-factor-truncated", Node{Type: "number", Keywords: kw{"multipleOf": 2.5}}, "spec.m", I(5), []string{
			`spec.m: Invalid value: 5: spec.m in body should be a multiple of 2`}},
		{"MUL12-truncated-passes", Node{Type: "number", Keywords: kw{"multipleOf": 2.5}}, "spec.m", I(4), nil},
		{"MUL14-truncated-maximum", Node{Type: "number", Keywords: kw{"maximum": 1.5}}, "spec.m", I(2), []string{
			`spec.m: Invalid value: 2: spec.m in body should be less than or equal to 1`}},
		{"MUL15-float-on-integer-all", Node{Type: "integer", Keywords: kw{"multipleOf": 2.0, "minimum": 5.0}}, "spec.m", F(2.5), []string{
			`spec.m: Invalid value: "number": spec.m in body must be of type integer: "number"`,
			`<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.m`,
			`spec.m: Invalid value: 2.5: spec.m in body should be a multiple of 2`,
			`spec.m: Invalid value: 2.5: spec.m in body should be greater than or equal to 5`}},
		{"MUL-negative-factor", Node{Type: "number", Keywords: kw{"multipleOf": -1.0}}, "spec.m", F(2), []string{
			`spec.m: Invalid value: -1: factor MultipleOf declared for spec.m must be positive: -1`}},
		{"NUM-string-node-bounds", Node{Type: "string", Keywords: kw{"maximum": 1.0}}, "spec.s", I(2), []string{
			`spec.s: Invalid value: "integer": spec.s in body must be of type string: "integer"`,
			`spec.s: Invalid value: 2: spec.s in body should be less than or equal to 1`}},
	})
}

func TestEnum(t *testing.T) {
	e := func(members ...any) Node { return Node{Keywords: kw{"enum": members}} }
	runCases(t, []vcase{
		{"EN01-string", e("a", "b"), "spec.e", S("c"), []string{`spec.e: Unsupported value: "c": supported values: "a", "b"`}},
		{"EN03-float-int-member", e(int64(1), int64(2)), "spec.e", F(2), nil},
		{"EN05-truncation", e(int64(1), int64(2)), "spec.e", F(1.5), nil},
		{"EN06-truncation", e(int64(1), int64(2)), "spec.e", F(2.9), nil},
		{"EN-int-miss", e(int64(1), int64(2)), "spec.e", I(3), []string{`spec.e: Unsupported value: 3: supported values: "1", "2"`}},
		{"EN-member-rendering", e(int64(1), 1.5, true, map[string]any{"a": int64(1)}, []any{"x"}), "spec.e", S("z"), []string{
			`spec.e: Unsupported value: "z": supported values: "1", "1.5", "true", "{\"a\":1}", "[\"x\"]"`}},
		{"EN12-wrong-type-both", Node{Type: "integer", Keywords: kw{"enum": []any{int64(1)}}}, "spec.e", S("a"), []string{
			`spec.e: Invalid value: "string": spec.e in body must be of type integer: "string"`,
			`spec.e: Unsupported value: "a": supported values: "1"`}},
		{"IOS13-int-as-rune", e("A"), "spec.e", I(65), nil},
		{"IOS14-int-not-digits", e("7"), "spec.e", I(7), []string{`spec.e: Unsupported value: 7: supported values: "7"`}},
		{"EN-int-beyond-rune", e("\uFFFD"), "spec.e", I(1 << 40), nil},
		{"EN-surrogate-rune", e("\uFFFD"), "spec.e", I(0xD800), nil},
		{"EN-bool", e(true), "spec.e", B(false), []string{`spec.e: Unsupported value: false: supported values: "true"`}},
		{"N03-null-never-matches", Node{Nullable: true, Keywords: kw{"enum": []any{nil, "x"}}}, "spec.e", N, []string{
			`spec.e: Unsupported value: null: supported values: "null", "x"`}},
		{"EN-string-not-float", e(1.5), "spec.e", S("1.5"), []string{`spec.e: Unsupported value: "1.5": supported values: "1.5"`}},
		{"EN-string-among-simple", e(int64(1), "b", true, nil, "a"), "spec.e", S("a"), nil},
		{"EN-string-not-simple", e(int64(1), "b", true, nil), "spec.e", S("1"), []string{`spec.e: Unsupported value: "1": supported values: "1", "b", "true", "null"`}},
	})
	r, _ := Compile(e(map[string]any{"a": int64(1)}, []any{int64(1), int64(2)}))
	for _, c := range []struct {
		name string
		v    any
		ok   bool
	}{
		{"EN08-float-inside-map", map[string]any{"a": 1.0}, false},
		{"EN16-int-inside-map", map[string]any{"a": int64(1)}, true},
		{"EN10-order-matters", []any{int64(2), int64(1)}, false},
		{"EN-array", []any{int64(1), int64(2)}, true},
		{"EN-null", nil, false},
	} {
		if got := r.CheckEnum(c.v); got != c.ok {
			t.Errorf("%s: CheckEnum = %v", c.name, got)
		}
	}
	got := r.AppendEnumErrors(nil, "spec.e", []any{int64(2), int64(1)}).Strings()
	want := []string{`spec.e: Unsupported value: [2,1]: supported values: "{\"a\":1}", "[1,2]"`}
	if !slices.Equal(got, want) {
		t.Errorf("got %q want %q", got, want)
	}
}

func TestContainers(t *testing.T) {
	check := func(name string, got jperrors.FieldErrors, want ...string) {
		t.Helper()
		if s := got.Strings(); !slices.Equal(s, want) && !(len(s) == 0 && len(want) == 0) {
			t.Errorf("%s: got %q want %q", name, s, want)
		}
	}
	arr, _ := Compile(Node{Type: "array", Keywords: kw{"minItems": int64(1), "maxItems": int64(2)}})
	check("ARR03-minItems", arr.AppendArrayErrors(nil, "spec.l", 0), `spec.l: Invalid value: 0: spec.l in body should have at least 1 items`)
	check("ARR01-maxItems", arr.AppendArrayErrors(nil, "spec.l", 3), `spec.l: Too many: 3: must have at most 2 items`)
	check("ARR-ok", arr.AppendArrayErrors(nil, "spec.l", 2))
	if arr.CheckArray(0) || arr.CheckArray(3) || !arr.CheckArray(1) {
		t.Error("CheckArray")
	}
	one, _ := Compile(Node{Type: "array", Keywords: kw{"maxItems": int64(1)}})
	check("ARR02-maxItems-1", one.AppendArrayErrors(nil, "spec.l", 2), `spec.l: Too many: 2: must have at most 1 item`)
	check("ARR-type", arr.AppendTypeErrors(nil, "spec.l", Scalar{Kind: Object}), `spec.l: Invalid value: "object": spec.l in body must be of type array: "object"`)
	if arr.CheckType(Object) || !arr.CheckType(Array) {
		t.Error("CheckType")
	}
	uniq, _ := Compile(Node{Type: "array", Keywords: kw{"uniqueItems": true}})
	check("ARR08-uniqueItems", uniq.AppendUniqueErrors(nil, "spec.u", []any{int64(1), int64(1)}), `spec.u: Invalid value: "": spec.u in body shouldn't contain duplicates`)
	check("ARR08-unique", uniq.AppendUniqueErrors(nil, "spec.u", []any{int64(1), 1.0}))

	obj, _ := Compile(Node{Type: "object", Keywords: kw{"minProperties": int64(2), "maxProperties": int64(3), "required": []any{"a", "b"}}})
	check("OBJ04-minProperties", obj.AppendObjectErrors(nil, "spec.o", 1), `spec.o: Invalid value: 1: spec.o in body should have at least 2 properties`)
	check("OBJ05-maxProperties", obj.AppendObjectErrors(nil, "spec.o", 4), `spec.o: Too many: 4: must have at most 3 items`)
	if obj.CheckObject(1) || obj.CheckObject(4) || !obj.CheckObject(2) {
		t.Error("CheckObject")
	}
	if !slices.Equal(obj.Required(), []string{"a", "b"}) {
		t.Error("Required")
	}
	check("OBJ01-required", jperrors.FieldErrors{RequiredError("spec.o", "a")}, `spec.o.a: Required value`)
	check("OBJ02-required-root", jperrors.FieldErrors{RequiredError("", "spec")}, `spec: Required value`)
	check("OBJ12-forbidden", jperrors.FieldErrors{ForbiddenProperty("spec.o", "k")}, `spec.o: Invalid value: "k": spec.o.k in body is a forbidden property`)
	check("OBJ12-forbidden-root", jperrors.FieldErrors{ForbiddenProperty("", "k")}, `<nil>: Invalid value: "k": .k in body is a forbidden property`)
	ap, _ := Compile(Node{Type: "object", AdditionalPropertiesFalse: true})
	if !ap.AdditionalPropertiesFalse() || obj.AdditionalPropertiesFalse() {
		t.Error("AdditionalPropertiesFalse")
	}
	check("OBJ09-additional-key-path", mustCompile(t, Node{Type: "string", Keywords: kw{"minLength": int64(2)}}).AppendErrors(nil, ".a.b", S("x")),
		`a.b: Invalid value: "x": .a.b in body should be at least 2 chars long`)
}

func mustCompile(t *testing.T, n Node) *Rules {
	t.Helper()
	r, err := Compile(n)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCompile(t *testing.T) {
	for _, n := range []Node{{}, {Nullable: true}, {Format: "UUID"}, {Format: "int32"}, {Type: "", Pattern: ""},
		{Keywords: kw{"description": "x", "default": "y"}}} {
		if r, err := Compile(n); r != nil || err != nil {
			t.Errorf("Compile(%+v) = %v, %v; want nil, nil", n, r, err)
		}
	}
	for _, n := range []Node{{Keywords: kw{"maximum": "1"}}, {Keywords: kw{"maxLength": 1.5}}, {Keywords: kw{"enum": "a"}},
		{Keywords: kw{"required": []any{1}}}, {Keywords: kw{"exclusiveMaximum": "true"}}} {
		if _, err := Compile(n); err == nil {
			t.Errorf("Compile(%+v): no error", n)
		}
	}
	var nilRules *Rules
	if !nilRules.Check(S("x")) || nilRules.AppendErrors(nil, "p", S("x")) != nil || !nilRules.CheckType(Object) ||
		!nilRules.CheckArray(5) || !nilRules.CheckObject(5) || nilRules.Required() != nil || nilRules.HasEnum() ||
		!nilRules.CheckEnum("x") || nilRules.AdditionalPropertiesFalse() || nilRules.UniqueItems() {
		t.Error("nil Rules must check nothing")
	}
	// Keywords from YAML: integral floats for integer keywords, int64 bounds.
	r := mustCompile(t, Node{Type: "string", Keywords: kw{"maxLength": 2.0, "required": []string{"a"}}})
	if r.Check(S("abc")) || !slices.Equal(r.Required(), []string{"a"}) {
		t.Error("YAML keywords")
	}
}

func TestParseNumber(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want Scalar
	}{
		{"0", I(0)}, {"-0", I(0)}, {"7", I(7)}, {"-12", I(-12)},
		{"9223372036854775807", I(math.MaxInt64)}, {"-9223372036854775808", I(math.MinInt64)},
		{"9223372036854775808", F(9223372036854775808)}, {"-9223372036854775809", F(-9223372036854775809)},
		{"12345678901234567890", F(12345678901234567890)},
		{"1.0", F(1)}, {"1e3", F(1000)}, {"1E3", F(1000)}, {"0.25", F(0.25)}, {"-0.0", F(math.Copysign(0, -1))},
	} {
		if got := ParseNumber([]byte(c.raw)); got.Kind != c.want.Kind || got.Int != c.want.Int || got.Float != c.want.Float {
			t.Errorf("ParseNumber(%s) = %+v, want %+v", c.raw, got, c.want)
		}
	}
}

func TestScalarOf(t *testing.T) {
	for _, v := range []any{nil, true, int64(1), 1, int32(1), 1.5, float32(1.5), "s", map[string]any{}, []any{}} {
		if _, ok := ScalarOf(v); !ok {
			t.Errorf("ScalarOf(%#v) not ok", v)
		}
	}
	if _, ok := ScalarOf(struct{}{}); ok {
		t.Error("ScalarOf(struct{}{}) ok")
	}
	if s, _ := ScalarOf("x"); s.Value() != "x" {
		t.Error("Value")
	}
}

// TestKindsPassing: every value of a kind KindsPassing gives passes Check,
// on nodes of every type, format and value keyword; and KindsPassing holds
// what TypeOnly gives.
func TestKindsPassing(t *testing.T) {
	values := []Scalar{{Kind: Null}, {Kind: Bool, Bool: true}, {Kind: Bool}}
	for _, n := range []int64{0, 1, -1, 7, 100, math.MaxInt32, math.MaxInt32 + 1, math.MinInt32 - 1, math.MaxInt64, math.MinInt64} {
		values = append(values, Scalar{Kind: Int, Int: n})
	}
	for _, f := range []float64{0.5, 1, -2, 1e10, 1e19, -1e19, 3.4e38, 3.5e38, 1e300, math.Inf(1), 2.5e9} {
		values = append(values, Scalar{Kind: Float, Float: f})
	}
	for _, s := range []string{"", "a", "abc", "1", "1.5", "2006-01-02T15:04:05Z", "ab-c", "é", strings.Repeat("x", 300), "example.com"} {
		values = append(values, Scalar{Kind: String, Str: []byte(s)})
	}
	var nodes []Node
	for _, typ := range []string{"", "integer", "number", "string", "boolean", "object", "array"} {
		for _, format := range []string{"", "int32", "int64", "float", "double", "date-time", "byte", "hostname", "unknown"} {
			for _, kws := range []kw{nil, {"minimum": int64(0)}, {"maximum": 10.5}, {"multipleOf": int64(2)}, {"maxLength": int64(2)},
				{"minLength": int64(1)}, {"enum": []any{"a", int64(1)}}, {"exclusiveMaximum": true, "maximum": int64(5)}} {
				for _, nullable := range []bool{false, true} {
					nodes = append(nodes, Node{Type: typ, Format: format, Keywords: kws, Nullable: nullable})
				}
			}
			nodes = append(nodes, Node{Type: typ, Format: format, Pattern: "^a"}, Node{Type: typ, Format: format, IntOrString: true})
		}
	}
	for _, n := range nodes {
		r, err := Compile(n)
		if err != nil {
			continue
		}
		kinds := r.KindsPassing()
		if only, ok := r.TypeOnly(); ok && only&^kinds != 0 {
			t.Errorf("%+v: TypeOnly %b, KindsPassing %b", n, only, kinds)
		}
		for _, v := range values {
			if kinds&(1<<v.Kind) != 0 && !r.Check(v) {
				t.Errorf("%+v: KindsPassing %b, but %+v fails", n, kinds, v)
			}
		}
	}
}

// TestInt32Only: where Int32Only holds, Check on an Int passes exactly
// within the int32 range.
func TestInt32Only(t *testing.T) {
	n := 0
	for _, node := range []Node{{Type: "integer", Format: "int32"}, {Type: "integer", Format: "int32", Nullable: true},
		{Type: "integer", Format: "int32", Keywords: kw{"minimum": int64(0)}}, {Type: "integer"}, {Type: "string", Format: "int32"},
		{Type: "number", Format: "int32"}, {Type: "integer", Format: "int32", Keywords: kw{"enum": []any{int64(1)}}}, {IntOrString: true, Format: "int32"}} {
		r, err := Compile(node)
		if err != nil || !r.Int32Only() {
			continue
		}
		n++
		for _, v := range []int64{0, 1, -1, 999999999, -999999999, math.MaxInt32, math.MinInt32, math.MaxInt32 + 1, math.MinInt32 - 1, math.MaxInt64} {
			if got, want := r.Check(Scalar{Kind: Int, Int: v}), v >= math.MinInt32 && v <= math.MaxInt32; got != want {
				t.Errorf("%+v, %d: Check %v", node, v, got)
			}
		}
	}
	if n < 2 {
		t.Errorf("Int32Only held for %d nodes", n)
	}
}
