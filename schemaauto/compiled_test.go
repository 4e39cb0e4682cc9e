package schemaauto

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// richCRD has something of everything the encoding holds: defaults,
// value rules, junctors and list types (trees), an embedded resource,
// more properties than a linear scan takes (length index), a CEL rule
// (unchecked), the status and scale subresources, two versions.
const richCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: riches.example.com
spec:
  group: example.com
  names:
    kind: Rich
    plural: riches
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations: [{rule: "self.a1 > 0"}]
            required: [a1]
            properties:
              replicas: {type: integer, default: 1, minimum: 0, maximum: 1.5e3}
              a1: {type: integer, format: int32, multipleOf: 2}
              a2: {type: string, pattern: "^[a-z]+$", maxLength: 10}
              a3: {type: string, enum: [x, "y", z], default: "x"}
              a4: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
              a5: {type: number, nullable: true, exclusiveMinimum: true, minimum: 0.5}
              a6: {type: boolean}
              a7: {type: array, items: {type: string}, x-kubernetes-list-type: set, maxItems: 3}
              a8:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items: {type: object, required: [name], properties: {name: {type: string}, v: {type: string, default: dflt}}}
              a9: {type: object, additionalProperties: {type: string, minLength: 1}}
              embedded:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  metadata: {type: object, properties: {name: {type: string, maxLength: 5}}}
              one: {type: object, oneOf: [{required: [p]}, {required: [q]}], not: {required: [r]}, properties: {p: {type: string}, q: {type: string}, r: {type: string}}}
              obj: {type: object, default: {a: 1, b: [true, null, 2.5, "s"]}, x-kubernetes-preserve-unknown-fields: true}
          status: {type: object, properties: {replicas: {type: integer}}}
  - name: v2
    served: false
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
`

// simpleCRD is a small CRD that compiles.
const simpleCRD = `apiVersion: apiextensions.k8s.io/v1
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
          a: {type: string}
