package conformance

// The YAML differential: every corpus CR, as the YAML it is written in, and hand-written tricky
// documents are decoded with the API server's YAML request path (oracle, CROptions{YAML: true})
// and with jsonprune's YAML bridge feeding the decoder; the pruned object, the fatal errors and
// the findings are compared.
//
// Intended differences, counted by reason, not failed:
//   - duplicate keys: the reference reports every duplicate of a YAML body in ONE strict error,
//     "yaml: unmarshal errors:\n  line N: key "x" already set in map", with lines and no path;
//     jsonprune reports each as in JSON, `duplicate field "spec.x"`, with its path, line and
//     column. The two are compared by their lines (the reference's line is that of the value of
//     the later key, jsonprune's that of the key, which is the same line except for a key whose
//     value starts on a later line) and the other findings exactly;
//   - keys that differ in YAML but are equal as JSON keys (1 and "1"): the reference reports
//     nothing and keeps either value at random; jsonprune reports a duplicate and keeps the later
//     one (the object is then not compared);
//   - texts of the YAML parser's syntax errors (go-yaml v2 for the reference, v3 here) and of the
//     alias-expansion limits (jsonprune's are stricter, and name the limit and the line).

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/bench/gen"
	"github.com/jsonprune/jsonprune/bench/oracle"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/fieldpath"
	"github.com/jsonprune/jsonprune/internal/yaml11"
	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/yamlbridge"
	sigsyaml "sigs.k8s.io/yaml"
)

// Reasons of intended differences.
const (
	reasonDupLump      = "YAML duplicates reported per key with their path (the reference: one lumped error with lines)"
	reasonDupConverted = "keys equal only as JSON keys (1 and \"1\") reported as duplicates (the reference: nothing, either value at random)"
	reasonSyntax       = "YAML syntax error texts are the v3 parser's"
	reasonAliasLimit   = "alias-expansion limit texts name the limit and the line (and the limits are stricter)"
	reasonDupCapped    = "YAML duplicates capped at 100, as JSON duplicates (the reference's YAML error lists all)"
	reasonLeadingEmpty = "leading empty documents are skipped (the reference reads the first document only, empty or not)"
)

// yamlComparison counts the YAML differential.
type yamlComparison struct {
	compared, identical int
	dupDocs, dupKeys    int            // documents with duplicates, duplicate findings compared
	intended            map[string]int // intended differences, by reason
}

// yamlDupLines parses the reference's lumped YAML duplicate error into its lines.
var yamlDupLine = regexp.MustCompile(`^\s*line (\d+): key (.*) already set in map$`)

func splitYAMLDuplicates(strict []string) (lines []int, rest []string, ok bool) {
	ok = true
	for _, s := range strict {
		body, isDup := strings.CutPrefix(s, "yaml: unmarshal errors:\n")
		if !isDup {
			body, isDup = strings.CutPrefix(s, "error converting YAML to JSON: yaml: unmarshal errors:\n")
		}
		if !isDup {
			rest = append(rest, s)
			continue
		}
		for _, l := range strings.Split(body, "\n") {
			m := yamlDupLine.FindStringSubmatch(l)
			if m == nil {
				ok = false
				continue
			}
			n, _ := strconv.Atoi(m[1])
			lines = append(lines, n)
		}
	}
	return lines, rest, ok
}

