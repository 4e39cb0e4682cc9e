package conformance

// TestValidateDifferential compares package validate with the API server's
// schema validator (k8s.io/apiextensions-apiserver v0.37.2
// pkg/apiserver/validation: NewSchemaValidator, then ValidateCustomResource,
// which runs kube-openapi's validator and converts its result into a
// field.ErrorList). Every single-node schema below is checked against every
// value below, at the root (path "") and as the property spec.x, and the error
// strings must be identical and in the same order.

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/validate"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	sigsjson "sigs.k8s.io/json"
)

func fp(f float64) *float64 { return &f }
func ip(i int64) *int64     { return &i }

// toProps builds the server's JSONSchemaProps of a validate.Node.
func toProps(n validate.Node) apiextensions.JSONSchemaProps {
	p := apiextensions.JSONSchemaProps{Type: n.Type, Format: n.Format, Nullable: n.Nullable,
		XIntOrString: n.IntOrString, Pattern: n.Pattern}
	if n.AdditionalPropertiesFalse {
		p.AdditionalProperties = &apiextensions.JSONSchemaPropsOrBool{Allows: false}
	}
	num := func(name string) *float64 {
		switch v := n.Keywords[name].(type) {
		case float64:
			return fp(v)
		case int64:
			return fp(float64(v))
		}
		return nil
	}
	integer := func(name string) *int64 {
		if v, ok := n.Keywords[name].(int64); ok {
			return ip(v)
		}
		return nil
	}
	p.Maximum, p.Minimum, p.MultipleOf = num("maximum"), num("minimum"), num("multipleOf")
	p.ExclusiveMaximum, _ = n.Keywords["exclusiveMaximum"].(bool)
	p.ExclusiveMinimum, _ = n.Keywords["exclusiveMinimum"].(bool)
	p.UniqueItems, _ = n.Keywords["uniqueItems"].(bool)
	p.MaxLength, p.MinLength = integer("maxLength"), integer("minLength")
	p.MaxItems, p.MinItems = integer("maxItems"), integer("minItems")
	p.MaxProperties, p.MinProperties = integer("maxProperties"), integer("minProperties")
	if e, ok := n.Keywords["enum"].([]any); ok {
		for _, m := range e {
			p.Enum = append(p.Enum, apiextensions.JSON(m))
		}
	}
	if r, ok := n.Keywords["required"].([]any); ok {
		for _, k := range r {
			p.Required = append(p.Required, k.(string))
		}
	}
	return p
}

type kw = map[string]any

