package schemaauto

import (
	"reflect"

	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/objectmeta"
)

// Default values are pre-pruned at compile time as the reference's
// defaulting.PruneDefaults does (PruneDefaults in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting/prune.go,
// called when the CRD handler builds its structural schemas): each default
// is wrapped in its surrounding object (a property name, "*" for
// additionalProperties, a one-element array for items), the wrapper is
// pruned from the resource root, and the default is read back. A default
// whose place is pruned away is dropped, as the reference drops it.

// wrap builds the surrounding object of a default.
func wrap(v any, steps []step) any {
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i].index {
			v = []any{v}
		} else {
			v = map[string]any{steps[i].key: v}
		}
	}
	return v
}

// unwrap reads a default back out of its surrounding object.
func unwrap(v any, steps []step) (any, bool) {
	for _, s := range steps {
		if s.index {
			a, ok := v.([]any)
			if !ok || len(a) != 1 {
				return nil, false
			}
			v = a[0]
		} else {
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[s.key]; !ok {
				return nil, false
			}
		}
	}
	return v, true
}

// prunedDefault returns the pre-pruned form of the default at site.
func (c *compiler) prunedDefault(site defaultSite) (any, bool) {
	w := wrap(deepCopy(c.a.defaults[site.index].value), site.steps)
	_ = coerce(c.a, w, c.a.root, nil, true)
	c.a.pruneValue(w, c.a.root, "", new([]string))
	return unwrap(w, site.steps)
}

// pruneDefaults replaces every default by its pre-pruned form when the
// automaton prunes, and renders each as canonical JSON.
func (c *compiler) pruneDefaults() error {
	removed := map[int32]bool{}
	for _, site := range c.sites {
		d := &c.a.defaults[site.index]
		if c.a.prunes {
			v, ok := c.prunedDefault(site)
			if !ok {
				removed[site.index] = true
				continue
			}
			d.value = v
		}
		if d.value == nil {
			removed[site.index] = true
		}
	}
	if len(removed) > 0 {
		c.dropDefaults(removed)
	}
	// A default's own fields get their defaults when it is inserted
	// (Default in k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting/algorithm.go
	// recurses into the inserted default): apply them once, here, in site order so that
	// nested defaults are final before their parents copy them.
	for i := len(c.sites) - 1; i >= 0; i-- {
		site := c.sites[i]
		if d := &c.a.defaults[site.index]; !removed[site.index] {
			d.value = c.a.DefaultValue(d.value, site.state)
		}
	}
	for i := range c.a.defaults {
		if d := &c.a.defaults[i]; !removed[int32(i)] {
			d.json = marshalCanonical(d.value)
		}
	}
	c.markDefaultsBelow()
	return nil
}

// markDefaultsBelow sets DefaultsBelow on every state from which a default
// can be reached (a fixpoint over the transitions).
func (c *compiler) markDefaultsBelow() {
	a := c.a
	has := func(t StateID) bool {
		return t >= 0 && a.states[t].Flags&(HasDefault|DefaultsBelow) != 0
	}
	for changed := true; changed; {
		changed = false
		for i := range a.states {
			st := &a.states[i]
			if st.Flags&DefaultsBelow != 0 {
				continue
			}
			below := has(st.Additional) || (st.Items != StateID(i) && has(st.Items))
			for _, p := range a.props[st.propStart:st.propEnd] {
				below = below || has(p.Target) || has(p.Declared)
			}
			if below {
				st.Flags |= DefaultsBelow
				changed = true
			}
		}
	}
}

// dropDefaults removes the defaults whose place was pruned away.
func (c *compiler) dropDefaults(removed map[int32]bool) {
	for i := range c.a.states {
		st := &c.a.states[i]
		if st.Default >= 0 && removed[st.Default] {
			st.Default, st.Flags = -1, st.Flags&^HasDefault
		}
	}
	for i := range c.a.states {
		st := &c.a.states[i]
		st.Flags &^= DefaultsProps
		for _, p := range c.a.props[st.propStart:st.propEnd] {
			t := p.Target
			if p.Declared != NoState {
				t = p.Declared
			}
			if t >= 0 && c.a.states[t].Flags&HasDefault != 0 {
				st.Flags |= DefaultsProps
			}
		}
	}
}

