// Package suggest finds what a misspelled or misplaced name was likely
// meant to be: the "did you mean" of the command line's findings. It is
// used only for findings, so that clean documents cost nothing.
package suggest

import (
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
	segs := splitPointer(pointer)
	if root == nil || len(segs) == 0 {
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
		for _, p := range sortedProps(pn) {
			if c := pn.Properties[p]; c != nil && c.Properties[name] != nil {
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
				for _, p := range sortedProps(gn) {
					if c := gn.Properties[p]; p != parent[len(parent)-1] && c != nil && c.Properties[name] != nil {
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
func names(n *schemaauto.Schema, root, metadata bool) []string {
	if metadata {
		return objectMeta
	}
	out := sortedProps(n)
	if root {
		out = append(out, rootFields...)
	}
	return out
}

func sortedProps(n *schemaauto.Schema) []string {
	if n == nil {
		return nil
	}
	out := make([]string, 0, len(n.Properties))
	for p := range n.Properties {
		out = append(out, p)
	}
	// sorted, so that ties are found whatever the map's order
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// child is the node of a segment under n: a property, an array's items
// (the segment is an index) or a map's values.
func child(n *schemaauto.Schema, seg string) (*schemaauto.Schema, bool) {
	if n == nil {
		return nil, false
	}
	if c := n.Properties[seg]; c != nil {
		return c, true
	}
	if n.Items != nil && isNumber(seg) {
		return n.Items, true
	}
	if ap := n.AdditionalProperties; ap != nil && ap.Schema != nil {
		return ap.Schema, true
	}
	return nil, false
}

// walk follows segs from root (metadata: a node of its own, without a schema).
func walk(root *schemaauto.Schema, segs []string) (*schemaauto.Schema, bool) {
	n := root
	for i, s := range segs {
		if i == 0 && s == "metadata" && len(segs) == 1 {
			return &schemaauto.Schema{}, true
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
func isIndex(root *schemaauto.Schema, segs []string, seg string) bool {
	n, ok := walk(root, segs)
	return ok && n != nil && n.Properties[seg] == nil && n.Items != nil && isNumber(seg)
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	_, err := strconv.Atoi(s)
	return err == nil
}

// render writes segs as the API server writes a path: spec.list[0].x.
func render(root *schemaauto.Schema, segs []string) string {
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