// diffNodes are the schema nodes: every keyword alone, at its edges, and
// combined; every format on string, untyped and int-or-string nodes.
func diffNodes() []validate.Node {
	var ns []validate.Node
	add := func(n ...validate.Node) { ns = append(ns, n...) }
	for _, t := range []string{"", "string", "integer", "number", "boolean", "object", "array"} {
		add(validate.Node{Type: t}, validate.Node{Type: t, Nullable: true})
	}
	add(validate.Node{IntOrString: true}, validate.Node{IntOrString: true, Nullable: true})
	// strings
	for _, k := range []kw{
		{"maxLength": int64(0)}, {"maxLength": int64(1)}, {"maxLength": int64(3)}, {"minLength": int64(1)},
		{"minLength": int64(2)}, {"maxLength": int64(3), "minLength": int64(2)}, {"maxLength": int64(-1)},
	} {
		add(validate.Node{Type: "string", Keywords: k}, validate.Node{Keywords: k}, validate.Node{IntOrString: true, Keywords: k})
	}
	for _, p := range []string{"^a", "b", "^[a-z]+$", "(?!x)", "é", `^\d{2}$`} {
		add(validate.Node{Type: "string", Pattern: p}, validate.Node{Pattern: p},
			validate.Node{Type: "string", Pattern: p, Keywords: kw{"maxLength": int64(3), "minLength": int64(2)}},
			validate.Node{IntOrString: true, Pattern: p})
	}
	// formats
	formats := []string{"bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6", "cidr", "mac", "uuid", "uuid3",
		"uuid4", "uuid5", "isbn", "isbn10", "isbn13", "creditcard", "ssn", "hexcolor", "rgbcolor", "byte", "password",
		"date", "duration", "datetime", "date-time", "k8s-short-name", "k8s-long-name", "uu-id", "UUID", "int-or-string",
		"quantity", "int32", "int64", "float", "double", "k8sshortname"}
	for _, f := range formats {
		add(validate.Node{Type: "string", Format: f}, validate.Node{Format: f}, validate.Node{IntOrString: true, Format: f},
			validate.Node{Type: "integer", Format: f}, validate.Node{Type: "number", Format: f},
			validate.Node{Type: "boolean", Format: f})
	}
	add(validate.Node{Type: "string", Format: "uuid", Keywords: kw{"maxLength": int64(5)}},
		validate.Node{Type: "string", Format: "date", Pattern: "^1", Keywords: kw{"enum": []any{"2020-01-01", "x"}}},
		validate.Node{Type: "object", Format: "int32"}, validate.Node{Type: "array", Format: "date"},
		validate.Node{Type: "string", Format: "date-time", Nullable: true})
	// numbers
	numKw := []kw{
		{"maximum": 10.0}, {"maximum": 10.0, "exclusiveMaximum": true}, {"minimum": 2.0}, {"minimum": 2.0, "exclusiveMinimum": true},
		{"maximum": 1.5}, {"minimum": 0.5}, {"minimum": 0.5, "exclusiveMinimum": true}, {"maximum": 1e21}, {"minimum": -1e21},
		{"maximum": 1e30}, {"exclusiveMaximum": true}, {"multipleOf": 2.0}, {"multipleOf": 2.5}, {"multipleOf": 0.5},
		{"multipleOf": 0.1}, {"multipleOf": 0.0}, {"multipleOf": -1.0}, {"multipleOf": 3.0, "minimum": 5.0, "maximum": 7.0},
		{"multipleOf": 0.5, "minimum": 0.5, "maximum": 1.5}, {"maximum": int64(5)}, {"minimum": 3.0, "maximum": 1.0},
		{"maximum": 3e9}, {"maximum": 4e38}, {"minimum": -9.3e18}, {"multipleOf": 1e-9},
	}
	for _, k := range numKw {
		add(validate.Node{Type: "integer", Keywords: k}, validate.Node{Type: "number", Keywords: k},
			validate.Node{Keywords: k}, validate.Node{IntOrString: true, Keywords: k},
			validate.Node{Type: "integer", Format: "int32", Keywords: k}, validate.Node{Type: "number", Format: "float", Keywords: k},
			validate.Node{Type: "string", Keywords: k})
	}
	// enums
	for _, e := range [][]any{
		{"a", "b"}, {int64(1), int64(2)}, {1.5, 2.5}, {"A", "7"}, {true, false}, {nil, "x"},
		{map[string]any{"a": int64(1)}, []any{int64(1), int64(2)}}, {int64(1), "1", 1.0, true},
		{"\uFFFD"}, {"<&>", map[string]any{"k": "<"}}, {-1.5},
	} {
		add(validate.Node{Keywords: kw{"enum": e}}, validate.Node{Type: "string", Keywords: kw{"enum": e}},
			validate.Node{Type: "integer", Keywords: kw{"enum": e}, Nullable: true},
			validate.Node{Type: "object", Keywords: kw{"enum": e}}, validate.Node{Type: "array", Keywords: kw{"enum": e}})
	}
	// containers
	for _, k := range []kw{
		{"maxItems": int64(0)}, {"maxItems": int64(1)}, {"maxItems": int64(2)}, {"minItems": int64(1)}, {"minItems": int64(3)},
		{"uniqueItems": true}, {"maxProperties": int64(1)}, {"maxProperties": int64(0)}, {"minProperties": int64(2)},
		{"required": []any{"a", "b"}}, {"required": []any{"k"}},
	} {
		add(validate.Node{Type: "array", Keywords: k}, validate.Node{Type: "object", Keywords: k}, validate.Node{Keywords: k})
	}
	add(validate.Node{Type: "object", AdditionalPropertiesFalse: true}, validate.Node{AdditionalPropertiesFalse: true, Keywords: kw{"maxProperties": int64(0)}})
	return ns
}