// unprunedDefaults reports, as the reference's CRD validation of defaults
// (defaulting.ValidateDefaults with pruned defaults required) does, every
// default that pruning would change, "<path>.default: Invalid value:
// <json>: must not have unknown fields", then the checks of the
// embedded resources in it (objectmeta.Coerce and objectmeta.Validate in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta): the
// first coercion error at the offending field ("<path>.default.apiVersion:
// Invalid value: 42: must be a string", "<path>.default.metadata: Invalid
// value: ...: json: cannot unmarshal ..."), or else the TypeMeta and
// ObjectMeta errors of every embedded resource in it ("<path>.default.kind:
// Required value", "<path>.default.metadata.name: Invalid value: ...").
// A default inside resource meta (apiVersion, kind and metadata of the root
// and of embedded resources) is checked in the object of its resource, with
// the reference's placeholder type meta, and reported at "<path>.default"
// with "must result in valid metadata: " and the coercion error or the
// errors (one as is, several as "[m1, m2]"). Like the reference it prunes
// each default from its own schema node (an embedded node as a resource
// root) and visits items and properties but not additionalProperties. s
// must be structural; p is its path. The value validation of the defaults
// that pass these checks is LintValues'.
func unprunedDefaults(s *Schema, p *jperrors.FieldPath) jperrors.FieldErrors {
	return checkDefaults(s, p, false, nil)
}

// dropMetaDefaults removes from s (a skeleton, which the reference would
// not accept) the defaults that would put a resource meta that does not
// coerce into the output: those inside resource meta that do not decode as
// ObjectMeta, and those holding an embedded resource whose apiVersion, kind
// or metadata does not coerce. The decoder writes defaults as they are.
func dropMetaDefaults(s *Schema) {
	checkDefaults(s, nil, true, nil)
}

// checkDefaults is unprunedDefaults; with dropMeta, it removes the defaults
// dropMetaDefaults names instead of reporting them, and reports nothing
// else. When checked is not nil, it records there, for every node whose
// default passes the coercion and the TypeMeta/ObjectMeta checks, the
// value the reference validates next: the default as coerced (the
// reference coerces it in place: a null metadata becomes {}), or as
// written inside resource meta; a default that fails is absent (the
// reference then does not validate its value).
func checkDefaults(s *Schema, p *jperrors.FieldPath, dropMeta bool, checked map[*Schema]any) jperrors.FieldErrors {
	var mv objectmeta.Validator
	c := &compiler{
		a:          &Automaton{prunes: true},
		memo:       map[memoKey]StateID{},
		defaultIdx: map[*Schema]int32{},
	}
	c.init()
	var errs jperrors.FieldErrors
	// steps lead from the innermost resource (the root, or an embedded
	// resource) to the node: a default inside its metadata, apiVersion or
	// kind is checked in that resource's object
	type step struct {
		key   string
		index bool // items: a one-element array
	}
	var steps []step
	// the root is validated as an embedded resource (a resource root)
	var walk func(s *Schema, p *jperrors.FieldPath, insideMeta, root bool)
	walk = func(s *Schema, p *jperrors.FieldPath, insideMeta, root bool) {
		if s == nil {
			return
		}
		embedded := s.EmbeddedResource || root
		if embedded {
			insideMeta = false
			saved := steps
			steps = nil
			defer func() { steps = saved }()
		}
		if s.HasDefault && insideMeta {
			// the default in the object of its resource, with the
			// reference's placeholder type meta, must give a valid
			// ObjectMeta (and string apiVersion and kind)
			v := deepCopy(s.Default)
			for i := len(steps) - 1; i >= 0; i-- {
				if steps[i].index {
					v = []any{v}
				} else {
					v = map[string]any{steps[i].key: v}
				}
			}
			obj := map[string]any{"apiVersion": "validation/v1", "kind": "Validation"}
			for k, e := range v.(map[string]any) {
				obj[k] = e
			}
			_, err := objectmeta.CoerceEmbedded(obj, "", objectmeta.Options{})
			var detail string
			if err != nil {
				detail = err.Error()
			} else if !dropMeta {
				if me := embeddedMetaErrors(obj, nil, &mv, nil); len(me) > 0 {
					detail = me.Error()
				}
			}
			switch {
			case err != nil && dropMeta:
				s.HasDefault, s.Default = false, nil
			case detail != "":
				errs = append(errs, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: p.Child("default").String(), BadValue: s.Default,
					Detail: "must result in valid metadata: " + detail})
			case checked != nil:
				checked[s] = s.Default
			}
		}
		if s.HasDefault && !insideMeta && dropMeta {
			// a default holding an embedded resource whose metadata,
			// apiVersion or kind does not coerce would be written as is
			if coerce(c.a, deepCopy(s.Default), c.node(s, false, root, p, nil), nil, false) != nil {
				s.HasDefault, s.Default = false, nil
			}
		}
		if s.HasDefault && !insideMeta && !dropMeta {
			st := c.node(s, false, root, p, nil)
			v := deepCopy(s.Default)
			c.a.pruneValue(v, st, "", new([]string))
			if !reflect.DeepEqual(v, s.Default) {
				errs = append(errs, jperrors.Invalid(p.Child("default"), s.Default, "must not have unknown fields"))
			}
			// the coercion's first error, at the offending field, or else
			// the TypeMeta/ObjectMeta errors of the embedded resources
			v = deepCopy(s.Default)
			var me jperrors.FieldErrors
			if err := coerce(c.a, v, st, p.Child("default"), false); err != nil {
				me = jperrors.FieldErrors{asFieldError(err, p.Child("default"), s.Default)}
			} else {
				me = validateEmbedded(c.a, v, st, p.Child("default"), &mv, nil)
			}
			if len(me) > 0 {
				errs = append(errs, me...)
			} else if checked != nil {
				checked[s] = v
			}
		}
		steps = append(steps, step{index: true})
		walk(s.Items, p.Child("items"), insideMeta, false)
		steps = steps[:len(steps)-1]
		for _, k := range sortedKeys(s.Properties) {
			steps = append(steps, step{key: k})
			walk(s.Properties[k], p.Child("properties").Key(k), insideMeta || (embedded && (k == "metadata" || k == "apiVersion" || k == "kind")), false)
			steps = steps[:len(steps)-1]
		}
	}
	walk(s, p, false, true)
	return errs
}

