package schemaauto

import (
	"fmt"
	"sort"
	"strings"

	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/opts"
	"github.com/jsonprune/jsonprune/validate"
)

// Option configures compilation. It is decoder.Option, the library's one
// option type (internal/opts): the compiler reads AllowSkeleton and
// ignores the others.
type Option = opts.Option

// AllowSkeleton compiles a non-structural schema by its skeleton skel(s)
// (see Skeleton) instead of rejecting it. Kubernetes rejects such schemas;
// by default so do Compile and CompileCRDs.
func AllowSkeleton(on bool) Option { return func(c *opts.Config) { c.Skeleton = on } }

// compileOptions are the settings the compiler reads.
type compileOptions struct{ skeleton bool }

func newCompileOptions(options []Option) (compileOptions, error) {
	var c opts.Config
	err := c.Apply(options)
	return compileOptions{skeleton: c.Skeleton}, err
}

// NonStructuralError reports a schema that is not structural, with every
// violation in the reference's order and wording.
type NonStructuralError struct {
	Violations jperrors.FieldErrors
}

func (e *NonStructuralError) Error() string {
	return "schema is not structural: " + e.Violations.Error()
}

// Compile checks a bare OpenAPI v3 schema as the API server checks a CRD
// version's schema (at path "openAPIV3Schema") and compiles it into an
// automaton whose root is a resource root, with pruning on. A schema the
// server would reject gives a *NonStructuralError, unless AllowSkeleton is
// given and the schema can be pruned by its skeleton.
func Compile(s *Schema, options ...Option) (*Automaton, error) {
	co, err := newCompileOptions(options)
	if err != nil {
		return nil, err
	}
	s, _, err = structuralOrSkeleton(s, nil, co)
	if err != nil {
		return nil, err
	}
	return compile(s, false, jperrors.NewFieldPath("openAPIV3Schema"))
}

// structuralOrSkeleton returns s when the server accepts it (fp is the path
// of its CustomResourceValidation, nil for a bare schema), its skeleton
// when it does not and co.skeleton is set, and the violations otherwise.
func structuralOrSkeleton(s *Schema, fp *jperrors.FieldPath, co compileOptions) (*Schema, bool, error) {
	if s == nil {
		return nil, false, nil
	}
	errs := validateCRDSchema(s, fp, nil)
	if len(errs) == 0 {
		return s, false, nil
	}
	if !co.skeleton {
		return nil, false, &NonStructuralError{Violations: errs}
	}
	sk, err := Skeleton(s)
	if err == nil {
		dropMetaDefaults(sk)
	}
	return sk, err == nil, err
}

// compiler builds the state table. A state is a schema node in a mode: the
// reference's prune or skipPrune (preserve) walk. Preserve comes from the
// node's x-kubernetes-preserve-unknown-fields, or is inherited through
// items from a preserving parent; properties and additionalProperties
// always switch back to pruning (prune and skipPrune in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go).
type compiler struct {
	a           *Automaton
	memo        map[memoKey]StateID
	preserveAll bool // spec.preserveUnknownFields: nothing is pruned
	defaultIdx  map[*Schema]int32
	sites       []defaultSite
	err         error // the first value validation that does not compile

	// the value rules compiled once per distinct node and shared, by the
	// node's encoding (encoder.nodeBytes, compiledenc.go): the Rules are
	// read-only once compiled, and the cache's encoding shares identical
	// nodes' too; most of a CRD's nodes are a bare "type: string" or the
	// like
	shared map[string]compiledRules
	enc    encoder
}

// compiledRules is what validate.Compile returned for a node.
type compiledRules struct {
	r   *validate.Rules
	err error
}

type memoKey struct {
	s        *Schema
	preserve bool
}

// defaultSite is where a default sits: the steps from the root to its node,
// used to pre-prune the default wrapped in its surrounding object.
type defaultSite struct {
	index int32
	steps []step
	path  *jperrors.FieldPath // the schema node's path
	state StateID             // a state of the node, for nested defaults
}

// step is one step from an object or array to a child: a property name, the
// additionalProperties placeholder "*" (as the reference wraps it), or an
// array element.
type step struct {
	key   string
	index bool
}

