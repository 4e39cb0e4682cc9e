package schemaauto

import (
	"encoding/binary"
	"sync"

	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/validate"
)

// StateID names a state of an Automaton.
type StateID int32

// NoState marks an absent transition.
const NoState StateID = -1

// The two states every automaton starts with, for values that have no
// schema. They mirror the reference's nil schema: Drop is prune(x, nil),
// which removes (and reports) every key of an object and recurses into
// arrays with Drop; Keep is skipPrune(x, nil), which keeps the whole value.
const (
	Drop StateID = 0
	Keep StateID = 1
)

// TypeSet is a set of JSON value types a state's schema admits.
type TypeSet uint8

// The JSON value types. TypeInteger is a number without fraction.
const (
	TypeNull TypeSet = 1 << iota
	TypeBoolean
	TypeInteger
	TypeNumber
	TypeString
	TypeArray
	TypeObject

	// TypeAny admits every value.
	TypeAny = TypeNull | TypeBoolean | TypeInteger | TypeNumber | TypeString | TypeArray | TypeObject
)

// Flags are a state's properties.
type Flags uint16

const (
	// Preserve: the state runs in the reference's skipPrune mode
	// (x-kubernetes-preserve-unknown-fields, or inherited through items):
	// keys that are neither properties nor additionalProperties are kept.
	Preserve Flags = 1 << iota
	// Embedded: x-kubernetes-embedded-resource, or a resource root: the keys
	// apiVersion, kind and metadata are kept by pruning and coerced
	// (see PropRole).
	Embedded
	// Nullable: the schema says nullable: true.
	Nullable
	// HasDefault: the state's schema has a default value (see Default).
	HasDefault
	// DefaultsProps: at least one property of this state has a default.
	DefaultsProps
	// Opaque: a raw value never inspected (managedFields[].fieldsV1, a
	// built-in ObjectMeta state).
	Opaque
	// DefaultsBelow: some state reachable from this one (through
	// properties, declared embedded meta keys, additionalProperties or
	// items) has a default.
	DefaultsBelow
)

// PropRole says what a property entry is.
type PropRole uint8

const (
	// RoleProperty is an ordinary property.
	RoleProperty PropRole = iota
	// RoleAPIVersion and RoleKind are apiVersion and kind of an embedded
	// resource or resource root: kept verbatim by pruning, and coerced to
	// strings by the ObjectMeta step.
	RoleAPIVersion
	RoleKind
	// RoleMetadata is metadata of an embedded resource or resource root:
	// Target is the built-in ObjectMeta state.
	RoleMetadata
)

// Prop is one property of an object state.
type Prop struct {
	Name string
	// Target is the state of the property's value.
	Target StateID
	// Declared is the schema's own state for an embedded meta key (Role
	// other than RoleProperty), or NoState; null pruning and defaulting
	// consult it, pruning and coercion do not.
	Declared StateID
	Role     PropRole
	// Plain: Name is printable ASCII without '"' or '\', so that it is
	// its own JSON string's contents (a decoder may match the quoted name
	// against a document's bytes). Derived from Name when the automaton is
	// built or read from the cache.
	Plain bool
	// vreq and vflags, in the padding before Head, so that a walker that
	// found the property has them in the same cache line: the flags of the
	// property's target (ValueFlags) in vflags's low 16 bits, and its
	// ReqMask (ValueReqMask) in vflags's high 16 bits and vreq.
	vreq   uint16
	vflags uint32
	// Head, HeadMask and Tail let a decoder match a Plain name against
	// a document's bytes a word at a time: Head is the name's first 8
	// bytes, or the whole name and its closing quote when it is shorter,
	// as a little-endian word, HeadMask the mask of those bytes, and Tail
	// the name's last 8 bytes when it is longer than 8. Derived with
	// Plain.
	Head, HeadMask, Tail uint64
}

