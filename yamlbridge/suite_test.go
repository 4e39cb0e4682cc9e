package yamlbridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// sharedDir is ../shared beside the checkout.
const sharedDir = "../../shared"

// requireShared returns the path of name under sharedDir, or skips the test saying why.
func requireShared(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(sharedDir, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("SKIP: %s not found (the shared test data must sit beside the checkout as ../shared): %v", p, err)
	}
	return p
}

// suiteDifferences are the yaml-test-suite cases whose JSON the bridge (like the reference) gives
// differently from the suite's YAML 1.2 expectation: those internal/yaml11 documents, and why.
var suiteDifferences = map[string]string{
	"565N": "!!binary is decoded to its bytes (YAML 1.1 types)",
	"C4HZ": "the plain key y is the boolean true (YAML 1.1)",
	"6XDY": "empty documents give no value",
	"PUW8": "empty documents give no value",
	"652Z": "the parser reads '?foo' as a key indicator",
	"Y2GN": "the parser takes ':' into an anchor name",
	// variants (numbered subdirectories), which internal/yaml11's test does not read
	"HM87/01": "the parser reads '?x' as a key indicator",
	"JEF9/02": "the parser drops a last line of spaces, without a line break, of a kept block scalar",
	"L24T/01": "the parser drops a last line of spaces, without a line break, of a kept block scalar",
	"MUS6/02": "empty documents give no value",
	"MUS6/03": "empty documents give no value",
	"MUS6/04": "empty documents give no value",
}

// parserRejects are the cases with an in.json that the yaml v3 parser rejects (so the bridge
// cannot read them), and parserAccepts the error cases it accepts (so the bridge cannot reject
// them): limits of the parser, not of the bridge.
var (
	parserRejects = strings.Fields(`27NA 2LFX 2SXE 3UYS 4MUZ/00 4MUZ/01 4MUZ/02 58MP 5MUD 5T43 6BCT 6CA3
		6LVF 6ZKB 7Z25 8XYN 96NN/00 96NN/01 9DXL 9SA2 A2M4 BEC7 DBG4 DK3J DK95/00 DK95/03 DK95/04 DK95/07
		FP8R HM87/00 HWV9 JR7V K3WX M7A3 MUS6/05 MUS6/06 NJ66 Q5MG QT73 R4YG RTP8 UT92 VJP3/01 W4TN W5VH
		WZ62 Y79Y/001 Y79Y/010`)
	parserAccepts = strings.Fields(`9C9N 9HCY 9JBA CVW2 DK95/01 G5U8 HRE5 MUS6/00 QB6E S98Z SU5Z U99R
		X4QW Y79Y/003 YJV2`)
)

// suiteCase is one case directory of the yaml-test-suite (a case, or a numbered variant of one).
type suiteCase struct{ name, dir string }

func suiteCases(t *testing.T) []suiteCase {
	root := requireShared(t, "testdata/yaml-test-suite")
	var cases []suiteCase
	for _, pattern := range []string{"*/in.yaml", "*/*/in.yaml"} {
		files, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			dir := filepath.Dir(f)
			rel, _ := filepath.Rel(root, dir)
			if strings.HasPrefix(rel, "name") || strings.HasPrefix(rel, "tags") {
				continue
			}
			cases = append(cases, suiteCase{filepath.ToSlash(rel), dir})
		}
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].name < cases[j].name })
	if len(cases) == 0 {
		t.Fatalf("no cases under %s", root)
	}
	return cases
}

// streamJSON converts every document of a stream with AppendJSON. parserErr is an error of
// the parser (Reader.Next), err any other.
func streamJSON(data []byte) (out []any, parserErr, err error) {
	r := NewReader(data)
	for {
		doc, err := r.Next()
		if err == io.EOF {
			return out, nil, nil
		}
		if err != nil {
			return out, err, nil
		}
		j, err := AppendJSON(nil, doc.Source())
		if err != nil {
			return out, nil, err
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(j))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return out, nil, err
		}
		out = append(out, numbersAsFloat(v))
	}
}

// TestYAMLTestSuite: for every case with an in.json, the bridge's JSON of every document equals
// it (semantically: numbers compared as float64) wherever the yaml v3 parser accepts the input;
// every error case is rejected with an error that says where. The counts are logged.
func TestYAMLTestSuite(t *testing.T) {
	type counts struct{ withJSON, same, differ, parser, errorCases, rejected, accepted int }
	var (
		top, variants    counts
		rejects, accepts []string
		rejectTexts      []string
	)
	for _, c := range suiteCases(t) {
		y, err := os.ReadFile(filepath.Join(c.dir, "in.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		n := &top
		if strings.Contains(c.name, "/") {
			n = &variants
		}
		if _, err := os.Stat(filepath.Join(c.dir, "error")); err == nil {
			n.errorCases++
			_, perr, err := streamJSON(y)
			if err == nil {
				err = perr
			}
			var de *jperrors.DecodeError
			switch {
			case err == nil:
				n.accepted++
				accepts = append(accepts, c.name)
			case !errors.As(err, &de) || de.Msg == "":
				t.Errorf("%s: error %v is not a DecodeError with a message", c.name, err)
			default:
				n.rejected++
			}
			continue
		}
		jf := filepath.Join(c.dir, "in.json")
		j, err := os.ReadFile(jf)
		if err != nil {
			continue // neither in.json nor error: nothing to compare
		}
		n.withJSON++
		var want []any
		dec := json.NewDecoder(bytes.NewReader(j))
		dec.UseNumber()
		for dec.More() {
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("%s: in.json: %v", c.name, err)
			}
			want = append(want, numbersAsFloat(v))
		}
		got, perr, err := streamJSON(y)
		if perr != nil {
			n.parser++
			rejects = append(rejects, c.name)
			rejectTexts = append(rejectTexts, c.name+" ("+perr.Error()+")")
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		equal := reflect.DeepEqual(got, want)
		if why, known := suiteDifferences[c.name]; known {
			if equal {
				t.Errorf("%s: expected to differ (%s) but matches", c.name, why)
			}
			n.differ++
			continue
		}
		if !equal {
			t.Errorf("%s:\n got %#v\nwant %#v", c.name, got, want)
			continue
		}
		n.same++
	}
	for _, x := range []struct {
		what string
		n    counts
	}{{"cases", top}, {"variants (numbered subdirectories)", variants}} {
		t.Logf("%s with in.json: %d, %d equal, %d known differences, %d rejected by the yaml v3 parser",
			x.what, x.n.withJSON, x.n.same, x.n.differ, x.n.parser)
		t.Logf("%s with error: %d, %d rejected with an error, %d accepted by the yaml v3 parser",
			x.what, x.n.errorCases, x.n.rejected, x.n.accepted)
	}
	t.Logf("in.json cases the yaml v3 parser rejects: %s", strings.Join(rejectTexts, "; "))
	t.Logf("error cases the yaml v3 parser accepts: %s", strings.Join(accepts, " "))
	if !slices.Equal(rejects, parserRejects) {
		t.Errorf("the parser rejects %v, expected %v", rejects, parserRejects)
	}
	if !slices.Equal(accepts, parserAccepts) {
		t.Errorf("the parser accepts the error cases %v, expected %v", accepts, parserAccepts)
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
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			return v.String()
		}
		return f
	}
	return v
}
