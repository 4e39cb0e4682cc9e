package fuzz

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Seed corpora, added with f.Add by each target (go test runs them as
// regular tests; go test -fuzz starts from them).

const widgetTM = `"apiVersion":"example.com/v1","kind":"Widget"`

// widgetDocs are Widget custom resources that reach every rule of the
// decoder: unknown fields at every level, duplicates (fast and slow path),
// nulls, defaults, ObjectMeta in its common and uncommon shapes, embedded
// resources, preserve-unknown-fields, additionalProperties, int-or-string,
// odd names and numbers.
var widgetDocs = []string{
	`{` + widgetTM + `}`,
	`{` + widgetTM + `,"metadata":{"name":"w","namespace":"default","labels":{"app":"demo"},"garbage":45},"spec":{"replicas":3,"name":"demo","hostNetwork":true,"list":[{"x":"a","extra":"b"}],"mapOfObj":{"k1":{"y":"kept","z":"dropped"}},"preserved":{"anything":"goes","known":{"k":"v","extra":"dropped"}},"embedded":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","bogus":1},"data":{"a":"b"}},"intOrString":8080},"status":{"phase":"Ready","surprise":true}}`,
	`{` + widgetTM + `,"spec":{"replicas":1,"replicas":2,"foo":{"a":1,"a":2},"foo":3}}`,
	`{` + widgetTM + `,"spec":{"nonNullable":null,"nullableField":null,"defaulted":null,"nullableDefaulted":null,"labelsLike":{"a":null},"anyVal":null,"strList":[null,"x"]}}`,
	`{` + widgetTM + `,"spec":{"obj":{"inner":"i","deep":{"leaf":"l","x":1},"y":[1,{"z":2}]}}}`,
	`{` + widgetTM + `,"spec":{"a.b":"1","a[0]":"2","ключ":"3","":"empty","a\"b":4,"\u0000":5,"tab\there":6}}`,
	`{` + widgetTM + `,"spec":{"embeddedStrict":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"b"},"x":1},"spec":{"a":"1","b":"2"},"other":1}}}`,
	`{` + widgetTM + `,"spec":{"embeddedList":[{"apiVersion":"v1","kind":"A","metadata":null},{"kind":"B","metadata":{"finalizers":["f"],"ownerReferences":[{"uid":"u","extra":1},null]}}],"embeddedMap":{"k.1":{"apiVersion":"a/v1","kind":"M","metadata":{"zz":1}}}}}`,
	`{` + widgetTM + `,"spec":{"embedded":{"apiVersion":5,"kind":{}}}}`,
	`{` + widgetTM + `,"spec":{"embedded":{"metadata":{"name":5}}}}`,
	`{` + widgetTM + `,"metadata":{"name":5}}`,
	`{` + widgetTM + `,"metadata":"x"}`,
	`{` + widgetTM + `,"metadata":null}`,
	`{` + widgetTM + `,"metadata":{"creationTimestamp":"2020-01-01T01:02:03.999+02:00","deletionTimestamp":null,"deletionGracePeriodSeconds":0,"generation":2.0,"annotations":{"a":null},"finalizers":[],"labels":null}}`,
	`{` + widgetTM + `,"metadata":{"managedFields":[{"manager":"m","operation":"Update","time":"2021-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{".":{},"f:x":{}},"n":1.5e3},"bogus":1}],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","controller":true,"blockOwnerDeletion":null}]}}`,
	`{` + widgetTM + `,"metadata":{"generation":1.5}}`,
	`{` + widgetTM + `,"metadata":{"creationTimestamp":"yesterday"}}`,
	`{` + widgetTM + `,"spec":{"replicas":1e400}}`,
	`{` + widgetTM + `,"spec":{"ratio":1e-400,"replicas":-0,"n":9223372036854775808,"m":-0.0,"big":123456789012345678901234567890}}`,
	`{` + widgetTM + `,"spec":{"preservedList":[{"k":"v","other":1,"nested":[{"a":1}]}],"apTrue":{"a":{"b":1},"c":[{"d":2}],"e":3}}}`,
	`{` + widgetTM + `,"spec":{"anyVal":{"deep":{"deeper":[1,2,{"x":null}]}},"intOrString":"80%"}}`,
	`{` + widgetTM + `,"spec":{"list":{"x":"not an array"},"strList":"not an array","obj":[{"inner":"x"}],"labelsLike":[1]}}`,
	`{"APIVersion":"a/b/c",` + widgetTM + `}`,
	`{` + widgetTM + `,"Kind":5}`,
	`{"apiVersion":"example.com/v2","kind":"Widget","spec":{"a":1},"metadata":{"name":"x"}}`,
	`{"apiVersion":"Example.com/v1","kind":"Widget","spec":{"a":1}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"b"},"metadata":{"name":"x","y":1}}`,
	`{"apiVersion":"example.com/v1"}`,
	`{"kind":"Widget","apiVersion":"example.com/v1","kind":"Widget","spec":{}}`,
	"\n\t {\r\n" + widgetTM + " ,\"spec\" : { \"name\" : \"x\" } }\n",
	`{` + widgetTM + `,"spec":{"name":"\ud83d\ude00 \u00e9 \\ \/ \b\f\n\r\t"}}`,
	`{` + widgetTM + `,"status":{"phase":"x","phase":"y","z":null}}`,
	`{` + widgetTM + `,"spec":{"a":1},"spec":{"b":2}}`,
	`{` + widgetTM + `,"metadata":{"name":"a"},"metadata":{"name":"b","name":"c"}}`,
}

// kepDocs are the documents of the pruning KEP's eleven worked examples
// (spec 000), as Widgets.
var kepDocs = []string{
	`{"foo":42,"json":{"bar":43}}`,
	`{"foo":{"abc":42},"json":{"bar":43}}`,
	`{"foo":{"bar":{"abc":42},"def":43},"json":{"ghi":44}}`,
	`{"foo":{"abc":{"x":42},"def":{"y":43}},"json":{"ghi":44}}`,
	`{"foo":42,"json":{"bar":{"abc":43},"def":44}}`,
	`{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`,
	`{"foo":42,"object":{"bar":43,"abc":44,"metadata":{"name":"example","garbage":45}}}`,
	`{"metadata":{"name":"example","garbage":43},"foo":42}`,
}

// kepSchemas are the schemas of the KEP's examples (spec 000), with the
// document each example prunes.
var kepSchemas = []struct{ schema, doc string }{
	{`{"type":"object"}`, `{"foo":42,"json":{"bar":43}}`},
	{`{"type":"object","properties":{"foo":{"type":"object"}}}`, `{"foo":{"abc":42},"json":{"bar":43}}`},
	{`{"type":"object","properties":{"foo":{"type":"object","properties":{"bar":{"type":"object"}}}}}`, `{"foo":{"bar":{"abc":42},"def":43},"json":{"ghi":44}}`},
	{`{"type":"object","properties":{"foo":{"type":"object","additionalProperties":{"type":"object"}}}}`, `{"foo":{"abc":{"x":42},"def":{"y":43}},"json":{"ghi":44}}`},
	{`{"type":"object","properties":{"foo":{"type":"object","additionalProperties":false}}}`, `{"foo":{"abc":{"x":42},"def":{"y":43}},"json":{"ghi":44}}`},
	{`{"type":"object","properties":{"json":{"x-kubernetes-preserve-unknown-fields":true,"nullable":true}}}`, `{"foo":42,"json":{"bar":43}}`},
	{`{"type":"object","properties":{"json":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"nullable":true,"properties":{"bar":{"type":"object"}}}}}`, `{"foo":42,"json":{"bar":{"abc":43},"def":44}}`},
	{`{"type":"object","properties":{"json":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"nullable":true,"properties":{"bar":{"type":"object","properties":{"inner":{"type":"integer"}}}}}}}`, `{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`},
	{`{"type":"object","properties":{"json":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"nullable":true,"additionalProperties":{"type":"object"}}}}`, `{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`},
	{`{"type":"object","properties":{"object":{"type":"object","nullable":true,"x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}`, `{"foo":42,"object":{"bar":43,"abc":44,"metadata":{"name":"example","garbage":45}}}`},
	{`{"type":"object"}`, `{"metadata":{"name":"example","garbage":43},"foo":42}`},
}

// kepWidgetDocs are the KEP documents as Widgets, at the root and in spec.
func kepWidgetDocs() []string {
	var out []string
	for _, d := range kepDocs {
		out = append(out, `{`+widgetTM+`,`+d[1:], `{`+widgetTM+`,"spec":`+d+`}`)
	}
	return out
}

// exampleDocs are the custom resources of examples/, as JSON.
func exampleDocs(tb testing.TB) [][]byte {
	var out [][]byte
	files, _ := filepath.Glob(filepath.Join(exampleDir, "*.yaml"))
	for _, f := range files {
		if strings.HasSuffix(f, "-crd.yaml") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		j, err := yamlToJSON(data)
		if err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		out = append(out, j)
	}
	return out
}

// corpusCRs returns, as JSON, up to perCRD custom resources of each corpus
// CRD the fixture compiled, and up to other resources of other CRDs (kinds
// the set does not serve). Nil when the corpus is absent.
func corpusCRs(tb testing.TB, fx *fixture, perCRD, other int) [][]byte {
	data, err := os.ReadFile(filepath.Join(sharedDir, "corpus/index.json"))
	if err != nil {
		return nil
	}
	var index struct {
		CRs []struct {
			File string `json:"file"`
			CRD  string `json:"crd"`
		} `json:"crs"`
	}
	if err := json.Unmarshal(data, &index); err != nil {
		tb.Fatalf("corpus index: %v", err)
	}
	sort.Slice(index.CRs, func(i, j int) bool { return index.CRs[i].File < index.CRs[j].File })
	count := map[string]int{}
	nOther := 0
	var out [][]byte
	for _, cr := range index.CRs {
		if fx.crdFiles[cr.CRD] {
			if count[cr.CRD] >= perCRD {
				continue
			}
			count[cr.CRD]++
		} else {
			if nOther >= other || count[cr.CRD] > 0 {
				continue // one per other CRD
			}
			count[cr.CRD]++
			nOther++
		}
		data, err := os.ReadFile(filepath.Join(sharedDir, "corpus", cr.File))
		if err != nil {
			continue
		}
		j, err := yamlToJSON(data)
		if err != nil {
			continue
		}
		out = append(out, j)
	}
	return out
}

// suiteDir is JSONTestSuite's test_parsing folder.
var suiteDir = filepath.Join(sharedDir, "testdata/JSONTestSuite/test_parsing")

// suiteFiles returns the JSONTestSuite files by name, or nil when the suite
// is absent.
func suiteFiles(tb testing.TB) map[string][]byte {
	entries, err := os.ReadDir(suiteDir)
	if err != nil {
		return nil
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(suiteDir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		files[e.Name()] = data
	}
	return files
}

// sortedNames returns the keys of m, sorted.
func sortedNames(m map[string][]byte) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