// diffValues are the values: scalars at the keywords' edges, format samples,
// and small containers.
func diffValues() []any {
	vs := []any{nil, true, false}
	for _, i := range []int64{0, 1, -1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 65, 1 << 31, 1<<31 - 1, -1 << 31, -1<<31 - 1,
		math.MaxInt64, math.MinInt64, 9007199254740993, 3000000000} {
		vs = append(vs, i)
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 0.5, 1, 1.5, 2.0, 2.5, 2.9, 3, 1.0000000001, 0.3, 0.35, 1e3,
		10, 10.000000001, 1e21, 1e300, -1e300, 3.4e38, 3.5e38, 3.4028235e38, 9223372036854775808, -9223372036854775808,
		1 << 53, 1<<53 + 2, 12345678901234567890, 1e-10, 4.0000000001, -0.5, 7.5} {
		vs = append(vs, f)
	}
	for _, s := range []string{"", "a", "ab", "abc", "abcd", "b", "xbx", "ééé", "éééé", "\uFFFD", "A", "7", "<&>",
		"12", "x\ny", `a"b`,
		// byte
		"YWJj", "YWI=", "YQ==", "YWJ", "YW=j", "a+/9", "a-_9",
		// date, date-time
		"2020-01-01", "2020-1-01", "2020-02-30", "2020-01-01T10:20:30Z", "2020-01-01t10:20:30z", "2020-01-01T10:20:30",
		"2020-01-01T10:20:30.123+01:00", "2020-01-01T24:00:00Z", "2020-01-01T23:59:60Z", "2020-01-01T10:20:30ZT9",
		"2020-01-01T10:20:30x5Z", "2020-01-01T10:20:30\n5Z", "2020-01-01T10:20:30é5Z", "2020-01-01T1:2:3Z", "int64",
		"2020-01-01 10:20:30Z",
		// duration
		"1h", "1h30m", "3 days", "5", "1y", "2 weeks", "1µs", "10 MINUTES", "1 sec 2 hours", "-1.5h", "99999999999999999999d",
		"1d 99999999999999999999x", "1 milliseconds", "3 hr",
		// uuid
		"123e4567-e89b-12d3-a456-426614174000", "123E4567E89B12D3A456426614174000", "123e4567-e89b-32d3-a456-426614174000",
		"123e4567-e89b-42d3-a456-426614174000", "123e4567-e89b-42d3-c456-426614174000", "123e4567-e89b-52d3-B456-426614174000",
		"123e4567-e89b-12d3-a456-42661417400", "123e4567--e89b-12d3-a456-426614174000",
		// hostname
		"example.com", "localhost", "1.2.3.4", "a-b.c", "-a.com", "ex_ample.com", "例え.jp", strings.Repeat("a", 64) + ".com",
		"a." + strings.Repeat("b", 63), "a.b", "a..com", "€.com",
		// ip
		"1.2.3.4", "01.002.3.4", "1.2.3", "256.1.1.1", "::1", "::ffff:1.2.3.4", "fe80::1%eth0", "1:2:3:4:5:6:7:8",
		"1::2::3", "::", "00001::1", "1.2.3.4.5", "2001:db8::",
		// cidr
		"10.0.0.0/8", "10.0.0.1/8", "010.0.0.0/8", "10.0.0.0/33", "::/0", "2001:db8::/129", "10.0.0.0", "10.0.0.0/08",
		// mac
		"01:23:45:67:89:ab", "01-23-45-67-89-AB", "0123.4567.89ab", "01:23:45:67:89", "0123456789ab", "01:23-45:67:89:ab",
		"01:23:45:67:89:ab:cd:ef",
		// email, uri
		"a@example.com", "Jane <a@example.com>", "a@", "@x", "http://example.com/x?y#z", "/abs/path", "rel/path",
		"Group: a@b.c;", "Group: a@b.c, d@e.f;", "Group:;", "a@b.c (x)", "a@b.c (unclosed", "=?utf-8?q?J=C3=B6rg?= <a@b.c>",
		"=?koi8-r?q?x?= <a@b.c>", "Joe =?koi8-r?q?x?= <a@b.c>", "=?utf-8?q??= <a@b.c>", "a@[127.0.0.1]", "a@[fe80::1%eth0]",
		`"a b"@c.d`, `""@c.d`, "a..b@c.d", "a.@b.c", "jörg@example.com", "a @ b.c",
		"mailto:a@b", "http://[::1", " http://x",
		// isbn, credit card, ssn
		"0321751043", "0-321-75104-3", "032175104X", "0321751044", "978-0321751041", "9780321751041", "9780321751042",
		"080442957X", "4111111111111111", "4111 1111 1111 1111", "4111111111111112", "378282246310005", "5555555555554444",
		"123-45-6789", "123 45 6789", "123456789", "123-456789", "30569309025904", "38520000023237", "6011111111111117",
		"3530111333300000", "4222222222222", "5105105105105100", "6500000000000002", "371449635398431", "180000000000002",
		"213100000000003", "3056930902590", "5605105105105100",
		// colours
		"#fff", "fff", "#ffff", "#A1B2C3", "rgb(255,0,0)", "rgb( 1 , 2 , 3 )", "rgb(256,0,0)", "rgb(01,0,0)",
		// bson, k8s names
		"507f1f77bcf86cd799439011", "507f1f77bcf86cd79943901", "507f1f77bcf86cd79943901g", "my-name", "My-Name", "-a",
		"a.b-c.d", strings.Repeat("a", 64), "a..b",
	} {
		vs = append(vs, s)
	}
	vs = append(vs, map[string]any{}, map[string]any{"a": int64(1)}, map[string]any{"k": "v"},
		map[string]any{"a": 1.0}, []any{}, []any{int64(1), int64(2)}, []any{int64(1), int64(1)}, []any{int64(2), int64(1)},
		[]any{nil}, []any{"a", "b", "c"})
	return vs
}