`

// automataEqual compares a compiled automaton with one read from the
// cache, field by field (the value rules and trees in depth: what they
// check is what they hold), and returns the first difference.
func automataEqual(want, got *Automaton) string {
	want.renderPaths()
	got.renderPaths()
	if d := flagsMatchTables(want); d != "" {
		return "compiled: " + d
	}
	switch {
	case want.root != got.root || want.meta != got.meta || want.prunes != got.prunes || want.declName != got.declName || want.rootReq != got.rootReq:
		return fmt.Sprintf("root/meta/prunes %d/%d/%v, got %d/%d/%v", want.root, want.meta, want.prunes, got.root, got.meta, got.prunes)
	case !reflect.DeepEqual(want.states, got.states):
		return "states differ"
	case !reflect.DeepEqual(want.props, got.props):
		return "props differ"
	case !reflect.DeepEqual(want.fps, got.fps):
		return "fps differ"
	case !reflect.DeepEqual(want.lenIndex, got.lenIndex):
		return "lenIndex differs"
	case len(want.nodes) != len(got.nodes):
		return "node count differs"
	case len(want.defaults) != len(got.defaults):
		return "default count differs"
	case !reflect.DeepEqual(want.rules, got.rules):
		return "rules differ"
	case !reflect.DeepEqual(want.trees, got.trees):
		return "trees differ"
	case !reflect.DeepEqual(want.unchecked, got.unchecked):
		return fmt.Sprintf("unchecked %q, got %q", want.unchecked, got.unchecked)
	}
	for i := range want.nodes {
		if want.nodes[i].Path != got.nodes[i].Path {
			return fmt.Sprintf("node %d: path %q, got %q", i, want.nodes[i].Path, got.nodes[i].Path)
		}
	}
	for i, d := range want.defaults {
		g := got.defaults[i]
		if string(d.json) != string(g.json) || (d.json == nil) != (g.json == nil) {
			return fmt.Sprintf("default %d: %s, got %s", i, d.json, g.json)
		}
		if d.json != nil && !reflect.DeepEqual(d.value, g.value) {
			return fmt.Sprintf("default %d: value %#v, got %#v", i, d.value, g.value)
		}
	}
	return ""
}

// setsEqual compares the Set CompileCRDs made of crd with one read from
// the cache: entries, their facts and automata, and the automaton of the
// versions the CRD does not list.
func setsEqual(crd *CRD, want, got *Set) string {
	if len(want.list) != len(got.list) || len(got.entries) != len(got.list) {
		return fmt.Sprintf("%d entries, got %d", len(want.list), len(got.list))
	}
	gk := groupKind{crd.Group, crd.Kind}
	if d := automataEqual(want.noSchema[gk], got.noSchema[gk]); d != "" || len(got.noSchema) != 1 {
		return "no-schema automaton: " + d
	}
	for i, w := range want.list {
		g := got.list[i]
		if got.entries[g.GVK] != g {
			return "entries map"
		}
		c := g.CRD
		if w.GVK != g.GVK || w.Skeleton != g.Skeleton || !reflect.DeepEqual(w.Violations, g.Violations) {
			return fmt.Sprintf("entry %d: %v/%v/%v, got %v/%v/%v", i, w.GVK, w.Skeleton, w.Violations, g.GVK, g.Skeleton, g.Violations)
		}
		if c.APIVersion != crd.APIVersion || c.Name != crd.Name || c.Group != crd.Group || c.Kind != crd.Kind ||
			c.Plural != crd.Plural || c.PreserveUnknownFields != crd.PreserveUnknownFields || c.shell() != crd.shell() {
			return fmt.Sprintf("entry %d: CRD %+v", i, c)
		}
		wv, gv := w.Version, g.Version
		if gv != c.Versions[i] || wv.Name != gv.Name || wv.Served != gv.Served || wv.Storage != gv.Storage ||
			wv.StatusSubresource != gv.StatusSubresource || !reflect.DeepEqual(wv.Scale, gv.Scale) || gv.Schema != nil {
			return fmt.Sprintf("entry %d: version %+v, got %+v", i, wv, gv)
		}
		if g.Scale() != gv.Scale || g.StatusSubresource() != gv.StatusSubresource || w.Scale() != wv.Scale || w.StatusSubresource() != wv.StatusSubresource {
			return fmt.Sprintf("entry %d: Scale or StatusSubresource not the version's", i)
		}
		if d := automataEqual(w.Automaton, g.Automaton); d != "" {
			return fmt.Sprintf("entry %d (%s): %s", i, w.GVK, d)
		}
	}
	return ""
}

// flagsMatchTables checks that the value flags kept in a's states and
// properties (State.ValueFlags, Prop.ValueFlags and ValueReqMask,
// DeclaresName, RootReqMask: set when a was made) are those of its value
// checks (ValueChecks, derived apart, on first use).
func flagsMatchTables(a *Automaton) string {
	checks := a.ValueChecks()
	if decl := a.DeclaredName(0) != NoState || a.DeclaredName(1) != NoState; a.DeclaresName() != decl {
		return fmt.Sprintf("DeclaresName %v, DeclaredName %v", a.DeclaresName(), decl)
	}
	if a.root >= 0 && a.RootReqMask() != checks[a.root].ReqMask {
		return fmt.Sprintf("RootReqMask %#x, table %#x", a.RootReqMask(), checks[a.root].ReqMask)
	}
	for s := range a.states {
		if got, want := a.states[s].ValueFlags(), checks[s].Flags; got != want {
			return fmt.Sprintf("state %d: ValueFlags %#x, table %#x", s, got, want)
		}
		for i := range a.Props(StateID(s)) {
			p := &a.Props(StateID(s))[i]
			t := p.Target
			if p.Role != RoleProperty {
				t = p.Declared
			}
			wantF, wantReq := uint16(0), uint32(0)
			if t >= 0 {
				wantF = checks[t].Flags
				if wantF&CheckRequiredOnly != 0 && checks[t].ReqMask < 1<<32 {
					wantReq = uint32(checks[t].ReqMask)
				}
			}
			if got := p.ValueFlags(); got != wantF {
				return fmt.Sprintf("state %d property %d: ValueFlags %#x, table %#x", s, i, got, wantF)
			}
			if got := p.ValueReqMask(); got != wantReq {
				return fmt.Sprintf("state %d property %d: ValueReqMask %#x, table %#x", s, i, got, wantReq)
			}
		}
	}
	return ""
}

// corpusDocs returns the text of every corpus CRD IndexCRDs indexes.
func corpusDocs(t *testing.T) (docs [][]byte) {
	for _, f := range corpusCRDFiles(t) {
		data := readFile(t, f)
		ix, _, ok := IndexCRDs(data)
		if !ok {
			continue
		}
		for _, e := range ix {
			docs = append(docs, data[e.Start:e.End])
		}
	}
	return docs
}

// compileDoc parses and compiles one CRD as a lazy Set does.
func compileDoc(doc []byte, options ...Option) (*CRD, *Set, error) {
	cs, err := ParseCRDs(doc)
	if err != nil {
		return nil, nil, err
	}
	dropRaw(cs[0])
	set, err := CompileCRDs(cs[:1], options...)
	return cs[0], set, err
}

func docLoader(doc []byte) func() (*CRD, error) {
	return func() (*CRD, error) { return parseOneCRD(doc) }
}

// TestCompiledCacheCorpus: every corpus CRD that compiles (without and
// with AllowSkeleton) encodes, and reads back as the Set compiled afresh:
// states, properties, fingerprints, length index, node paths, defaults
// (JSON and value), value rules and trees (in depth), unchecked notes,
// the entries' facts; the schemas it loads on first use (Entry.Schema,
// NodeInfo.Schema) are the CRD's.
func TestCompiledCacheCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	docs := corpusDocs(t)
	if len(docs) == 0 {
		t.Skip("SKIP: no corpus CRD")
	}
	for _, skel := range []bool{false, true} {
		compiled, encoded, bytes := 0, 0, 0
		for _, doc := range docs {
			crd, set, err := compileDoc(doc, AllowSkeleton(skel))
			if err != nil {
				continue
			}
			compiled++
			body, ok := encodeCompiled(crd, set)
			if !ok {
				t.Errorf("%s (skeleton %v): does not encode", crd.Name, skel)
				continue
			}
			encoded++
			bytes += len(body)
			data := append([]byte(compiledHeader(body)), body...)
			got, ok := readCompiled(data, &crdSchemas{load: docLoader(doc), options: []Option{AllowSkeleton(skel)}})
			if !ok {
				t.Errorf("%s (skeleton %v): does not read back", crd.Name, skel)
				continue
			}
			if d := setsEqual(crd, set, got); d != "" {
				t.Errorf("%s (skeleton %v): %s", crd.Name, skel, d)
				continue
			}
			// the schemas, loaded on first use
			for i, e := range got.list {
				if !reflect.DeepEqual(e.Schema(), set.list[i].Version.Schema) {
					t.Errorf("%s: Entry.Schema of %s is not the version's schema", crd.Name, e.GVK)
				}
				if !skel {
					continue
				}
				fresh := set.list[i].Automaton
				for s := range fresh.states {
					if !reflect.DeepEqual(fresh.Node(StateID(s)), e.Automaton.Node(StateID(s))) {
						t.Fatalf("%s: Node(%d) of %s differs", crd.Name, s, e.GVK)
					}
				}
			}
		}
		t.Logf("skeleton %v: %d of %d corpus CRDs compile, %d encode (%d KiB)", skel, compiled, len(docs), encoded, bytes>>10)
		if compiled < len(docs)*9/10 || encoded != compiled {
			t.Errorf("skeleton %v: %d of %d CRDs compile, %d encode", skel, compiled, len(docs), encoded)
		}
	}
}

// TestCompiledCacheCorrupt: a truncated, altered, or other-format file
// is a miss, never a panic; so is every truncation of a body, and a body
// with any byte changed reads as a miss or as an automaton whose every
// index is in range.
func TestCompiledCacheCorrupt(t *testing.T) {
	doc := []byte(richCRD)
	crd, set, err := compileDoc(doc)
	if err != nil {
		t.Fatal(err)
	}
	a := set.list[0].Automaton
	if len(a.trees) == 0 || len(a.defaults) < 4 || len(a.unchecked) == 0 || len(a.rules) < 8 || set.list[0].Version.Scale == nil {
		t.Fatalf("richCRD: %d trees, %d defaults, %d unchecked, %d rules", len(a.trees), len(a.defaults), len(a.unchecked), len(a.rules))
	}
	body, ok := encodeCompiled(crd, set)
	if !ok {
		t.Fatal("does not encode")
	}
	file := append([]byte(compiledHeader(body)), body...)
	if _, ok := readCompiled(file, &crdSchemas{load: docLoader(doc)}); !ok {
		t.Fatal("the file does not read")
	}
	for n := range len(file) {
		if _, ok := readCompiled(file[:n], &crdSchemas{}); ok {
			t.Fatalf("truncated to %d bytes: read", n)
		}
	}
	for i := range file {
		b := append([]byte(nil), file...)
		b[i] ^= 0x20
		if _, ok := readCompiled(b, &crdSchemas{}); ok {
			t.Fatalf("byte %d changed: read", i)
		}
	}
	other := strings.Replace(string(file), fmt.Sprintf("%s %d ", compiledMagic, compiledFormat), fmt.Sprintf("%s %d ", compiledMagic, compiledFormat+1), 1)
	if other == string(file) {
		t.Fatal("no format in the header")
	}
	if _, ok := readCompiled([]byte(other), &crdSchemas{}); ok {
		t.Fatal("another format: read")
	}
	// the body itself, past the hash
	for n := range len(body) {
		if _, ok := decodeCompiled(string(body[:n]), nil); ok {
			t.Fatalf("body truncated to %d bytes: read", n)
		}
	}
	for i := range body {
		for _, x := range []byte{0x01, 0x40, 0x80, 0xff} {
			b := append([]byte(nil), body...)
			b[i] ^= x
			exercise(decodeCompiled(string(b), nil))
		}
	}
}

// exercise runs what the decoder and reporting read of a Set read from a
// body: a panic fails the test.
func exercise(set *Set, ok bool) {
	if !ok {
		return
	}
	for _, e := range set.list {
		a := e.Automaton
		if len(a.states)*len(a.props) < 1<<20 { // a bad body may give every state every property
			_ = a.String()
		}
		for s := range min(len(a.states), 256) {
			id := StateID(s)
			for _, name := range []string{"", "spec", "metadata", "apiVersion", "aVeryLongPropertyNameIndeed", "x"} {
				a.Lookup(id, []byte(name))
			}
			a.Props(id)
			a.Default(id)
			a.Rules(id)
			a.Tree(id)
			a.TypeOnly(id)
			a.Node(id)
		}
		_ = e.Schema()
	}
}

// FuzzDecodeCompiled: no body makes the decoder panic, nor a Set whose
// automata read out of range.
func FuzzDecodeCompiled(f *testing.F) {
	for _, doc := range []string{richCRD, simpleCRD} {
		crd, set, err := compileDoc([]byte(doc))
		if err != nil {
			f.Fatal(err)
		}
		body, ok := encodeCompiled(crd, set)
		if !ok {
			f.Fatal("does not encode")
		}
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		exercise(decodeCompiled(string(body), nil))
	})
}

// TestCompiledCacheLazySet: a lazy Set through the cache compiles a CRD
// from its text once, then reads it compiled (no Load) in a new Set, with
// the same entries, and loads the CRD only when its schema is asked for,
// once, storing the schemas for the next Sets; writers racing on one
// entry leave a file that reads.
func TestCompiledCacheLazySet(t *testing.T) {
	dir := t.TempDir()
	data := []byte(richCRD + "---\n" + simpleCRD)
	var mu sync.Mutex
	loads := 0
	newSet := func() *Set {
		ix, _, ok := IndexCRDs(data)
		if !ok {
			t.Fatal("index")
		}
		var srcs []CRDSource
		for _, e := range ix {
			doc := data[e.Start:e.End]
			srcs = append(srcs, CRDSource{CRD: e.CRD, Cache: NewCache(dir),
				Text: func() ([]byte, error) { return doc, nil },
				Load: func() (*CRD, error) {
					mu.Lock()
					loads++
					mu.Unlock()
					return parseOneCRD(doc)
				}})
		}
		set, err := NewLazySet(srcs, func(err error) { t.Error(err) })
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	cold := newSet()
	want := cold.Entries()
	if loads != 0 {
		t.Fatalf("cold: %d loads, want none (the text is parsed)", loads)
	}
	// what a cold run holds is the Set as stored, as a warm run reads it:
	// versions without schemas, which Schema gives from the CRD compiled
	for _, e := range want {
		if e.Version.Schema != nil || e.Schema() == nil {
			t.Fatalf("cold %s: Version.Schema %p, Schema() %p: want nil and the schema", e.GVK, e.Version.Schema, e.Schema())
		}
	}
	if loads != 0 {
		t.Fatalf("cold: %d loads for the schemas, want none (the CRD compiled gives them)", loads)
	}
	// concurrent runs, all warm now, and concurrent first uses of schemas
	var wg sync.WaitGroup
	sets := make([]*Set, 8)
	for i := range sets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sets[i] = newSet()
			sets[i].Entries()
		}()
	}
	wg.Wait()
	if loads != 0 {
		t.Fatalf("warm: %d loads, want none", loads)
	}
	for _, s := range sets {
		got := s.Entries()
		if len(got) != len(want) {
			t.Fatalf("%d entries, want %d", len(got), len(want))
		}
		for i := range got {
			if d := automataEqual(want[i].Automaton, got[i].Automaton); d != "" {
				t.Fatal(d)
			}
		}
	}
	warm := sets[0].Entries()
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, e := range warm {
				e.Schema()
				e.Automaton.Node(e.Automaton.Root())
			}
		}()
	}
	wg.Wait()
	if loads != 2 {
		t.Fatalf("schemas of a warm Set: %d loads, want 2 (one per CRD)", loads)
	}
	for i, e := range warm {
		if !reflect.DeepEqual(e.Schema(), want[i].Schema()) || e.Automaton.Node(e.Automaton.Root()).Schema == nil {
			t.Fatalf("%s: schema not loaded", e.GVK)
		}
	}
	// the schemas were stored: a new Set reads them without loading
	for i, e := range newSet().Entries() {
		if !reflect.DeepEqual(e.Schema(), want[i].Schema()) {
			t.Fatalf("%s: schema not read back", e.GVK)
		}
	}
	if loads != 2 {
		t.Fatalf("schemas of a new warm Set: %d loads, want none", loads-2)
	}
	// concurrent writers of the same entry
	key := cacheKey(data)
	crd, set, err := compileDoc([]byte(simpleCRD))
	if err != nil {
		t.Fatal(err)
	}
	c := NewCache(dir)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.putCompiled(key, false, crd, set)
			c.getCompiled(key, false, nil, nil)
		}()
	}
	wg.Wait()
	if _, ok := c.getCompiled(key, false, nil, nil); !ok {
		t.Fatal("after concurrent writes: no entry")
	}
	left, _ := os.ReadDir(c.compiledPath(key, false)[:len(c.compiledPath(key, false))-len(key)-len(".auto")])
	for _, f := range left {
		if strings.HasPrefix(f.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", f.Name())
		}
	}
}

// BenchmarkLoadLargestCRD loads the largest corpus CRD (2.8 MB of YAML)
// as a warm run does: from its compiled form (header hash, decoding, the
// value rules compiled from their nodes), against the parsed-CRD cache's
// JSON parsed and compiled (what a warm run did before the compiled form)
// and the YAML parsed and compiled (cold).
func BenchmarkLoadLargestCRD(b *testing.B) {
	doc := readFile(b, filepath.Join(requireShared(b, "corpus/crds"), "..", "..", largestCRD))
	crd, set, err := compileDoc(doc)
	if err != nil {
		b.Fatal(err)
	}
	body, ok := encodeCompiled(crd, set)
	if !ok {
		b.Fatal("does not encode")
	}
	file := append([]byte(compiledHeader(body)), body...)
	c := NewCache(b.TempDir())
	if _, err := c.ParseCRD(doc); err != nil {
		b.Fatal(err)
	}
	b.Run("compiled", func(b *testing.B) {
		b.ReportAllocs()
		b.ReportMetric(float64(len(file)), "file-bytes")
		for b.Loop() {
			if _, ok := readCompiled(file, &crdSchemas{}); !ok {
				b.Fatal("miss")
			}
		}
	})
	b.Run("json+compile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, err := c.ParseCRD(doc)
			if err != nil {
				b.Fatal(err)
			}
			dropRaw(c)
			if _, err := CompileCRDs([]*CRD{c}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("yaml+compile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := compileDoc(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestSchemaEncodingCorpus: the schemas of every corpus CRD's versions
// read back from their encoding equal the parsed ones, field by field;
// every truncation of an encoding is a miss, never a panic.
func TestSchemaEncodingCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	docs := corpusDocs(t)
	if len(docs) == 0 {
		t.Skip("SKIP: no corpus CRD")
	}
	bytes := 0
	for _, doc := range docs {
		c, err := parseOneCRD(doc)
		if err != nil {
			t.Fatal(err)
		}
		body, ok := encodeSchemas(c)
		if !ok {
			t.Errorf("%s: does not encode", c.Name)
			continue
		}
		bytes += len(body)
		got, ok := decodeSchemas(string(body))
		if !ok || len(got) != len(c.Versions) {
			t.Errorf("%s: does not read back", c.Name)
			continue
		}
		for i, v := range c.Versions {
			if !reflect.DeepEqual(got[i], v.Schema) {
				t.Errorf("%s: the schema of %s differs", c.Name, v.Name)
			}
		}
	}
	t.Logf("%d CRDs: %d KiB", len(docs), bytes>>10)
}

func TestSchemaEncodingCorrupt(t *testing.T) {
	c, err := parseOneCRD([]byte(richCRD))
	if err != nil {
		t.Fatal(err)
	}
	body, ok := encodeSchemas(c)
	if !ok {
		t.Fatal("does not encode")
	}
	for n := range len(body) {
		if _, ok := decodeSchemas(string(body[:n])); ok {
			t.Fatalf("truncated to %d bytes: read", n)
		}
	}
	for i := range body {
		b := append([]byte(nil), body...)
		b[i] ^= 0x81
		decodeSchemas(string(b))
	}
}