// compile builds the automaton of a structural schema whose path is p. A nil
// root (a version without schema) admits apiVersion, kind and metadata only.
func compile(root *Schema, preserveAll bool, p *jperrors.FieldPath) (*Automaton, error) {
	c := &compiler{
		a:           &Automaton{prunes: !preserveAll},
		memo:        map[memoKey]StateID{},
		preserveAll: preserveAll,
		defaultIdx:  map[*Schema]int32{},
	}
	c.init()
	if root == nil {
		root = &Schema{}
	}
	c.a.root = c.node(root, false, true, p, nil)
	if c.err != nil {
		return nil, c.err
	}
	if err := c.pruneDefaults(); err != nil {
		return nil, err
	}
	c.a.deriveValueFlags()
	return c.a, nil
}

// init adds the states every automaton has: Drop, Keep and ObjectMeta.
func (c *compiler) init() {
	c.a.nodes = append(c.a.nodes, NodeInfo{Path: "(no schema: pruned)"}, NodeInfo{Path: "(no schema: kept)"})
	c.a.states = append(c.a.states,
		State{Types: TypeAny, Additional: NoState, Items: Drop, Default: -1, Node: 0},
		State{Types: TypeAny, Flags: Preserve, Additional: NoState, Items: Keep, Default: -1, Node: 1},
	)
	c.a.meta = buildObjectMeta(c.a)
}

// node compiles schema s (nil: no schema) in the given mode and returns its state.
func (c *compiler) node(s *Schema, inherited, root bool, p *jperrors.FieldPath, steps []step) StateID {
	if s == nil {
		if inherited || c.preserveAll {
			return Keep
		}
		return Drop
	}
	preserve := s.preserves() || inherited || c.preserveAll
	key := memoKey{s, preserve}
	if id, ok := c.memo[key]; ok && !root {
		return id
	}
	id := StateID(len(c.a.states))
	c.a.states = append(c.a.states, State{})
	if !root {
		c.memo[key] = id
	}
	c.a.nodes = append(c.a.nodes, NodeInfo{fp: p, Schema: s})
	st := State{Types: typeSet(s), Additional: NoState, Default: -1, Node: int32(len(c.a.nodes) - 1)}
	if preserve {
		st.Flags |= Preserve
	}
	embedded := s.EmbeddedResource || root
	if embedded {
		st.Flags |= Embedded
	}
	if s.Nullable {
		st.Flags |= Nullable
	}
	if err := c.rules(s, &st, p); err != nil {
		c.err = err
	}
	if s.HasDefault {
		st.Flags |= HasDefault
		st.Default = c.defaultFor(s, steps, p, id)
	}
	st.Items = c.node(s.Items, preserve, false, p.Child("items"), append(steps[:len(steps):len(steps)], step{index: true}))
	if ap := s.AdditionalProperties; ap != nil {
		st.Additional = c.node(ap.Schema, false, false, p.Child("additionalProperties"), append(steps[:len(steps):len(steps)], step{key: "*"}))
	}

	var props []Prop
	for _, k := range sortedKeys(s.Properties) {
		t := c.node(s.Properties[k], false, false, p.Child("properties").Key(k), append(steps[:len(steps):len(steps)], step{key: k}))
		props = append(props, Prop{Name: k, Target: t, Declared: NoState})
		if c.a.states[t].Flags&HasDefault != 0 {
			st.Flags |= DefaultsProps
		}
	}
	if embedded {
		props = addEmbeddedMeta(props, c.a.meta)
		if !root {
			c.embeddedMetaTree(s.Properties["metadata"], props, p)
		}
	}
	sort.Slice(props, func(i, j int) bool { return propLess(props[i].Name, []byte(props[j].Name)) })
	st.propStart = uint32(len(c.a.props))
	c.a.appendProps(props...)
	st.propEnd = uint32(len(c.a.props))
	if len(props) > linearLookupMax {
		st.lenOff = c.a.indexLengths(props)
	}
	c.a.states[id] = st
	return id
}

// embeddedMetaTree gives the declared metadata schema ms of an embedded
// resource (not the root's: its declarations are limited to name and
// generateName and checked apart) its validation tree: the walk does not
// descend into metadata (it is read whole and normalised as ObjectMeta),
// and the server validates the normalised metadata against what the
// schema declares there (a property's type, pattern, enum...).
func (c *compiler) embeddedMetaTree(ms *Schema, props []Prop, p *jperrors.FieldPath) {
	if ms == nil {
		return
	}
	for _, pr := range props {
		if pr.Role != RoleMetadata || pr.Declared <= Keep || c.a.states[pr.Declared].tree != 0 {
			continue
		}
		t, err := ms.ValidationTree()
		if err != nil {
			c.err = fmt.Errorf("%s: %w", p.Child("properties").Key("metadata"), err)
			return
		}
		c.a.trees = append(c.a.trees, t)
		c.a.states[pr.Declared].tree = uint32(len(c.a.trees))
	}
}

