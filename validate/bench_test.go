package validate

import (
	"testing"
)

// allocCases are valid values on nodes with every kind of check.
var allocCases = []struct {
	name string
	node Node
	v    Scalar
}{
	{"string-keywords", Node{Type: "string", Pattern: "^[a-z]+$", Keywords: kw{"maxLength": int64(10), "minLength": int64(2)}}, S("abcdef")},
	{"string-enum", Node{Type: "string", Keywords: kw{"enum": []any{"a", "b", "c"}}}, S("c")},
	{"int-enum-rune", Node{Keywords: kw{"enum": []any{"A"}}}, I(65)},
	{"integer-bounds", Node{Type: "integer", Format: "int32", Keywords: kw{"minimum": 0.0, "maximum": 100.0, "multipleOf": 5.0}}, I(45)},
	{"integer-float", Node{Type: "integer", Keywords: kw{"minimum": 0.0}}, F(2)},
	{"integer-big-float", Node{Type: "integer"}, F(1 << 52)},
	{"number-float", Node{Type: "number", Format: "float", Keywords: kw{"multipleOf": 0.5, "exclusiveMaximum": true, "maximum": 10.0}}, F(2.5)},
	{"number-enum", Node{Type: "number", Keywords: kw{"enum": []any{int64(1), 2.5}}}, F(1.5)},
	{"bool", Node{Type: "boolean", Keywords: kw{"enum": []any{true}}}, B(true)},
	{"null-nullable", Node{Type: "string", Nullable: true}, N},
	{"int-or-string", Node{IntOrString: true, Keywords: kw{"maxLength": int64(5), "maximum": 9.0}}, S("50%")},
	{"date-time", Node{Type: "string", Format: "date-time"}, S("2020-01-01T10:20:30.5+01:00")},
	{"date", Node{Type: "string", Format: "date"}, S("2020-01-01")},
	{"duration", Node{Type: "string", Format: "duration"}, S("1h30m")},
	{"duration-words", Node{Type: "string", Format: "duration"}, S("3 days")},
	{"uuid", Node{Type: "string", Format: "uuid4"}, S("123e4567-e89b-42d3-a456-426614174000")},
	{"hostname", Node{Type: "string", Format: "hostname"}, S("www.example.com")},
	{"ipv4", Node{Type: "string", Format: "ipv4"}, S("10.0.0.1")},
	{"ipv6", Node{Type: "string", Format: "ipv6"}, S("2001:db8::1")},
	{"cidr", Node{Type: "string", Format: "cidr"}, S("10.0.0.0/8")},
	{"mac", Node{Type: "string", Format: "mac"}, S("01:23:45:67:89:ab")},
	{"byte", Node{Type: "string", Format: "byte"}, S("YWJjZA==")},
	{"isbn", Node{Type: "string", Format: "isbn"}, S("978-0321751041")},
	{"creditcard", Node{Type: "string", Format: "creditcard"}, S("4111 1111 1111 1111")},
	{"ssn", Node{Type: "string", Format: "ssn"}, S("123-45-6789")},
	{"hexcolor", Node{Type: "string", Format: "hexcolor"}, S("#abc")},
	{"rgbcolor", Node{Type: "string", Format: "rgbcolor"}, S("rgb(1,2,3)")},
	{"bsonobjectid", Node{Type: "string", Format: "bsonobjectid"}, S("507f1f77bcf86cd799439011")},
	{"k8s-long-name", Node{Type: "string", Format: "k8s-long-name"}, S("a.b-c.d")},
}

// TestCheckAllocs: Check on a valid value allocates nothing (the uri and email
// formats, which call net/url and net/mail, excepted).
func TestCheckAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	for _, c := range allocCases {
		r := mustCompile(t, c.node)
		if !r.Check(c.v) {
			t.Fatalf("%s: not valid", c.name)
		}
		if n := testing.AllocsPerRun(100, func() { r.Check(c.v) }); n != 0 {
			t.Errorf("%s: %v allocs per Check", c.name, n)
		}
		if n := testing.AllocsPerRun(100, func() { _ = r.AppendErrors(nil, "spec.x", c.v) }); n != 0 {
			t.Errorf("%s: %v allocs per AppendErrors of a valid value", c.name, n)
		}
	}
	r := mustCompile(t, Node{Type: "object", Keywords: kw{"maxProperties": int64(3), "minItems": int64(1)}})
	if n := testing.AllocsPerRun(100, func() { r.CheckType(Object); r.CheckObject(2); r.CheckArray(1) }); n != 0 {
		t.Errorf("containers: %v allocs", n)
	}
	if n := testing.AllocsPerRun(100, func() { ScalarOf("abc"); ScalarOf(int64(1)) }); n != 0 {
		t.Errorf("ScalarOf: %v allocs", n)
	}
	if n := testing.AllocsPerRun(100, func() { ParseNumber([]byte("12345")); ParseNumber([]byte("1.25e3")) }); n != 0 {
		t.Errorf("ParseNumber: %v allocs", n)
	}
}

func BenchmarkCheck(b *testing.B) {
	for _, c := range allocCases {
		r, _ := Compile(c.node)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if !r.Check(c.v) {
					b.Fatal("invalid")
				}
			}
		})
	}
}

func BenchmarkAppendErrorsInvalid(b *testing.B) {
	r, _ := Compile(Node{Type: "integer", Keywords: kw{"maximum": 1.5, "enum": []any{int64(1)}}})
	v := F(2.5)
	b.ReportAllocs()
	for b.Loop() {
		_ = r.AppendErrors(nil, "spec.x", v)
	}
}

func BenchmarkCompile(b *testing.B) {
	n := Node{Type: "string", Format: "date-time", Pattern: "^2", Keywords: kw{"maxLength": int64(40), "enum": []any{"a", "b"}}}
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Compile(n)
	}
}

// TestConcurrentUse: one Rules checked from several goroutines (run with -race).
func TestConcurrentUse(t *testing.T) {
	r := mustCompile(t, Node{Type: "string", Format: "date-time", Pattern: "^2", Keywords: kw{"maxLength": int64(40), "enum": []any{"2020-01-01T00:00:00Z"}}})
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			for i := 0; i < 200; i++ {
				r.Check(S("2020-01-01T00:00:00Z"))
				_ = r.AppendErrors(nil, "spec.x", S("1999-01-01T00:00:00Z"))
			}
			done <- true
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}