// State is one entry of the flat state table.
type State struct {
	Types TypeSet
	Flags Flags
	// The properties are a.props[propStart:propEnd], sorted by (length,
	// name); Automaton.Props returns them.
	propStart, propEnd uint32
	// lenOff locates, for states with more than linearLookupMax
	// properties, the state's length index in the automaton: for each name
	// length n up to the longest name, a.lenIndex[lenOff+n] is the offset
	// (from propStart) of the first property of length n.
	lenOff uint32
	// Additional is the state of object members that are not properties,
	// or NoState when the schema has no additionalProperties.
	Additional StateID
	// Items is the state of array elements.
	Items StateID
	// Default indexes the automaton's default values, or -1.
	Default int32
	// Node indexes the automaton's node information (schema path, the
	// source schema).
	Node int32
	// rules is 1 + the index of the state's value validations in
	// Automaton.rules, 0 when the node validates nothing.
	rules uint32
	// typeOnly: a scalar's validation depends on its kind alone, and
	// valKinds has the kinds that pass (validate.Rules.TypeOnly)
	typeOnly bool
	valKinds uint8
	// vflags is the state's ValueCheck Flags (ValueFlags), in the padding
	// before tree: a walker that holds the state has them in the same
	// cache line.
	vflags uint16
	// tree is 1 + the index of the node's validation tree in
	// Automaton.trees (junctors, list types), 0 when it needs none.
	tree uint32
}

// NodeInfo describes where a state comes from. It is consulted when
// reporting, never on the hot path.
type NodeInfo struct {
	// Path is the field.Path of the schema node ("openAPIV3Schema.properties[spec]"),
	// or the Go field path of a built-in state ("ObjectMeta.labels").
	Path string
	// Schema is the source schema node (nil for built-in states); value
	// validations will be attached from here. An automaton read compiled
	// from a Cache loads its schema nodes on its first Node call (the CRD
	// loaded and compiled again; nil if it no longer loads).
	Schema *Schema

	// fp is the path until Path is rendered (on the automaton's first Node
	// call): most automata never render theirs
	fp *jperrors.FieldPath
}

// Automaton is a compiled structural schema: an immutable, flat table of
// states, safe for concurrent use.
type Automaton struct {
	states []State
	props  []Prop
	// fps holds a fingerprint of each property name (nameFP), side by
	// side with props: Lookup compares fingerprints, a cache line for a
	// small state, before it reads a name.
	fps      []uint32
	lenIndex []uint32
	nodes    []NodeInfo
	defaults []defaultValue
	root     StateID
	meta     StateID
	prunes   bool
	// declName: the root's metadata declares a schema for its name or
	// generateName (DeclaresName), beside prunes, which a walker reads for
	// every object
	declName bool
	// rootReq is the root state's ValueCheck ReqMask (RootReqMask)
	rootReq uint64
	// rules are the states' compiled value validations (State.rules);
	// unchecked says what they leave out (Unchecked).
	rules     []*validate.Rules
	trees     []*validate.Tree
	unchecked []string

	paths sync.Once // renders the nodes' paths (Node)

	// an automaton read from the cache has no schemas: Node loads them
	// (NodeInfo.Schema) from the CRD compiled afresh, once; version is the
	// index of its CRD version
	schemas     *crdSchemas
	version     int
	nodeSchemas sync.Once
	encPaths    string // the nodes' paths until rendered (compiledenc.go)

	checks valueChecks // value validation's per-state records, built once (valuechecks.go)

	// the defaulted properties of each state (Defaulted), built once:
	// state s's are defaulted[defaultedAt[s]:defaultedAt[s+1]]
	defaultedOnce sync.Once
	defaulted     []uint32
	defaultedAt   []uint32
}

type defaultValue struct {
	value any    // the pre-pruned default, a JSON value tree
	json  []byte // its canonical JSON
}

// Rules returns the value validations of state s (nil: none), compiled
// once from the schema node as written; package validate checks values
// with them.
func (a *Automaton) Rules(s StateID) *validate.Rules {
	if r := a.states[s].rules; r != 0 {
		return a.rules[r-1]
	}
	return nil
}

// TypeOnly reports whether a scalar in state s is validated by its kind
// alone, and the kinds (bit 1<<validate.Kind) that pass; a state with
// junctors never is. A walker checks such values without their Rules.
func (a *Automaton) TypeOnly(s StateID) (kinds uint8, ok bool) {
	st := &a.states[s]
	return st.valKinds, st.typeOnly
}

// Tree returns the validation tree of state s's schema node when the node
// needs its whole value checked (junctors: allOf, anyOf, oneOf, not; or
// x-kubernetes-list-type set or map), or nil.
func (a *Automaton) Tree(s StateID) *validate.Tree {
	if t := a.states[s].tree; t != 0 {
		return a.trees[t-1]
	}
	return nil
}

