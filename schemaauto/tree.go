package schemaauto

import (
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"weak"

	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/validate"
)

// This file builds package validate's value-tree validator from a schema
// and holds the CRD-time checks that need it (reference section 9).

// trees memoises ValidationTree per schema node; an entry goes when its
// schema is collected.
var trees sync.Map // weak.Pointer[Schema] -> *validate.Tree

// ValidationTree returns the compiled validation tree of s and everything
// below it (properties, additionalProperties, items, allOf, anyOf, oneOf,
// not), as the API server's schema validator reads the schema: as written,
// formats stripped where the server strips them, x-kubernetes-int-or-string
// as the type list [integer, string]. It is built once per schema node and
// shared by every caller (and by the trees of the nodes above it); s must
// not be modified afterwards. A nil schema gives a nil tree, which
// validates nothing.
func (s *Schema) ValidationTree() (*validate.Tree, error) {
	if s == nil {
		return nil, nil
	}
	key := weak.Make(s)
	if t, ok := trees.Load(key); ok {
		return t.(*validate.Tree), nil
	}
	t, err := buildTree(s, false, nil)
	if err != nil {
		return nil, err
	}
	if old, loaded := trees.LoadOrStore(key, t); loaded {
		return old.(*validate.Tree), nil
	}
	runtime.AddCleanup(s, func(k weak.Pointer[Schema]) { trees.Delete(k) }, key)
	return t, nil
}

