package objectmeta

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// Metadata validation: what the API server's create path checks in a custom
// resource's metadata after decoding (kubernetes-validation.md sections
// 5.1 and 5.2, steps 8a, 8b and 8e), with the server's messages. The rules
// and texts are those of k8s.io/apimachinery v0.37.2
// pkg/api/validation.ValidateObjectMetaAccessor (with NameIsDNSSubdomain
// for the root and path-segment names for embedded resources, as
// k8s.io/apiextensions-apiserver v0.37.2's customresource validator and
// schema/objectmeta.Validate call it), re-implemented here.

// Scope says how the root metadata.namespace is checked.
type Scope uint8

const (
	// ScopeAsFilled checks a non-empty namespace as a DNS-1123 label and
	// accepts an empty one. This is what the server's check sees: before
	// validation the handler puts the request's namespace into an empty
	// one (namespaced resources) or clears it (cluster-scoped ones), so
	// the Required and Forbidden errors below are unreachable through a
	// request. Embedded metadata is always checked this way.
	ScopeAsFilled Scope = iota
	// ScopeNamespaced: an empty namespace is
	// "<p>.namespace: Required value".
	ScopeNamespaced
	// ScopeCluster: a non-empty namespace is
	// "<p>.namespace: Forbidden: not allowed on this type".
	ScopeCluster
)

// ValidateOptions selects the rules of [Validator.Validate].
type ValidateOptions struct {
	// Embedded selects the rules of an x-kubernetes-embedded-resource's
	// metadata (section 5.2) instead of the root's (5.1): name and
	// generateName are path-segment names ("Foo" passes, "a/b" does not),
	// an empty name is replaced by "fakename" (no Required error, no name
	// generation), the namespace is checked only when non-empty.
	Embedded bool

	// Path is the field.Path string of the metadata: "metadata" (the
	// default when empty) at the root, e.g. "spec.e.metadata" or
	// "spec.emap[k.1].metadata" for embedded resources.
	Path string

	// Scope is how the root's namespace is checked; ignored when Embedded.
	Scope Scope
}

// Validator validates normalised metadata: the JSON the decoder emits after
// normalisation (see "Normalised output" in the package documentation).
// The zero value is ready to use. A Validator is reusable and not safe for
// concurrent use; once its buffers have grown, [Validator.Validate] does not
// allocate on valid metadata (errors and warnings allocate).
type Validator struct {
	meta   []byte
	fields [NumObjectMetaFields]span
	msgs   []string
	// buffers for unescaped strings: each holds one string at a time
	bufKey, bufVal, bufGN, bufName, bufMask, bufGen, bufLower []byte
	// the unescaped finalizers of Warnings, and their spans in it
	arena []byte
	offs  []span
}

// The reference's generated name suffix cannot be reproduced (it is
// random); see [Validator.Validate].
const GeneratedNamePlaceholder = generatedTail