// ours validates v at path with package validate, composing the container
// pieces in the server's order.
func ours(t *testing.T, r *validate.Rules, path string, v any) []string {
	var errs errors.FieldErrors
	switch tv := v.(type) {
	case map[string]any:
		errs = r.AppendTypeErrors(errs, path, validate.Scalar{Kind: validate.Object})
		errs = r.AppendEnumErrors(errs, path, v)
		errs = r.AppendObjectErrors(errs, path, len(tv))
		if r.AdditionalPropertiesFalse() {
			for _, k := range slices.Sorted(func(yield func(string) bool) {
				for k := range tv {
					if !yield(k) {
						return
					}
				}
			}) {
				errs = append(errs, validate.ForbiddenProperty(path, k))
			}
		}
		for _, k := range r.Required() {
			if _, ok := tv[k]; !ok {
				errs = append(errs, validate.RequiredError(path, k))
			}
		}
	case []any:
		errs = r.AppendTypeErrors(errs, path, validate.Scalar{Kind: validate.Array})
		errs = r.AppendArrayErrors(errs, path, len(tv))
		errs = r.AppendUniqueErrors(errs, path, tv)
		errs = r.AppendEnumErrors(errs, path, v)
	default:
		s, ok := validate.ScalarOf(v)
		if !ok {
			t.Fatalf("value %T", v)
		}
		errs = r.AppendErrors(errs, path, s)
		if got := r.Check(s); got != (len(errs) == 0) {
			t.Errorf("Check(%#v) = %v with errors %q", v, got, errs.Strings())
		}
	}
	return errs.Strings()
}

