package yamlbridge

import (
	"fmt"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/jsonprune/jsonprune/decoder"
	"github.com/jsonprune/jsonprune/internal/yaml11"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// rewriteCases are documents pruned with the Widget CRD and written back as YAML.
var rewriteCases = []struct{ name, in, want string }{
	{"comments, order and styles kept; unknown members dropped; defaults appended", `# A widget
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w # the name
  bogus: 1
spec:
  # replicas first
  replicas: 3
  hostNetwork: true # dropped with its comment
  list:
  - x: 'a'
    extra: b
  - x: "b" # kept
  name: |
    literal
  strList: [a, "b", 'c']
# foot
`, `# A widget
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w # the name
spec:
  # replicas first
  replicas: 3
  list:
  - x: 'a'
  - x: "b" # kept
  name: |
    literal
  strList: [a, "b", 'c']
  defaulted: dflt
  nullableDefaulted: nd
# foot
`},
	{"a changed scalar keeps its comments; a duplicate keeps the winning occurrence", head + `spec:
  nonNullable: null # pruned
  defaulted: null # null becomes the default
  replicas: 1
  replicas: 2 # the last wins
`, `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  defaulted: dflt # null becomes the default
  replicas: 2 # the last wins
  nullableDefaulted: nd
`},
	{"aliases kept while their anchor gives the same value", head + `spec:
  name: &n widget
  list: [&item {x: a}, *item]
  strList: [*n, *n]
`, `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  name: &n widget
  list: [&item {x: a}, *item]
  strList: [*n, *n]
  defaulted: dflt
  nullableDefaulted: nd
`},
	{"an alias whose anchor was pruned is replaced by a copy", head + `spec:
  list:
  - &item
    x: a # the x
    extra: 1
  preserved:
    copy: *item
`, `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  list:
  - &item
    x: a # the x
  preserved:
    copy:
      x: a # the x
      extra: 1
  defaulted: dflt
  nullableDefaulted: nd
`},
	{"an anchor pruned away", head + `defs: &d {x: a}
spec:
  list: [*d]
`, `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  list: [{x: a}]
  defaulted: dflt
  nullableDefaulted: nd
`},
	{"merge keys kept when the merged members survive", head + `spec:
  obj: &o {inner: i}
  preserved:
    <<: *o
    more: m
`, `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  obj: &o {inner: i}
  preserved:
    <<: *o
    more: m
  defaulted: dflt
  nullableDefaulted: nd
`},
	{"merge keys flattened when a merged member is pruned", head + `base: &b {replicas: 1, bogus: 2}
spec:
  <<: *b
  name: n # the name
`, `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  replicas: 1
  name: n # the name
  defaulted: dflt
  nullableDefaulted: nd
`},
	{"indented sequences, four-space indentation", head + `spec:
    list:
        - x: a
          extra: b
    strList:
        - s
`, `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
    list:
        - x: a
    strList:
        - s
    defaulted: dflt
    nullableDefaulted: nd
`},
	{"aliases as keys", head + `keys: [&r replicas]
spec:
  *r : 3
`, `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  replicas: 3
  defaulted: dflt
  nullableDefaulted: nd
`},
	{"an object left empty after a commented key is written {} after the key, the comment after it (found by FuzzBridge)", head + `spec:
  mapOfObj:
    k: # all pruned
      zz: 1
    l: #
      zz: 2
`, `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  mapOfObj:
    k: {} # all pruned
    l: {} #
  defaulted: dflt
  nullableDefaulted: nd
`},
	{"metadata normalised", `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  labels: {b: "2", a: "1"}
  annotations: {}
  generation: 3
  bogus: x
spec: {}
`, `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  labels: {b: "2", a: "1"}
  generation: 3
spec: {defaulted: dflt, nullableDefaulted: nd}
`},
}

func rewriteDocs() []string {
	var out []string
	for _, c := range rewriteCases {
		out = append(out, c.in)
	}
	return out
}

func TestRewrite(t *testing.T) {
	set := widgetSet()
	for _, c := range rewriteCases {
		got := rewriteOne(t, set, c.in)
		if got != c.want {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", c.name, got, c.want)
		}
	}
}

// rewriteOne prunes the first document of in and writes it back as YAML, checking that the YAML
// reads back (as the Kubernetes YAML path reads it) as the pruned value.
func rewriteOne(t *testing.T, set *schemaauto.Set, in string) string {
	t.Helper()
	doc, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	d := must(decoder.New(set))
	pruned, err := d.AppendPruneSource(nil, doc.Source())
	if err != nil {
		t.Fatalf("%q: %v", in, err)
	}
	out, err := doc.AppendYAML(nil, pruned)
	if err != nil {
		t.Fatalf("%q: %v", in, err)
	}
	checkRoundTrip(t, out, pruned)
	return string(out)
}

// checkRoundTrip checks that YAML text y reads as the JSON value pruned.
func checkRoundTrip(t *testing.T, y, pruned []byte) {
	t.Helper()
	vals, err := yaml11.Decode(y, yaml11.Options{})
	if err != nil || len(vals) != 1 {
		t.Errorf("the rewritten YAML does not read back: %v\n%s", err, y)
		return
	}
	want, err := parseValue(pruned)
	if err != nil {
		t.Fatal(err)
	}
	if !equalValue(vals[0], want) {
		t.Errorf("the rewritten YAML reads as\n%#v\nnot as the pruned\n%s\nYAML:\n%s", vals[0], pruned, y)
	}
}

var _ = fmt.Sprint

// thingsCRD has defaults that must be quoted to read back as strings.
const thingsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things, listKind: ThingList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              a: {type: string, default: "yes"}
              b: {type: string, default: "1.0"}
              c: {type: string, default: "~"}
              d: {type: array, items: {type: string}, default: ["0777", "1:20", "2001-12-14", "plain"]}
              e: {type: object, default: {"on": 1, "x": 2.5}, x-kubernetes-preserve-unknown-fields: true}
              f: {type: number, default: 1.5}
              g: {type: boolean, default: false}
              list:
                type: array
                items:
                  type: object
                  properties:
                    k: {type: string}
                    "n": {type: string, default: "n"}
`

func thingsSet(t *testing.T) *schemaauto.Set {
	crds, err := schemaauto.ParseCRDs([]byte(thingsCRD))
	if err != nil {
		t.Fatal(err)
	}
	set, err := schemaauto.CompileCRDs(crds)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

const thingHead = "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\n"

// TestRewriteQuoting: defaults added to a document are written so that they read back as they
// are: strings that would read as something else are quoted.
func TestRewriteQuoting(t *testing.T) {
	set := thingsSet(t)
	got := rewriteOne(t, set, thingHead+"spec:\n  list:\n  - k: v # one\n  - {}\n")
	want := thingHead + `spec:
  list:
  - k: v # one
    "n": "n"
  - {"n": "n"}
  a: "yes"
  b: "1.0"
  c: "~"
  d:
  - "0777"
  - 1:20
  - "2001-12-14"
  - plain
  e:
    "on": 1
    x: 2.5
  f: 1.5
  g: false
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestRewriteMap: the decoder's map output gives the same YAML, new members in name order.
func TestRewriteMap(t *testing.T) {
	set := thingsSet(t)
	in := thingHead + "spec: # the spec\n  zz: 1\n  list: [{k: v}]\n"
	doc, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	m, err := must(decoder.New(set)).DecodeMapSource(doc.Source())
	if err != nil {
		t.Fatal(err)
	}
	n, err := doc.RewriteMap(m)
	if err != nil {
		t.Fatal(err)
	}
	out, err := AppendNode(nil, n)
	if err != nil {
		t.Fatal(err)
	}
	want := thingHead + `spec: # the spec
  list: [{k: v, "n": "n"}]
  a: "yes"
  b: "1.0"
  c: "~"
  d:
    - "0777"
    - 1:20
    - "2001-12-14"
    - plain
  e:
    "on": 1
    x: 2.5
  f: 1.5
  g: false
`
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// TestRewriteNode rewrites a node the caller parsed.
func TestRewriteNode(t *testing.T) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("a: 1 # one\nb: [x, y]\nc: {d: e}\n"), &n); err != nil {
		t.Fatal(err)
	}
	out, err := RewriteNode(&n, []byte(`{"a":1,"c":{"d":"e","f":"yes"},"g":null}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := AppendNode(nil, out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "a: 1 # one\nc: {d: e, f: \"yes\"}\ng: null\n"; string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if _, err := RewriteNode(&n, []byte(`{"a":`)); err == nil {
		t.Error("bad JSON accepted")
	}
}

// TestRewriteNodeNumbers: new numbers are written so that the Kubernetes YAML path reads them back
// as the same JSON value, in the plainest form that does: integral floats as "1.0", floats beyond
// int64 in exponent form.
func TestRewriteNodeNumbers(t *testing.T) {
	out, err := RewriteNode(&yaml.Node{Kind: yaml.DocumentNode}, []byte(`{"a":1.0,"b":-0.0,"c":2.50,"d":1e3,"e":12345678901234567890,"f":1e20,"g":7,"h":1e-7}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := AppendNode(nil, out)
	if err != nil {
		t.Fatal(err)
	}
	want := "a: 1.0\nb: -0.0\nc: 2.5\nd: 1000.0\ne: 1.2345678901234567e+19\nf: 1e+20\ng: 7\nh: 1e-7\n"
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	doc, err := Parse(got)
	if err != nil {
		t.Fatal(err)
	}
	back, err := AppendJSON(nil, doc.Source())
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":1,"b":0,"c":2.5,"d":1000,"e":12345678901234567000,"f":100000000000000000000,"g":7,"h":1e-7}`; string(back) != want {
		t.Errorf("read back as %s, want %s", back, want)
	}
}