// addEmbeddedMeta makes apiVersion, kind and metadata of an embedded
// resource special: pruning keeps them verbatim and does not descend,
// whatever the schema declares; the declaration is kept for null pruning
// and defaulting.
func addEmbeddedMeta(props []Prop, meta StateID) []Prop {
	for _, m := range []struct {
		name   string
		role   PropRole
		target StateID
	}{{"apiVersion", RoleAPIVersion, Keep}, {"kind", RoleKind, Keep}, {"metadata", RoleMetadata, meta}} {
		found := false
		for i := range props {
			if props[i].Name == m.name {
				props[i].Declared, props[i].Target, props[i].Role = props[i].Target, m.target, m.role
				found = true
			}
		}
		if !found {
			props = append(props, Prop{Name: m.name, Target: m.target, Declared: NoState, Role: m.role})
		}
	}
	return props
}

func (c *compiler) defaultFor(s *Schema, steps []step, p *jperrors.FieldPath, id StateID) int32 {
	if i, ok := c.defaultIdx[s]; ok {
		return i
	}
	i := int32(len(c.a.defaults))
	v := deepCopy(s.Default)
	c.a.defaults = append(c.a.defaults, defaultValue{value: v})
	c.defaultIdx[s] = i
	c.sites = append(c.sites, defaultSite{index: i, steps: append([]step(nil), steps...), path: p, state: id})
	return i
}

// typeSet maps a schema's type (and nullable, int-or-string) to a TypeSet.
func typeSet(s *Schema) TypeSet {
	var t TypeSet
	switch s.Type {
	case "":
		t = TypeAny
	case "object":
		t = TypeObject
	case "array":
		t = TypeArray
	case "string":
		t = TypeString
	case "integer":
		t = TypeInteger
	case "number":
		t = TypeNumber | TypeInteger
	case "boolean":
		t = TypeBoolean
	}
	if s.IntOrString {
		t = TypeInteger | TypeString
		if s.Type != "" && s.Type != "integer" && s.Type != "string" {
			t |= typeSet(&Schema{Type: s.Type})
		}
	}
	if s.Nullable {
		t |= TypeNull
	}
	return t
}

// String names the types of a set, e.g. "object|null".
func (t TypeSet) String() string {
	if t == TypeAny {
		return "any"
	}
	var names []string
	for _, n := range []struct {
		t    TypeSet
		name string
	}{{TypeObject, "object"}, {TypeArray, "array"}, {TypeString, "string"}, {TypeNumber, "number"}, {TypeInteger, "integer"}, {TypeBoolean, "boolean"}, {TypeNull, "null"}} {
		if t&n.t != 0 {
			if n.t == TypeInteger && t&TypeNumber != 0 {
				continue
			}
			names = append(names, n.name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, "|")
}

// compileRules is validate.Compile, once per distinct node.
func (c *compiler) compileRules(n validate.Node) (*validate.Rules, error) {
	e := &c.enc
	e.b, e.ok = e.b[:0], true
	e.nodeBytes(n)
	if !e.ok { // a keyword the encoding does not take: not shared
		return validate.Compile(n)
	}
	if cr, ok := c.shared[string(e.b)]; ok {
		return cr.r, cr.err
	}
	r, err := validate.Compile(n)
	if c.shared == nil {
		c.shared = map[string]compiledRules{}
	}
	c.shared[string(e.b)] = compiledRules{r, err}
	return r, err
}

// rules compiles the value validations of schema node s, as written, into
// st, and notes what they do not check.
func (c *compiler) rules(s *Schema, st *State, p *jperrors.FieldPath) error {
	n := valueNode(s) // what the cache keeps (compiledenc.go)
	r, err := c.compileRules(n)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if r != nil {
		c.a.rules = append(c.a.rules, r)
		st.rules = uint32(len(c.a.rules))
	}
	st.valKinds, st.typeOnly = r.TypeOnly()
	junctors := len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) > 0 || s.Not != nil
	listType := s.ListType != nil && (*s.ListType == "set" || *s.ListType == "map")
	if junctors || listType {
		// checked on the node's whole value, by its validation tree
		t, err := s.ValidationTree()
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		c.a.trees = append(c.a.trees, t)
		st.tree = uint32(len(c.a.trees))
		st.typeOnly = false
	}
	if s.XValidations > 0 {
		c.a.unchecked = append(c.a.unchecked, p.String()+": x-kubernetes-validations (CEL) not checked")
	}
	return nil
}
