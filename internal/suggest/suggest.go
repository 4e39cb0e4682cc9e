// Package suggest finds what a misspelled or misplaced name was likely
// meant to be: the "did you mean" of the command line's findings. It is
// used only for findings, so that clean documents cost nothing.
package suggest

import (
	"sort"
	"strconv"
	"strings"

	"github.com/jsonprune/jsonprune/schemaauto"
)

// Word returns the candidate s was likely meant to be: one equal to s but
// for case, else the one nearest to s within a small edit distance
// (insertions, deletions, substitutions and transpositions of adjacent
// characters, ignoring case; the bound grows with the length of s: none
// for 1 to 3 characters, 1 up to 5, 2 up to 10, 3 beyond). It returns ""
// when no candidate is near, or when two are equally near (a guess would
// mislead), and never s itself.
func Word(s string, candidates []string) string {
	for _, c := range candidates {
		if c != s && strings.EqualFold(c, s) {
			return c
		}
	}
	limit := bound(len([]rune(s)))
	if limit == 0 {
		return ""
	}
	best, bestD, tie := "", limit+1, false
	ls := strings.ToLower(s)
	for _, c := range candidates {
		if c == s {
			continue
		}
		d := distance(ls, strings.ToLower(c), limit)
		switch {
		case d < bestD:
			best, bestD, tie = c, d, false
		case d == bestD && c != best:
			tie = true
		}
	}
	if tie || bestD > limit {
		return ""
	}
	return best
}

func bound(n int) int {
	switch {
	case n <= 3:
		return 0
	case n <= 5:
		return 1
	case n <= 10:
		return 2
	}
	return 3
}

// distance is the optimal string alignment distance of a and b (in
// runes), or limit+1 when it is larger than limit.
func distance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// objectMeta are the fields of metadata (ObjectMeta) a manifest may set.
var objectMeta = []string{"name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation",
	"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations",
	"ownerReferences", "finalizers", "managedFields"}

// rootFields are the members of every custom resource besides its schema's.
var rootFields = []string{"apiVersion", "kind", "metadata"}

// Field returns the path of the declared field an unknown field was likely
// meant to be, in the API server's path syntax (spec.list[0].x), or "".
// pointer is the unknown field's RFC 6901 JSON Pointer (/spec/replcas);
// root the schema of the object's CRD version. In order:
//
//   - a sibling that differs only in case;
//   - the same name one object level up (a field indented too deep:
//     spec.obj.replicas for spec.replicas);
//   - the same name in an object property of its parent (one level down:
//     spec.replicas for spec.template.replicas);
//   - the same name in a sibling object of its parent (spec.a.x for
//     spec.b.x);
//   - for a key "true" or "false", a sibling that YAML 1.1 reads as that
//     boolean when it is not quoted (y, on, no...);
//   - a sibling within a small edit distance (replcas for replicas).
//
// Each step needs a single answer; several are no suggestion.
func Field(root *schemaauto.Schema, pointer string) string {
	if root == nil {
		return ""
	}
	return field(schemaNode{root}, pointer)
}

// FieldOf is Field on the automaton of the object's CRD version, which
// holds the names Field reads of the schema (its properties, items and
// additionalProperties): an automaton read from the cache gives it
// without loading its CRD's schemas.
func FieldOf(a *schemaauto.Automaton, pointer string) string {
	if a == nil {
		return ""
	}
	return field(autoNode{a, a.Root()}, pointer)
}