// Validate appends to dst the errors the API server reports for the
// normalised metadata meta, in the server's order, and returns dst. The
// checks run in this order (ValidateObjectMetaAccessor's):
//
//  1. generateName, when non-empty: the root's is a DNS-1123 subdomain
//     after masking a trailing '-' (see below); an embedded one must not
//     contain '/' or '%';
//  2. name: "<p>.name: Required value: name or generateName is required"
//     when empty (root only), else a DNS-1123 subdomain of at most 253
//     bytes (root) or a path-segment name (embedded);
//  3. namespace (see [Scope]): a DNS-1123 label of at most 63 bytes;
//  4. generation: not negative;
//  5. labels: each key a qualified name, each value a label value; one
//     error per message, with the key or the value as the bad value;
//  6. annotations: each key, lower-cased, a qualified name (the bad value
//     is the key as written), then the total of the bytes of keys and
//     values at most 262144 ("Too long: may not be more than 262144
//     bytes");
//  7. ownerReferences, per entry: apiVersion (Required, or
//     "must be <group>/<version> or <version>"), kind, name, uid
//     (Required "must not be empty"), then v1 Event refused as an owner
//     (the entry rendered as JSON); after an entry, a second (third, ...)
//     controller: true gives "Only one reference can have Controller set
//     to true. Found "true" in references for <Kind>/<name> and
//     <Kind>/<name>" with all entries as JSON;
//  8. finalizers: each a qualified name (path without index), then
//     orphan with foregroundDeletion refused;
//  9. managedFields, per entry: operation (Required, or Unsupported with
//     "Apply", "Update"), fieldsType ("FieldsV1" or empty), manager (at
//     most 128 bytes, printable), subresource (at most 256 bytes). On a
//     real create the server's field manager rewrites managedFields before
//     validation, so these errors come from the check itself, not from a
//     request.
//
// Duplicates: the server drops an error whose text equals an earlier one
// of the same metadata (ValidateObjectMetaDeclaratively filters its list
// through ErrorList.ToAggregate, which de-duplicates by message), so two
// labels with the same bad value give one error, and so here.
//
// Order within labels and annotations: the server iterates Go maps, so
// its order between keys is random; here keys come in the order of meta,
// which for normalised metadata is sorted by key. The errors of one key are
// contiguous and in the server's order.
//
// Generated names (root only): when name is empty and generateName is
// not, the server generates name = generateName cut to 58 bytes + 5 random
// characters from "bcdfghjklmnpqrstvwxz2456789", and validates that name.
// Here the random part is [GeneratedNamePlaceholder] ("xxxxx", which
// these rules accept wherever the random characters are): a bad generated
// name gives the same errors as the server's, but its value reads
// "<prefix>xxxxx" where the server's has its random characters
// ("Foo-xxxxx" for the server's "Foo-xn8fg"). Whether the generated name
// passes does not depend on its random characters (all lower-case
// alphanumerics, like the placeholder), so the errors are the server's in
// number, order and wording; only that value differs.
//
// The trailing-dash mask is the reference's: a generateName longer than
// one byte that ends with '-' is checked with its last two bytes replaced
// by "a" (so "a.-" is checked as "aa" and passes there, while its
// generated name "a.-xxxxx" fails).
//
// meta must be a JSON object (null counts as empty); unknown keys are
// ignored. Input that is not one, or whose known fields have the wrong JSON
// type, gives the single error "<p>: Invalid value: malformed metadata:
// <what>" (never produced for the decoder's output). The reader checks the
// structure (braces, brackets, strings, separators), not the spelling of
// numbers and literals, which the decoder has already checked.
func (v *Validator) Validate(meta []byte, o ValidateOptions, dst jperrors.FieldErrors) jperrors.FieldErrors {
	if what := v.index(meta); what != "" {
		return append(dst, malformed(pathOf(o), what))
	}
	return v.validate(o, dst)
}

// FieldSpans locates the top-level fields of metadata for
// [Validator.ValidateIndexed]: entry i is the value of ObjectMeta.Fields[i]
// as the byte offsets [start, end) of its JSON text in the metadata; an
// entry with end == start is an absent field.
type FieldSpans [NumObjectMetaFields][2]int

// ValidateIndexed is [Validator.Validate] for metadata whose top-level
// fields the caller located as it wrote meta (fields), so that meta is not
// read for them again: meta must be a JSON object and fields its members'
// values, each of its field's JSON type or null. The result is Validate's.
func (v *Validator) ValidateIndexed(meta []byte, fields *FieldSpans, o ValidateOptions, dst jperrors.FieldErrors) jperrors.FieldErrors {
	v.meta = meta
	for i, f := range fields {
		v.fields[i] = span{f[0], f[1]}
	}
	if what := v.checkTypes(); what != "" {
		return append(dst, malformed(pathOf(o), what))
	}
	if !o.Embedded && o.Scope == ScopeAsFilled && v.quickValid() {
		return dst // the usual metadata, checked in place (validatefast.go)
	}
	return v.validate(o, dst)
}

func pathOf(o ValidateOptions) string {
	if o.Path == "" {
		return "metadata"
	}
	return o.Path
}

