package yaml11

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// parse returns the document node of the first document of src.
func parse(t testing.TB, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return &doc
}

// scalarNode parses "text" as the value of a one-key mapping and returns the value node.
func scalarNode(t testing.TB, text string) *yaml.Node {
	t.Helper()
	doc := parse(t, "k: "+text+"\n")
	return doc.Content[0].Content[1]
}

// sameValue compares values including their Go types (int64 vs float64) and -0.
func sameValue(a, b any) bool {
	if fa, ok := a.(float64); ok {
		fb, ok := b.(float64)
		return ok && (fa == fb && math.Signbit(fa) == math.Signbit(fb) || math.IsNaN(fa) && math.IsNaN(fb))
	}
	return reflect.DeepEqual(a, b)
}

// TestResolveScalarReference covers the scalar outcomes of the Kubernetes YAML path (go-yaml v2's
// resolve, then sigs.k8s.io/yaml's YAMLToJSON, then sigs.k8s.io/json's PreserveInts decoding)
// that ResolveScalar lists.
func TestResolveScalarReference(t *testing.T) {
	tests := []struct {
		text string
		want any
	}{
		{"1.0", int64(1)},
		{"1e3", int64(1000)},
		{"2.50", 2.5},
		{"0x1F", int64(31)},
		{"0777", int64(511)},
		{"0o17", int64(15)},
		{"0b101", int64(5)},
		{"1_000", int64(1000)},
		{"+1", int64(1)},
		{"-0", int64(0)},
		{"-0.0", int64(0)},
		{"12345678901234567890", 1.2345678901234567e19},
		{"9223372036854775808", 9.223372036854775808e18},
		{"1e400", "1e400"},
		{"1:20", "1:20"},
		{"2001-12-14", "2001-12-14"},
		{"!!binary aGVsbG8=", "hello"},
		{"y", true}, {"Y", true}, {"yes", true}, {"Yes", true}, {"YES", true},
		{"on", true}, {"On", true}, {"ON", true}, {"true", true}, {"True", true}, {"TRUE", true},
		{"n", false}, {"N", false}, {"no", false}, {"No", false}, {"NO", false},
		{"off", false}, {"Off", false}, {"OFF", false}, {"false", false}, {"False", false}, {"FALSE", false},
	}
	for _, tt := range tests {
		got, err := ResolveScalar(scalarNode(t, tt.text))
		if err != nil || !sameValue(got, tt.want) {
			t.Errorf("%s: got %#v, %v; want %#v", tt.text, got, err, tt.want)
		}
	}
}

// TestResolveScalarRules covers the rules chosen where the reference is silent (each checked
// against go-yaml v2 + sigs.k8s.io/yaml + sigs.k8s.io/json).
func TestResolveScalarRules(t *testing.T) {
	tests := []struct {
		text string
		want any
	}{
		// null
		{"", nil}, {"~", nil}, {"null", nil}, {"Null", nil}, {"NULL", nil}, {"nUll", "nUll"},
		// only the listed spellings
		{"tRue", "tRue"}, {"yES", "yES"}, {"o", "o"}, {"NaN", "NaN"}, {"inf", "inf"},
		// quoted, literal and folded scalars are strings
		{`"yes"`, "yes"}, {"'12'", "12"}, {`"~"`, "~"}, {"|\n  1", "1\n"}, {">\n  true", "true\n"},
		// ints
		{"0X1f", int64(31)}, {"0O7", int64(7)}, {"0B11", int64(3)}, {"-0x1F", int64(-31)},
		{"+0b101", int64(5)}, {"-0777", int64(-511)}, {"1__0", int64(10)}, {"0_", int64(0)},
		{"+_1", int64(1)}, {"0x_1F", int64(31)}, {"0b-101", int64(-5)}, {"0b+101", int64(5)},
		{"9223372036854775807", int64(math.MaxInt64)}, {"-9223372036854775808", int64(math.MinInt64)},
		{"0x8000000000000000", 9.223372036854775808e18}, {"18446744073709551615", 1.8446744073709552e19},
		{"18446744073709551616", 1.8446744073709552e19}, {"-9223372036854775809", -9.223372036854775808e18},
		{"123456789012345678901234567890", 1.2345678901234568e29},
		// a leading-0 number that is no octal is a decimal float
		{"08", int64(8)}, {"09.5", 9.5},
		// floats
		{"1.", int64(1)}, {"1.e5", int64(100000)}, {".5", 0.5}, {"-.5", -0.5}, {"+.5", 0.5},
		{".5_0", 0.5}, {"1_2.5", 12.5}, {"1_e3", int64(1000)}, {"1e21", 1e21}, {"1e20", 1e20}, {"1e18", int64(1e18)},
		{"1.5e-7", 1.5e-7}, {"1e-400", int64(0)}, {"-1e-400", int64(0)},
		{"4611686018427387904.0", int64(4611686018427388000)}, {"9223372036854775807.0", 9.223372036854775807e18},
		{"1.7976931348623157e308", 1.7976931348623157e308},
		// strings
		{"._5", "._5"}, {".", "."}, {"0x", "0x"}, {"0b", "0b"}, {"+", "+"}, {"1e", "1e"},
		{"0x1p-2", "0x1p-2"}, {"1.5e400", "1.5e400"}, {"-1e400", "-1e400"}, {"_1", "_1"},
		{"<<", "<<"}, {"2001-12-14t21:59:43.10-05:00", "2001-12-14t21:59:43.10-05:00"},
		{"190:20:30", "190:20:30"}, {"0x1FFFFFFFFFFFFFFFF", "0x1FFFFFFFFFFFFFFFF"},
		// tags
		{"!!str 1", "1"}, {"!!str yes", "yes"}, {"!!str", ""}, {"!!int \"2\"", int64(2)},
		{"!!int 0b-1", int64(-1)}, {"!!float 1", int64(1)}, {"!!float 1.5", 1.5}, {"!!float 0b11", int64(3)},
		{"!!float -0", int64(0)}, {"!!bool yes", true}, {"!!bool \"off\"", false}, {"!!null ~", nil},
		{"!!null", nil}, {"!!null ''", nil}, {"!!timestamp 2001-12-14", "2001-12-14"},
		{"!!timestamp 2001-12-14t21:59:43.10-05:00", "2001-12-14t21:59:43.10-05:00"},
		{"!!timestamp 2001-12-14 21:59:43.10", "2001-12-14 21:59:43.10"},
		{"!!binary", ""}, {"!!binary |\n  aGVs\n  bG8=", "hello"}, {"!!binary /w==", "\uFFFD"},
		{"!!binary 4pyTAP8=", "✓\x00\uFFFD"},
		{"!foo 12", "12"}, {"!!merge <<", "<<"}, {"!!map x", "x"}, {"!<tag:yaml.org,2002:int> 7", int64(7)},
		{"!<tag:example.com,2000:x> 7", "7"},
	}
	for _, tt := range tests {
		got, err := ResolveScalar(scalarNode(t, tt.text))
		if err != nil || !sameValue(got, tt.want) {
			t.Errorf("%s: got %#v, %v; want %#v", tt.text, got, err, tt.want)
		}
	}
}

func TestResolveScalarErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{".inf", "json: unsupported value: +Inf"},
		{".Inf", "json: unsupported value: +Inf"},
		{"+.INF", "json: unsupported value: +Inf"},
		{"-.inf", "json: unsupported value: -Inf"},
		{".nan", "json: unsupported value: NaN"},
		{".NaN", "json: unsupported value: NaN"},
		{"!!float .nan", "json: unsupported value: NaN"},
		{"!!int foo", "yaml: cannot decode !!str `foo` as a !!int"},
		{"!!int 1.5", "yaml: cannot decode !!float `1.5` as a !!int"},
		{"!!int", "yaml: cannot decode !!null `` as a !!int"},
		{"!!bool 1", "yaml: cannot decode !!int `1` as a !!bool"},
		{"!!null x", "yaml: cannot decode !!str `x` as a !!null"},
		{"!!float 1e400", "yaml: cannot decode !!str `1e400` as a !!float"},
		{"!!float 18446744073709551615", "yaml: cannot decode !!int `18446744073709551615` as a !!float"},
		{"!!timestamp 123", "yaml: cannot decode !!int `123` as a !!timestamp"},
		{"!!timestamp 2001-12-14 21:59:43.10 -5", "yaml: cannot decode !!str `2001-12-14 21:59:43.10 -5` as a !!timestamp"},
		{"!!binary \"a b\"", "yaml: !!binary value contains invalid base64 data"},
	}
	for _, tt := range tests {
		n := scalarNode(t, tt.text)
		_, err := ResolveScalar(n)
		var e *Error
		if !errors.As(err, &e) || e.Error() != tt.want {
			t.Errorf("%s: got %v, want %q", tt.text, err, tt.want)
			continue
		}
		if e.Line != 1 || e.Column != 4 {
			t.Errorf("%s: position %d:%d, want 1:4", tt.text, e.Line, e.Column)
		}
	}
	if _, err := ResolveScalar(parse(t, "[1]").Content[0]); err == nil {
		t.Error("a sequence node resolved without error")
	}
	if _, err := ResolveScalar(nil); err == nil {
		t.Error("nil resolved without error")
	}
}

func TestResolveScalarAlias(t *testing.T) {
	doc := parse(t, "a: &x yes\nb: *x\n")
	got, err := ResolveScalar(doc.Content[0].Content[3])
	if err != nil || got != true {
		t.Fatalf("got %#v, %v", got, err)
	}
}

func TestIsYAMLFloat(t *testing.T) {
	for s, want := range map[string]bool{
		"1": true, "1.": true, ".5": true, "-1.5e+3": true, "+.5E7": true, "1e5": true,
		"": false, ".": false, "e5": false, "1e": false, "1e+": false, ".e1": false, "1.5.": false,
		"--1": false, "1,5": false, "0x1": false, "inf": false,
	} {
		if got := isYAMLFloat(s); got != want {
			t.Errorf("isYAMLFloat(%q) = %v", s, got)
		}
	}
}

func TestWordTableIsData(t *testing.T) {
	// Every word of the table resolves to its row; no word is longer than the guard.
	for _, row := range plainWords {
		for _, w := range row.words {
			got := resolvePlain(w)
			if got.kind != row.v.kind || got.b != row.v.b {
				t.Errorf("%q resolved to %+v", w, got)
			}
			if len(w) > maxWordLen {
				t.Errorf("%q longer than maxWordLen", w)
			}
			if strings.ToUpper(w) != w && strings.ToLower(w) != w && len(w) > 1 && w[0] != '.' && w[0] != '+' && w[0] != '-' {
				// Title case words: the fully mixed spelling is a string.
				mixed := strings.ToLower(w[:len(w)-1]) + strings.ToUpper(w[len(w)-1:])
				if resolvePlain(mixed).kind != kString {
					t.Errorf("%q should be a string", mixed)
				}
			}
		}
	}
}