// field is Field on the tree of names whose root is root.
func field(root node, pointer string) string {
	segs := splitPointer(pointer)
	if len(segs) == 0 {
		return ""
	}
	name := segs[len(segs)-1]
	parent := segs[:len(segs)-1]
	pn, ok := walk(root, parent)
	if !ok {
		return ""
	}
	siblings := names(pn, len(parent) == 0, isMetadata(parent))
	// a sibling in another case
	for _, s := range siblings {
		if s != name && strings.EqualFold(s, name) {
			return render(root, append(clone(parent), s))
		}
	}
	if !isMetadata(parent) {
		// one object level up: past the parent and the indices above it
		up := len(parent) - 1
		for up > 0 && isIndex(root, parent[:up], parent[up]) {
			up--
		}
		if up >= 0 {
			upSegs := parent[:up]
			if un, ok := walk(root, upSegs); ok && has(names(un, len(upSegs) == 0, false), name) {
				return render(root, append(clone(upSegs), name))
			}
		}
		// one level down, into an object property of the parent
		var found []string
		for _, p := range pn.props() {
			if c, ok := pn.prop(p); ok && c.hasProp(name) {
				found = append(found, p)
			}
		}
		if len(found) == 1 {
			return render(root, append(clone(parent), found[0], name))
		}
		// a sibling object of the parent
		if len(parent) > 0 && !isIndex(root, parent[:len(parent)-1], parent[len(parent)-1]) {
			gp := parent[:len(parent)-1]
			if gn, ok := walk(root, gp); ok {
				found = found[:0]
				for _, p := range gn.props() {
					if c, ok := gn.prop(p); p != parent[len(parent)-1] && ok && c.hasProp(name) {
						found = append(found, p)
					}
				}
				if len(found) == 1 {
					return render(root, append(clone(gp), found[0], name))
				}
			}
		}
	}
	if s := yaml11Bool(name, siblings); s != "" {
		return render(root, append(clone(parent), s))
	}
	if s := Word(name, siblings); s != "" {
		return render(root, append(clone(parent), s))
	}
	return ""
}

// yaml11Bool is the declared field an unknown "true" or "false" was
// written as: YAML 1.1, as the API server reads YAML, reads a plain y, yes,
// on (n, no, off) key as a boolean, whose name is then "true" ("false").
// Quoting the key ("y") keeps it a string.
func yaml11Bool(name string, siblings []string) string {
	var spellings []string
	switch name {
	case "true":
		spellings = []string{"y", "Y", "yes", "Yes", "YES", "on", "On", "ON"}
	case "false":
		spellings = []string{"n", "N", "no", "No", "NO", "off", "Off", "OFF"}
	default:
		return ""
	}
	found := ""
	for _, s := range siblings {
		if has(spellings, s) {
			if found != "" {
				return ""
			}
			found = s
		}
	}
	return found
}

func clone(s []string) []string { return append([]string(nil), s...) }

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func isMetadata(parent []string) bool { return len(parent) == 1 && parent[0] == "metadata" }

// names are the fields declared in a node (and at the root, apiVersion,
// kind and metadata; in metadata, ObjectMeta's).
func names(n node, root, metadata bool) []string {
	if metadata {
		return objectMeta
	}
	out := n.props()
	if root {
		out = append(out, rootFields...)
	}
	return out
}

// A node is a schema node as Field reads it: its properties' names, sorted
// (so that ties are found whatever the order), the node of a property, of
// an array's items or of a map's values.
type node interface {
	props() []string
	prop(name string) (node, bool)
	hasProp(name string) bool
	items() (node, bool)
	values() (node, bool)
}

// child is the node of a segment under n: a property, an array's items
// (the segment is an index) or a map's values.
func child(n node, seg string) (node, bool) {
	if c, ok := n.prop(seg); ok {
		return c, true
	}
	if c, ok := n.items(); ok && isNumber(seg) {
		return c, true
	}
	return n.values()
}

// walk follows segs from root (metadata: a node of its own, without a schema).
func walk(root node, segs []string) (node, bool) {
	n := root
	for i, s := range segs {
		if i == 0 && s == "metadata" && len(segs) == 1 {
			return schemaNode{}, true
		}
		c, ok := child(n, s)
		if !ok {
			return nil, false
		}
		n = c
	}
	return n, true
}