// validate is Validate on the indexed metadata (v.meta, v.fields).
func (v *Validator) validate(o ValidateOptions, dst jperrors.FieldErrors) jperrors.FieldErrors {
	p := pathOf(o)
	meta := v.meta
	start := len(dst)

	// 1. generateName
	gn := unquote(meta, v.fields[FieldGenerateName], &v.bufGN)
	if len(gn) > 0 {
		if o.Embedded {
			v.msgs = appendPathSegmentPrefix(v.msgs[:0], gn)
		} else {
			v.msgs = appendDNS1123Subdomain(v.msgs[:0], maskTrailingDash(&v.bufMask, gn))
		}
		dst = v.invalid(dst, p, ".generateName", gn)
	}

	// 2. name
	name := unquote(meta, v.fields[FieldName], &v.bufName)
	switch {
	case len(name) == 0 && o.Embedded:
		// "fakename": valid
	case len(name) == 0 && len(gn) == 0:
		dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldRequired, Field: p + ".name", Detail: "name or generateName is required"})
	default:
		if len(name) == 0 {
			v.bufGen = append(append(v.bufGen[:0], gn[:min(len(gn), maxGenerated)]...), generatedTail...)
			name = v.bufGen
		}
		if o.Embedded {
			v.msgs = appendPathSegmentName(v.msgs[:0], name)
		} else {
			v.msgs = appendDNS1123Subdomain(v.msgs[:0], name)
		}
		dst = v.invalid(dst, p, ".name", name)
	}

	// 3. namespace
	ns := unquote(meta, v.fields[FieldNamespace], &v.bufVal)
	scope := o.Scope
	if o.Embedded {
		scope = ScopeAsFilled
	}
	switch {
	case scope == ScopeCluster:
		if len(ns) > 0 {
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldForbidden, Field: p + ".namespace", Detail: "not allowed on this type"})
		}
	case len(ns) == 0:
		if scope == ScopeNamespaced {
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldRequired, Field: p + ".namespace"})
		}
	default:
		v.msgs = appendDNS1123Label(v.msgs[:0], ns)
		dst = v.invalid(dst, p, ".namespace", ns)
	}

	// 4. generation
	if g := v.fields[FieldGeneration]; g.end > g.start && meta[g.start] == '-' {
		raw := string(meta[g.start:g.end])
		var bad any
		if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
			bad = n
		} else if f, err := strconv.ParseFloat(raw, 64); err == nil {
			bad = int64(f)
		}
		if bad != nil && bad != int64(0) {
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: p + ".generation", BadValue: bad, Detail: "must be greater than or equal to 0"})
		}
	}

	// 5. labels
	dst = v.labels(dst, p)
	// 6. annotations
	dst = v.annotations(dst, p)
	// 7. ownerReferences
	dst = v.ownerReferences(dst, p)
	// 8. finalizers
	dst = v.finalizers(dst, p)
	// 9. managedFields
	dst = v.managedFields(dst, p)
	return dedupe(dst, start)
}

// dedupe drops from l[start:] each error whose text is that of an earlier
// one there, as ValidateObjectMetaDeclaratively's filtering does (its
// ErrorList.Filter goes through ToAggregate, which keeps the first of
// equal messages).
func dedupe(l jperrors.FieldErrors, start int) jperrors.FieldErrors {
	if len(l)-start < 2 {
		return l
	}
	seen := make(map[string]bool, len(l)-start)
	out := l[:start]
	for _, e := range l[start:] {
		if m := e.Error(); !seen[m] {
			seen[m] = true
			out = append(out, e)
		}
	}
	clear(l[len(out):])
	return out
}

// index records the spans of the known top-level fields of meta; it
// returns what is wrong with meta, "" if nothing.
func (v *Validator) index(meta []byte) string {
	v.meta = meta
	v.fields = [NumObjectMetaFields]span{}
	if s := (scan{data: meta}); s.peek() == 0 {
		return "not one JSON value"
	}
	end, ok := membersEnd(meta, span{0, len(meta)}, func(k, val span) bool {
		if i := ObjectMeta.Index(unquote(meta, k, &v.bufKey)); i >= 0 {
			v.fields[i] = val
		}
		return true
	})
	if !ok {
		return "not a JSON object"
	}
	if s := (scan{data: meta, pos: end}); s.peek() != 0 {
		return "not one JSON value"
	}
	return v.checkTypes()
}

