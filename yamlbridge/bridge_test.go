package yamlbridge

import (
	"slices"
	"strings"
	"testing"
)

// head is the start of the Widget documents of the tables.
const head = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"

// trickyCases are documents whose findings, output or fatal error are pinned exactly, with
// YAML lines and columns. Every one is also checked against its JSON twin (TestJSONTwins).
var trickyCases = []struct {
	name, yaml string
	want       outcome
}{
	{"duplicates per key with their path", head + "spec:\n  replicas: 1\n  replicas: 2\n  foo: {a: 1, a: 2}\n  foo: 3\n",
		outcome{out: widget(`"replicas":2,`), findings: []string{
			`duplicate field "spec.replicas" @6:3`,
			`duplicate field "spec.foo.a" @7:15`,
			`duplicate field "spec.foo" @8:3`,
			`unknown field "spec.foo" @7:3`,
		}}},
	{"a triple occurrence is reported once", head + "spec:\n  name: a\n  name: b\n  name: c\n",
		outcome{out: widget(`"name":"c",`), findings: []string{
			`duplicate field "spec.name" @6:3`,
		}}},
	{"merge key overridden by an explicit key", head + "base: &b {replicas: 1, name: n1}\nspec:\n  <<: *b\n  replicas: 2\n",
		outcome{out: widget(`"name":"n1","replicas":2,`), findings: []string{
			`duplicate field "spec.replicas" @7:3`,
			`unknown field "base" @4:1`,
		}}},
	{"explicit key before the merge key: the merged value wins", head + "base: &b {replicas: 1}\nspec:\n  replicas: 2\n  <<: *b\n",
		outcome{out: widget(`"replicas":1,`), findings: []string{
			`duplicate field "spec.replicas" @4:11`,
			`unknown field "base" @4:1`,
		}}},
	{"two merged maps sharing a key: the first wins", head + "a: &a {name: from-a, bogus: 1}\nb: &b {name: from-b, ratio: 1.5}\nspec:\n  <<: [*a, *b]\n",
		outcome{out: widget(`"ratio":1.5,"name":"from-a",`), findings: []string{
			`duplicate field "spec.name" @4:8`,
			`unknown field "a" @4:1`,
			`unknown field "b" @5:1`,
			`unknown field "spec.bogus" @4:22`,
		}}},
	{"merge of a merge", head + "i: &i {name: i, replicas: 1}\no: &o\n  <<: *i\n  name: o\nspec:\n  <<: *o\n",
		outcome{out: widget(`"replicas":1,"name":"o",`), findings: []string{
			`duplicate field "o.name" @7:3`,
			`duplicate field "spec.name" @7:3`,
			`unknown field "i" @4:1`,
			`unknown field "o" @5:1`,
		}}},
	{"y, yes and on keys are all true", head + "spec:\n  mapOfObj:\n    m: {y: a, \"y\": b}\n  y: 1\n  on: 2\n  n: 3\n",
		outcome{out: widget(`"mapOfObj":{"m":{"y":"b"}},`), findings: []string{
			`duplicate field "spec.true" @8:3`,
			`unknown field "spec.false" @9:3`,
			`unknown field "spec.mapOfObj.m.true" @6:9`,
			`unknown field "spec.true" @7:3`,
		}}},
	{"integral floats and other numbers", head + "spec:\n  replicas: 1.0\n  ratio: 2.50\n  strList: [1e3, 0777, 0x1F, 0o17, 0b101, 1_000, +1, -0.0, 12345678901234567890, 1e400, 1:20, 2001-12-14, .5, 1e-400]\n",
		outcome{out: widget(`"replicas":1,"ratio":2.5,"strList":[1000,511,31,15,5,1000,1,0,12345678901234567890,"1e400","1:20","2001-12-14",0.5,0],`)}},
	{"1e400 is a string", head + "spec: {name: 1e400, replicas: 1e400}\n",
		outcome{out: widget(`"name":"1e400","replicas":"1e400",`)}},
	{".inf is fatal", head + "spec: {ratio: .inf}\n",
		outcome{fatal: "json: unsupported value: +Inf @4:15"}},
	{".nan in a pruned subtree is fatal", head + "spec: {bogus: [1, .nan]}\n",
		outcome{fatal: "json: unsupported value: NaN @4:19"}},
	{"non-string keys", head + "spec:\n  labelsLike: {1: a, 0x2: b, 1.10: c, 16777217.0: d, 1e3: e, true: f, off: g}\n",
		outcome{out: widget(`"labelsLike":{"1":"a","2":"b","1.1":"c","1.6777216e+07":"d","1000":"e","true":"f","false":"g"},`)}},
	{"int and string keys colliding: a duplicate, the later wins", head + "spec:\n  labelsLike: {1: a, \"1\": b}\n",
		outcome{out: widget(`"labelsLike":{"1":"b"},`), findings: []string{
			`duplicate field "spec.labelsLike.1" @5:22`,
		}}},
	{"anchors: an unknown field at every expansion", head + "spec:\n  list: [&it {x: a, extra: 1}, *it]\n  preserved: {copy: *it}\n",
		outcome{out: widget(`"list":[{"x":"a"},{"x":"a"}],"preserved":{"copy":{"x":"a","extra":1}},`), findings: []string{
			`unknown field "spec.list[0].extra" @5:21`,
			`unknown field "spec.list[1].extra" @5:21`,
		}}},
	{"aliases as keys", head + "keys: [&r replicas]\nspec:\n  *r : 3\n",
		outcome{out: widget(`"replicas":3,`), findings: []string{
			`unknown field "keys" @4:1`,
		}}},
	{"a null key", head + "spec:\n  ~: 1\n",
		outcome{fatal: "unsupported map key of type: %!s(<nil>), key: <nil>, value: 1 @5:3"}},
	{"an integer key above MaxInt64", head + "spec:\n  labelsLike: {18446744073709551615: a}\n",
		outcome{fatal: "unsupported map key of type: uint64, key: 0xffffffffffffffff, value: \"a\" @5:16"}},
	{"a complex key", head + "spec:\n  ? {a: 1}\n  : 1\n",
		outcome{fatal: "yaml: invalid map key: map[interface {}]interface {}{\"a\":1} @5:5"}},
	{"a bad tagged scalar", head + "spec: {replicas: !!int twelve}\n",
		outcome{fatal: "yaml: cannot decode !!str `twelve` as a !!int @4:18"}},
	{"a merge of a scalar", head + "spec:\n  <<: 1\n",
		outcome{fatal: "yaml: map merge requires map or sequence of maps as the value @5:7"}},
	{"an alias containing itself", head + "spec: &s\n  <<: *s\n",
		outcome{fatal: "yaml: anchor 's' value contains itself @5:7"}},
	{"kind missing", "apiVersion: example.com/v1\nmetadata: {name: w}\n",
		outcome{fatal: "Object 'Kind' is missing in 'apiVersion: example.com/v1\nmetadata: {name: w}\n' @1:1"}},
	{"a root sequence", "- a\n",
		outcome{fatal: "couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" } @1:1"}},
	// the reference's pre-scan reads JSON marshalled from a map: names sorted, the last value of each
	{"kind overridden by a later kind", "apiVersion: example.com/v1\nkind: 5\nmetadata: {name: w}\nkind: Widget\n",
		outcome{out: `{"apiVersion":"example.com/v1","metadata":{"name":"w"},"kind":"Widget"}`,
			findings: []string{`duplicate field "kind" @4:1`}}},
	{"case variants read sorted", "apiVersion: example.com/v1\nkind: Widget\nKIND: []\nmetadata: {name: w}\nApiVersion: 5\n",
		outcome{fatal: "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string @5:1"}},
	{"a null apiVersion", "apiVersion: ~\nkind: Widget\n",
		outcome{fatal: ".apiVersion accessor error: <nil> is of the type <nil>, expected string @1:1"}},
	{"null", "--- ~\n",
		outcome{fatal: "Object 'Kind' is missing in '--- ~\n' @1:1"}},
	{"non-ASCII columns", head + "spec:\n  ключ: z\n  é: {ü: 1}\n",
		outcome{out: widget(`"ключ":"z",`), findings: []string{
			`unknown field "spec.é" @6:3`,
		}}},
	{"CRLF", "apiVersion: example.com/v1\r\nkind: Widget\r\nmetadata: {name: w}\r\nspec:\r\n  bogus: 1\r\n",
		outcome{out: widget(``), findings: []string{
			`unknown field "spec.bogus" @5:3`,
		}}},
	{"BOM", "\ufeffapiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {bogus: 1}\n",
		outcome{out: widget(``), findings: []string{
			`unknown field "spec.bogus" @4:8`,
		}}},
	{"nulls and defaults", head + "spec:\n  nonNullable: null\n  nullableField: ~\n  defaulted:\n",
		outcome{out: widget(`"nullableField":null,`)}},
	{"metadata", "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  generation: 3.0\n  labels: {a: yes, b: \"on\"}\n  bogus: 1\n",
		outcome{fatal: "json: cannot unmarshal bool into Go struct field ObjectMeta.labels of type string @4:3"}},
	{"embedded resource", head + "spec:\n  embedded:\n    apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: cm, bogus: on}\n",
		outcome{out: widget(`"embedded":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"}},`), findings: []string{
			`unknown field "spec.embedded.metadata.bogus" @8:26`,
		}}},
	{"tags on collections and scalars", head + "spec: !!map\n  list: !!seq [!!map {x: !!str 1}]\n  replicas: !!float 3\n",
		outcome{out: widget(`"list":[{"x":"1"}],"replicas":3,`)}},
	{"the non-specific tag makes a string", head + "spec: {name: ! 12, replicas: ! 3}\n",
		outcome{out: widget(`"name":"12","replicas":"3",`)}},
}

// widget is the pruned output of a Widget document of the tables with the given spec members
// (the two defaults of the CRD follow them).
func widget(spec string) string {
	return `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{` + spec + `"defaulted":"dflt","nullableDefaulted":"nd"}}`
}

func TestTricky(t *testing.T) {
	set := widgetSet()
	for _, tt := range trickyCases {
		got, _ := decodeYAML(t, set, tt.yaml)
		if got.String() != tt.want.String() {
			t.Errorf("%s:\n got %#v\nwant %#v", tt.name, got, tt.want)
		}
	}
}

// TestJSONTwins decodes every table document and its JSON twin (the bridge's token stream written
// as JSON text, duplicates and merged members in place: the same document in JSON) and checks
// that the findings have the same type, path and message, and the outputs are the same.
func TestJSONTwins(t *testing.T) {
	set := widgetSet()
	docs := []string{}
	for _, tt := range trickyCases {
		docs = append(docs, tt.yaml)
	}
	docs = append(docs, rewriteDocs()...)
	for _, y := range docs {
		doc, err := Parse([]byte(y))
		if err != nil {
			t.Fatalf("%q: %v", y, err)
		}
		got, _ := decodeYAML(t, set, y)
		twin, err := doc.Source().ReadValue()
		if err != nil {
			if got.fatal == "" || !strings.HasPrefix(got.fatal, strings.SplitN(err.Error(), " (line", 2)[0]) {
				t.Errorf("%q: the twin fails with %v, the bridge with %q", y, err, got.fatal)
			}
			continue
		}
		want := decodeJSON(set, twin)
		if got.fatal != "" || want.fatal != "" {
			// positions differ; texts too where they quote the document
			g, w := unlocated(got.fatal), unlocated(want.fatal)
			// the version/kind pre-scan of YAML reads the root's names sorted, the last value of
			// each (the reference's YAML path marshals a map); the twin's, JSON text in order
			prescan := strings.HasPrefix(g, "couldn't get version/kind") || strings.HasPrefix(w, "couldn't get version/kind")
			if g != w && !prescan && !(strings.HasPrefix(g, "Object 'Kind' is missing") && strings.HasPrefix(w, "Object 'Kind' is missing")) &&
				!strings.HasPrefix(g, "json: unsupported value") && !strings.HasPrefix(g, "unsupported map key") {
				t.Errorf("%q: fatal %q, twin %q", y, g, w)
			}
			continue
		}
		if got.out != want.out || !slices.Equal(unlocatedAll(got.findings), unlocatedAll(want.findings)) {
			t.Errorf("%q:\n got %v\ntwin %v", y, got, want)
		}
	}
}

func unlocated(s string) string {
	if i := strings.LastIndex(s, " @"); i >= 0 {
		return s[:i]
	}
	return s
}

func unlocatedAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = unlocated(s)
	}
	return out
}