// isIndex reports whether seg, under the node at segs, is an array index.
func isIndex(root node, segs []string, seg string) bool {
	n, ok := walk(root, segs)
	if !ok || n.hasProp(seg) {
		return false
	}
	_, items := n.items()
	return items && isNumber(seg)
}

// schemaNode is a node of a schema (s nil: no schema, no names).
type schemaNode struct{ s *schemaauto.Schema }

func (n schemaNode) props() []string {
	if n.s == nil {
		return nil
	}
	out := make([]string, 0, len(n.s.Properties))
	for p := range n.s.Properties {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func (n schemaNode) prop(name string) (node, bool) {
	if n.s == nil || n.s.Properties[name] == nil {
		return nil, false
	}
	return schemaNode{n.s.Properties[name]}, true
}

func (n schemaNode) hasProp(name string) bool { return n.s != nil && n.s.Properties[name] != nil }

func (n schemaNode) items() (node, bool) {
	if n.s == nil || n.s.Items == nil {
		return nil, false
	}
	return schemaNode{n.s.Items}, true
}

func (n schemaNode) values() (node, bool) {
	if n.s == nil || n.s.AdditionalProperties == nil || n.s.AdditionalProperties.Schema == nil {
		return nil, false
	}
	return schemaNode{n.s.AdditionalProperties.Schema}, true
}

// autoNode is the state of an automaton compiled from a schema node: the
// schema's properties are its properties of role RoleProperty and the
// embedded resource's apiVersion, kind and metadata that the schema
// declares (Declared); its items and map values are the states above
// Keep (Drop and Keep stand for no schema).
type autoNode struct {
	a *schemaauto.Automaton
	s schemaauto.StateID
}

func (n autoNode) declared(p schemaauto.Prop) (schemaauto.StateID, bool) {
	if p.Role == schemaauto.RoleProperty {
		return p.Target, true
	}
	return p.Declared, p.Declared != schemaauto.NoState
}

func (n autoNode) valid() bool { return n.s > schemaauto.Keep && int(n.s) < n.a.NumStates() }

func (n autoNode) props() []string {
	if !n.valid() {
		return nil
	}
	var out []string
	for _, p := range n.a.Props(n.s) {
		if _, ok := n.declared(p); ok {
			out = append(out, p.Name)
		}
	}
	sort.Strings(out) // the automaton sorts them by length, then name
	return out
}

func (n autoNode) prop(name string) (node, bool) {
	if !n.valid() {
		return nil, false
	}
	i := n.a.Lookup(n.s, []byte(name))
	if i < 0 {
		return nil, false
	}
	t, ok := n.declared(n.a.Props(n.s)[i])
	if !ok {
		return nil, false
	}
	return autoNode{n.a, t}, true
}

func (n autoNode) hasProp(name string) bool {
	_, ok := n.prop(name)
	return ok
}

func (n autoNode) items() (node, bool) {
	if !n.valid() || n.a.State(n.s).Items <= schemaauto.Keep {
		return nil, false
	}
	return autoNode{n.a, n.a.State(n.s).Items}, true
}

func (n autoNode) values() (node, bool) {
	if !n.valid() || n.a.State(n.s).Additional <= schemaauto.Keep {
		return nil, false
	}
	return autoNode{n.a, n.a.State(n.s).Additional}, true
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	_, err := strconv.Atoi(s)
	return err == nil
}

// render writes segs as the API server writes a path: spec.list[0].x.
func render(root node, segs []string) string {
	var b strings.Builder
	for i, s := range segs {
		if i > 0 && isIndex(root, segs[:i], s) {
			b.WriteString("[" + s + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// splitPointer splits an RFC 6901 JSON Pointer into its unescaped tokens.
func splitPointer(p string) []string {
	if p == "" || p[0] != '/' {
		return nil
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		if strings.Contains(s, "~") {
			parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
		}
	}
	return parts
}
