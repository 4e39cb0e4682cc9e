package schemaauto

import (
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/objectmeta"
)

// coerce runs the reference's objectmeta.Coerce on a value tree: at every
// embedded resource reached through properties, additionalProperties and
// items (whatever preserve-unknown-fields says), apiVersion and kind must be
// strings and metadata is normalised. With drop set, bad apiVersion/kind and
// malformed metadata fields are deleted (the reference's drop mode, used on
// defaults before they are pruned); otherwise the first error is returned,
// with the field.Path of the embedded resource (p).
func coerce(a *Automaton, v any, s StateID, p *jperrors.FieldPath, drop bool) error {
	if s < 0 {
		return nil
	}
	st := &a.states[s]
	switch x := v.(type) {
	case map[string]any:
		if st.Flags&Embedded != 0 {
			path := ""
			if p != nil {
				path = p.String()
			}
			if _, err := objectmeta.CoerceEmbedded(x, path, objectmeta.Options{DropMalformed: drop}); err != nil && !drop {
				return err
			}
		}
		for _, k := range sortedKeys(x) {
			e := x[k]
			if i := a.Lookup(s, []byte(k)); i >= 0 {
				if pr := &a.props[int(st.propStart)+i]; pr.Role == RoleProperty {
					if err := coerce(a, e, pr.Target, p.Child(k), drop); err != nil {
						return err
					}
				}
			} else if st.Additional != NoState {
				if err := coerce(a, e, st.Additional, p.Key(k), drop); err != nil {
					return err
				}
			}
		}
	case []any:
		for i, e := range x {
			if err := coerce(a, e, st.Items, p.Index(i), drop); err != nil {
				return err
			}
		}
	}
	return nil
}
