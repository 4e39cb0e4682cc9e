package schemaauto

import (
	"reflect"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// Default values are pre-pruned at compile time as the reference's
// defaulting.PruneDefaults does (reference section 2.1 step 4): each default
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
	coerceValue(c.a, w, c.a.root)
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
			continue
		}
		d.json = marshalCanonical(d.value)
	}
	if len(removed) == 0 {
		return nil
	}
	for i := range c.a.states {
		st := &c.a.states[i]
		if st.Default >= 0 && removed[st.Default] {
			st.Default, st.Flags = -1, st.Flags&^HasDefault
		}
	}
	for i := range c.a.states {
		st := &c.a.states[i]
		st.Flags &^= DefaultsProps
		for _, p := range c.a.props[st.PropStart:st.PropEnd] {
			t := p.Target
			if p.Declared != NoState {
				t = p.Declared
			}
			if t >= 0 && c.a.states[t].Flags&HasDefault != 0 {
				st.Flags |= DefaultsProps
			}
		}
	}
	return nil
}

// unprunedDefaults reports, as CRD validation does, every default that
// pruning would change: "<path>.default: Invalid value: <json>: must not
// have unknown fields". s must be structural; p is its path.
func unprunedDefaults(s *Schema, p *jperrors.FieldPath) jperrors.FieldErrors {
	c := &compiler{
		a:          &Automaton{prunes: true},
		memo:       map[memoKey]StateID{},
		defaultIdx: map[*Schema]int32{},
	}
	c.init()
	c.a.root = c.node(s, false, true, p, nil)
	var errs jperrors.FieldErrors
	for _, site := range c.sites {
		orig := c.a.defaults[site.index].value
		v, ok := c.prunedDefault(site)
		if !ok || !reflect.DeepEqual(v, orig) {
			errs = append(errs, jperrors.Invalid(site.path.Child("default"), orig, "must not have unknown fields"))
		}
	}
	return errs
}
