package schemaauto

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

const lazyCRDs = `apiVersion: apiextensions.k8s.io/v1
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
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
  - name: v2
    served: false
    storage: false
    schema:
      openAPIV3Schema:
        type: object
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: bars.example.com
spec:
  group: example.com
  names:
    kind: Bar
    plural: bars
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          a: {}
`

// lazySources indexes lazyCRDs and counts the loads.
func lazySources(t *testing.T, loads *atomic.Int32) []CRDSource {
	data := []byte(lazyCRDs)
	ix, _, ok := IndexCRDs(data)
	if !ok || len(ix) != 2 {
		t.Fatalf("index: %v, %d CRDs", ok, len(ix))
	}
	var srcs []CRDSource
	for _, e := range ix {
		srcs = append(srcs, CRDSource{CRD: e.CRD, Where: "crds.yaml", Load: func() (*CRD, error) {
			loads.Add(1)
			cs, err := ParseCRDs(data[e.Start:e.End])
			if err != nil {
				return nil, err
			}
			return cs[0], nil
		}})
	}
	return srcs
}

func TestLazySet(t *testing.T) {
	var loads atomic.Int32
	var reported []error
	var mu sync.Mutex
	set, err := NewLazySet(lazySources(t, &loads), func(err error) { mu.Lock(); reported = append(reported, err); mu.Unlock() })
	if err != nil {
		t.Fatal(err)
	}
	if len(set.CRDs()) != 2 || loads.Load() != 0 {
		t.Fatalf("%d CRDs, %d loads before any use", len(set.CRDs()), loads.Load())
	}
	// many workers at once: one load
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, e, err := set.Resolve("example.com/v1", "Foo")
			if a == nil || e == nil || err != nil || e.GVK.Kind != "Foo" {
				t.Errorf("Resolve: %v %v %v", a, e, err)
			}
		}()
	}
	wg.Wait()
	if loads.Load() != 1 {
		t.Errorf("%d loads of one CRD", loads.Load())
	}
	// as the eager set resolves: a version the CRD does not list, an
	// unknown kind
	if a, e, err := set.Resolve("example.com/v9", "Foo"); a == nil || e != nil || err != nil {
		t.Errorf("unlisted version: %v %v %v", a, e, err)
	}
	if a, e, err := set.Resolve("other.com/v1", "Foo"); a != nil || e != nil || err != nil {
		t.Errorf("unknown: %v %v %v", a, e, err)
	}
	if e, ok := set.Lookup("example.com/v2", "Foo"); !ok || e.Version.Served {
		t.Errorf("Lookup v2: %v %v", e, ok)
	}
	// no lock, no allocation after the first use
	if n := testing.AllocsPerRun(100, func() { set.Resolve("example.com/v1", "Foo") }); n != 0 {
		t.Errorf("Resolve allocates %v times", n)
	}
	// a CRD that does not compile: the error of its objects, reported once
	for range 3 {
		a, e, err := set.Resolve("example.com/v1", "Bar")
		var ce *CRDError
		if a == nil || e == nil || !errors.As(err, &ce) || ce.CRD != "bars.example.com" || !strings.HasPrefix(err.Error(), "crds.yaml: ") {
			t.Errorf("Bar: %v %v %v", a, e, err)
		}
	}
	if len(reported) != 1 {
		t.Errorf("reported %d times", len(reported))
	}
	if err := set.CompileAll(); err == nil || len(set.Entries()) != 2 {
		t.Errorf("CompileAll: %v, %d entries", err, len(set.Entries()))
	}
}

func TestLazySetDuplicate(t *testing.T) {
	var loads atomic.Int32
	srcs := lazySources(t, &loads)
	_, err := NewLazySet(append(srcs, srcs[0]), nil)
	if err == nil || !strings.Contains(err.Error(), "example.com/v1, Kind=Foo is served by another CustomResourceDefinition too") {
		t.Errorf("got %v", err)
	}
}

