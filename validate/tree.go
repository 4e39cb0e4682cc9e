package validate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// Tree is a compiled schema tree: one node's [Rules] and its children, as
// the CRD's openAPIV3Schema writes them (not the structural schema: the
// junctor branches are full nodes with properties, items and value
// validations of their own). [Tree.Validate] runs the API server's OpenAPI
// schema step (kube-openapi's SchemaValidator as apiextensions builds it) on
// a decoded value tree, junctors included; [Tree.ListTypes] runs its
// x-kubernetes-list-type step.
//
// A Tree is built once (package schemaauto builds it from a schema with
// Schema.ValidationTree) and is then immutable and safe for concurrent use.
// A nil *Tree validates nothing.
//
// Cost. A value is first judged by a walk that renders no error and
// allocates nothing; only an invalid value is walked again to render its
// errors. Each junctor branch is a full validation of the same value (as
// on the server): time is the value's size times the number of branch
// evaluations along its path, which multiplies with nested junctors; a
// branch is rendered only when it is reported (the best failing anyOf or
// oneOf branch, the failing allOf branches). Memory beyond the value is
// the recursion (the schema's depth) and the rendered errors. A streaming
// caller holds the subtree under a junctor node to call Junctors on it:
// memory bounded by the largest such subtree, never by the document.
type Tree struct {
	// Rules are the node's own value checks (nil: none). Rules.Required and
	// Rules.AdditionalPropertiesFalse hold required and additionalProperties:
	// false.
	Rules *Rules
	// Properties are the declared properties.
	Properties map[string]*Tree
	// AdditionalProperties is the additionalProperties schema (nil when
	// absent, true or false).
	AdditionalProperties *Tree
	// Items is the items schema.
	Items *Tree
	// AllOf, AnyOf, OneOf and Not are the junctors.
	AllOf, AnyOf, OneOf []*Tree
	Not                 *Tree
	// ListType is x-kubernetes-list-type ("", "atomic", "set", "map") and
	// ListMapKeys its x-kubernetes-list-map-keys; only [Tree.ListTypes]
	// reads them.
	ListType    string
	ListMapKeys []string
}

// Result is the outcome of validating one value against one node as
// kube-openapi computes it: the errors (converted to field errors, in the
// server's order), the kube-openapi message of each (Keys[i] for
// Errors[i]: the text the server de-duplicates by when it merges results
// upward), and the match count that decides which failing anyOf/oneOf
// branch is reported (reference 4.3).
type Result struct {
	Errors     jperrors.FieldErrors
	Keys       []string
	MatchCount int
	set        map[string]struct{}
}

// Valid reports whether the result has no error.
func (r *Result) Valid() bool { return len(r.Errors) == 0 }

// Has reports whether an error with the kube-openapi message key is in r.
func (r *Result) Has(key string) bool {
	if r.set != nil {
		_, ok := r.set[key]
		return ok
	}
	return slices.Contains(r.Keys, key)
}

// Add appends e unless an error with the same key is already in r (the
// server's de-duplication); it reports whether e was appended.
func (r *Result) Add(e *jperrors.FieldError, key string) bool {
	if r.Has(key) {
		return false
	}
	r.Errors = append(r.Errors, e)
	r.Keys = append(r.Keys, key)
	if r.set != nil {
		r.set[key] = struct{}{}
	} else if len(r.Keys) > 16 {
		r.set = make(map[string]struct{}, 2*len(r.Keys))
		for _, k := range r.Keys {
			r.set[k] = struct{}{}
		}
	}
	return true
}

// Merge adds o's errors to r (de-duplicated) and o's match count.
func (r *Result) Merge(o *Result) {
	if o == nil {
		return
	}
	for i, e := range o.Errors {
		r.Add(e, o.Keys[i])
	}
	r.MatchCount += o.MatchCount
}

// Validate validates the decoded value v (nil, bool, int64, float64,
// string, map[string]any, []any) at the validator's dotted path ("" at the
// root) against the node and everything below it, as the API server's
// schema step does (reference 4.1): for null only type and enum; otherwise
// type, junctors (anyOf, oneOf, allOf, not), string, format, number, array
// (items, minItems, maxItems, uniqueItems), enum, object (minProperties,
// maxProperties, additionalProperties, properties, required). Errors are
// de-duplicated by their kube-openapi message text, first occurrence kept.
//
// Where the server iterates a Go map (the keys of an object: additional
// properties, then declared properties) Validate takes the keys in sorted
// order; the server's order there is unspecified.
//
// A valid value is recognised by a walk that renders nothing and allocates
// nothing; an invalid one is then walked again to render its errors.
func (t *Tree) Validate(path string, v any) jperrors.FieldErrors {
	if dryAllowedValue(path, v) {
		if _, ok := t.dry(v); ok {
			return nil
		}
	}
	return t.Eval(path, v).Errors
}