// asFieldError turns a coercion error into the field error the reference
// returns (objectmeta.Coerce gives a *field.Error at the offending field);
// another error is reported at p with bad.
func asFieldError(err error, p *jperrors.FieldPath, bad any) *jperrors.FieldError {
	if e, ok := err.(*objectmeta.InvalidValueError); ok {
		return &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: e.Field, BadValue: e.BadValue, Detail: e.Detail}
	}
	return &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: p.String(), BadValue: bad, Detail: err.Error()}
}

// validateEmbedded appends to dst the reference's objectmeta.Validate
// errors of a coerced value v in state s at p: at every embedded resource
// reached through properties, additionalProperties and items, the TypeMeta
// and ObjectMeta errors of embeddedMetaErrors. The reference visits map
// keys in Go map order; here they come sorted.
func validateEmbedded(a *Automaton, v any, s StateID, p *jperrors.FieldPath, mv *objectmeta.Validator, dst jperrors.FieldErrors) jperrors.FieldErrors {
	if s < 0 {
		return dst
	}
	st := &a.states[s]
	switch x := v.(type) {
	case map[string]any:
		if st.Flags&Embedded != 0 {
			dst = embeddedMetaErrors(x, p, mv, dst)
		}
		for _, k := range sortedKeys(x) {
			if i := a.Lookup(s, []byte(k)); i >= 0 {
				if pr := &a.props[int(st.propStart)+i]; pr.Role == RoleProperty {
					dst = validateEmbedded(a, x[k], pr.Target, p.Child(k), mv, dst)
				}
			} else if st.Additional != NoState {
				dst = validateEmbedded(a, x[k], st.Additional, p.Key(k), mv, dst)
			}
		}
	case []any:
		for i, e := range x {
			dst = validateEmbedded(a, e, st.Items, p.Index(i), mv, dst)
		}
	}
	return dst
}

// embeddedMetaErrors appends the errors of one coerced embedded resource
// obj at p (nil: the top) to dst: apiVersion and kind (required, not empty,
// a group version, a DNS-1035 kind up to case), then its metadata with the
// rules of embedded metadata (objectmeta.Validator with Embedded).
func embeddedMetaErrors(obj map[string]any, p *jperrors.FieldPath, mv *objectmeta.Validator, dst jperrors.FieldErrors) jperrors.FieldErrors {
	path := ""
	if p != nil {
		path = p.String()
	}
	av, hasAV := obj["apiVersion"].(string)
	kind, hasKind := obj["kind"].(string)
	dst = objectmeta.ValidateEmbeddedTypeMeta(path, hasAV, av, hasKind, kind, dst)
	if md, ok := obj["metadata"]; ok {
		dst = mv.Validate(marshalCanonical(md), objectmeta.ValidateOptions{Embedded: true, Path: p.Child("metadata").String()}, dst)
	}
	return dst
}