func TestLazySetCacheLimit(t *testing.T) {
	var loads atomic.Int32
	srcs := lazySources(t, &loads)
	srcs[1] = srcs[0]
	srcs[1].CRD = shellCopy(srcs[0].CRD, "Baz")
	load := srcs[0].Load
	srcs[1].Load = func() (*CRD, error) {
		c, err := load()
		if err == nil {
			c.Kind = "Baz"
		}
		return c, err
	}
	set, err := NewLazySet(srcs, nil)
	if err != nil {
		t.Fatal(err)
	}
	set.SetCacheLimit(1) // one compiled CRD at a time
	for i, kind := range []string{"Foo", "Baz", "Foo", "Foo", "Baz"} {
		if a, e, err := set.Resolve("example.com/v1", kind); a == nil || e == nil || err != nil || e.GVK.Kind != kind {
			t.Fatalf("%d %s: %v %v %v", i, kind, a, e, err)
		}
	}
	if loads.Load() != 4 || set.Evictions() != 3 {
		t.Errorf("%d loads, %d evictions; want 4, 3", loads.Load(), set.Evictions())
	}
}

func shellCopy(c *CRD, kind string) *CRD {
	s := *c
	s.Kind = kind
	return &s
}

func TestLazySetPrefetch(t *testing.T) {
	var loads atomic.Int32
	set, err := NewLazySet(lazySources(t, &loads), nil)
	if err != nil {
		t.Fatal(err)
	}
	set.Prefetch("example.com/v1", "Foo")
	set.Prefetch("example.com/v1", "Foo")
	set.Prefetch("other.com/v1", "Foo") // served by none: nothing
	set.Prefetch("a/b/c", "Foo")        // malformed: nothing
	if a, _, err := set.Resolve("example.com/v1", "Foo"); a == nil || err != nil {
		t.Fatalf("Resolve: %v %v", a, err)
	}
	if loads.Load() != 1 {
		t.Errorf("%d loads", loads.Load())
	}
	set.SetPrefetch(0)
	set.Prefetch("example.com/v1", "Bar")
	if loads.Load() != 1 {
		t.Errorf("prefetch off: %d loads", loads.Load())
	}
}

// TestDropRawCorpus: Validate gives the same violations, in the same
// order, once dropRaw has replaced the schemas as read by tokens, on every
// CRD of the corpus and on CRDs whose versions' schemas differ or agree.
func TestDropRawCorpus(t *testing.T) {
	check := func(where string, data []byte) {
		crds, err := ParseCRDs(data)
		if err != nil {
			return
		}
		for _, c := range crds {
			want, top := c.Validate(), c.topLevelSchema()
			for range 2 { // a CRD compiled again gets dropRaw again
				dropRaw(c)
				if got := c.Validate(); !reflect.DeepEqual(got, want) || c.topLevelSchema() != top {
					t.Errorf("%s: %s: after dropRaw: %v (top-level %v), want %v (%v)", where, c.Name, got, c.topLevelSchema(), want, top)
				}
			}
		}
	}
	same := strings.Replace(lazyCRDs, "        type: object\n---", "        type: object\n        properties:\n          spec: {type: object, properties: {size: {type: integer}}}\n---", 1)
	// the status-subresource rule on the root schema (minProperties is not
	// allowed there, nor a type other than object), and versions whose
	// schemas differ only where the server's internal form does not
	// (empty lists, false, "": the same schema, hoisted)
	status := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema: {type: object, minProperties: 1, enum: [], nullable: false, description: ""}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema: {type: object, minProperties: 1.0}
  - name: v3
    served: true
    storage: false
    subresources: {status: {}}
    schema:
      openAPIV3Schema: {type: array, items: {type: string}}
`
	crds, err := ParseCRDs([]byte(status))
	if err != nil {
		t.Fatal(err)
	}
	if v := crds[0].Validate(); len(v) < 2 || !strings.Contains(v.Error(), "only [Description") || !strings.Contains(v.Error(), `only "object" is allowed`) {
		t.Errorf("status rule: %v", v)
	}
	check("status", []byte(status))
	for name, text := range map[string]string{"different": lazyCRDs, "same": same} {
		crds, err := ParseCRDs([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if top := crds[0].topLevelSchema(); top != (name == "same") {
			t.Fatalf("%s: top-level %v", name, top)
		}
		check(name, []byte(text))
	}
	if testing.Short() {
		return
	}
	for _, f := range corpusCRDFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		check(f, data)
	}
}