// buildTree compiles s; its children come from ValidationTree (memoised).
// With asWritten (the validator of default values, built from the
// structural schema), formats are kept as written and
// x-kubernetes-int-or-string gives no type; memo then shares the trees of
// schema nodes reached twice within one build.
func buildTree(s *Schema, asWritten bool, memo map[*Schema]*validate.Tree) (*validate.Tree, error) {
	if s == nil {
		return nil, nil
	}
	if t, ok := memo[s]; ok {
		return t, nil
	}
	if memo == nil {
		memo = map[*Schema]*validate.Tree{}
	}
	n := valueNode(s) // what the cache keeps (compiledenc.go)
	var r *validate.Rules
	var err error
	if asWritten {
		n.IntOrString = false
		r, err = validate.CompileAsWritten(n)
	} else {
		r, err = validate.Compile(n)
	}
	if err != nil {
		return nil, err
	}
	t := &validate.Tree{Rules: r, ListMapKeys: s.ListMapKeys}
	memo[s] = t
	if s.ListType != nil {
		t.ListType = *s.ListType
	}
	sub := func(c *Schema) *validate.Tree {
		if err != nil || c == nil {
			return nil
		}
		var ct *validate.Tree
		if asWritten {
			ct, err = buildTree(c, true, memo)
		} else {
			ct, err = c.ValidationTree() // memoised per node
		}
		return ct
	}
	list := func(cs []*Schema) []*validate.Tree {
		var out []*validate.Tree
		for _, c := range cs {
			out = append(out, sub(c))
		}
		return out
	}
	if len(s.Properties) > 0 {
		t.Properties = make(map[string]*validate.Tree, len(s.Properties))
		for k, c := range s.Properties {
			t.Properties[k] = sub(c)
		}
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Schema != nil {
		t.AdditionalProperties = sub(ap.Schema)
	}
	t.Items = sub(s.Items)
	t.AllOf, t.AnyOf, t.OneOf = list(s.AllOf), list(s.AnyOf), list(s.OneOf)
	t.Not = sub(s.Not)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// LintValues runs the CRD-time checks of a schema that concern values
// (reference section 9), for the schema s at p (the path of its
// openAPIV3Schema, e.g. spec.versions[0].schema.openAPIV3Schema), with the
// API server's messages:
//
//  1. every pattern must compile in Go RE2 ("<p>.pattern: Invalid value:
//     "^(?!x)": must be a valid regular expression, but isn't: ..."), junctor
//     branches included (the structural check);
//  2. when the schema is structural (as the server, which validates
//     defaults only then), every default value is validated against its
//     own node with the validator the server builds for it (the structural
//     schema, formats as written), errors under "<p>.default"
//     ("...properties[a].default: Too long: may not be more than 3 bytes",
//     "...default.k: Unsupported value: ..."); additionalProperties subtrees
//     and junctor branches are not entered, as the server does not enter
//     them (a default's unknown fields are CRD.Validate's);
//  3. uniqueItems: true is forbidden, and set/map lists must not have
//     nullable items (the OpenAPI walk).
//
// The warnings are the server's: `unrecognized format "<name>"` for every
// format it ignores, then, sorted and once each,
// `x-kubernetes-list-type: set for items of type "object" is not supported
// by server-side apply or CEL validation rules` (and "array").
//
// A default that fails the coercion or the TypeMeta/ObjectMeta checks of
// its embedded resources or resource meta (CRD.Validate reports those) is
// not validated here, as the server validates its value only when they
// pass; defaults inside resource meta are validated like the others.
//
// Not covered: CEL rules on defaults, and the structural and OpenAPI
// checks that do not concern values (CRD.Validate has them). Keys are
// visited in sorted order where the server iterates a Go map.
func LintValues(s *Schema, p *jperrors.FieldPath) (errs jperrors.FieldErrors, warnings []string) {
	if s == nil {
		return nil, nil
	}
	errs = append(errs, patternErrors(s, p)...)
	// the server validates defaults only when the schema is structural
	if newStructuralError(s) == nil && len(ValidateStructural(p, s)) == 0 {
		// a default whose embedded resources fail the coercion or the
		// TypeMeta/ObjectMeta checks (CRD.Validate's) is not validated
		checked := map[*Schema]any{}
		checkDefaults(s, p, false, checked)
		errs = append(errs, defaultErrors(s, p, checked)...)
	}
	errs = append(errs, valueOpenAPIErrors(s, p)...)
	warnings = unrecognizedFormats(s, nil)
	seen := map[string]bool{}
	walkSchema(s, func(x *Schema) {
		if x.ListType != nil && *x.ListType == "set" && x.Items != nil && (x.Items.Type == "object" || x.Items.Type == "array") {
			seen[fmt.Sprintf("x-kubernetes-list-type: set for items of type %q is not supported by server-side apply or CEL validation rules", x.Items.Type)] = true
		}
	})
	warnings = append(warnings, sortedKeys(seen)...)
	return errs, warnings
}

// walkSchema calls f on s and every schema below it.
func walkSchema(s *Schema, f func(*Schema)) {
	if s == nil {
		return
	}
	f(s)
	for _, k := range sortedKeys(s.Properties) {
		walkSchema(s.Properties[k], f)
	}
	if s.AdditionalProperties != nil {
		walkSchema(s.AdditionalProperties.Schema, f)
	}
	walkSchema(s.Items, f)
	for _, l := range [][]*Schema{s.ItemsArray, s.AllOf, s.AnyOf, s.OneOf} {
		for _, c := range l {
			walkSchema(c, f)
		}
	}
	walkSchema(s.Not, f)
}

// patternErrors compiles every pattern, in the structural check's order:
// items, properties, additionalProperties, then the node's value
// validations (anyOf, allOf, oneOf, not, then its own pattern).
func patternErrors(s *Schema, p *jperrors.FieldPath) jperrors.FieldErrors {
	if s == nil {
		return nil
	}
	var errs jperrors.FieldErrors
	errs = append(errs, patternErrors(s.Items, p.Child("items"))...)
	for _, k := range sortedKeys(s.Properties) {
		errs = append(errs, patternErrors(s.Properties[k], p.Child("properties").Key(k))...)
	}
	if s.AdditionalProperties != nil {
		errs = append(errs, patternErrors(s.AdditionalProperties.Schema, p.Child("additionalProperties"))...)
	}
	for i, c := range s.AnyOf {
		errs = append(errs, patternErrors(c, p.Child("anyOf").Index(i))...)
	}
	for i, c := range s.AllOf {
		errs = append(errs, patternErrors(c, p.Child("allOf").Index(i))...)
	}
	for i, c := range s.OneOf {
		errs = append(errs, patternErrors(c, p.Child("oneOf").Index(i))...)
	}
	errs = append(errs, patternErrors(s.Not, p.Child("not"))...)
	if s.Pattern != "" {
		if _, err := regexp.Compile(s.Pattern); err != nil {
			errs = append(errs, jperrors.Invalid(p.Child("pattern"), s.Pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)))
		}
	}
	return errs
}

// defaultErrors validates the defaults of s and of the properties and items
// below it (defaulting.ValidateDefaults): the node's default with the
// validator of the structural node (its subtree, formats as written), then
// items, then properties. Only the defaults in checked (those passing the
// checks of their embedded resources and resource meta: the reference
// validates a default's value only then) are validated, in the form
// checked holds (the coerced default).
func defaultErrors(s *Schema, p *jperrors.FieldPath, checked map[*Schema]any) jperrors.FieldErrors {
	if s == nil {
		return nil
	}
	var errs jperrors.FieldErrors
	if v, ok := checked[s]; ok && s.HasDefault && s.Default != nil {
		t, err := buildTree(s, true, nil)
		if err != nil {
			errs = append(errs, jperrors.Invalid(p.Child("default"), s.Default, err.Error()))
		} else {
			dp := p.Child("default")
			d := dp.String()
			for _, e := range t.Validate("", v) {
				c := *e
				if c.Field == "<nil>" {
					c.Field = d
				} else {
					c.Field = d + "." + c.Field
				}
				errs = append(errs, &c)
			}
		}
	}
	errs = append(errs, defaultErrors(s.Items, p.Child("items"), checked)...)
	for _, k := range sortedKeys(s.Properties) {
		errs = append(errs, defaultErrors(s.Properties[k], p.Child("properties").Key(k), checked)...)
	}
	return errs
}

// valueOpenAPIErrors are the value-related checks of the OpenAPI walk:
// uniqueItems and nullable items of set/map lists, in the walk's order
// (additionalProperties, properties, not, allOf, oneOf, anyOf, items).
func valueOpenAPIErrors(s *Schema, p *jperrors.FieldPath) jperrors.FieldErrors {
	if s == nil {
		return nil
	}
	var errs jperrors.FieldErrors
	if s.UniqueItems {
		errs = append(errs, jperrors.Forbidden(p.Child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	if s.AdditionalProperties != nil {
		errs = append(errs, valueOpenAPIErrors(s.AdditionalProperties.Schema, p.Child("additionalProperties"))...)
	}
	for _, k := range sortedKeys(s.Properties) {
		errs = append(errs, valueOpenAPIErrors(s.Properties[k], p.Child("properties").Key(k))...)
	}
	errs = append(errs, valueOpenAPIErrors(s.Not, p.Child("not"))...)
	for _, j := range []struct {
		name string
		l    []*Schema
	}{{"allOf", s.AllOf}, {"oneOf", s.OneOf}, {"anyOf", s.AnyOf}} {
		for i, c := range j.l {
			errs = append(errs, valueOpenAPIErrors(c, p.Child(j.name).Index(i))...)
		}
	}
	errs = append(errs, valueOpenAPIErrors(s.Items, p.Child("items"))...)
	if s.Items != nil && s.ListType != nil && (*s.ListType == "set" || *s.ListType == "map") && s.Items.Nullable {
		errs = append(errs, jperrors.Forbidden(p.Child("items").Child("nullable"), "cannot be nullable when x-kubernetes-list-type is "+*s.ListType))
	}
	return errs
}

// unrecognizedFormats are the server's `unrecognized format "<name>"`
// warnings: a format on a string or untyped node whose name without dashes
// is not a checked format, on an integer node other than int32/int64, on a
// number node other than float/double, on any other type.
func unrecognizedFormats(s *Schema, out []string) []string {
	walkSchema(s, func(x *Schema) {
		if x.Format == "" {
			return
		}
		ok := false
		switch x.Type {
		case "", "string":
			ok = knownStringFormat[strings.ReplaceAll(x.Format, "-", "")]
		case "integer":
			ok = x.Format == "int32" || x.Format == "int64"
		case "number":
			ok = x.Format == "float" || x.Format == "double"
		}
		if !ok {
			out = append(out, fmt.Sprintf("unrecognized format %q", x.Format))
		}
	})
	return out
}

var knownStringFormat = func() map[string]bool {
	m := map[string]bool{}
	for _, f := range []string{"bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6", "cidr", "mac", "uuid",
		"uuid3", "uuid4", "uuid5", "isbn", "isbn10", "isbn13", "creditcard", "ssn", "hexcolor", "rgbcolor", "byte",
		"password", "date", "duration", "datetime", "k8sshortname", "k8slongname"} {
		m[f] = true
	}
	return m
}()
