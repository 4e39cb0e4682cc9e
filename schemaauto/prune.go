package schemaauto

// PruneValue prunes the JSON value tree v in place, starting in state s,
// exactly as PruneWithOptions (with its prune and skipPrune) in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go
// does on a decoded object, and returns the paths of the removed fields,
// sorted bytewise as the reference sorts them. It is the whole pruning
// algorithm over the automaton, on values; the decoder package runs the same
// transitions on a token stream. PruneValue neither prunes nulls, nor
// defaults, nor touches metadata; object values must be map[string]any and
// arrays []any.
//
// As in the reference, apiVersion, kind and metadata at the top of v are
// removed without being reported when s does not keep them (s is not a
// resource root): the reference records an unknown field there only below
// the top.
//
// It is used to pre-prune default values and as an executable statement of
// the automaton's semantics in tests.
func (a *Automaton) PruneValue(v any, s StateID) (unknown []string) {
	a.pruneValue(v, s, rootPath, &unknown)
	sortStrings(unknown)
	return unknown
}

func (a *Automaton) pruneValue(v any, s StateID, path string, unknown *[]string) {
	st := &a.states[s]
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if i := a.Lookup(s, []byte(k)); i >= 0 {
				p := &a.props[int(st.propStart)+i]
				if p.Role == RoleProperty {
					a.pruneValue(e, p.Target, joinKey(path, k), unknown)
				} // embedded apiVersion/kind/metadata: kept untouched
			} else if st.Additional != NoState {
				a.pruneValue(e, st.Additional, joinKey(path, k), unknown)
			} else if st.Flags&Preserve == 0 {
				delete(x, k)
				if path != rootPath || !isMetaField(k) {
					*unknown = append(*unknown, joinKey(path, k))
				}
			}
		}
	case []any:
		for i, e := range x {
			p := path
			if p == rootPath {
				p = ""
			}
			a.pruneValue(e, st.Items, p+"["+itoa(i)+"]", unknown)
		}
	}
}

// rootPath marks the empty path of the root (an empty name is a path too:
// under a property "", a key u is ".u", as in the reference).
const rootPath = "\x00root"

// joinKey appends a key to a pruning path: keys are joined with "." and
// never escaped, as UnknownFieldPathOptions.AppendKey in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/options.go joins them.
func joinKey(path, k string) string {
	if path == rootPath {
		return k
	}
	return path + "." + k
}

// isMetaField reports whether k is apiVersion, kind or metadata.
func isMetaField(k string) bool {
	return k == "apiVersion" || k == "kind" || k == "metadata"
}