// checkTypes reports a known field of the wrong JSON type ("" if none).
func (v *Validator) checkTypes() string {
	meta := v.meta
	for i, sp := range v.fields {
		if sp.end == sp.start || isNullSpan(meta, sp) {
			continue
		}
		want := byte('"')
		switch ObjectMeta.Fields[i].Type {
		case Int64, Int64Ptr:
			c := meta[sp.start]
			if c == '-' || '0' <= c && c <= '9' {
				continue
			}
			return ObjectMeta.Fields[i].Name + " is not a number"
		case StringMap:
			want = '{'
		case StringSlice, StructSlice:
			want = '['
		}
		if meta[sp.start] != want {
			return ObjectMeta.Fields[i].Name + " has the wrong type"
		}
	}
	return ""
}

func malformed(p, what string) *jperrors.FieldError {
	return &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: p, BadValue: jperrors.OmitValue, Detail: "malformed metadata: " + what}
}

// invalid appends an Invalid error at p+sub with the value bad for each
// of v.msgs. The path is built only when there is an error.
func (v *Validator) invalid(dst jperrors.FieldErrors, p, sub string, bad []byte) jperrors.FieldErrors {
	if len(v.msgs) == 0 {
		return dst
	}
	path := p + sub
	for _, m := range v.msgs {
		dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: path, BadValue: string(bad), Detail: m})
	}
	return dst
}

func (v *Validator) labels(dst jperrors.FieldErrors, p string) jperrors.FieldErrors {
	const sub = ".labels"
	meta := v.meta
	ok := members(meta, v.fields[FieldLabels], func(k, val span) bool {
		if !isString(meta, val) && !isNullSpan(meta, val) {
			dst = append(dst, malformed(p+sub, "a label value is not a string"))
			return false
		}
		key := unquote(meta, k, &v.bufKey)
		v.msgs = appendQualifiedName(v.msgs[:0], key)
		dst = v.invalid(dst, p, sub, key)
		value := unquote(meta, val, &v.bufVal)
		v.msgs = appendLabelValue(v.msgs[:0], value)
		dst = v.invalid(dst, p, sub, value)
		return true
	})
	if !ok {
		dst = append(dst, malformed(p+sub, "not an object"))
	}
	return dst
}

func (v *Validator) annotations(dst jperrors.FieldErrors, p string) jperrors.FieldErrors {
	const sub = ".annotations"
	meta := v.meta
	total := 0
	// unescaping never lengthens a string, so annotations whose JSON text
	// is within the limit are within it unescaped: their values are not
	// unescaped to be counted
	sp := v.fields[FieldAnnotations]
	count := sp.end-sp.start > maxAnnotations
	ok := members(meta, sp, func(k, val span) bool {
		if !isString(meta, val) && !isNullSpan(meta, val) {
			dst = append(dst, malformed(p+sub, "an annotation value is not a string"))
			return false
		}
		key := unquote(meta, k, &v.bufKey)
		if count {
			total += len(key) + len(unquote(meta, val, &v.bufVal))
		}
		v.msgs = appendQualifiedName(v.msgs[:0], toLower(&v.bufLower, key))
		dst = v.invalid(dst, p, sub, key)
		return true
	})
	if !ok {
		return append(dst, malformed(p+sub, "not an object"))
	}
	if total > maxAnnotations {
		dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldTooLong, Field: p + sub, Detail: "may not be more than 262144 bytes"})
	}
	return dst
}

// The indexes of OwnerReference.Fields.
const (
	orAPIVersion = iota
	orBlockOwnerDeletion
	orController
	orKind
	orName
	orUID
)

// ownerRef is an OwnerReference as encoding/json renders
// metav1.OwnerReference: the fields in the struct's order, the two
// pointers omitted when nil.
type ownerRef struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// refFields returns the spans of the fields of the ownerReferences entry
// at sp, and whether it is an object.
func refFields(meta []byte, sp span, s *Struct) (f [8]span, ok bool) {
	ok = members(meta, sp, func(k, val span) bool {
		var kb []byte
		if i := s.Index(unquote(meta, k, &kb)); i >= 0 && i < len(f) {
			f[i] = val
		}
		return true
	})
	return f, ok
}

func (v *Validator) ownerRef(sp span) ownerRef {
	f, _ := refFields(v.meta, sp, OwnerReference)
	var b []byte
	r := ownerRef{
		APIVersion: string(unquote(v.meta, f[orAPIVersion], &b)),
		Kind:       string(unquote(v.meta, f[orKind], &b)),
		Name:       string(unquote(v.meta, f[orName], &b)),
		UID:        string(unquote(v.meta, f[orUID], &b)),
	}
	if c := f[orController]; !isNullSpan(v.meta, c) {
		t := v.meta[c.start] == 't'
		r.Controller = &t
	}
	if c := f[orBlockOwnerDeletion]; !isNullSpan(v.meta, c) {
		t := v.meta[c.start] == 't'
		r.BlockOwnerDeletion = &t
	}
	return r
}

