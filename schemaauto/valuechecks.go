package schemaauto

import (
	"math"
	"slices"
	"sync"

	"github.com/jsonprune/jsonprune/validate"
)

// ValueCheck is what a validating walker needs first of one state, in one
// small record: whether the usual value passes without its Rules, and the
// Rules themselves for the rest. Automaton.ValueChecks derives them from
// the states' Rules and Trees once per automaton, when it first validates
// (nothing is added to the compiled cache's encoding).
type ValueCheck struct {
	// Rules is Automaton.Rules of the state (nil: none).
	Rules *validate.Rules
	// ReqMask holds, with CheckRequiredOnly, the bit 1<<i of each
	// required property i.
	ReqMask uint64
	// With Strings, what a String value's check is, so that it needs no
	// Rules (nor Tree, for a node whose junctors pass every string:
	// validate.Tree.StringsByRules): StringsLength, its rune count within [MinLen, MaxLen] (-1:
	// no bound) and Pattern (nil: none) matching it
	// (validate.Rules.StringChecks); StringsEnum, one of the enum's
	// strings (validate.Rules.StringEnum), which EnumText holds one after
	// the other, each after its length in a byte (EnumHas): one run of
	// bytes to read, not a slice of headers and the strings they point
	// to (an enum with a string longer than 255 bytes is the Rules').
	Pattern        *validate.Matcher
	EnumText       string
	MinLen, MaxLen int32
	// Flags summarise the state's checks (the Check constants); the high
	// byte's low seven bits are, with CheckScalarKinds, the scalar kinds
	// (bit 1<<validate.Kind) that pass whatever their value.
	Flags   uint16
	Strings uint8
	// ObjectCounts: an object passes the state's type check and its only
	// checks of its own are minProperties and maxProperties
	// (Rules.CheckObject): no required, additionalProperties: false, enum,
	// junctors or list type (it may still be an embedded resource:
	// CheckEmbedded).
	ObjectCounts bool
	// ArrayCounts: an array passes the state's type check and its only
	// checks of its own are minItems and maxItems (Rules.CheckArray): no
	// enum, junctors or list type, so that a walker needs no frame for it.
	ArrayCounts bool
	// a record a cache line (64 bytes): a walker reads one per state
	_ [8]byte
}

// The values of ValueCheck.Strings.
const (
	StringsRules  = iota // a String is checked by the Rules
	StringsLength        // by its length and pattern
	StringsEnum          // by the enum's strings
)

// The bits of ValueCheck.Flags.
const (
	// CheckObjectOK: an object passes the state's type check.
	CheckObjectOK uint16 = 1 << iota
	// CheckArrayOK: an array passes the state's type check.
	CheckArrayOK
	// CheckObjectWork: an object has checks of its own beyond its type
	// (required, property counts, additionalProperties: false, enum,
	// junctors or a list type).
	CheckObjectWork
	// CheckArrayWork: an array has checks of its own beyond its type (item
	// counts, enum, junctors or a list type).
	CheckArrayWork
	// CheckRequiredOnly: an object's only check of its own is required,
	// every name one of its first 64 properties (ReqMask has them);
	// CheckObjectWork is set too.
	CheckRequiredOnly
	// CheckEmbedded: an embedded resource, or a state with apiVersion,
	// kind or metadata roles.
	CheckEmbedded
	// CheckScalarKinds: the scalars of the kinds in the high byte pass
	// whatever their value (validate.Rules.KindsPassing; for a node with
	// junctors, validate.Tree.ScalarKindsPassing).
	CheckScalarKinds
	// CheckJunctors: the state's Tree has junctors (allOf, anyOf, oneOf,
	// not): its values are checked by the tree.
	CheckJunctors
)

// CheckInt32 (the high byte's top bit, with CheckScalarKinds): an integer
// within the int32 range passes (validate.Rules.Int32Only).
const CheckInt32 uint16 = 1 << 15

// valueChecks is an automaton's ValueChecks, built once.
type valueChecks struct {
	once   sync.Once
	checks []ValueCheck
	req    [][]int32 // per state, the property index of each required name (-1: none)
	extra  []bool    // some required name is no property
	// the states of the root metadata's declared name and generateName
	// (NoState: none)
	declName [2]StateID
}

// ValueChecks returns one ValueCheck per state, indexed by StateID. They
// are derived on the first call and shared: the slice must not be
// modified.
func (a *Automaton) ValueChecks() []ValueCheck {
	return a.valueChecks().checks
}

// RequiredProps returns the index within Props(s) of each name of
// Rules(s).Required() (-1 for a name that is no property), and whether
// some name is no property.
func (a *Automaton) RequiredProps(s StateID) ([]int32, bool) {
	v := a.valueChecks()
	return v.req[s], v.extra[s]
}

// DeclaredName returns the states that the schema declares for the root
// metadata's name (i == 0) and generateName (i == 1), or NoState.
func (a *Automaton) DeclaredName(i int) StateID {
	return a.valueChecks().declName[i]
}