// Eval is Validate with the keys and the match count.
func (t *Tree) Eval(path string, v any) *Result {
	res := &Result{}
	t.eval(res, path, v)
	return res
}

// Junctors is step 2 of the node algorithm alone (reference 4.1, 4.3): the
// errors the node's anyOf, oneOf, allOf and not add for the value v at
// path, each branch validated fully (its own junctors, properties, items).
// It is for a streaming caller that runs the node's other checks itself;
// such a caller must merge as the server does, with [Tree.JunctorResult]'s
// keys and [Rules.MessageKey]: the node's type errors, then the junctor
// errors whose keys are new, then every later error of the node and of its
// subtree (string ... object, the properties' and items' errors included)
// whose key is new. The value v must be the whole value at path: anyOf and
// oneOf choose their reported branch by a count that grows with the
// subtree visited. Since the caller holds that subtree anyway, calling
// [Tree.Validate] on it (for the node and everything below) is the
// simplest exact course.
func (t *Tree) Junctors(path string, v any) jperrors.FieldErrors {
	return t.JunctorResult(path, v).Errors
}

// JunctorResult is Junctors with the keys and the junctor step's part of
// the match count.
func (t *Tree) JunctorResult(path string, v any) *Result {
	res := &Result{}
	if t != nil && v != nil {
		t.junctors(res, path, v)
	}
	return res
}

// HasJunctors reports whether the node has allOf, anyOf, oneOf or not.
func (t *Tree) HasJunctors() bool {
	return t != nil && (len(t.AllOf) > 0 || len(t.AnyOf) > 0 || len(t.OneOf) > 0 || t.Not != nil)
}

// childPath is the validator's path of a declared property.
func childPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (t *Tree) eval(res *Result, path string, v any) {
	var r *Rules
	if t != nil {
		r = t.Rules
	}
	s, ok := ScalarOf(v)
	if !ok {
		return // not a decoded value
	}
	if s.Kind == Null {
		// the type validator (which counts 1 when it passes) and enum
		if te := r.AppendTypeErrors(nil, path, s); len(te) > 0 {
			res.Add(te[0], te[0].Detail)
		} else {
			res.MatchCount++
		}
		if r.HasEnum() {
			res.Add(r.enumError(path, nil), r.enumKey(path))
		}
		return
	}
	// 1. type
	if r != nil && (len(r.types) > 0 || r.format != "") {
		res.MatchCount++
		if te := r.AppendTypeErrors(nil, path, s); len(te) > 0 {
			res.Add(te[0], te[0].Detail)
		} else {
			res.MatchCount++
		}
	}
	// 2. junctors
	res.MatchCount++
	if t.HasJunctors() {
		t.junctors(res, path, v)
	} else {
		res.MatchCount++ // the junctor validator's own Inc
	}
	switch s.Kind {
	case String:
		// 3. string
		res.MatchCount++
		if r != nil {
			for _, e := range r.appendStringErrors(nil, path, s.Str) {
				res.Add(e, r.MessageKey(path, String, e))
			}
			// 4. format
			if r.strFormat != fmtNone {
				res.MatchCount++
				if !checkFormat(r.strFormat, s.Str) {
					str := string(s.Str)
					detail := path + " in body must be of type " + r.format + ": " + strconv.Quote(str)
					res.Add(&jperrors.FieldError{Type: jperrors.FieldTypeInvalid, Field: fieldOf(path), BadValue: str, Detail: detail}, detail)
				}
			}
		}
	case Int, Float:
		// 5. number
		res.MatchCount += 2
		if r != nil {
			for _, e := range r.appendNumberErrors(nil, path, s) {
				res.Add(e, e.Detail)
			}
		}
	case Array:
		// 6. array
		res.MatchCount += 2
		items := v.([]any)
		if t != nil && t.Items != nil {
			for i, x := range items {
				t.Items.eval(res, path+"["+strconv.Itoa(i)+"]", x)
			}
		}
		if r != nil {
			for _, e := range r.AppendArrayErrors(nil, path, len(items)) {
				res.Add(e, r.MessageKey(path, Array, e))
			}
			for _, e := range r.AppendUniqueErrors(nil, path, items) {
				res.Add(e, e.Detail)
			}
		}
	}
	// 7. enum
	res.MatchCount++
	if r.HasEnum() && !r.CheckEnum(v) {
		res.Add(r.enumError(path, v), r.enumKey(path))
	}
	// 8. object
	if s.Kind == Object {
		res.MatchCount++
		t.evalObject(res, r, path, v.(map[string]any))
	}
	res.MatchCount++
}

