package schemaauto

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// shellOf is what the index reads of a parsed CRD.
func shellOf(c *CRD) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s %s %s", c.APIVersion, c.Name, c.Group, c.Kind, c.Plural)
	for _, v := range c.Versions {
		fmt.Fprintf(&b, " [%s %v %v]", v.Name, v.Served, v.Storage)
	}
	return b.String()
}

// checkIndex compares IndexCRDs with ParseCRDs on data; it returns false
// when the index gave up.
func checkIndex(t *testing.T, name string, data []byte) bool {
	t.Helper()
	ix, _, ok := IndexCRDs(data)
	if !ok {
		return false
	}
	var got []string
	for _, e := range ix {
		got = append(got, shellOf(e.CRD))
		cs, err := ParseCRDs(data[e.Start:e.End])
		if err != nil || len(cs) != 1 || shellOf(cs[0]) != shellOf(e.CRD) {
			t.Errorf("%s: document [%d:%d] parses to %v, %v; indexed %s", name, e.Start, e.End, cs, err, shellOf(e.CRD))
		}
	}
	crds, err := ParseCRDs(data)
	if err != nil {
		return true // documents of other kinds
	}
	var want []string
	for _, c := range crds {
		want = append(want, shellOf(c))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: indexed\n%s\nparsed\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	return true
}

// TestIndexCorpus: the index of every corpus CRD is what the parser reads,
// and the index reads (nearly) all of them without giving up.
func TestIndexCorpus(t *testing.T) {
	files := corpusCRDFiles(t)
	gaveUp := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !checkIndex(t, f, data) {
			gaveUp++
			t.Logf("index gave up on %s", f)
		}
	}
	if gaveUp*20 > len(files) {
		t.Errorf("the index gave up on %d of %d files", gaveUp, len(files))
	}
}

func TestIndexCRDs(t *testing.T) {
	const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com # comment
  labels: {a: b}
spec:
  group: "example.com"
  names:
    kind: Foo
    plural: 'foos'
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        description: |
          kind: Bar
          group: other
  -   name: v2
      served: yes
      storage: true
      additionalPrinterColumns:
      - name: x
        jsonPath: .x
`
	other := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nspec:\n  version: 1\n"
	for _, c := range []struct {
		name, data string
		ok         bool
		crds       int
	}{
		{"one", crd, true, 1},
		{"two", crd + "---\n" + strings.Replace(crd, "Foo", "Bar", 1) + "...\n", true, 2},
		{"mixed", "# head\n---\n" + other + "---\n" + crd + "---\n", true, 1},
		{"flow", strings.Replace(crd, "  names:\n    kind: Foo\n    plural: 'foos'\n", "  names: {kind: Foo, plural: foos}\n", 1), false, 0},
		{"v1beta1", strings.Replace(crd, "apiextensions.k8s.io/v1\n", "apiextensions.k8s.io/v1beta1\n", 1), false, 0},
		{"list", "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(crd, "\n", "\n  "), false, 0},
		{"anchor", strings.Replace(crd, "group: \"example.com\"", "group: &g example.com", 1), false, 0},
		{"bool name", strings.Replace(crd, "name: v1\n", "name: on\n", 1), false, 0},
		{"multi-line", strings.Replace(crd, "group: \"example.com\"", "group: example\n    .com", 1), false, 0},
		{"duplicate", strings.Replace(crd, "  scope: Namespaced\n", "  group: other.com\n", 1), false, 0},
		{"template", "{{- if .Values.crds }}\n" + crd + "{{- end }}\n", false, 0},
		{"tab", strings.Replace(crd, "  scope", "\tscope", 1), false, 0},
		{"crlf", strings.ReplaceAll(crd, "\n", "\r\n"), true, 1},
		// a lone carriage return breaks the line for YAML (found by
		// FuzzIndexCRDs: "x: 1\r    served: true" is two lines, the
		// second not in x's value)
		{"lone carriage return", strings.Replace(crd, "name: v1\n", "name: v1\n    x: 1\r", 1), false, 0},
		{"json", `{"apiVersion": "apiextensions.k8s.io/v1"}`, false, 0},
	} {
		ix, _, ok := IndexCRDs([]byte(c.data))
		if ok != c.ok || len(ix) != c.crds {
			t.Errorf("%s: ok %v, %d CRDs; want %v, %d", c.name, ok, len(ix), c.ok, c.crds)
		}
		if ok {
			checkIndex(t, c.name, []byte(c.data))
		}
	}
}

// FuzzIndexCRDs: when the index does not give up, it reads what the parser
// reads, document by document and in all. (A document broken where the
// index does not look is indexed: its error is that of its first use.)
func FuzzIndexCRDs(f *testing.F) {
	f.Add([]byte(testIndexCRD))
	f.Add([]byte("---\n" + testIndexCRD + "---\napiVersion: v1\nkind: ConfigMap\n"))
	f.Add([]byte(strings.ReplaceAll(testIndexCRD, "\n", "\r\n")))
	f.Add([]byte("# c\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  group: g\n  names:\n    kind: K\n  versions:\n  - {name: v1}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, _, ok := IndexCRDs(data)
		if !ok {
			return
		}
		var got []string
		for _, e := range ix {
			got = append(got, shellOf(e.CRD))
			cs, err := ParseCRDs(data[e.Start:e.End])
			if err != nil {
				// broken where the index does not look: the error of the
				// CRD's first use (DocumentLoader)
				continue
			}
			if len(cs) != 1 || shellOf(cs[0]) != shellOf(e.CRD) {
				t.Fatalf("document [%d:%d] %q parses to %v, %v; indexed %s", e.Start, e.End, data[e.Start:e.End], cs, err, shellOf(e.CRD))
			}
		}
		crds, err := ParseCRDs(data)
		if err != nil {
			return // documents of other kinds, or a document the index skipped that does not parse
		}
		var want []string
		for _, c := range crds {
			want = append(want, shellOf(c))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("%q: indexed\n%s\nparsed\n%s", data, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

const testIndexCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  names:
    kind: Foo
    plural: foos
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: |
          kind: Bar
        properties:
          spec: {type: object}
  - name: v2
    served: false
    storage: false
`