// deriveValueFlags sets what a validating walker needs of the value checks
// for every object and document, beside what it reads anyway, so that it
// finds them in cache lines it has loaded: State.ValueFlags,
// Prop.ValueFlags and ValueReqMask, Automaton.DeclaresName and
// RootReqMask. It runs when the automaton is made (compile; a compiled
// form carries them), before anything else can read it: the states and
// properties are not written after that, so that readers that copy them
// whole race with nothing. The records themselves (ValueChecks) are
// derived again, and kept, on first use.
func (a *Automaton) deriveValueFlags() {
	var v valueChecks
	v.build(a)
	for s := range a.states {
		a.states[s].vflags = v.checks[s].Flags
	}
	for i := range a.props {
		p := &a.props[i]
		t := p.Target
		if p.Role != RoleProperty {
			t = p.Declared // apiVersion, kind, metadata: the schema's own declaration is what validates
		}
		if t < 0 || int(t) >= len(v.checks) {
			continue
		}
		c := &v.checks[t]
		p.vflags = uint32(c.Flags)
		if c.Flags&CheckRequiredOnly != 0 && c.ReqMask < 1<<32 {
			p.vflags |= uint32(c.ReqMask) << 16
			p.vreq = uint16(c.ReqMask >> 16)
		}
	}
	a.declName = v.declName[0] != NoState || v.declName[1] != NoState
	if a.root >= 0 && int(a.root) < len(v.checks) {
		a.rootReq = v.checks[a.root].ReqMask
	}
}

func (a *Automaton) valueChecks() *valueChecks {
	v := &a.checks
	v.once.Do(func() { v.build(a) })
	return v
}

func (v *valueChecks) build(a *Automaton) {
	n := len(a.states)
	v.checks, v.req, v.extra = make([]ValueCheck, n), make([][]int32, n), make([]bool, n)
	for s := range n {
		r := a.Rules(StateID(s))
		if req := r.Required(); len(req) > 0 {
			idx := make([]int32, len(req))
			for i, name := range req {
				idx[i] = int32(a.Lookup(StateID(s), []byte(name)))
				v.extra[s] = v.extra[s] || idx[i] < 0
			}
			v.req[s] = idx
		}
	}
	for s := range n {
		v.checks[s] = v.check(a, StateID(s))
	}
	v.declName = [2]StateID{NoState, NoState}
	if root := a.root; root > Keep {
		if i := a.Lookup(root, []byte("metadata")); i >= 0 {
			if decl := a.Props(root)[i].Declared; decl > Keep {
				for j, field := range [...]string{"name", "generateName"} {
					if i := a.Lookup(decl, []byte(field)); i >= 0 {
						v.declName[j] = a.Props(decl)[i].Target
					}
				}
			}
		}
	}
}

func (v *valueChecks) check(a *Automaton, s StateID) ValueCheck {
	r := a.Rules(s)
	t := a.Tree(s)
	c := ValueCheck{Rules: r}
	sum := uint16(0)
	if r.CheckType(validate.Object) {
		sum |= CheckObjectOK
	}
	if r.CheckType(validate.Array) {
		sum |= CheckArrayOK
	}
	if t == nil || !t.HasJunctors() {
		if kinds := r.KindsPassing(); kinds != 0 || r.Int32Only() {
			sum |= CheckScalarKinds | uint16(kinds&0x7F)<<8
		}
		if r.Int32Only() {
			sum |= CheckInt32
		}
	} else {
		sum |= CheckJunctors
		if kinds := t.ScalarKindsPassing(); kinds != 0 {
			sum |= CheckScalarKinds | uint16(kinds&0x7F)<<8
		}
	}
	if a.states[s].Flags&Embedded != 0 {
		sum |= CheckEmbedded
	}
	for _, p := range a.Props(s) {
		if p.Role != RoleProperty {
			sum |= CheckEmbedded
		}
	}
	whole := t != nil || r.HasEnum()
	counts := !r.CheckObject(0) || !r.CheckObject(math.MaxInt)
	if whole || len(r.Required()) > 0 || counts || r.AdditionalPropertiesFalse() {
		sum |= CheckObjectWork
	}
	if !whole && !counts && !r.AdditionalPropertiesFalse() && len(r.Required()) > 0 {
		if idxs := v.req[s]; !v.extra[s] && slices.Max(idxs) < 64 {
			sum |= CheckRequiredOnly
			for _, i := range idxs {
				c.ReqMask |= 1 << i
			}
		}
	}
	c.ObjectCounts = counts && !whole && len(r.Required()) == 0 && !r.AdditionalPropertiesFalse() && sum&CheckObjectOK != 0
	if whole || !r.CheckArray(0) || !r.CheckArray(math.MaxInt) {
		sum |= CheckArrayWork
		c.ArrayCounts = !whole && sum&CheckArrayOK != 0
	}
	c.Flags = sum
	sr := r // the Rules that decide a String
	if t != nil && t.HasJunctors() {
		sr = nil
		if t.StringsByRules() {
			sr = t.Rules // the junctors pass every string: the node's own string checks decide
		}
	}
	if minLen, maxLen, m, ok := sr.StringChecks(); ok && minLen <= math.MaxInt32 && maxLen <= math.MaxInt32 {
		c.Strings, c.MinLen, c.MaxLen, c.Pattern = StringsLength, int32(minLen), int32(maxLen), m
	} else if strs, ok := sr.StringEnum(); ok {
		if text, ok := enumText(strs); ok {
			c.Strings, c.EnumText = StringsEnum, text
		}
	}
	return c
}

// enumText is ValueCheck.EnumText of strs; false when a string is too
// long for its length byte (the Rules check such an enum).
func enumText(strs []string) (string, bool) {
	var b []byte
	for _, e := range strs {
		if len(e) > 0xFF {
			return "", false
		}
		b = append(append(b, byte(len(e))), e...)
	}
	return string(b), true
}

// EnumHas reports whether str is one of the enum's strings
// (StringsEnum).
func (c *ValueCheck) EnumHas(str []byte) bool {
	t := c.EnumText
	for i := 0; i < len(t); {
		n := int(t[i])
		i++
		if n == len(str) && i+n <= len(t) && t[i:i+n] == string(str) {
			return true
		}
		i += n
	}
	return false
}
