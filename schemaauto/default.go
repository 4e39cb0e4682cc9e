package schemaauto

// DefaultValue applies the schema's defaults to the JSON value tree v in
// place, starting in state s, exactly as Default in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting/algorithm.go
// does, and returns v (a null v stays null). It is the
// whole defaulting algorithm over the automaton, on values; the decoder runs
// the same rules on a token stream. Defaults are deep-copied into v.
//
//   - object: every property with a default that is absent, or null and not
//     nullable, gets the default; then every property recurses, and every
//     additionalProperties entry that is null and not nullable gets the
//     additionalProperties default (if any) and recurses;
//   - array: every null element gets the items default when items is not
//     nullable; then every element recurses.
func (a *Automaton) DefaultValue(v any, s StateID) any {
	if s < 0 {
		return v
	}
	st := &a.states[s]
	switch x := v.(type) {
	case map[string]any:
		for _, p := range a.props[st.propStart:st.propEnd] {
			t := p.Target
			if p.Role != RoleProperty {
				t = p.Declared
			}
			if t < 0 || a.states[t].Default < 0 {
				continue
			}
			if cur, ok := x[p.Name]; !ok || (cur == nil && a.states[t].Flags&Nullable == 0) {
				x[p.Name] = deepCopy(a.defaults[a.states[t].Default].value)
			}
		}
		for k, e := range x {
			if i := a.Lookup(s, []byte(k)); i >= 0 {
				p := &a.props[int(st.propStart)+i]
				t := p.Target
				if p.Role != RoleProperty {
					t = p.Declared
				}
				x[k] = a.DefaultValue(e, t)
			} else if ap := st.Additional; ap != NoState {
				if e == nil && a.states[ap].Flags&Nullable == 0 && a.states[ap].Default >= 0 {
					e = deepCopy(a.defaults[a.states[ap].Default].value)
				}
				x[k] = a.DefaultValue(e, ap)
			}
		}
	case []any:
		it := st.Items
		for i, e := range x {
			if e == nil && it >= 0 && a.states[it].Flags&Nullable == 0 && a.states[it].Default >= 0 {
				e = deepCopy(a.defaults[a.states[it].Default].value)
			}
			x[i] = a.DefaultValue(e, it)
		}
	}
	return v
}
