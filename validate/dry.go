package validate

import (
	"slices"
	"strings"
)

// This file is the dry evaluation of a branch: its validity and match count
// without rendering any error, with the same checks in the same order as
// eval. A junctor evaluates its branches dry and renders the errors of the
// one branch it reports (anyOf, oneOf) or of its failing branches (allOf)
// only; a value that passes a branch renders nothing.
//
// kube-openapi keeps, whatever branch it reports, the errors of a branch
// whose message starts with "IMPORTANT!" (keepRelevantErrors); only a path
// starting with "IMPORTANT!" (a root-level key) can produce one, so
// branches at the root or at such a path are evaluated in full instead.

// dryAllowed reports whether the branches of a node at path can be
// evaluated dry.
func dryAllowed(path string) bool {
	return !noDry && path != "" && !strings.HasPrefix(path, "IMPORTANT!")
}

// dryAllowedValue reports whether a whole value at path can be judged
// dry: at the root only when no key of v starts with "IMPORTANT!".
func dryAllowedValue(path string, v any) bool {
	if noDry {
		return false
	}
	if path != "" {
		return !strings.HasPrefix(path, "IMPORTANT!")
	}
	if m, ok := v.(map[string]any); ok {
		for k := range m {
			if strings.HasPrefix(k, "IMPORTANT!") {
				return false
			}
		}
	}
	return true
}

// noDry turns dry evaluation off (tests compare both ways).
var noDry = false

// typePasses reports whether AppendTypeErrors would append nothing.
func (r *Rules) typePasses(s Scalar) bool {
	if r == nil || (len(r.types) == 0 && r.format == "") {
		return true
	}
	k := s.Kind
	if k == Null {
		return len(r.types) == 0 || r.hasNull || r.nullable
	}
	st := k.String()
	isFloatInt := k == Float && isJSONInteger(s.Float) && r.hasInt
	isIntFloat := k == Int && r.hasNumber
	if k != String && k != Array && r.format != "" &&
		!(r.hasType(st) || inferredFormat(k) == r.format || isFloatInt || isIntFloat) {
		return false
	}
	if !(r.hasInt || r.hasNumber) && r.format != "" && (k == String || k == Array) {
		return true
	}
	return r.hasType(st) || isFloatInt || isIntFloat
}

// dry is eval without errors: the match count and whether v passes.
func (t *Tree) dry(v any) (count int, ok bool) {
	var r *Rules
	if t != nil {
		r = t.Rules
	}
	s, isValue := ScalarOf(v)
	if !isValue {
		return 0, true
	}
	ok = true
	if s.Kind == Null {
		if r.typePasses(s) {
			count++
		} else {
			ok = false
		}
		return count, ok && !r.HasEnum()
	}
	if r != nil && (len(r.types) > 0 || r.format != "") {
		count++
		if r.typePasses(s) {
			count++
		} else {
			ok = false
		}
	}
	count++
	if t.HasJunctors() {
		c, jok := t.dryJunctors(v)
		count += c
		ok = ok && jok
	} else {
		count++
	}
	switch s.Kind {
	case String:
		count++
		if r != nil {
			if (r.hasMaxLen || r.hasMinLen || r.pattern != "") && !r.checkString(s.Str) {
				ok = false
			}
			if r.strFormat != fmtNone {
				count++
				if !checkFormat(r.strFormat, s.Str) {
					ok = false
				}
			}
		}
	case Int, Float:
		count += 2
		if r != nil && !r.checkNumber(s) {
			ok = false
		}
	case Array:
		count += 2
		items := v.([]any)
		if t != nil && t.Items != nil {
			for _, x := range items {
				c, iok := t.Items.dry(x)
				count += c
				ok = ok && iok
			}
		}
		if !r.CheckArray(len(items)) || !r.CheckUnique(items) {
			ok = false
		}
	}
	count++
	if !r.CheckEnum(v) {
		ok = false
	}
	if s.Kind == Object {
		count++
		c, ook := t.dryObject(r, v.(map[string]any))
		count += c
		ok = ok && ook
	}
	count++
	return count, ok
}