func theirs(t *testing.T, n validate.Node, v any, nested bool) []string {
	p := toProps(n)
	root := &p
	val := v
	if nested {
		root = &apiextensions.JSONSchemaProps{Type: "object", Properties: map[string]apiextensions.JSONSchemaProps{
			"spec": {Type: "object", Properties: map[string]apiextensions.JSONSchemaProps{"x": p}}}}
		val = map[string]any{"spec": map[string]any{"x": v}}
	}
	sv, _, err := apiservervalidation.NewSchemaValidator(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range apiservervalidation.ValidateCustomResource(nil, val, sv) {
		out = append(out, e.Error())
	}
	return out
}

func TestValidateDifferential(t *testing.T) {
	nodes, values := diffNodes(), diffValues()
	cases, failures, failing := 0, 0, 0
	distinct := map[string]bool{}
	for _, n := range nodes {
		r, err := validate.Compile(n)
		if err != nil {
			t.Fatalf("Compile(%+v): %v", n, err)
		}
		for _, v := range values {
			for _, nested := range []bool{false, true} {
				// Multi-key objects under additionalProperties: false come in
				// map order on the server; keep to one key there.
				if m, ok := v.(map[string]any); ok && n.AdditionalPropertiesFalse && len(m) > 1 {
					continue
				}
				path := ""
				if nested {
					path = "spec.x"
				}
				cases++
				want := theirs(t, n, v, nested)
				got := ours(t, r, path, v)
				if len(want) > 0 {
					failing++
				}
				for _, e := range want {
					distinct[e] = true
				}
				if !slices.Equal(got, want) {
					failures++
					if failures <= 40 {
						t.Errorf("node %+v value %#v path %q:\n got  %q\n want %q", n, v, path, got, want)
					}
				}
			}
		}
	}
	t.Logf("%d nodes x %d values x 2 paths: %d cases (%d with errors, %d distinct error lines), %d differences",
		len(nodes), len(values), cases, failing, len(distinct), failures)
	// The comparison must see the messages this package exists for.
	for _, e := range []string{
		`spec.x: Too long: may not be more than 3 bytes`,
		`<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.x`,
		`<nil>: Invalid value: "": Maximum boundary value must be of type integer (default format) in spec.x`,
		`spec.x: Invalid value: 0: factor MultipleOf declared for spec.x must be positive: 0`,
		`spec.x: Invalid value: "float64": spec.x in body must be of type int32: "float64"`,
		`spec.x: Unsupported value: 7: supported values: "A", "7"`,
		`spec.x: Invalid value: "5": spec.x in body must be of type duration: "5"`,
	} {
		if !distinct[e] {
			t.Errorf("the server never gave %q", e)
		}
	}
	if failures > 0 {
		t.Errorf("%d differences", failures)
	}
}

// TestValidateDifferentialRandom checks random strings built from the
// characters the format rules care about, and random numbers, against every
// format and a few number nodes (seeded, so reproducible).
func TestValidateDifferentialRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"0", "1", "2", "3", "4", "5", "9", "a", "b", "f", "A", "F", "g", "x", "X", "z", "Z", "T", "t",
		":", "::", ".", "-", "/", " ", "\t", "#", "+", "=", "%", "@", "µ", "é", "(", ")", ",", "rgb(", "h", "m", "s",
		"d", "day", "ns", "us", "ms", "w", "week", "hour", "25", "255", "256", "2020-01-01", "T10:20:30", "12:00:00",
		"ffff", "0000", "[", "]", "\n", "\u00a0", "ſ", "K"}
	var nodes []validate.Node
	for _, f := range []string{"bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6", "cidr", "mac", "uuid",
		"uuid3", "uuid4", "uuid5", "isbn", "isbn10", "isbn13", "creditcard", "ssn", "hexcolor", "rgbcolor", "byte",
		"date", "duration", "datetime", "k8s-short-name", "k8s-long-name"} {
		nodes = append(nodes, validate.Node{Type: "string", Format: f})
	}
	nodes = append(nodes,
		validate.Node{Type: "integer", Keywords: kw{"multipleOf": 3.0, "minimum": -5.5, "maximum": 100.0}},
		validate.Node{Type: "integer", Format: "int32", Keywords: kw{"multipleOf": 0.25}},
		validate.Node{Type: "number", Format: "float", Keywords: kw{"multipleOf": 0.2, "maximum": 1e10, "exclusiveMaximum": true}},
		validate.Node{Keywords: kw{"multipleOf": 1.5, "minimum": 0.5, "enum": []any{int64(3), 4.5, "A"}}})
	rules := make([]*validate.Rules, len(nodes))
	for i, n := range nodes {
		rules[i], _ = validate.Compile(n)
	}
	cases, failures := 0, 0
	for iter := 0; iter < 4000; iter++ {
		var v any
		switch rng.IntN(4) {
		case 0:
			v = rng.Int64N(2000) - 1000
		case 1:
			v = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(40)-10))
		default:
			var sb strings.Builder
			for k := rng.IntN(12); k >= 0; k-- {
				sb.WriteString(pieces[rng.IntN(len(pieces))])
			}
			v = sb.String()
		}
		for i, n := range nodes {
			cases++
			want := theirs(t, n, v, true)
			got := ours(t, rules[i], "spec.x", v)
			if !slices.Equal(got, want) {
				failures++
				if failures <= 40 {
					t.Errorf("node %+v value %#v:\n got  %q\n want %q", n, v, got, want)
				}
			}
		}
	}
	t.Logf("%d cases, %d differences", cases, failures)
}

