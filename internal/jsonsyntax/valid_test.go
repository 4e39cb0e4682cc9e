package jsonsyntax

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// reference is what Valid must say: jsontext's answer with the same options.
func reference(b []byte) bool {
	return jsontext.Value(b).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
}

var cases = []struct {
	in   string
	want bool
}{
	{`{}`, true}, {` [ ] `, true}, {`{"a":1,"a":2}`, true}, {"\"\xff\xfe\"", true},
	{`{"a":[1,2,{"b":null}],"c":"\u00e9\n"}`, true}, {`-0.5e+10`, true}, {`"\ud800"`, true},
	{``, false}, {` `, false}, {`{`, false}, {`[1,]`, false}, {`{"a":1,}`, false}, {`{"a"}`, false},
	{`{a:1}`, false}, {`01`, false}, {`1.`, false}, {`.5`, false}, {`1e`, false}, {`-`, false},
	{`tru`, false}, {`nul`, false}, {`truex`, false}, {`[1 2]`, false}, {`{} {}`, false},
	{"\"a\tb\"", false}, {`"\x"`, false}, {`"\u12G4"`, false}, {`"abc`, false}, {`[}`, false},
	{`{]`, false}, {`]`, false}, {`"\u123"`, false}, {`{"a":1}}`, false}, {`+1`, false},
	{strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), true},
	{strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), false},
	{strings.Repeat(`{"a":`, MaxDepth) + "{}" + strings.Repeat("}", MaxDepth), false},
}

func TestValid(t *testing.T) {
	for _, c := range cases {
		if got := Valid([]byte(c.in)); got != c.want {
			t.Errorf("Valid(%.40q) = %v, want %v", c.in, got, c.want)
		}
		if ref := reference([]byte(c.in)); ref != c.want {
			t.Errorf("jsontext says %v of %.40q: the case is wrong", ref, c.in)
		}
	}
}

// TestJSONTestSuite compares Valid with jsontext on every file of
// JSONTestSuite's test_parsing (the y_, n_ and i_ files alike).
func TestJSONTestSuite(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "testdata", "JSONTestSuite", "test_parsing")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Skipf("JSONTestSuite not found at %s (the shared directory beside the checkout): skipped", dir)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := Valid(b), reference(b); got != want {
			t.Errorf("%s: Valid = %v, jsontext %v", filepath.Base(f), got, want)
		}
	}
	t.Logf("%d files agree", len(files))
}

func FuzzValid(f *testing.F) {
	for _, c := range cases {
		if len(c.in) < 1000 {
			f.Add([]byte(c.in))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), reference(b); got != want {
			t.Fatalf("Valid(%q) = %v, jsontext %v", b, got, want)
		}
	})
}

func TestValidAllocs(t *testing.T) {
	b := []byte(`{"a":[1,2,{"b":[[[[[[[[[[null]]]]]]]]]]}],"c":"x"}`)
	if n := testing.AllocsPerRun(100, func() { Valid(b) }); n != 0 {
		t.Errorf("Valid allocates %v times a call", n)
	}
}

func BenchmarkValid(b *testing.B) {
	line := []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":{"x":1},"labels":{"app":"w"}},"spec":{"replicas":3,"items":[1.5,-2e3,true,false,null],"text":"a \"quoted\" \u00e9 word"}}`)
	for _, name := range []string{"jsonsyntax", "jsontext"} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				if name == "jsonsyntax" {
					Valid(line)
				} else {
					reference(line)
				}
			}
		})
	}
}