// compareYAML decodes one YAML body with both and compares them.
func (c *yamlComparison) compareYAML(t *testing.T, name string, s side, body []byte, mode string) {
	t.Helper()
	want, err := s.oracle.Decode(body, oracle.CROptions{YAML: true, FieldValidation: mode})
	if err != nil {
		t.Fatalf("%s: oracle: %v", name, err)
	}
	c.compared++

	m, _ := decoder.ParseMode(mode)
	d := must(decoder.New(s.set, decoder.FieldValidation(m)))
	var got map[string]any
	var gotErr error
	doc, perr := yamlbridge.Parse(body)
	switch {
	case errors.Is(perr, io.EOF):
		// no document with content: the reference decodes an empty body
		gotErr = &jperrors.DecodeError{Msg: fmt.Sprintf("Object 'Kind' is missing in '%s'", body)}
	case perr != nil:
		gotErr = perr
	default:
		got, gotErr = d.DecodeMapSource(doc.Source())
	}
	var findings []jperrors.Finding
	var strict *jperrors.StrictError
	if errors.As(gotErr, &strict) {
		findings, gotErr = strict.Findings, nil
	} else if gotErr == nil {
		findings = d.Result().Findings()
	}

	// fatal errors
	if want.FatalRaw != "" || gotErr != nil {
		var de *jperrors.DecodeError
		isDE := errors.As(gotErr, &de)
		switch {
		case gotErr == nil && strings.HasPrefix(want.FatalRaw, "Object 'Kind' is missing in '---") && doc != nil && doc.Index > 0:
			c.intended[reasonLeadingEmpty]++
		case gotErr == nil:
			t.Errorf("%s: the reference fails (%s), jsonprune does not\n%.600s", name, want.FatalRaw, body)
		case want.FatalRaw == "":
			t.Errorf("%s: jsonprune fails (%v), the reference does not\n%.600s", name, gotErr, body)
		case isDE && de.Msg == want.FatalRaw:
			c.identical++
		case isDE && perr != nil && strings.HasPrefix(want.FatalRaw, "yaml: "):
			c.intended[reasonSyntax]++
		case isDE && strings.Contains(de.Msg, "document contains excessive aliasing") && strings.Contains(want.FatalRaw, "excessive aliasing"):
			c.intended[reasonAliasLimit]++
		default:
			t.Errorf("%s: fatal error\n got %v\nwant %s\n%.600s", name, gotErr, want.FatalRaw, body)
		}
		return
	}

	// findings: duplicates apart, the rest exactly
	refDupLines, refRest, ok := splitYAMLDuplicates(want.Strict)
	if !ok {
		t.Errorf("%s: cannot read the reference's YAML duplicate error %q", name, want.Strict)
		return
	}
	var dupPaths, rest []string
	for _, f := range findings {
		if f.Type == jperrors.DuplicateField {
			dupPaths = append(dupPaths, f.Path)
			continue
		}
		rest = append(rest, f.Message())
	}
	if strings.Join(rest, "\n") != strings.Join(refRest, "\n") {
		t.Errorf("%s: findings\n got %q\nwant %q\n%.600s", name, rest, refRest, body)
		return
	}
	converted := false
	if len(dupPaths) > 0 || len(refDupLines) > 0 {
		// The reference lists every occurrence of a repeated key (again for each expansion of an
		// anchor) with the line of its value; jsonprune reports each path once, as in JSON. Both
		// are checked against the bridge's token stream: read as go-yaml v2 sets keys, its
		// repeated names must have the reference's lines, in its order, and jsonprune's paths.
		scan, err := tokenDuplicates(doc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		conv := convertedDuplicateLines(body)
		var lines []int
		for _, d := range scan {
			if !slices.Contains(conv, d.line) {
				lines = append(lines, d.line)
			}
		}
		var paths []string
		for _, d := range scan {
			if !slices.Contains(paths, d.path) {
				paths = append(paths, d.path)
			}
		}
		capped := len(dupPaths) == 100 && len(paths) > 100 // the decoder keeps 100, as for JSON
		if capped {
			paths = paths[:100]
			c.intended[reasonDupCapped]++
		}
		if !slices.Equal(lines, refDupLines) || !slices.Equal(paths, dupPaths) {
			t.Errorf("%s: duplicates: the reference's lines %v, the token stream's %v (converted %v); jsonprune's paths %q, the token stream's %q\n%.600s",
				name, refDupLines, lines, conv, dupPaths, paths, body)
			return
		}
		if len(refDupLines) > 0 {
			c.intended[reasonDupLump]++
			c.dupDocs++
			c.dupKeys += len(dupPaths)
		}
		if len(conv) > 0 {
			converted = true
			c.intended[reasonDupConverted]++
		}
	}

	// the kept object (in Strict mode with findings jsonprune returns none)
	if !converted && (mode != "Strict" || len(findings) == 0) {
		if !reflect.DeepEqual(normalize(got), normalize(want.Object)) {
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(want.Object)
			t.Errorf("%s: object\n got %s\nwant %s", name, gj, wj)
			return
		}
	}
	if len(dupPaths) == 0 && len(refDupLines) == 0 {
		c.identical++
	}
}

// tokenDuplicate is a name repeated in its object: its path and the line of its value.
type tokenDuplicate struct {
	path string
	line int
}

// tokenDuplicates reads a document's tokens and reports every name already set in its object,
// as go-yaml v2's strict decoding reports keys already set in a map.
func tokenDuplicates(doc *yamlbridge.Document) ([]tokenDuplicate, error) {
	src := doc.Source()
	var out []tokenDuplicate
	var path []fieldpath.Segment
	var value func() error
	value = func() error {
		switch src.PeekKind() {
		case '{':
			src.ReadToken()
			seen := map[string]bool{}
			for src.PeekKind() != '}' {
				raw, err := src.ReadValue()
				if err != nil {
					return err
				}
				var name string
				if err := json.Unmarshal(raw, &name); err != nil {
					return err
				}
				path = append(path, fieldpath.Segment{Kind: fieldpath.Key, Name: []byte(name)})
				if seen[name] {
					line, _ := doc.Position(src.InputOffset())
					out = append(out, tokenDuplicate{string(fieldpath.AppendPath(nil, path)), line})
				}
				seen[name] = true
				if err := value(); err != nil {
					return err
				}
				path = path[:len(path)-1]
			}
			_, err := src.ReadToken()
			return err
		case '[':
			src.ReadToken()
			for i := 0; src.PeekKind() != ']'; i++ {
				path = append(path, fieldpath.Segment{Kind: fieldpath.Index, Index: i})
				if err := value(); err != nil {
					return err
				}
				path = path[:len(path)-1]
			}
			_, err := src.ReadToken()
			return err
		}
		_, err := src.ReadValue()
		return err
	}
	return out, value()
}

// convertedDuplicateLines returns the lines of the keys that are duplicates only as JSON keys
// (yaml11 marks them Converted; the reference does not report them). yaml11 gives the line of the
// value, as the reference does; jsonprune's findings give the key's, the same for these keys.
func convertedDuplicateLines(body []byte) []int {
	_, err := yaml11.Decode(body, yaml11.Options{})
	var de *yaml11.DuplicateKeysError
	if !errors.As(err, &de) {
		return nil
	}
	var lines []int
	for _, d := range de.Duplicates {
		if d.Converted && d.Document == 0 {
			lines = append(lines, d.Line)
		}
	}
	return lines
}

// loadYAMLPairs pairs every corpus CR, as YAML, with its CRD.
func loadYAMLPairs(t *testing.T) ([]pair, map[string]side) {
	pairs, sides := loadPairs(t)
	for i := range pairs {
		y, err := os.ReadFile(filepath.Join(corpusRoot, pairs[i].name))
		if err != nil {
			t.Fatal(err)
		}
		pairs[i].body = y
	}
	return pairs, sides
}

// TestYAMLCorpusDifferential decodes every corpus CR, as the YAML it is written in, with the API
// server's YAML path and with the bridge, in Warn and Strict mode.
func TestYAMLCorpusDifferential(t *testing.T) {
	pairs, sides := loadYAMLPairs(t)
	c := &yamlComparison{intended: map[string]int{}}
	for _, p := range pairs {
		for _, mode := range []string{"Warn", "Strict"} {
			c.compareYAML(t, p.name+" ("+mode+")", sides[p.crd], p.body, mode)
		}
	}
	t.Logf("YAML corpus: %d documents compared, %d identical, %d with duplicates (%d duplicate findings), intended differences %v",
		c.compared, c.identical, c.dupDocs, c.dupKeys, c.intended)
}

// widgetSide loads the oracle's Widget CRD.
func widgetSide(t testing.TB) side {
	data, err := os.ReadFile("../oracle/testdata/widget-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return sideOf(t, data)
}

// sideOf loads a CRD into both: the oracle and a compiled Set.
func sideOf(t testing.TB, data []byte) side {
	o, err := oracle.NewCRDecoder(data)
	if err != nil {
		t.Fatal(err)
	}
	crds, err := schemaauto.ParseCRDs(data)
	if err != nil {
		t.Fatal(err)
	}
	set, err := schemaauto.CompileCRDs(crds)
	if err != nil {
		t.Fatal(err)
	}
	return side{o, set}
}

// trickyYAML are hand-written YAML bodies for the Widget CRD (bench/oracle/testdata), each
// after "---" and a comment saying what it tests.
const trickyYAML = `
--- # duplicates, at the root, in spec, in a pruned subtree, in metadata
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  name: w2
spec:
  replicas: 1
  replicas: 2
  foo: {a: 1, a: 2}
  foo: 3
kind: Widget
--- # a triple occurrence, and a duplicate whose value starts on the next line
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  name: a
  name: b
  name: c
  list:
  - x: 1
  list:
    - x: 2
      y: 3
--- # merge key overridden by an explicit key (Y18)
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
base: &base {replicas: 1, name: n1}
spec:
  <<: *base
  replicas: 2
--- # explicit key before the merge key: the merged value wins
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
base: &base {replicas: 1, name: n1}
spec:
  replicas: 2
  <<: *base
--- # two merged maps sharing a key (D07), and an unknown merged key
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
a: &a {name: from-a, replicas: 1, bogus: 1}
b: &b {name: from-b, ratio: 1.5}
spec:
  <<: [*a, *b]
--- # merge inside an anchor: the duplicate line is the anchored map's (Y19)
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
defs:
  inner: &inner {name: i}
  outer: &outer
    <<: *inner
    name: o
spec:
  <<: *outer
--- # a merged mapping written in place, and a merge of merges
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  labels:
    <<: {a: "1", b: "2"}
    b: "3"
spec:
  mapOfObj:
    k: &k {"y": v}
    k2:
      <<: *k
      z: 1
--- # YAML 1.1 booleans as keys: y, yes and on are all "true"
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  mapOfObj:
    m1: {y: a}
    m2: {yes: b, on: c}
    n: {"y": d}
  y: 1
  on: 2
  n: 3
--- # numbers: integral floats, octal, hex, 1e400, big integers, sexagesimals, timestamps
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  replicas: 1.0
  ratio: 2.50
  name: 1e400
  strList: [1e3, 0777, 0x1F, 0o17, 0b101, 1_000, +1, -0, -0.0, 12345678901234567890, 9223372036854775808, 1e400, 1:20, 2001-12-14, !!binary aGVsbG8=, .5, 1e-400]
--- # non-string keys: ints, floats at float32 precision, bools
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  labelsLike: {1: a, 0x2: b, 1.10: c, 16777217.0: d, 1e3: e, true: f, 100000000000000000000: g}
--- # int and string keys that collide as JSON keys
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  labelsLike: {1: a, "1": b}
--- # anchors and aliases: an unknown field reported at every place it is expanded
apiVersion: example.com/v1
kind: Widget
metadata:
  name: &n w
  labels: &l {app: demo}
  annotations: *l
spec:
  name: *n
  list: [&item {x: a, extra: 1}, *item, *item]
  preserved: {copy: *item}
--- # aliases as keys
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
keys: [&rk replicas, &nk name]
spec:
  *rk : 3
  *nk : n
--- # .inf is fatal
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {ratio: .inf}
--- # -.inf and .nan in a pruned subtree are fatal too (JSON conversion comes first)
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {bogus: [-.inf, .nan]}
--- # a null key
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  ~: 1
--- # a complex key
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  ? {a: 1}
  : 1
--- # a bad tagged scalar
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {replicas: !!int twelve}
--- # invalid base64
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {name: !!binary "not base64!"}
--- # a merge of a scalar
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  <<: 1
--- # an anchor containing its alias
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: &s
  <<: *s
--- # an undefined alias
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: *nope
--- # kind missing
apiVersion: example.com/v1
metadata: {name: w}
spec: {}
--- # a root sequence
- apiVersion: example.com/v1
  kind: Widget
--- # a root scalar
just text
--- # null
~
--- # apiVersion null
apiVersion: null
kind: Widget
metadata: {name: w}
--- # a kind that is not a string
apiVersion: example.com/v1
kind: 1
metadata: {name: w}
--- # case variants of apiVersion and kind
apiVersion: example.com/v1
kind: Widget
Kind: widget
APIVersion: example.com/v1
metadata: {name: w}
--- # metadata: unknown fields, duplicates, numbers as strings
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  generation: 3.0
  labels: {a: yes, b: "on"}
  annotations: {n: "1"}
  bogus: 1
  finalizers: [a, a]
spec: {}
--- # embedded resources
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  embedded:
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: cm, bogus: on}
    data: {a: b}
--- # nulls and defaults
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  nonNullable: null
  nullableField: ~
  defaulted:
  nullableDefaulted: null
--- # a key quoted, a key with a dot, a key in Cyrillic, an empty key
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  "replicas": 4
  a.b: x
  "a[0]": y
  ключ: z
  "": empty
--- # block scalars and flow style
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {name: |
    multi
    line
  , strList: [>-
      folded
      text
    , 'single ''quoted''', "double \"quoted\"\t"]}
--- # CRLF line endings and a BOM are handled by the tests below; tags on collections
apiVersion: example.com/v1
kind: !!str Widget
metadata: !!map {name: w}
spec: !!map
  list: !!seq [!!map {x: !!str 1}]
  replicas: !!float 3
`

// TestYAMLTrickyDifferential runs the hand-written documents, plus variants (CRLF line endings,
// a byte order mark), through both in Warn and Strict mode.
func TestYAMLTrickyDifferential(t *testing.T) {
	s := widgetSide(t)
	c := &yamlComparison{intended: map[string]int{}}
	docs := strings.Split(trickyYAML, "\n--- ")[1:]
	for i, d := range docs {
		title, body, _ := strings.Cut(d, "\n")
		body = "# " + strings.TrimPrefix(title, "# ") + "\n" + body
		name := fmt.Sprintf("#%d %s", i, title)
		for _, mode := range []string{"Warn", "Strict"} {
			c.compareYAML(t, name+" ("+mode+")", s, []byte(body), mode)
		}
	}
	// variants of one document: CRLF line endings, a byte order mark, a leading "---"
	base := "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  replicas: 1\n  replicas: 2\n  bogus: x\n"
	for _, v := range []struct{ name, body string }{
		{"CRLF", strings.ReplaceAll(base, "\n", "\r\n")},
		{"BOM", "\ufeff" + base},
		{"leading ---", "---\n" + base},
		{"comments only before", "# a\n# b\n\n" + base},
		{"a second document is ignored", base + "---\nbogus: 1\n"},
		{"a leading empty document", "--- # nothing\n---\n" + base},
	} {
		c.compareYAML(t, v.name, s, []byte(v.body), "Warn")
	}
	t.Logf("YAML tricky documents: %d compared, %d identical, %d with duplicates (%d duplicate findings), intended differences %v",
		c.compared, c.identical, c.dupDocs, c.dupKeys, c.intended)
}

// TestYAMLSuiteErrorsReference reports which of the yaml-test-suite error cases that the yaml v3
// parser accepts (so the bridge cannot reject them) the reference's parser, go-yaml v2, accepts
// too. It fails only if the data is malformed.
func TestYAMLSuiteErrorsReference(t *testing.T) {
	root := "../../../shared/testdata/yaml-test-suite"
	if _, err := os.Stat(root); err != nil {
		t.Skipf("SKIP: the yaml-test-suite is not available at %s: %v", root, err)
	}
	var v2Accepts, v2Rejects []string
	for _, name := range strings.Fields(`9C9N 9HCY 9JBA CVW2 DK95/01 G5U8 HRE5 MUS6/00 QB6E S98Z SU5Z U99R X4QW Y79Y/003 YJV2`) {
		y, err := os.ReadFile(filepath.Join(root, name, "in.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sigsyaml.YAMLToJSON(y); err != nil {
			v2Rejects = append(v2Rejects, name)
			continue
		}
		v2Accepts = append(v2Accepts, name)
	}
	t.Logf("error cases the v3 parser accepts: the reference (go-yaml v2) accepts %d: %v; rejects %d: %v",
		len(v2Accepts), v2Accepts, len(v2Rejects), v2Rejects)
}

// TestYAMLMutationDifferential feeds the mutation generator's JSON bodies (unknown fields,
// duplicates, escaped keys, case variants, nulls, numbers, syntax damage...) to both as YAML:
// JSON text is YAML flow style, which the reference's YAML path reads as YAML.
func TestYAMLMutationDifferential(t *testing.T) {
	pairs, sides := loadPairs(t)
	perDoc := 1
	g := gen.New(20261123)
	c := &yamlComparison{intended: map[string]int{}}
	for i, p := range pairs {
		if testing.Short() && i%4 != 0 {
			continue
		}
		s := sides[p.crd]
		sch := schemaFor(t, s.oracle, versionOf(p.body))
		if sch == nil {
			continue
		}
		muts, err := g.Mutate(p.body, sch, perDoc)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		for _, m := range muts {
			c.compareYAML(t, p.name+" ["+m.Kind+": "+m.Detail+"]", s, m.Body, "Warn")
		}
	}
	t.Logf("JSON mutations read as YAML: %d documents compared, %d identical, %d with duplicates (%d duplicate findings), intended differences %v",
		c.compared, c.identical, c.dupDocs, c.dupKeys, c.intended)
}