// Unchecked lists, one line per schema node, the validations of the
// schema that value validation does not check: x-kubernetes-validations
// (CEL). A validating decoder reports them once per automaton.
func (a *Automaton) Unchecked() []string { return a.unchecked }

// Defaulted returns the indexes within Props(s), in order, of the
// properties of state s whose value has a default: the state of the
// property's value (Target), or for apiVersion, kind and metadata of an
// embedded resource its declared state (Declared), has one. A walker adds
// the absent ones with these, without going through every property. The
// table is derived from the states once, on the first call.
func (a *Automaton) Defaulted(s StateID) []uint32 {
	a.defaultedOnce.Do(a.buildDefaulted)
	return a.defaulted[a.defaultedAt[s]:a.defaultedAt[s+1]]
}

// buildDefaulted builds Defaulted's table.
func (a *Automaton) buildDefaulted() {
	at := make([]uint32, len(a.states)+1)
	var list []uint32
	for s := range a.states {
		at[s] = uint32(len(list))
		st := &a.states[s]
		if st.Flags&DefaultsProps == 0 {
			continue
		}
		for i, p := range a.props[st.propStart:st.propEnd] {
			ns := p.Target
			if p.Role != RoleProperty {
				ns = p.Declared
			}
			if ns > Keep && a.states[ns].Default >= 0 {
				list = append(list, uint32(i))
			}
		}
	}
	at[len(a.states)] = uint32(len(list))
	a.defaulted, a.defaultedAt = list, at
}

// Root returns the state of a resource's top-level object.
func (a *Automaton) Root() StateID { return a.root }

// ObjectMeta returns the built-in state of metav1.ObjectMeta.
func (a *Automaton) ObjectMeta() StateID { return a.meta }

// Prunes reports whether unknown fields are pruned. It is false for a CRD
// with spec.preserveUnknownFields: true, where nothing outside metadata is
// pruned and nulls are not pruned either.
func (a *Automaton) Prunes() bool { return a.prunes }

// NumStates returns the number of states.
func (a *Automaton) NumStates() int { return len(a.states) }

// State returns the state s. It panics if s is out of range.
func (a *Automaton) State(s StateID) *State { return &a.states[s] }

// DeclaresName reports whether the schema declares the root metadata's
// name or generateName (DeclaredName), from the automaton itself, without
// deriving its ValueChecks.
func (a *Automaton) DeclaresName() bool { return a.declName }

// RootReqMask returns the root state's ValueCheck ReqMask from the
// automaton itself, without deriving its ValueChecks: a validating decoder
// needs it for every document whose root has required properties only.
func (a *Automaton) RootReqMask() uint64 { return a.rootReq }

// ValueFlags returns the state's ValueCheck Flags (set when the
// automaton is made). A decoder that validates reads them from the state
// it holds, not from a table of its own: the state's cache line is
// already loaded.
func (st *State) ValueFlags() uint16 { return st.vflags }

// ValueFlags returns the ValueCheck Flags of the property's target (of
// its Declared state for a Role other than RoleProperty, 0 without one).
func (p *Prop) ValueFlags() uint16 { return uint16(p.vflags) }

// ValueReqMask returns the ValueCheck ReqMask of the property's target
// when the target has CheckRequiredOnly and the mask fits 32 bits (its
// required properties among its first 32), else 0.
func (p *Prop) ValueReqMask() uint32 { return p.vflags>>16 | uint32(p.vreq)<<16 }

// Props returns the properties of state s, sorted by (length, name).
func (a *Automaton) Props(s StateID) []Prop {
	st := &a.states[s]
	return a.props[st.propStart:st.propEnd]
}

// Node returns the node information of state s.
func (a *Automaton) Node(s StateID) *NodeInfo {
	a.renderPaths()
	a.loadNodeSchemas()
	return &a.nodes[a.states[s].Node]
}

// path returns the path of state s's node (Node's Path, without loading
// the schemas of an automaton read from the cache).
func (a *Automaton) path(s StateID) string {
	a.renderPaths()
	return a.nodes[a.states[s].Node].Path
}

// renderPaths renders the nodes' paths, once.
func (a *Automaton) renderPaths() {
	a.paths.Do(func() {
		if a.encPaths != "" {
			a.decodePaths()
		}
		for i := range a.nodes {
			if n := &a.nodes[i]; n.fp != nil {
				n.Path, n.fp = n.fp.String(), nil
			}
		}
	})
}