func (t *Tree) evalObject(res *Result, r *Rules, path string, m map[string]any) {
	for _, e := range r.AppendObjectErrors(nil, path, len(m)) {
		res.Add(e, r.MessageKey(path, Object, e))
	}
	var props map[string]*Tree
	if t != nil {
		props = t.Properties
	}
	if r.AdditionalPropertiesFalse() {
		for _, k := range sortedKeys(m) {
			if _, ok := props[k]; !ok {
				e := ForbiddenProperty(path, k)
				res.Add(e, e.Detail)
			}
		}
	} else if t != nil && t.AdditionalProperties != nil {
		for _, k := range sortedKeys(m) {
			if _, ok := props[k]; !ok {
				t.AdditionalProperties.eval(res, path+"."+k, m[k])
			}
		}
	}
	if len(props) > 0 {
		var buf [16]string
		if len(props) <= len(m) {
			for _, k := range appendSortedKeys(buf[:0], props) {
				if x, ok := m[k]; ok {
					props[k].eval(res, childPath(path, k), x)
				}
			}
		} else {
			for _, k := range appendSortedKeys(buf[:0], m) {
				if p, ok := props[k]; ok {
					p.eval(res, childPath(path, k), m[k])
				}
			}
		}
	}
	for _, k := range r.Required() {
		if _, ok := m[k]; !ok {
			res.Add(RequiredError(path, k), path+"."+k+" in body is required")
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	return appendSortedKeys(make([]string, 0, len(m)), m)
}

// appendSortedKeys appends m's keys to dst, sorted.
func appendSortedKeys[V any](dst []string, m map[string]V) []string {
	for k := range m {
		dst = append(dst, k)
	}
	slices.Sort(dst)
	return dst
}

// MessageKey is the kube-openapi message of an error that r's checks
// produced for a value of kind k at path: the text the API server
// de-duplicates by. Most errors carry it as their detail; Required,
// TooLong, TooMany and NotSupported errors have their own texts. An error
// from [RequiredError] is keyed by its field (exact except for keys
// containing "." at the root).
func (r *Rules) MessageKey(path string, k Kind, e *jperrors.FieldError) string {
	switch e.Type {
	case jperrors.FieldRequired:
		f := e.Field
		if path == "" || strings.HasPrefix(path, ".") {
			f = "." + f // the name was o.Path + "." + key; the field lost the leading "."
		}
		return f + " in body is required"
	case jperrors.FieldTooLong:
		return path + " in body should be at most " + strconv.FormatInt(r.maxLen, 10) + " chars long"
	case jperrors.FieldTooMany:
		if k == Object {
			return path + " in body should have at most " + strconv.FormatInt(r.maxProps, 10) + " properties"
		}
		return path + " in body should have at most " + strconv.FormatInt(r.maxItems, 10) + " items"
	case jperrors.FieldNotSupported:
		return r.enumKey(path)
	}
	return e.Detail
}

// enumKey is kube-openapi's EnumFail message.
func (r *Rules) enumKey(path string) string {
	return fmt.Sprintf("%s in body should be one of %v", path, r.enum)
}

// junctors is step 2 at one node: anyOf, oneOf, allOf, not, merged into res
// as kube-openapi's schemaPropsValidator merges them (its own Inc
// included).
func (t *Tree) junctors(res *Result, path string, v any) {
	if dryAllowed(path) {
		t.junctorsDry(res, path, v)
		return
	}
	var keepAny, keepOne, keepAll []*jperrors.FieldError
	if len(t.AnyOf) > 0 {
		var best, first *Result
		ok := false
		for _, b := range t.AnyOf {
			br := b.Eval(path, v)
			keepAny = append(keepAny, important(br)...)
			if br.Valid() {
				best, ok, first, keepAny = nil, true, br, nil
				break
			}
			if best == nil || br.MatchCount > best.MatchCount {
				best = br
			}
		}
		if !ok {
			res.Add(composite(strconv.Quote(path) + " must validate at least one schema (anyOf)"))
		}
		if best != nil {
			res.Merge(best)
		} else {
			res.Merge(first)
		}
	}
	if len(t.OneOf) > 0 {
		var best, first *Result
		n := 0
		for _, b := range t.OneOf {
			br := b.Eval(path, v)
			keepOne = append(keepOne, important(br)...)
			if br.Valid() {
				n++
				best = nil
				if first == nil {
					first = br
				}
				keepOne = nil
				continue
			}
			if n == 0 && (best == nil || br.MatchCount > best.MatchCount) {
				best = br
			}
		}
		if n != 1 {
			more := "Found none valid"
			if n > 0 {
				more = "Found " + strconv.Itoa(n) + " valid alternatives"
			}
			res.Add(composite(strconv.Quote(path) + " must validate one and only one schema (oneOf). " + more))
			res.Merge(best)
		} else {
			res.Merge(first)
		}
	}
	if len(t.AllOf) > 0 {
		n := 0
		for _, b := range t.AllOf {
			br := b.Eval(path, v)
			keepAll = append(keepAll, important(br)...)
			if br.Valid() {
				n++
			}
			res.Merge(br)
		}
		if n != len(t.AllOf) {
			more := ""
			if n == 0 {
				more = ". None validated"
			}
			res.Add(composite(strconv.Quote(path) + " must validate all the schemas (allOf)" + more))
		}
	}
	if t.Not != nil {
		if t.Not.Eval(path, v).Valid() {
			res.Add(composite(strconv.Quote(path) + " must not validate the schema (not)"))
		}
	}
	res.MatchCount++
	for _, l := range [][]*jperrors.FieldError{keepAll, keepOne, keepAny} {
		for _, e := range l {
			res.Add(e, e.Detail)
		}
	}
}

// junctorsDry is junctors with the branches evaluated dry first: only the
// reported branches are validated again with their errors.
func (t *Tree) junctorsDry(res *Result, path string, v any) {
	if len(t.AnyOf) > 0 {
		best, bestC, passed, passC := -1, 0, false, 0
		for i, b := range t.AnyOf {
			c, ok := b.dry(v)
			if ok {
				passed, passC = true, c
				break
			}
			if best < 0 || c > bestC {
				best, bestC = i, c
			}
		}
		if passed {
			res.MatchCount += passC
		} else {
			res.Add(composite(strconv.Quote(path) + " must validate at least one schema (anyOf)"))
			res.Merge(t.AnyOf[best].Eval(path, v))
		}
	}
	if len(t.OneOf) > 0 {
		best, bestC, n, firstC := -1, 0, 0, 0
		for i, b := range t.OneOf {
			c, ok := b.dry(v)
			if ok {
				n++
				best = -1
				if n == 1 {
					firstC = c
				}
				continue
			}
			if n == 0 && (best < 0 || c > bestC) {
				best, bestC = i, c
			}
		}
		if n == 1 {
			res.MatchCount += firstC
		} else {
			more := "Found none valid"
			if n > 0 {
				more = "Found " + strconv.Itoa(n) + " valid alternatives"
			}
			res.Add(composite(strconv.Quote(path) + " must validate one and only one schema (oneOf). " + more))
			if n == 0 {
				res.Merge(t.OneOf[best].Eval(path, v))
			}
		}
	}
	if len(t.AllOf) > 0 {
		n := 0
		for _, b := range t.AllOf {
			c, ok := b.dry(v)
			if ok {
				n++
				res.MatchCount += c
			} else {
				res.Merge(b.Eval(path, v))
			}
		}
		if n != len(t.AllOf) {
			more := ""
			if n == 0 {
				more = ". None validated"
			}
			res.Add(composite(strconv.Quote(path) + " must validate all the schemas (allOf)" + more))
		}
	}
	if t.Not != nil {
		if _, ok := t.Not.dry(v); ok {
			res.Add(composite(strconv.Quote(path) + " must not validate the schema (not)"))
		}
	}
	res.MatchCount++
}

// composite is a pathless kube-openapi error (junctors): "<nil>: Invalid
// value: "": <msg>", keyed by its message.
func composite(msg string) (*jperrors.FieldError, string) {
	return pathless(msg), msg
}

// important is kube-openapi's keepRelevantErrors: the errors of a branch
// whose message starts with "IMPORTANT!", stripped of it, which the
// junctor keeps whatever branch it reports (they become pathless errors).
// Only a root-level key starting with "IMPORTANT!" produces one.
func important(r *Result) []*jperrors.FieldError {
	var out []*jperrors.FieldError
	for _, k := range r.Keys {
		if s, ok := strings.CutPrefix(k, "IMPORTANT!"); ok {
			out = append(out, pathless(s))
		}
	}
	return out
}
