package errors

import (
	"strconv"
	"strings"
)

// FieldPath is a path in the syntax of k8s.io/apimachinery's field.Path, the
// third of the reference's path syntaxes: children are joined with ".",
// indices and map keys are bracketed ("a.b[0]", "spec.m[k.1]"), nothing is
// escaped. It is used by structural-schema violations, embedded-resource
// coercion errors and embedded-metadata unknown fields.
//
// A FieldPath is immutable; the zero value (nil) renders as "<nil>".
// Building a child allocates, so FieldPath is meant for reporting, not for
// hot paths.
type FieldPath struct {
	parent *FieldPath
	name   string // a child name; empty for an index or key
	index  string // an index or key, used when name is empty
}

// NewFieldPath returns the path made of name and its children more.
func NewFieldPath(name string, more ...string) *FieldPath {
	p := &FieldPath{name: name}
	for _, m := range more {
		p = p.Child(m)
	}
	return p
}

// Child returns p extended by a named child.
func (p *FieldPath) Child(name string, more ...string) *FieldPath {
	c := &FieldPath{parent: p, name: name}
	for _, m := range more {
		c = c.Child(m)
	}
	return c
}

// Index returns p extended by an array index, rendered "[i]".
func (p *FieldPath) Index(i int) *FieldPath {
	return &FieldPath{parent: p, index: strconv.Itoa(i)}
}

// Key returns p extended by a map key, rendered "[k]" without escaping.
func (p *FieldPath) Key(k string) *FieldPath {
	return &FieldPath{parent: p, index: k}
}

// Root returns the first element of p.
func (p *FieldPath) Root() *FieldPath {
	for p != nil && p.parent != nil {
		p = p.parent
	}
	return p
}

// String renders p as field.Path does: a named element is preceded by "."
// unless it is first; an empty name, an index or a key is bracketed.
func (p *FieldPath) String() string {
	if p == nil {
		return "<nil>"
	}
	n := 0
	for q := p; q != nil; q = q.parent {
		n++
	}
	elems := make([]*FieldPath, n)
	for q := p; q != nil; q = q.parent {
		n--
		elems[n] = q
	}
	var b strings.Builder
	for i, e := range elems {
		if e.name != "" {
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.name)
		} else {
			b.WriteByte('[')
			b.WriteString(e.index)
			b.WriteByte(']')
		}
	}
	return b.String()
}

// Parent returns the path without its last element (nil for a root).
func (p *FieldPath) Parent() *FieldPath {
	if p == nil {
		return nil
	}
	return p.parent
}