// FuzzValidateDifferential compares one string or number against every string
// format and a few keyword nodes (go test -fuzz=FuzzValidateDifferential).
func FuzzValidateDifferential(f *testing.F) {
	for _, s := range []string{"2020-01-01T10:20:30Z", "1h", "3 days", "::ffff:1.2.3.4", "10.0.0.0/8", "01:23:45:67:89:ab",
		"0321751043", "4111111111111111", "rgb(1,2,3)", "YWJj", "a@b.c", "/x", "example.com", "123e4567-e89b-42d3-a456-426614174000"} {
		f.Add(s, int64(0), 0.0, uint8(0))
	}
	f.Add("", int64(7), 1.5, uint8(1))
	f.Add("", int64(-3), 1e21, uint8(2))
	var nodes []validate.Node
	for _, fm := range []string{"bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6", "cidr", "mac", "uuid",
		"uuid3", "uuid4", "uuid5", "isbn", "isbn10", "isbn13", "creditcard", "ssn", "hexcolor", "rgbcolor", "byte",
		"date", "duration", "datetime", "k8s-short-name", "k8s-long-name"} {
		nodes = append(nodes, validate.Node{Type: "string", Format: fm})
	}
	nodes = append(nodes,
		validate.Node{Type: "string", Pattern: "^[a-c]+$", Keywords: kw{"maxLength": int64(4), "minLength": int64(2)}},
		validate.Node{Type: "integer", Format: "int32", Keywords: kw{"multipleOf": 3.0, "minimum": -5.5, "maximum": 1e9}},
		validate.Node{Type: "number", Format: "float", Keywords: kw{"multipleOf": 0.2, "minimum": 0.0, "exclusiveMinimum": true}},
		validate.Node{IntOrString: true, Keywords: kw{"enum": []any{int64(3), 4.5, "A", "3"}, "maximum": 4.0}})
	rules := make([]*validate.Rules, len(nodes))
	for i, n := range nodes {
		rules[i], _ = validate.Compile(n)
	}
	f.Fuzz(func(t *testing.T, s string, i int64, fl float64, which uint8) {
		if math.IsNaN(fl) || math.IsInf(fl, 0) {
			return
		}
		var v any = strings.ToValidUTF8(s, "\uFFFD")
		switch which % 3 {
		case 1:
			v = i
		case 2:
			v = fl
		}
		for k, n := range nodes {
			want := theirs(t, n, v, true)
			got := ours(t, rules[k], "spec.x", v)
			if !slices.Equal(got, want) {
				t.Fatalf("node %+v value %#v:\n got  %q\n want %q", n, v, got, want)
			}
		}
	})
}

