package schemaauto

import (
	"fmt"
	"strings"
	"sync"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// Set is a compiled set of CRDs: one automaton per (group, version, kind).
// It is immutable and safe for concurrent use.
type Set struct {
	entries map[GroupVersionKind]*Entry
	list    []*Entry
	// noSchema holds, per served group and kind, the automaton of a version
	// the CRD does not list: the reference prunes such objects with a nil
	// schema (everything but apiVersion, kind and metadata goes).
	noSchema map[groupKind]*Automaton
	// lazy is the index of a Set made by NewLazySet (lazy.go), which
	// compiles its CRDs on first use; the fields above are unused then.
	lazy *lazyIndex
}

type groupKind struct{ group, kind string }

// GroupVersionKind names a served type.
type GroupVersionKind struct {
	Group, Version, Kind string
}

func (g GroupVersionKind) String() string {
	if g.Group == "" {
		return g.Version + ", Kind=" + g.Kind
	}
	return g.Group + "/" + g.Version + ", Kind=" + g.Kind
}

// Entry is one compiled CRD version. An entry of a CRD a lazy Set read
// compiled from a Cache (CRDSource.Cache) has a CRD and a Version without
// schemas (names, versions, subresources): Schema returns the version's
// schema, and Automaton.Node the schema nodes, loading them on first use.
type Entry struct {
	GVK       GroupVersionKind
	CRD       *CRD
	Version   *Version
	Automaton *Automaton
	// scale is Version.Scale and status Version.StatusSubresource,
	// beside Automaton (Entry.Scale, Entry.StatusSubresource)
	scale  *Scale
	status bool
	// Skeleton is set when the version's schema is not structural and was
	// compiled by its skeleton (AllowSkeleton).
	Skeleton bool
	// Violations are the structural violations of a CRD that does not prune
	// (spec.preserveUnknownFields: true) and was compiled as the reference
	// serves it anyway; empty otherwise.
	Violations jperrors.FieldErrors

	// schemas loads the CRD of an entry read from the cache, which holds
	// none (Schema); index is the version's
	schemas *crdSchemas
	index   int
}

// Scale returns the version's scale subresource (Version.Scale), or nil,
// from the entry itself: a validating decoder looks for it in every
// document, and reads one cache line for it instead of two (the entry's
// and its Version's).
func (e *Entry) Scale() *Scale { return e.scale }

// StatusSubresource reports Version.StatusSubresource from the entry
// itself, as Scale does.
func (e *Entry) StatusSubresource() bool { return e.status }

// CRDError reports a CRD that cannot be compiled, with its violations.
type CRDError struct {
	CRD        string
	Violations jperrors.FieldErrors
	Err        error
}

func (e *CRDError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("CustomResourceDefinition %q: %v", e.CRD, e.Err)
	}
	return fmt.Sprintf("CustomResourceDefinition %q is invalid: %s", e.CRD, e.Violations.Error())
}

// CompileCRDs compiles every version of every CRD. A CRD whose schemas are
// not structural gives a *CRDError with the reference's violations, unless
// AllowSkeleton is given (then its versions are compiled by their skeletons)
// or it does not prune (spec.preserveUnknownFields: true; then it is
// compiled as the reference serves it, and the violations are kept in the
// Entry). Two CRDs serving the same group and kind are an error.
func CompileCRDs(crds []*CRD, options ...Option) (*Set, error) {
	co, err := newCompileOptions(options)
	if err != nil {
		return nil, err
	}
	set := &Set{entries: map[GroupVersionKind]*Entry{}, noSchema: map[groupKind]*Automaton{}}
	for _, c := range crds {
		none, err := compile(nil, c.PreserveUnknownFields, jperrors.NewFieldPath("openAPIV3Schema"))
		if err != nil {
			return nil, &CRDError{CRD: c.Name, Err: err}
		}
		set.noSchema[groupKind{c.Group, c.Kind}] = none
		violations := c.Validate()
		if len(violations) > 0 && !co.skeleton && !c.PreserveUnknownFields {
			return nil, &CRDError{CRD: c.Name, Violations: violations}
		}
		for i, v := range c.Versions {
			e := &Entry{GVK: GroupVersionKind{c.Group, v.Name, c.Kind}, CRD: c, Version: v, scale: v.Scale, status: v.StatusSubresource}
			if _, dup := set.entries[e.GVK]; dup {
				return nil, &CRDError{CRD: c.Name, Err: fmt.Errorf("%s is served by another CustomResourceDefinition too", e.GVK)}
			}
			path := jperrors.NewFieldPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema")
			s := v.Schema
			if len(violations) > 0 {
				if c.PreserveUnknownFields && !co.skeleton {
					if err := newStructuralError(s); err != nil {
						return nil, &CRDError{CRD: c.Name, Err: fmt.Errorf("failed to check validation schema for version %s: %v", v.Name, err)}
					}
					e.Violations = violations
				} else {
					// compile this version by its skeleton if it needs one
					sk, skeleton, err := structuralOrSkeleton(s, path.Parent(), co)
					if err != nil {
						return nil, &CRDError{CRD: c.Name, Err: err}
					}
					s, e.Skeleton = sk, skeleton
				}
			}
			a, err := compile(s, c.PreserveUnknownFields, path)
			if err != nil {
				return nil, &CRDError{CRD: c.Name, Err: err}
			}
			e.Automaton = a
			set.entries[e.GVK] = e
			set.list = append(set.list, e)
		}
	}
	return set, nil
}