func (v *Validator) ownerRefs() []ownerRef {
	var refs []ownerRef
	elements(v.meta, v.fields[FieldOwnerReferences], func(_ int, sp span) {
		refs = append(refs, v.ownerRef(sp))
	})
	return refs
}

func (v *Validator) ownerReferences(dst jperrors.FieldErrors, p string) jperrors.FieldErrors {
	const sub = ".ownerReferences"
	meta := v.meta
	var first span // the first controller entry
	hasFirst, bad := false, false
	ok := elements(meta, v.fields[FieldOwnerReferences], func(i int, sp span) {
		if bad {
			return
		}
		f, ok := refFields(meta, sp, OwnerReference)
		if !ok {
			bad = true
			return
		}
		av := unquote(meta, f[orAPIVersion], &v.bufKey)
		idx := func() string { return p + sub + "[" + strconv.Itoa(i) + "]" }
		var group, version []byte
		gvOK := true
		switch n := bytes.Count(av, []byte{'/'}); {
		case len(av) == 0 || string(av) == "/":
		case n == 0:
			version = av
		case n == 1:
			j := bytes.IndexByte(av, '/')
			group, version = av[:j], av[j+1:]
		default:
			gvOK = false
		}
		if len(av) == 0 {
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldRequired, Field: idx() + ".apiVersion", Detail: "must not be empty"})
		} else if !gvOK || len(version) == 0 {
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: idx() + ".apiVersion", BadValue: string(av), Detail: "must be <group>/<version> or <version>"})
		}
		kind := unquote(meta, f[orKind], &v.bufVal)
		for _, r := range [...]struct {
			i    int
			name string
		}{{orKind, ".kind"}, {orName, ".name"}, {orUID, ".uid"}} {
			if !isString(meta, f[r.i]) || f[r.i].end-f[r.i].start == 2 {
				dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldRequired, Field: idx() + r.name, Detail: "must not be empty"})
			}
		}
		if len(group) == 0 && string(version) == "v1" && string(kind) == "Event" {
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: idx(), BadValue: v.ownerRef(sp), Detail: "/v1, Kind=Event is disallowed from being an owner"})
		}
		if c := f[orController]; !isNullSpan(meta, c) && meta[c.start] == 't' {
			if !hasFirst {
				first, hasFirst = sp, true
				return
			}
			a, b := v.ownerRef(first), v.ownerRef(sp)
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: p + sub, BadValue: v.ownerRefs(),
				Detail: fmt.Sprintf("Only one reference can have Controller set to true. Found \"true\" in references for %s/%s and %s/%s", a.Kind, a.Name, b.Kind, b.Name)})
		}
	})
	if !ok || bad {
		dst = append(dst, malformed(p+sub, "not an array of objects"))
	}
	return dst
}

func (v *Validator) finalizers(dst jperrors.FieldErrors, p string) jperrors.FieldErrors {
	const sub = ".finalizers"
	meta := v.meta
	orphan, foreground, bad := false, false, false
	ok := elements(meta, v.fields[FieldFinalizers], func(_ int, sp span) {
		if !isString(meta, sp) && !isNullSpan(meta, sp) {
			bad = true
			return
		}
		f := unquote(meta, sp, &v.bufKey)
		v.msgs = appendQualifiedName(v.msgs[:0], f)
		dst = v.invalid(dst, p, sub, f)
		switch string(f) {
		case "orphan":
			orphan = true
		case "foregroundDeletion":
			foreground = true
		}
	})
	if !ok || bad {
		return append(dst, malformed(p+sub, "not an array of strings"))
	}
	if orphan && foreground {
		var all []string
		elements(meta, v.fields[FieldFinalizers], func(_ int, sp span) {
			var b []byte
			all = append(all, string(unquote(meta, sp, &b)))
		})
		dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: p + sub, BadValue: all, Detail: "finalizer orphan and foregroundDeletion cannot be both set"})
	}
	return dst
}

