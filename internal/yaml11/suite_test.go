package yaml11

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// sharedDir is ../shared beside the checkout (three levels up from this package).
const sharedDir = "../../../shared"

// requireShared returns the path of name under sharedDir, or skips the test saying why.
func requireShared(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(sharedDir, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("SKIP: %s not found (the shared test data must sit beside the checkout as ../shared): %v", p, err)
	}
	return p
}

// suiteDifferences are the yaml-test-suite cases with in.json whose value this package (like the
// reference) gives differently from the suite's YAML 1.2 expectation, and why.
var suiteDifferences = map[string]string{
	"565N": "!!binary is decoded to its bytes (YAML 1.1 types)",
	"C4HZ": "the plain key y is the boolean true (YAML 1.1)",
	"6XDY": "empty documents give no value",
	"PUW8": "empty documents give no value",
	"652Z": "the parser reads '?foo' as a key indicator",
	"Y2GN": "the parser takes ':' into an anchor name",
}

// TestYAMLTestSuite compares every case of the yaml-test-suite that has an in.json with Decode's
// values, semantically (numbers as float64). Cases the v3 parser rejects are counted, not failed:
// the parser is not this package's.
func TestYAMLTestSuite(t *testing.T) {
	root := requireShared(t, "testdata/yaml-test-suite")
	files, err := filepath.Glob(filepath.Join(root, "*", "in.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases under %s: %v", root, err)
	}
	var same, differ, parser int
	for _, jf := range files {
		dir := filepath.Dir(jf)
		name := filepath.Base(dir)
		y, err1 := os.ReadFile(filepath.Join(dir, "in.yaml"))
		j, err2 := os.ReadFile(jf)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v %v", name, err1, err2)
		}
		var want []any
		dec := json.NewDecoder(bytes.NewReader(j))
		dec.UseNumber()
		for dec.More() {
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s: in.json: %v", name, err)
			}
			want = append(want, numbersAsFloat(v))
		}
		got, err := Decode(y, Options{})
		var se *SyntaxError
		if errors.As(err, &se) {
			parser++
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for i := range got {
			got[i] = numbersAsFloat(got[i])
		}
		equal := reflect.DeepEqual(got, want)
		if why, known := suiteDifferences[name]; known {
			if equal {
				t.Errorf("%s: expected to differ (%s) but matches", name, why)
			}
			differ++
			continue
		}
		if !equal {
			t.Errorf("%s:\n got %#v\nwant %#v", name, got, want)
			continue
		}
		same++
	}
	t.Logf("%d cases: %d equal, %d known differences, %d rejected by the parser", len(files), same, differ, parser)
	if same < 150 {
		t.Errorf("only %d cases equal", same)
	}
}

func numbersAsFloat(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = numbersAsFloat(e)
		}
	case []any:
		for i, e := range v {
			v[i] = numbersAsFloat(e)
		}
	case int64:
		return float64(v)
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			return v.String()
		}
		return f
	}
	return v
}