// Lookup returns the entry for an object's apiVersion and kind. Matching is
// exact and case-sensitive, as in the reference.
func (s *Set) Lookup(apiVersion, kind string) (*Entry, bool) {
	g, v, err := ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, false
	}
	return s.LookupGVK(GroupVersionKind{g, v, kind})
}

// Resolve finds the automaton for an object's apiVersion and kind, as the
// reference's CR handler selects the structural schema: exact,
// case-sensitive group and kind; the version picks the schema. It returns
// the entry's automaton; for a group and kind the set serves in another
// version, an automaton without schema (the reference prunes everything but
// apiVersion, kind and metadata) and a nil entry; for an object the set does
// not serve, nil and nil. A malformed apiVersion is the reference's error.
func (s *Set) Resolve(apiVersion, kind string) (*Automaton, *Entry, error) {
	g, v, err := ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, nil, err
	}
	if s == nil {
		return nil, nil, nil // a nil Set serves nothing
	}
	if s.lazy != nil {
		return s.lazy.resolve(apiVersion, g, v, kind)
	}
	if e, ok := s.entries[GroupVersionKind{g, v, kind}]; ok {
		return e.Automaton, e, nil
	}
	return s.noSchema[groupKind{g, kind}], nil, nil
}

// LookupGVK returns the entry of a group, version and kind.
func (s *Set) LookupGVK(gvk GroupVersionKind) (*Entry, bool) {
	if s.lazy != nil {
		return s.lazy.lookup(gvk)
	}
	e, ok := s.entries[gvk]
	return e, ok
}

// Entries returns every compiled version, in CRD and version order. On a
// lazy Set (NewLazySet) it compiles every CRD and leaves out those that do
// not compile (CompileAll reports them).
func (s *Set) Entries() []*Entry {
	if s.lazy != nil {
		list, _ := s.lazy.entries()
		return list
	}
	return s.list
}

// ParseGroupVersion splits an apiVersion as the reference's
// schema.ParseGroupVersion does: "v1" has the empty group, "g/v" is group g
// and version v, the empty string is the empty group and version, and more
// than one slash is the error "unexpected GroupVersion string: <s>".
func ParseGroupVersion(apiVersion string) (group, version string, err error) {
	if apiVersion == "" || apiVersion == "/" {
		return "", "", nil
	}
	switch strings.Count(apiVersion, "/") {
	case 0:
		return "", apiVersion, nil
	case 1:
		i := strings.IndexByte(apiVersion, '/')
		return apiVersion[:i], apiVersion[i+1:], nil
	}
	return "", "", fmt.Errorf("unexpected GroupVersion string: %s", apiVersion)
}

var passThrough = sync.OnceValue(func() *Automaton {
	t := true
	a, err := compile(&Schema{Type: "object", PreserveUnknownFields: &t}, false, jperrors.NewFieldPath("openAPIV3Schema"))
	if err != nil {
		panic(err)
	}
	return a
})

// PassThrough returns the automaton for objects no CRD serves: everything
// is kept, and only what the reference does to every custom resource body
// happens (root metadata normalised, duplicates detected).
func PassThrough() *Automaton { return passThrough() }
