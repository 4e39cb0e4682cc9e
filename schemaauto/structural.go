package schemaauto

import (
	"fmt"
	"sort"

	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/validate"
)

// This file checks that a schema is structural, with the messages, paths and
// order of the Kubernetes reference's ValidateStructural
// (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/validation.go): the skeleton invariants at every node, the restrictions inside
// allOf/anyOf/oneOf/not, and the completeness of the root's junctors. The
// result is sorted by the full message, as the reference sorts it.

type level int

const (
	rootLevel  level = iota // the top schema
	itemLevel               // the schema under items
	fieldLevel              // the schema under properties[k] or additionalProperties
)

// ValidateStructural checks s against the structural-schema rules and
// returns every violation, sorted by message. p is the path of s, e.g.
// "openAPIV3Schema" or "spec.validation.openAPIV3Schema".
func ValidateStructural(p *jperrors.FieldPath, s *Schema) jperrors.FieldErrors {
	var errs jperrors.FieldErrors
	errs = append(errs, structuralInvariants(s, rootLevel, p)...)
	errs = append(errs, completeness(s, s, p, p)...)
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errs
}

// structuralInvariants checks the rules applied at every skeleton node.
func structuralInvariants(s *Schema, lvl level, p *jperrors.FieldPath) jperrors.FieldErrors {
	if s == nil {
		return nil
	}
	var errs jperrors.FieldErrors
	add := func(e ...*jperrors.FieldError) { errs = append(errs, e...) }

	if s.Type == "array" && s.Items == nil {
		add(jperrors.Required(p.Child("items"), "must be specified"))
	}
	add(structuralInvariants(s.Items, itemLevel, p.Child("items"))...)
	for _, k := range sortedKeys(s.Properties) {
		add(structuralInvariants(s.Properties[k], fieldLevel, p.Child("properties").Key(k))...)
	}
	if ap := s.AdditionalProperties; ap != nil {
		if lvl == rootLevel {
			add(jperrors.Forbidden(p.Child("additionalProperties"), "must not be used at the root"))
		}
		if ap.Schema != nil {
			add(structuralInvariants(ap.Schema, fieldLevel, p.Child("additionalProperties"))...)
		}
	}

	// extensions
	if s.IntOrString && s.preserves() {
		add(jperrors.Invalid(p.Child("x-kubernetes-preserve-unknown-fields"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.IntOrString && s.EmbeddedResource {
		add(jperrors.Invalid(p.Child("x-kubernetes-embedded-resource"), true, "must be false if x-kubernetes-int-or-string is true"))
	}

	add(valueValidation(s, isIntOrStringAnyOf(s.AnyOf), len(s.AllOf) > 0 && isIntOrStringAnyOf(s.AllOf[0].AnyOf), p)...)

	checkMetadata := lvl == rootLevel || s.EmbeddedResource
	switch {
	case s.EmbeddedResource && s.Type != "object":
		if s.Type == "" {
			add(jperrors.Required(p.Child("type"), "must be object if x-kubernetes-embedded-resource is true"))
		} else {
			add(jperrors.Invalid(p.Child("type"), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
		}
	case s.Type == "" && !s.IntOrString && !s.preserves():
		switch lvl {
		case rootLevel:
			add(jperrors.Required(p.Child("type"), "must not be empty at the root"))
		case itemLevel:
			add(jperrors.Required(p.Child("type"), "must not be empty for specified array items"))
		default:
			add(jperrors.Required(p.Child("type"), "must not be empty for specified object fields"))
		}
	}
	if s.EmbeddedResource && s.AdditionalProperties != nil {
		add(jperrors.Forbidden(p.Child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == rootLevel && s.Type != "" && s.Type != "object" {
		add(jperrors.Invalid(p.Child("type"), s.Type, "must be object at the root"))
	}
	if kind, ok := s.Properties["kind"]; ok && checkMetadata && kind.Type != "string" {
		add(jperrors.Invalid(p.Child("properties").Key("kind").Child("type"), kind.Type, "must be string"))
	}
	if av, ok := s.Properties["apiVersion"]; ok && checkMetadata && av.Type != "string" {
		add(jperrors.Invalid(p.Child("properties").Key("apiVersion").Child("type"), av.Type, "must be string"))
	}
	if md, ok := s.Properties["metadata"]; ok && checkMetadata && md.Type != "object" {
		add(jperrors.Invalid(p.Child("properties").Key("metadata").Child("type"), md.Type, "must be object"))
	}
	if md, ok := s.Properties["metadata"]; ok && lvl == rootLevel && !onlyNameAndGenerateName(md) {
		add(jperrors.Forbidden(p.Child("properties").Key("metadata"), "must not specify anything other than name and generateName, but metadata is implicitly specified"))
	}
	if s.EmbeddedResource && !s.preserves() && len(s.Properties) == 0 {
		add(jperrors.Required(p.Child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
	return errs
}

// onlyNameAndGenerateName reports whether a root metadata schema specifies
// nothing but its type, a default (checked by CRD validation) and the
// properties name and/or generateName (whose sub-schemas are unrestricted).
func onlyNameAndGenerateName(md *Schema) bool {
	c := *md
	_, name := c.Properties["name"]
	_, gen := c.Properties["generateName"]
	if (name && gen && len(c.Properties) == 2) || ((name || gen) && len(c.Properties) == 1) {
		c.Properties = nil
	}
	c.Type = ""
	c.Default, c.HasDefault = nil, false
	return c.isEmpty()
}

// isEmpty reports whether s specifies nothing the skeleton or the value
// validations would capture.
func (s *Schema) isEmpty() bool {
	return s.Type == "" && s.Format == "" && s.Title == "" && s.Description == "" && !s.Nullable &&
		!s.HasDefault && !s.HasExample && !s.HasExternalDocs &&
		s.Items == nil && s.ItemsArray == nil && len(s.Properties) == 0 && s.AdditionalProperties == nil &&
		len(s.AllOf) == 0 && len(s.AnyOf) == 0 && len(s.OneOf) == 0 && s.Not == nil &&
		s.Pattern == "" && !s.UniqueItems && len(s.Validations) == 0 && len(s.Unsupported) == 0 &&
		s.PreserveUnknownFields == nil && !s.EmbeddedResource && !s.IntOrString &&
		s.ListType == nil && len(s.ListMapKeys) == 0 && s.MapType == nil && s.XValidations == 0
}

// isOnlyType reports whether s is exactly {type: t}.
func (s *Schema) isOnlyType(t string) bool {
	c := *s
	if c.Type != t {
		return false
	}
	c.Type = ""
	return c.isEmpty()
}

// isIntOrStringAnyOf detects the int-or-string exception: an anyOf of
// exactly [{type: integer}, {type: string}], in that order.
func isIntOrStringAnyOf(anyOf []*Schema) bool {
	return len(anyOf) == 2 && anyOf[0].isOnlyType("integer") && anyOf[1].isOnlyType("string")
}

// valueValidation checks the junctors of a node (as nested value
// validations) and its pattern.
func valueValidation(s *Schema, skipAnyOf, skipFirstAllOfAnyOf bool, p *jperrors.FieldPath) jperrors.FieldErrors {
	var errs jperrors.FieldErrors
	if !skipAnyOf {
		for i, x := range s.AnyOf {
			errs = append(errs, nestedValueValidation(x, false, p.Child("anyOf").Index(i))...)
		}
	}
	for i, x := range s.AllOf {
		errs = append(errs, nestedValueValidation(x, skipFirstAllOfAnyOf && i == 0, p.Child("allOf").Index(i))...)
	}
	for i, x := range s.OneOf {
		errs = append(errs, nestedValueValidation(x, false, p.Child("oneOf").Index(i))...)
	}
	if s.Not != nil {
		errs = append(errs, nestedValueValidation(s.Not, false, p.Child("not"))...)
	}
	if s.Pattern != "" {
		if _, err := validate.CompilePattern(s.Pattern); err != nil {
			errs = append(errs, jperrors.Invalid(p.Child("pattern"), s.Pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)))
		}
	}
	return errs
}

// nestedValueValidation checks a schema inside allOf/anyOf/oneOf/not: only
// value validations are allowed there.
func nestedValueValidation(s *Schema, skipAnyOf bool, p *jperrors.FieldPath) jperrors.FieldErrors {
	if s == nil {
		return nil
	}
	var errs jperrors.FieldErrors
	add := func(e ...*jperrors.FieldError) { errs = append(errs, e...) }
	add(valueValidation(s, skipAnyOf, false, p)...)
	if s.Items != nil {
		add(nestedValueValidation(s.Items, false, p.Child("items"))...)
	}
	for _, k := range sortedKeys(s.Properties) {
		add(nestedValueValidation(s.Properties[k], false, p.Child("properties").Key(k))...)
	}
	if s.Type != "" {
		add(jperrors.Forbidden(p.Child("type"), "must be empty to be structural"))
	}
	if ap := s.AdditionalProperties; ap != nil && (ap.Schema != nil || ap.Allows) {
		// forbidden, and not looked into; false is dropped by the reference
		add(jperrors.Forbidden(p.Child("additionalProperties"), "must be undefined to be structural"))
	}
	if s.HasDefault {
		add(jperrors.Forbidden(p.Child("default"), "must be undefined to be structural"))
	}
	if s.Title != "" {
		add(jperrors.Forbidden(p.Child("title"), "must be empty to be structural"))
	}
	if s.Description != "" {
		add(jperrors.Forbidden(p.Child("description"), "must be empty to be structural"))
	}
	if s.Nullable {
		add(jperrors.Forbidden(p.Child("nullable"), "must be false to be structural"))
	}
	if s.preserves() {
		add(jperrors.Forbidden(p.Child("x-kubernetes-preserve-unknown-fields"), "must be false to be structural"))
	}
	if s.EmbeddedResource {
		add(jperrors.Forbidden(p.Child("x-kubernetes-embedded-resource"), "must be false to be structural"))
	}
	if s.IntOrString {
		add(jperrors.Forbidden(p.Child("x-kubernetes-int-or-string"), "must be false to be structural"))
	}
	if len(s.ListMapKeys) > 0 {
		add(jperrors.Forbidden(p.Child("x-kubernetes-list-map-keys"), "must be empty to be structural"))
	}
	if s.ListType != nil {
		add(jperrors.Forbidden(p.Child("x-kubernetes-list-type"), "must be undefined to be structural"))
	}
	if s.MapType != nil {
		add(jperrors.Forbidden(p.Child("x-kubernetes-map-type"), "must be undefined to be structural"))
	}
	if s.XValidations > 0 {
		add(jperrors.Forbidden(p.Child("x-kubernetes-validations"), "must be empty to be structural"))
	}
	if _, ok := s.Properties["metadata"]; ok {
		add(jperrors.Forbidden(p.Child("properties").Key("metadata"), "must not be specified in a nested context"))
	}
	return errs
}

// completeness checks that every property and items named in the root's
// junctors (v, at path vp) exists in the skeleton (s, at path sp). Only the
// root's junctors are checked, as in the reference.
func completeness(v, s *Schema, sp, vp *jperrors.FieldPath) jperrors.FieldErrors {
	if v == nil {
		return nil
	}
	var errs jperrors.FieldErrors
	if v.Not != nil {
		errs = append(errs, nestedCompleteness(v.Not, s, sp, vp.Child("not"))...)
	}
	for i, x := range v.AllOf {
		errs = append(errs, nestedCompleteness(x, s, sp, vp.Child("allOf").Index(i))...)
	}
	for i, x := range v.AnyOf {
		errs = append(errs, nestedCompleteness(x, s, sp, vp.Child("anyOf").Index(i))...)
	}
	for i, x := range v.OneOf {
		errs = append(errs, nestedCompleteness(x, s, sp, vp.Child("oneOf").Index(i))...)
	}
	return errs
}

func nestedCompleteness(v, s *Schema, sp, vp *jperrors.FieldPath) jperrors.FieldErrors {
	if v == nil {
		return nil
	}
	if s == nil {
		return jperrors.FieldErrors{jperrors.Required(sp, "because it is defined in "+vp.String())}
	}
	errs := completeness(v, s, sp, vp)
	if v.Items != nil {
		errs = append(errs, nestedCompleteness(v.Items, s.Items, sp.Child("items"), vp.Child("items"))...)
	}
	for _, k := range sortedKeys(v.Properties) {
		sk, vk := sp.Child("properties").Key(k), vp.Child("properties").Key(k)
		if sf, ok := s.Properties[k]; !ok {
			errs = append(errs, jperrors.Required(sk, "because it is defined in "+vk.String()))
		} else {
			errs = append(errs, nestedCompleteness(v.Properties[k], sf, sk, vk)...)
		}
	}
	return errs
}