func (t *Tree) dryObject(r *Rules, m map[string]any) (count int, ok bool) {
	ok = r.CheckObject(len(m))
	var props map[string]*Tree
	if t != nil {
		props = t.Properties
	}
	if r.AdditionalPropertiesFalse() {
		for k := range m {
			if _, isProp := props[k]; !isProp {
				ok = false
			}
		}
	} else if t != nil && t.AdditionalProperties != nil {
		for k, x := range m {
			if _, isProp := props[k]; !isProp {
				c, aok := t.AdditionalProperties.dry(x)
				count += c
				ok = ok && aok
			}
		}
	}
	for k, p := range props {
		if x, present := m[k]; present {
			c, pok := p.dry(x)
			count += c
			ok = ok && pok
		}
	}
	for _, k := range r.Required() {
		if _, present := m[k]; !present {
			ok = false
		}
	}
	return count, ok
}

// dryJunctors is step 2 without errors: the junctor step's match count
// (its own Inc included) and whether it adds no error.
func (t *Tree) dryJunctors(v any) (count int, ok bool) {
	ok = true
	if len(t.AnyOf) > 0 {
		best, bestC, passed, passC := -1, 0, false, 0
		for i, b := range t.AnyOf {
			c, bok := b.dry(v)
			if bok {
				passed, passC = true, c
				break
			}
			if best < 0 || c > bestC {
				best, bestC = i, c
			}
		}
		if passed {
			count += passC
		} else {
			ok = false
			count += bestC
		}
	}
	if len(t.OneOf) > 0 {
		best, bestC, n, firstC := -1, 0, 0, 0
		for _, b := range t.OneOf {
			c, bok := b.dry(v)
			if bok {
				n++
				best = -1
				if n == 1 {
					firstC = c
				}
				continue
			}
			if n == 0 && (best < 0 || c > bestC) {
				best, bestC = 0, c
			}
		}
		switch {
		case n == 1:
			count += firstC
		case n == 0:
			ok = false
			count += bestC
		default:
			ok = false
		}
	}
	for _, b := range t.AllOf {
		c, bok := b.dry(v)
		count += c
		ok = ok && bok
	}
	if t.Not != nil {
		if _, nok := t.Not.dry(v); nok {
			ok = false
		}
	}
	return count + 1, ok
}

// ScalarKindsPassing returns the kinds among Bool, Int and String (bit
// 1<<k for Kind k) whose every value passes the tree (Validate finds
// nothing), junctors included: the node's own checks pass the kind whatever
// the value (Rules.KindsPassing, and its type check as kube-openapi makes
// it), allOf's branches all do, one of anyOf's does, exactly one of oneOf's
// does while the others refuse the kind by their type, and not's branch
// refuses it by its type. A walker can skip a value of such a kind.
func (t *Tree) ScalarKindsPassing() uint8 {
	var kinds uint8
	for _, k := range [...]Kind{Bool, Int, String} {
		if t.passesAll(k) {
			kinds |= 1 << k
		}
	}
	return kinds
}

// passesAll reports whether every value of kind k passes t.
func (t *Tree) passesAll(k Kind) bool {
	if t == nil {
		return true
	}
	if r := t.Rules; r != nil && (r.KindsPassing()&(1<<k) == 0 || !r.typePasses(Scalar{Kind: k})) {
		return false
	}
	return t.junctorsPassAll(k)
}

// StringsByRules reports whether a String passes the tree exactly when it
// passes the string checks of the node's own Rules, which
// Rules.StringChecks describes (ok): the node's type passes strings, and
// its junctors pass every string (as ScalarKindsPassing reads them). A
// walker can then check strings as StringChecks says, without the tree.
func (t *Tree) StringsByRules() bool {
	if t == nil || t.Rules == nil || !t.Rules.typePasses(Scalar{Kind: String}) {
		return false
	}
	if _, _, _, ok := t.Rules.StringChecks(); !ok {
		return false
	}
	return t.junctorsPassAll(String)
}

// junctorsPassAll reports whether t's junctors pass every value of kind k.
func (t *Tree) junctorsPassAll(k Kind) bool {
	for _, b := range t.AllOf {
		if !b.passesAll(k) {
			return false
		}
	}
	if len(t.AnyOf) > 0 && !slices.ContainsFunc(t.AnyOf, func(b *Tree) bool { return b.passesAll(k) }) {
		return false
	}
	if len(t.OneOf) > 0 {
		n := 0
		for _, b := range t.OneOf {
			switch {
			case b.passesAll(k):
				n++
			case !b.failsAll(k):
				return false
			}
		}
		if n != 1 {
			return false
		}
	}
	return t.Not == nil || t.Not.failsAll(k)
}

// failsAll reports whether every value of kind k fails t by its type
// check.
func (t *Tree) failsAll(k Kind) bool {
	return t != nil && t.Rules != nil && !t.Rules.typePasses(Scalar{Kind: k})
}