// Default returns the pre-pruned default value of state s as a JSON value
// tree and as canonical JSON (object keys sorted), or false.
func (a *Automaton) Default(s StateID) (value any, json []byte, ok bool) {
	d := a.states[s].Default
	if d < 0 {
		return nil, nil, false
	}
	return a.defaults[d].value, a.defaults[d].json, true
}

// Lookup finds the property name of object state s. It returns the
// property's index within Props(s), or -1. It does not allocate.
//
// Properties are sorted by (length, name). A state with up to
// linearLookupMax properties is scanned, comparing the names' fingerprints
// (length, first, middle and last byte; nameFP) first; a larger one goes
// through its length index straight to the few names of the key's length
// ("switch on length, then compare"), whose fingerprints are compared
// before the names. BenchmarkLookup compares this with a Go map and with
// binary search.
func (a *Automaton) Lookup(s StateID, name []byte) int {
	st := &a.states[s]
	fps := a.fps[st.propStart:st.propEnd]
	fp := nameFP(name)
	if len(fps) <= linearLookupMax {
		for i, f := range fps {
			if f == fp && a.props[int(st.propStart)+i].Name == string(name) {
				return i
			}
		}
		return -1
	}
	ps := a.props[st.propStart:st.propEnd]
	// the length index holds maxLen+2 offsets: [0, maxLen+1]
	n := len(name)
	maxLen := len(ps[len(ps)-1].Name)
	if n > maxLen {
		return -1
	}
	idx := a.lenIndex[st.lenOff : st.lenOff+uint32(maxLen)+2]
	for i := idx[n]; i < idx[n+1]; i++ {
		if fps[i] == fp && ps[i].Name == string(name) {
			return int(i)
		}
	}
	return -1
}

// nameFP is a property name's fingerprint: its length (modulo 256) and its
// first, middle and last bytes. Equal names have equal fingerprints.
func nameFP[S ~string | ~[]byte](name S) uint32 {
	n := len(name)
	if n == 0 {
		return 0
	}
	return uint32(n)<<24 | uint32(name[0])<<16 | uint32(name[n/2])<<8 | uint32(name[n-1])
}

// appendProps adds the properties of a state, with their fingerprints.
func (a *Automaton) appendProps(ps ...Prop) {
	start := len(a.props)
	a.props = append(a.props, ps...)
	for i := range ps {
		a.fps = append(a.fps, a.props[start+i].derive())
	}
}

// derive sets what a property entry derives from its name (Plain) and
// returns the name's fingerprint.
func (p *Prop) derive() uint32 {
	p.Plain = true
	for i := 0; i < len(p.Name); i++ {
		if c := p.Name[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			p.Plain = false
			break
		}
	}
	var w [8]byte
	n := copy(w[:], p.Name)
	if n < len(w) {
		w[n] = '"'
		n++
	}
	p.Head, p.HeadMask, p.Tail = binary.LittleEndian.Uint64(w[:]), ^uint64(0)>>(64-8*n), 0
	if len(p.Name) > 8 {
		p.Tail = binary.LittleEndian.Uint64([]byte(p.Name[len(p.Name)-8:]))
	}
	return nameFP(p.Name)
}

// linearLookupMax is the property count up to which Lookup scans linearly.
// See BenchmarkLookup.
const linearLookupMax = 8

// indexLengths builds the length index of a state whose properties are
// sorted by (length, name) and returns its offset in a.lenIndex.
func (a *Automaton) indexLengths(ps []Prop) uint32 {
	start := uint32(len(a.lenIndex))
	maxLen := len(ps[len(ps)-1].Name)
	j := 0
	for n := 0; n <= maxLen+1; n++ {
		for j < len(ps) && len(ps[j].Name) < n {
			j++
		}
		a.lenIndex = append(a.lenIndex, uint32(j))
	}
	return start
}

// propLess orders property names by length, then bytes.
func propLess(a string, b []byte) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < string(b)
}

// builtIn reports whether s is one of the built-in ObjectMeta states, which
// init appends right after Drop and Keep, the ObjectMeta state itself last.
func (a *Automaton) builtIn(s StateID) bool { return s > Keep && s <= a.meta }
