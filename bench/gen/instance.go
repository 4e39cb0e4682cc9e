package gen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
)

// Gen is a seeded generator. It is not safe for concurrent use; make one per goroutine.
type Gen struct {
	r *rand.Rand
	// MaxDepth bounds the nesting of generated instances (default 8); below it objects only
	// get their required properties and arrays stay empty.
	MaxDepth int
	// MaxNodes bounds the size of one generated instance (default 400 values), after which
	// only required properties are generated.
	MaxNodes int

	nodes int
}

// New returns a generator for a seed.
func New(seed int64) *Gen {
	return &Gen{r: rand.New(rand.NewPCG(uint64(seed), 0x6a736f6e7072756e)), MaxDepth: 8, MaxNodes: 400}
}

func (g *Gen) intn(n int) int { return g.r.IntN(n) }

func (g *Gen) chance(p float64) bool { return g.r.Float64() < p }

func pick[T any](g *Gen, xs []T) T { return xs[g.r.IntN(len(xs))] }

var words = []string{"alpha", "beta", "gamma", "delta", "web", "db", "cache", "frontend", "backend", "main", "x", "prod", "a-b", "v1"}

// Instance generates an instance of a custom resource schema s (the root schema of one CRD
// version; nil for a version without a schema) with the given apiVersion and kind, as JSON text.
// The object covers properties (each present with some probability, required ones always),
// additionalProperties maps, arrays, preserve-unknown-fields subtrees (with arbitrary content),
// embedded resources (apiVersion, kind, metadata), int-or-string values, nulls for nullable
// fields, and leaves defaulted fields out or null now and then. Values follow enum, format,
// minimum/maximum and length bounds where given ("valid-ish": patterns are not followed).
func (g *Gen) Instance(s *Schema, apiVersion, kind string) []byte {
	return g.InstanceNode(s, apiVersion, kind).Write()
}

// InstanceNode is Instance returning the tree.
func (g *Gen) InstanceNode(s *Schema, apiVersion, kind string) *Node {
	g.nodes = 0
	root := Obj("apiVersion", Str(apiVersion), "kind", Str(kind), "metadata", g.metadata(true))
	if s != nil {
		g.fillObject(root, s, 1, true)
	}
	return root
}

// metadata generates an ObjectMeta.
func (g *Gen) metadata(root bool) *Node {
	m := Obj("name", Str(pick(g, words)+"-"+strconv.Itoa(g.intn(100))))
	if root && g.chance(0.5) {
		m.Members = append(m.Members, Member{Key: `"namespace"`, Value: Str("default")})
	}
	if g.chance(0.5) {
		m.Members = append(m.Members, Member{Key: `"labels"`, Value: Obj("app", Str(pick(g, words)), "app.kubernetes.io/part-of", Str("gen"))})
	}
	if g.chance(0.3) {
		m.Members = append(m.Members, Member{Key: `"annotations"`, Value: Obj("example.com/note", Str("generated"))})
	}
	return m
}

// value generates a value for schema s at the given depth.
func (g *Gen) value(s *Schema, depth int) *Node {
	g.nodes++
	if s == nil {
		return g.anyValue(depth)
	}
	if s.Nullable && g.chance(0.1) {
		return NullNode()
	}
	if len(s.Enum) > 0 {
		var lit json.RawMessage = pick(g, s.Enum)
		if n, err := Parse(lit); err == nil {
			return n
		}
	}
	if s.Embedded {
		o := Obj("apiVersion", Str(pick(g, []string{"v1", "example.com/v1", "apps/v1"})),
			"kind", Str(pick(g, []string{"ConfigMap", "Thing", "Deployment"})), "metadata", g.metadata(false))
		g.fillObject(o, s, depth, true)
		return o
	}
	if s.IntOrString {
		if g.chance(0.5) {
			return Int(int64(g.intn(100)))
		}
		return Str(strconv.Itoa(g.intn(100)) + "%")
	}
	switch s.Type {
	case "object":
		o := Obj()
		g.fillObject(o, s, depth, false)
		return o
	case "array":
		a := Arr()
		n := g.intn(4)
		if s.MinItems != nil && int64(n) < *s.MinItems {
			n = int(min(*s.MinItems, 5))
		}
		if s.MaxItems != nil && int64(n) > *s.MaxItems {
			n = int(*s.MaxItems)
		}
		if depth >= g.MaxDepth || g.nodes >= g.MaxNodes {
			n = 0
		}
		for i := range n {
			e := g.value(s.Items, depth+1)
			if s.Items != nil && len(s.ListMapKeys) > 0 && e.Kind == Object {
				// list-map keys must be unique: give each element its own.
				for _, k := range s.ListMapKeys {
					if p := s.Items.Properties[k]; p != nil && p.Type == "string" {
						setMember(e, k, Str(k+"-"+strconv.Itoa(i)))
					} else if p != nil && p.Type == "integer" {
						setMember(e, k, Int(int64(i)))
					}
				}
			}
			a.Elems = append(a.Elems, e)
		}
		if s.Preserve && s.Items == nil && g.chance(0.5) {
			a.Elems = append(a.Elems, g.anyValue(depth+1))
		}
		return a
	case "string":
		return Str(g.stringFor(s))
	case "integer":
		lo, hi := int64(0), int64(10)
		if s.Minimum != nil {
			lo = int64(*s.Minimum)
			hi = lo + 10
		}
		if s.Maximum != nil && int64(*s.Maximum) < hi {
			hi = int64(*s.Maximum)
		}
		if hi < lo {
			hi = lo
		}
		return Int(lo + int64(g.intn(int(hi-lo)+1)))
	case "number":
		return Num(pick(g, []string{"0.5", "1.5", "2", "3.25", "100"}))
	case "boolean":
		return BoolNode(g.chance(0.5))
	}
	// No type: preserve-unknown-fields (anything) or an untyped node.
	if s.Preserve {
		o := g.anyValue(depth)
		if o.Kind == Object && len(s.Properties) > 0 {
			g.fillObject(o, s, depth, false)
		}
		return o
	}
	return g.anyValue(depth)
}