// The indexes of ManagedFieldsEntry.Fields.
const (
	mfAPIVersion = iota
	mfFieldsType
	mfFieldsV1
	mfManager
	mfOperation
	mfSubresource
	mfTime
)

// jsonString is a string rendered as JSON in an error, as the reference
// renders its named string types (ManagedFieldsOperationType).
type jsonString string

func (v *Validator) managedFields(dst jperrors.FieldErrors, p string) jperrors.FieldErrors {
	const sub = ".managedFields"
	meta := v.meta
	bad := false
	ok := elements(meta, v.fields[FieldManagedFields], func(i int, sp span) {
		if bad {
			return
		}
		f, ok := refFields(meta, sp, ManagedFieldsEntry)
		if !ok {
			bad = true
			return
		}
		idx := func() string { return p + sub + "[" + strconv.Itoa(i) + "]" }
		switch op := unquote(meta, f[mfOperation], &v.bufKey); string(op) {
		case "":
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldRequired, Field: idx() + ".operation", Detail: "must not be empty"})
		case "Apply", "Update":
		default:
			e := jperrors.NotSupported(jperrors.NewFieldPath(idx()+".operation"), jsonString(op), []string{"Apply", "Update"})
			e.Field = idx() + ".operation"
			dst = append(dst, e)
		}
		if ft := unquote(meta, f[mfFieldsType], &v.bufKey); len(ft) > 0 && string(ft) != "FieldsV1" {
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: idx() + ".fieldsType", BadValue: string(ft), Detail: "must be `FieldsV1`"})
		}
		m := unquote(meta, f[mfManager], &v.bufKey)
		if len(m) > 128 {
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldTooLong, Field: idx() + ".manager", Detail: "may not be more than 128 bytes"})
		}
		for j := 0; j < len(m); {
			r, n := utf8.DecodeRune(m[j:])
			if !unicode.IsPrint(r) {
				dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: idx() + ".manager", BadValue: string(m),
					Detail: fmt.Sprintf("invalid character %#U (at position %d)", r, j)})
			}
			j += n
		}
		if sr := unquote(meta, f[mfSubresource], &v.bufKey); len(sr) > 256 {
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldTooLong, Field: idx() + ".subresource", Detail: "may not be more than 256 bytes"})
		}
	})
	if !ok || bad {
		dst = append(dst, malformed(p+sub, "not an array of objects"))
	}
	return dst
}

// Warnings appends to dst the warnings the server gives on a successful
// create for the root metadata's finalizers (WarningsOnCreate), and
// returns dst. Each distinct finalizer, in sorted order, gets
//
//   - "metadata.finalizers: "<f>": <message>" for each message of
//     [IsQualifiedName] (only reachable when validation failed, that is
//     never on success);
//   - when it has no '/' and is not orphan, foregroundDeletion or
//     kubernetes: "metadata.finalizers: "<f>": prefer a domain-qualified
//     finalizer name to avoid accidental conflicts with other finalizer
//     writers", or, when it contains '.', "... prefer a domain-qualified
//     finalizer name including a path (/) to avoid ...".
//
// Malformed input gives no warnings.
func (v *Validator) Warnings(meta []byte, dst []string) []string {
	if v.index(meta) != "" {
		return dst
	}
	v.arena, v.offs = v.arena[:0], v.offs[:0]
	elements(meta, v.fields[FieldFinalizers], func(_ int, sp span) {
		start := len(v.arena)
		v.arena = append(v.arena, unquote(meta, sp, &v.bufKey)...)
		v.offs = append(v.offs, span{start, len(v.arena)})
	})
	arena := v.arena
	slices.SortFunc(v.offs, func(a, b span) int { return bytes.Compare(arena[a.start:a.end], arena[b.start:b.end]) })
	for i, o := range v.offs {
		f := arena[o.start:o.end]
		if i > 0 && string(f) == string(arena[v.offs[i-1].start:v.offs[i-1].end]) {
			continue
		}
		v.msgs = appendQualifiedName(v.msgs[:0], f)
		for _, m := range v.msgs {
			dst = append(dst, "metadata.finalizers: "+strconv.Quote(string(f))+": "+m)
		}
		if contains(f, '/') {
			continue
		}
		switch string(f) {
		case "orphan", "foregroundDeletion", "kubernetes":
			continue
		}
		if contains(f, '.') {
			dst = append(dst, "metadata.finalizers: "+strconv.Quote(string(f))+": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers")
		} else {
			dst = append(dst, "metadata.finalizers: "+strconv.Quote(string(f))+": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers")
		}
	}
	return dst
}

