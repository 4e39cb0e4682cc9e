package schemaauto

import (
	"errors"
	"fmt"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// This file holds the checks that come before the structural rules: the
// conditions that make the reference's NewStructural conversion fail
// (reference section 1.2), and the CRD-validation messages that concern the
// shape of a schema (section 1.5).

// newStructuralError returns the single error the reference's NewStructural
// conversion reports for s, or nil.
func newStructuralError(s *Schema) error {
	if s == nil {
		return nil
	}
	for _, k := range []string{"id", "$schema", "$ref"} {
		if s.Unsupported[k] {
			name := k
			if k == "$schema" {
				name = "schema"
			}
			return fmt.Errorf("OpenAPIV3Schema '%s' is not supported", name)
		}
	}
	if s.ItemsArray != nil {
		return errors.New("OpenAPIV3Schema 'items' must be a schema, but is an array")
	}
	for _, k := range []string{"additionalItems", "patternProperties", "dependencies", "definitions"} {
		if s.Unsupported[k] {
			return fmt.Errorf("OpenAPIV3Schema '%s' is not supported", k)
		}
	}
	if s.PreserveUnknownFields != nil && !*s.PreserveUnknownFields {
		return errors.New("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined")
	}
	children := []*Schema{s.Items, s.Not}
	if s.AdditionalProperties != nil {
		children = append(children, s.AdditionalProperties.Schema)
	}
	for _, k := range sortedKeys(s.Properties) {
		children = append(children, s.Properties[k])
	}
	children = append(children, s.AllOf...)
	children = append(children, s.AnyOf...)
	children = append(children, s.OneOf...)
	for _, c := range children {
		if err := newStructuralError(c); err != nil {
			return err
		}
	}
	return nil
}

var supportedTypes = []string{"array", "boolean", "integer", "number", "object", "string"}

// schemaShapeErrors reports the CRD-validation messages about a schema's
// shape (reference 1.5), walking the schema in a deterministic order
// (properties sorted by name).
func schemaShapeErrors(s *Schema, p *jperrors.FieldPath, root bool) jperrors.FieldErrors {
	if s == nil {
		return nil
	}
	var errs jperrors.FieldErrors
	add := func(e ...*jperrors.FieldError) { errs = append(errs, e...) }

	if ap := s.AdditionalProperties; ap != nil && (ap.Schema != nil || !ap.Allows) && len(s.Properties) > 0 {
		add(jperrors.Forbidden(p.Child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
	}
	if root && s.Nullable {
		add(jperrors.Forbidden(p.Child("nullable"), "nullable cannot be true at the root"))
	}
	switch s.Type {
	case "", "array", "boolean", "integer", "number", "object", "string":
	case "null":
		add(jperrors.NotSupported(p.Child("type"), s.Type, supportedTypes))
		add(jperrors.Forbidden(p.Child("type"), "type cannot be set to null, use nullable as an alternative"))
	default:
		add(jperrors.NotSupported(p.Child("type"), s.Type, supportedTypes))
	}
	if s.PreserveUnknownFields != nil && !*s.PreserveUnknownFields {
		add(jperrors.Invalid(p.Child("x-kubernetes-preserve-unknown-fields"), false, "must be true or undefined"))
	}
	if s.UniqueItems {
		add(jperrors.Forbidden(p.Child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	for _, k := range []string{"id", "$schema", "$ref", "patternProperties", "dependencies", "additionalItems", "definitions"} {
		if s.Unsupported[k] {
			add(jperrors.Forbidden(p.Child(k), k+" is not supported"))
		}
	}
	if s.ItemsArray != nil {
		add(jperrors.Forbidden(p.Child("items"), "items must be a schema object and not an array"))
	}

	for i, x := range s.AllOf {
		add(schemaShapeErrors(x, p.Child("allOf").Index(i), false)...)
	}
	for i, x := range s.AnyOf {
		add(schemaShapeErrors(x, p.Child("anyOf").Index(i), false)...)
	}
	for i, x := range s.OneOf {
		add(schemaShapeErrors(x, p.Child("oneOf").Index(i), false)...)
	}
	add(schemaShapeErrors(s.Not, p.Child("not"), false)...)
	for _, k := range sortedKeys(s.Properties) {
		c := s.Properties[k]
		cp := p.Child("properties").Key(k)
		if root && k == "metadata" && c.HasDefault {
			add(jperrors.Forbidden(cp.Child("default"), "must not be set in top-level metadata"))
		}
		if (root || s.EmbeddedResource) && k == "metadata" && c.EmbeddedResource {
			add(jperrors.Forbidden(cp.Child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"))
		}
		add(schemaShapeErrors(c, cp, false)...)
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Schema != nil {
		add(schemaShapeErrors(ap.Schema, p.Child("additionalProperties"), false)...)
	}
	if s.Items != nil {
		if s.ListType != nil && *s.ListType == "map" {
			for _, k := range s.ListMapKeys {
				if f, ok := s.Items.Properties[k]; ok && !f.HasDefault && !requires(s.Items, k) {
					add(jperrors.Required(p.Child("items").Child("properties").Key(k).Child("default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
				}
			}
		}
		add(schemaShapeErrors(s.Items, p.Child("items"), false)...)
	}
	for i, x := range s.ItemsArray {
		add(schemaShapeErrors(x, p.Child("items").Index(i), false)...)
	}
	return errs
}

// requires reports whether s lists k in its required keywords.
func requires(s *Schema, k string) bool {
	r, _ := s.Validations["required"].([]any)
	for _, x := range r {
		if x == k {
			return true
		}
	}
	return false
}