func (g *Gen) stringFor(s *Schema) string {
	switch s.Format {
	case "date-time":
		return "2024-01-02T03:04:05Z"
	case "date":
		return "2024-01-02"
	case "int-or-string":
		return "80"
	case "byte":
		return "aGVsbG8="
	case "duration":
		return "30s"
	case "uri", "url":
		return "https://example.com/x"
	case "email":
		return "a@example.com"
	case "ipv4":
		return "10.0.0.1"
	case "uuid":
		return "0b6e3c1e-3b5a-4b5e-8e0a-2a6f1c1d2e3f"
	}
	w := pick(g, words)
	if s.MinLength != nil {
		for int64(len(w)) < *s.MinLength {
			w += "x"
		}
	}
	if s.MaxLength != nil && int64(len(w)) > *s.MaxLength {
		w = w[:*s.MaxLength]
	}
	return w
}

// fillObject adds the properties of s (and some additionalProperties entries) to o. At a
// resource (root or embedded) apiVersion/kind/metadata are already there and skipped.
func (g *Gen) fillObject(o *Node, s *Schema, depth int, resource bool) {
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	budget := depth < g.MaxDepth && g.nodes < g.MaxNodes
	for _, k := range s.Names {
		if resource && (k == "apiVersion" || k == "kind" || k == "metadata") {
			continue
		}
		p := s.Properties[k]
		if !required[k] && (!budget || !g.chance(0.7)) {
			continue
		}
		if p.Default != nil && !required[k] {
			switch {
			case g.chance(0.3):
				continue // let defaulting add it
			case g.chance(0.1):
				setMember(o, k, NullNode())
				continue
			}
		}
		setMember(o, k, g.value(p, depth+1))
	}
	if s.AdditionalProperties != nil && budget {
		for i := range g.intn(3) {
			k := pick(g, []string{"k", "key", "entry", "a.b", "x-y"}) + strconv.Itoa(i)
			var v *Node
			if s.APBool {
				// Object values (also inside arrays) would be emptied by pruning: keep to
				// scalars here; the additional-properties-object mutation adds objects.
				v = g.scalarValue()
			} else {
				v = g.value(s.AdditionalProperties, depth+1)
			}
			setMember(o, k, v)
		}
	}
	if s.Preserve && len(s.Properties) == 0 && s.AdditionalProperties == nil && budget && g.chance(0.7) {
		for i := range 1 + g.intn(3) {
			setMember(o, fmt.Sprintf("free%d", i), g.anyValue(depth+1))
		}
	}
}

// anyValue generates arbitrary JSON (for preserve-unknown-fields subtrees).
func (g *Gen) anyValue(depth int) *Node {
	g.nodes++
	k := g.intn(8)
	if depth >= g.MaxDepth || g.nodes >= g.MaxNodes {
		k = g.intn(5)
	}
	if k < 5 {
		return g.anyValueOf(k)
	}
	switch k {
	case 5:
		a := Arr()
		for range g.intn(3) {
			a.Elems = append(a.Elems, g.anyValue(depth+1))
		}
		return a
	default:
		o := Obj()
		for i := range g.intn(4) {
			setMember(o, pick(g, words)+strconv.Itoa(i), g.anyValue(depth+1))
		}
		return o
	}
}

// anyValueOf returns scalar kind k (0-4).
func (g *Gen) anyValueOf(k int) *Node {
	switch k {
	case 0:
		return Str(pick(g, words))
	case 1:
		return Int(int64(g.intn(1000)))
	case 2:
		return Num(pick(g, []string{"1.5", "-2", "0", "1e3", "0.25"}))
	case 3:
		return BoolNode(g.chance(0.5))
	}
	return NullNode()
}

// scalarValue is a random scalar.
func (g *Gen) scalarValue() *Node {
	g.nodes++
	return g.anyValueOf(g.intn(5))
}

// setMember sets key k of object o (replacing the last member with that name, or appending).
func setMember(o *Node, k string, v *Node) {
	for i := len(o.Members) - 1; i >= 0; i-- {
		if o.Members[i].Name() == k {
			o.Members[i].Value = v
			return
		}
	}
	o.Members = append(o.Members, Member{Key: Quote(k), Value: v})
}