// TestParseNumberDifferential: ParseNumber classifies number literals as the
// API server's decoder (sigs.k8s.io/json, preserving ints) does.
func TestParseNumberDifferential(t *testing.T) {
	lits := []string{"0", "-0", "1", "-1", "7", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
		"-9223372036854775809", "12345678901234567890", "1.0", "1e3", "1E3", "1e-3", "0.25", "-0.0", "1.5e300", "2e21",
		"9007199254740993", "00", "1.7976931348623157e308", "4.9e-324", "123456789012345678901234567890"}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		var sb strings.Builder
		if rng.IntN(3) == 0 {
			sb.WriteByte('-')
		}
		sb.WriteByte(byte('1' + rng.IntN(9)))
		for k := rng.IntN(22); k > 0; k-- {
			sb.WriteByte(byte('0' + rng.IntN(10)))
		}
		switch rng.IntN(4) {
		case 0:
			sb.WriteString(".5")
		case 1:
			sb.WriteString("e" + fmt.Sprint(rng.IntN(40)-20))
		}
		lits = append(lits, sb.String())
	}
	compared := 0
	for _, lit := range lits {
		var want any
		if err := sigsjson.UnmarshalCaseSensitivePreserveInts([]byte(lit), &want); err != nil {
			continue // not JSON ("00") or beyond float64
		}
		compared++
		got := validate.ParseNumber([]byte(lit)).Value()
		if fmt.Sprintf("%T %v", got, got) != fmt.Sprintf("%T %v", want, want) {
			t.Errorf("%s: got %T %v, want %T %v", lit, got, got, want, want)
		}
	}
	t.Logf("%d of %d literals compared", compared, len(lits))
}

// TestValidateFormatsMutated checks near-valid samples of every format (a
// valid shape with up to two random edits) against the server.
func TestValidateFormatsMutated(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	hex := func(n int) string {
		const h = "0123456789abcdefABCDEF"
		b := make([]byte, n)
		for i := range b {
			b[i] = h[rng.IntN(len(h))]
		}
		return string(b)
	}
	num := func(max int) string { return fmt.Sprint(rng.IntN(max)) }
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		return string(b)
	}
	gens := map[string]func() string{
		"bsonobjectid": func() string { return hex(24) },
		"uri": func() string {
			return []string{"http", "https", "", "/"}[rng.IntN(4)] + "://h" + num(9) + "/p?q=" + num(99)
		},
		"email":    func() string { return "a" + num(9) + "@" + []string{"x.com", "[1.2.3.4]", "", "x"}[rng.IntN(4)] },
		"hostname": func() string { return "h" + num(99) + "." + []string{"com", "c", "co1", "例え"}[rng.IntN(4)] },
		"ipv4":     func() string { return num(300) + "." + num(300) + "." + num(300) + "." + num(300) },
		"ipv6":     func() string { return hex(rng.IntN(5)) + ":" + hex(rng.IntN(5)) + "::" + hex(rng.IntN(6)) },
		"cidr":     func() string { return num(300) + ".0.0." + num(300) + "/" + num(40) },
		"mac": func() string {
			sep := []string{":", "-", ".", ""}[rng.IntN(4)]
			var parts []string
			for i := 0; i < 6; i++ {
				parts = append(parts, hex(2))
			}
			return strings.Join(parts, sep)
		},
		"uuid":   func() string { return hex(8) + "-" + hex(4) + "-" + num(6) + hex(3) + "-" + hex(4) + "-" + hex(12) },
		"uuid4":  func() string { return hex(8) + "-" + hex(4) + "-4" + hex(3) + "-" + hex(4) + "-" + hex(12) },
		"isbn":   func() string { return digits(9) + []string{"X", "0", "5"}[rng.IntN(3)] },
		"isbn13": func() string { return "978-" + digits(9) },
		"creditcard": func() string {
			return []string{"4", "51", "6011", "34", "300", "36", "2131", "35"}[rng.IntN(8)] + digits(10+rng.IntN(6))
		},
		"ssn":      func() string { return digits(3) + "-" + digits(2) + "-" + digits(4) },
		"hexcolor": func() string { return "#" + hex(3+3*rng.IntN(2)) },
		"rgbcolor": func() string { return "rgb(" + num(300) + ", " + num(300) + "," + num(300) + ")" },
		"byte":     func() string { return hex(4*rng.IntN(3)) + []string{"==", "a=", "ab", "+/=="}[rng.IntN(4)] },
		"date":     func() string { return "20" + digits(2) + "-" + digits(2) + "-" + digits(2) },
		"duration": func() string {
			return num(100) + []string{"h", " days", "m30s", " wk", "y", "µs", " hours 3 min"}[rng.IntN(7)]
		},
		"datetime": func() string {
			return "2020-01-0" + num(9) + []string{"T", "t", " "}[rng.IntN(3)] + digits(2) + ":" + digits(2) + ":" + digits(2) +
				[]string{"", ".5", "x12"}[rng.IntN(3)] + []string{"Z", "z", "+01:00", "", "-1:00"}[rng.IntN(5)]
		},
		"k8s-short-name": func() string {
			return []string{"a", "-", "A", "0"}[rng.IntN(4)] + "bc-d" + []string{"", "-", "9"}[rng.IntN(3)]
		},
		"k8s-long-name": func() string { return "a.b-c" + []string{"", ".", "..d", ".e"}[rng.IntN(4)] },
	}
	pieces := []string{"0", "9", "a", "F", "g", ":", ".", "-", "/", " ", "%", "X", "T", "Z", "é", "::"}
	mutate := func(s string) string {
		for k := rng.IntN(3); k > 0 && len(s) > 0; k-- {
			i := rng.IntN(len(s))
			switch rng.IntN(3) {
			case 0:
				s = s[:i] + s[i+1:]
			case 1:
				s = s[:i] + pieces[rng.IntN(len(pieces))] + s[i:]
			default:
				s = s[:i] + pieces[rng.IntN(len(pieces))] + s[i+1:]
			}
		}
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	cases, accepted, failures := 0, 0, 0
	for _, f := range slices.Sorted(maps.Keys(gens)) {
		gen := gens[f]
		n := validate.Node{Type: "string", Format: f}
		r, _ := validate.Compile(n)
		for i := 0; i < 1000; i++ {
			v := mutate(gen())
			cases++
			want := theirs(t, n, v, true)
			if len(want) == 0 {
				accepted++
			}
			if got := ours(t, r, "spec.x", v); !slices.Equal(got, want) {
				failures++
				if failures <= 40 {
					t.Errorf("format %s value %q:\n got  %q\n want %q", f, v, got, want)
				}
			}
		}
	}
	t.Logf("%d cases (%d accepted by the server), %d differences", cases, accepted, failures)
}