// ValidateTypeMeta appends the errors of step 8a, the root TypeMeta check,
// to dst: "kind: Invalid value: "<kind>": must be <wantKind>" when kind
// differs from the CRD's kind, then "apiVersion: Invalid value:
// "<apiVersion>": must be <wantAPIVersion>" when apiVersion differs from
// the CRD's "<group>/<version>". An absent or non-string kind or apiVersion
// is passed as "". The server skips steps 8b-8d (metadata, schema, scale)
// when this returns errors, but not 8e-8g.
func ValidateTypeMeta(kind, apiVersion, wantKind, wantAPIVersion string, dst jperrors.FieldErrors) jperrors.FieldErrors {
	if kind != wantKind {
		dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: "kind", BadValue: kind, Detail: "must be " + wantKind})
	}
	if apiVersion != wantAPIVersion {
		dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: "apiVersion", BadValue: apiVersion, Detail: "must be " + wantAPIVersion})
	}
	return dst
}

// ValidateEmbeddedTypeMeta appends the apiVersion and kind errors of an
// embedded resource (section 5.2 steps 1 and 2) at path, the field.Path
// string of the embedded object ("spec.e", "spec.list[1]"), to dst:
//
//  1. "<path>.apiVersion: Required value" when it is absent, then
//     "<path>.kind: Required value" when it is absent;
//  2. for a present apiVersion: "must not be empty" when "", else
//     "unexpected GroupVersion string: <v>" when it has more than one '/';
//  3. for a present kind: "must not be empty" when "", else, when the
//     lower-cased kind is not a DNS-1035 label, "may have mixed case, but
//     should otherwise match: " and the [IsDNS1035Label] messages joined
//     with ",".
//
// The server checks 2 and 3 while iterating the object's Go map, so their
// relative order is random there; here apiVersion always comes first. The
// embedded metadata ([Validator.Validate] with Embedded) belongs to the
// same iteration and comes last here. Non-string values are decode errors
// before validation ("must be a string") and are not handled here.
func ValidateEmbeddedTypeMeta(path string, hasAPIVersion bool, apiVersion string, hasKind bool, kind string, dst jperrors.FieldErrors) jperrors.FieldErrors {
	if !hasAPIVersion {
		dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldRequired, Field: child(path, "apiVersion")})
	}
	if !hasKind {
		dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldRequired, Field: child(path, "kind")})
	}
	if hasAPIVersion {
		if apiVersion == "" {
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: child(path, "apiVersion"), BadValue: apiVersion, Detail: "must not be empty"})
		} else if apiVersion != "/" && strings.Count(apiVersion, "/") > 1 {
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: child(path, "apiVersion"), BadValue: apiVersion, Detail: "unexpected GroupVersion string: " + apiVersion})
		}
	}
	if hasKind {
		if kind == "" {
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: child(path, "kind"), BadValue: kind, Detail: "must not be empty"})
		} else if !lowerIsDNS1035Label(kind) {
			msgs := appendDNS1035Label(nil, strings.ToLower(kind))
			dst = append(dst, &jperrors.FieldError{Type: jperrors.FieldInvalid, Field: child(path, "kind"), BadValue: kind, Detail: "may have mixed case, but should otherwise match: " + strings.Join(msgs, ",")})
		}
	}
	return dst
}

// lowerIsDNS1035Label reports whether strings.ToLower(s) is a DNS-1035
// label of at most 63 bytes, without allocating for ASCII s.
func lowerIsDNS1035Label(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			l := strings.ToLower(s)
			return len(l) <= maxLabel && isDNS1035Label(l)
		}
	}
	if len(s) == 0 || len(s) > maxLabel {
		return false
	}
	low := func(c byte) byte {
		if 'A' <= c && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
	if c := low(s[0]); c < 'a' || c > 'z' || !isLowerAlnum(low(s[len(s)-1])) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := low(s[i]); !isLowerAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}