// TestValidateHostnames: hostnames from letters, digits, symbols and marks of
// several scripts, with labels around the 63-character and names around the
// 255-byte limits.
func TestValidateHostnames(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	chars := []string{"a", "Z", "0", "-", ".", "+", "$", "€", "ß", "例", "٣", "_", "\u0301", "é", "~", "\uFFFD", "ǅ", "Ⅻ"}
	n := validate.Node{Type: "string", Format: "hostname"}
	r, _ := validate.Compile(n)
	cases, accepted, failures := 0, 0, 0
	for i := 0; i < 6000; i++ {
		var sb strings.Builder
		labels := 1 + rng.IntN(4)
		for l := 0; l < labels; l++ {
			if l > 0 {
				sb.WriteByte('.')
			}
			size := []int{1, 2, 3, 61, 62, 63, 64, 65, 130}[rng.IntN(9)]
			for k := 0; k < size; k++ {
				if rng.IntN(4) == 0 {
					sb.WriteString(chars[rng.IntN(len(chars))])
				} else {
					sb.WriteByte(byte('a' + rng.IntN(26)))
				}
			}
		}
		v := sb.String()
		cases++
		want := theirs(t, n, v, true)
		if len(want) == 0 {
			accepted++
		}
		if got := ours(t, r, "spec.x", v); !slices.Equal(got, want) {
			failures++
			if failures <= 20 {
				t.Errorf("value %q:\n got  %q\n want %q", v, got, want)
			}
		}
	}
	t.Logf("%d cases (%d accepted by the server), %d differences", cases, accepted, failures)
}
