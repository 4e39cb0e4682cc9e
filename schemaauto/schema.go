package schemaauto

import (
	"fmt"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// Schema is an OpenAPI v3 schema as a CustomResourceDefinition carries it
// (apiextensions JSONSchemaProps), read from JSON or YAML. It keeps what the
// structural check, the skeleton and the compiler need; value validations
// are kept verbatim in Validations for a later validation stage.
type Schema struct {
	Type        string
	Format      string
	Title       string
	Description string
	Nullable    bool

	// Default is the default value (a JSON value tree) when HasDefault.
	Default    any
	HasDefault bool

	HasExample      bool
	HasExternalDocs bool

	Items *Schema
	// ItemsArray holds the (unsupported) array form of items, a tuple.
	ItemsArray []*Schema

	Properties map[string]*Schema
	// AdditionalProperties is nil when absent.
	AdditionalProperties *SchemaOrBool

	AllOf []*Schema
	AnyOf []*Schema
	OneOf []*Schema
	Not   *Schema

	// Pattern is the "pattern" value validation, checked for compilability.
	Pattern     string
	UniqueItems bool
	// Validations holds every other value-validation keyword verbatim
	// (maximum, enum, required, ...), keyed by its JSON name.
	Validations map[string]any

	// Unsupported holds the keywords present (and not null) that Kubernetes
	// may reject: id, $schema, $ref, patternProperties, dependencies,
	// additionalItems, definitions; each maps to whether its value is
	// non-empty (a string, object or array with something in it): the
	// server's two checks, both in CRD.Validate, differ there
	// (NewStructural refuses a non-empty value, and additionalItems when
	// set at all; CRD validation refuses $ref, dependencies and
	// additionalItems when set at all, id, patternProperties and
	// definitions when non-empty, and never checks $schema).
	Unsupported map[string]bool

	// PreserveUnknownFields is x-kubernetes-preserve-unknown-fields; nil when absent.
	PreserveUnknownFields *bool
	EmbeddedResource      bool
	IntOrString           bool
	ListType              *string
	ListMapKeys           []string
	MapType               *string
	// XValidations is the number of x-kubernetes-validations rules.
	XValidations int
}

// SchemaOrBool is the value of additionalProperties: a schema, or a boolean.
type SchemaOrBool struct {
	Schema *Schema // nil for true/false
	Allows bool    // the boolean; true when Schema is set
}

// valueValidationKeys are the JSONSchemaProps keywords kept in Validations.
var valueValidationKeys = map[string]bool{
	"maximum": true, "exclusiveMaximum": true, "minimum": true, "exclusiveMinimum": true,
	"maxLength": true, "minLength": true, "maxItems": true, "minItems": true,
	"multipleOf": true, "enum": true, "maxProperties": true, "minProperties": true,
	"required": true,
}

var unsupportedKeys = []string{"id", "$schema", "$ref", "patternProperties", "dependencies", "additionalItems", "definitions"}

// nonEmpty reports whether a keyword's value has something in it (the
// reference's len(...) > 0 on its Go field).
func nonEmpty(x any) bool {
	switch x := x.(type) {
	case string:
		return x != ""
	case map[string]any:
		return len(x) > 0
	case []any:
		return len(x) > 0
	}
	return true
}

// rejected reports whether the unsupported keyword k is refused: by
// NewStructural (structural true: when non-empty) or by CRD validation's
// spec checks (false: $ref, dependencies and additionalItems when set, id,
// patternProperties and definitions when non-empty; $schema never).
func (s *Schema) rejected(k string, structural bool) bool {
	nonEmpty, set := s.Unsupported[k]
	switch {
	case !set:
		return false
	case structural:
		return nonEmpty || k == "additionalItems"
	case k == "$ref" || k == "dependencies" || k == "additionalItems":
		return true
	case k == "$schema":
		return false
	}
	return nonEmpty
}

// ParseSchema reads a bare OpenAPI v3 schema from JSON or YAML.
func ParseSchema(data []byte) (*Schema, error) {
	docs, err := parseDocuments(data)
	if err != nil {
		return nil, err
	}
	if len(docs) != 1 {
		return nil, fmt.Errorf("schema: expected one document, found %d", len(docs))
	}
	return schemaFromValue(docs[0], jperrors.NewFieldPath("openAPIV3Schema"))
}

// schemaFromValue converts a JSON value tree into a Schema; errors name the
// offending path.
func schemaFromValue(v any, p *jperrors.FieldPath) (*Schema, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: must be an object, got %s", p, describe(v))
	}
	s := &Schema{}
	var err error
	str := func(k string, dst *string) {
		if err != nil {
			return
		}
		if x, ok := m[k]; ok && x != nil {
			sv, ok := x.(string)
			if !ok {
				err = fmt.Errorf("%s: must be a string, got %s", p.Child(k), describe(x))
				return
			}
			*dst = sv
		}
	}
	boolean := func(k string, dst *bool) bool {
		if err != nil {
			return false
		}
		x, ok := m[k]
		if !ok || x == nil {
			return false
		}
		bv, ok := x.(bool)
		if !ok {
			err = fmt.Errorf("%s: must be a boolean, got %s", p.Child(k), describe(x))
			return false
		}
		*dst = bv
		return true
	}
	sub := func(k string, x any) *Schema {
		if err != nil {
			return nil
		}
		var c *Schema
		c, err = schemaFromValue(x, p.Child(k))
		return c
	}
	list := func(k string) []*Schema {
		x, ok := m[k]
		if !ok || x == nil || err != nil {
			return nil
		}
		a, ok := x.([]any)
		if !ok {
			err = fmt.Errorf("%s: must be an array, got %s", p.Child(k), describe(x))
			return nil
		}
		out := make([]*Schema, len(a))
		for i, e := range a {
			if out[i], err = schemaFromValue(e, p.Child(k).Index(i)); err != nil {
				return nil
			}
		}
		return out
	}

	str("type", &s.Type)
	str("format", &s.Format)
	str("title", &s.Title)
	str("description", &s.Description)
	str("pattern", &s.Pattern)
	boolean("nullable", &s.Nullable)
	boolean("uniqueItems", &s.UniqueItems)
	boolean("x-kubernetes-embedded-resource", &s.EmbeddedResource)
	boolean("x-kubernetes-int-or-string", &s.IntOrString)
	var pres bool
	if boolean("x-kubernetes-preserve-unknown-fields", &pres) {
		s.PreserveUnknownFields = &pres
	}
	if x, ok := m["default"]; ok && x != nil {
		s.Default, s.HasDefault = x, true
	}
	_, s.HasExample = m["example"]
	_, s.HasExternalDocs = m["externalDocs"]
	if x, ok := m["x-kubernetes-list-type"]; ok && x != nil {
		var lt string
		str("x-kubernetes-list-type", &lt)
		s.ListType = &lt
	}
	if x, ok := m["x-kubernetes-map-type"]; ok && x != nil {
		var mt string
		str("x-kubernetes-map-type", &mt)
		s.MapType = &mt
	}
	if x, ok := m["x-kubernetes-list-map-keys"]; ok && x != nil && err == nil {
		a, ok := x.([]any)
		if !ok {
			err = fmt.Errorf("%s: must be an array, got %s", p.Child("x-kubernetes-list-map-keys"), describe(x))
		}
		for _, e := range a {
			k, ok := e.(string)
			if !ok {
				err = fmt.Errorf("%s: must be an array of strings", p.Child("x-kubernetes-list-map-keys"))
				break
			}
			s.ListMapKeys = append(s.ListMapKeys, k)
		}
	}
	if x, ok := m["x-kubernetes-validations"]; ok && x != nil {
		a, ok := x.([]any)
		if !ok && err == nil {
			err = fmt.Errorf("%s: must be an array, got %s", p.Child("x-kubernetes-validations"), describe(x))
		}
		s.XValidations = len(a)
	}
	for k, x := range m {
		if valueValidationKeys[k] {
			if s.Validations == nil {
				s.Validations = map[string]any{}
			}
			s.Validations[k] = x
		}
	}
	for _, k := range unsupportedKeys {
		if x, ok := m[k]; ok && x != nil {
			if s.Unsupported == nil {
				s.Unsupported = map[string]bool{}
			}
			s.Unsupported[k] = nonEmpty(x)
		}
	}

	if x, ok := m["items"]; ok && x != nil && err == nil {
		if _, isArray := x.([]any); isArray {
			s.ItemsArray = list("items")
		} else {
			s.Items = sub("items", x)
		}
	}
	if x, ok := m["properties"]; ok && x != nil && err == nil {
		pm, ok := x.(map[string]any)
		if !ok {
			err = fmt.Errorf("%s: must be an object, got %s", p.Child("properties"), describe(x))
		} else if len(pm) > 0 {
			s.Properties = make(map[string]*Schema, len(pm))
			for _, k := range sortedKeys(pm) {
				var c *Schema
				if c, err = schemaFromValue(pm[k], p.Child("properties").Key(k)); err != nil {
					break
				}
				s.Properties[k] = c
			}
		}
	}
	if x, ok := m["additionalProperties"]; ok && x != nil && err == nil {
		switch t := x.(type) {
		case bool:
			s.AdditionalProperties = &SchemaOrBool{Allows: t}
		default:
			if c := sub("additionalProperties", x); c != nil {
				s.AdditionalProperties = &SchemaOrBool{Schema: c, Allows: true}
			}
		}
	}
	s.AllOf = list("allOf")
	s.AnyOf = list("anyOf")
	s.OneOf = list("oneOf")
	if x, ok := m["not"]; ok && x != nil && err == nil {
		s.Not = sub("not", x)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// describe names the JSON kind of a value for load errors.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// preserves reports x-kubernetes-preserve-unknown-fields: true.
func (s *Schema) preserves() bool {
	return s != nil && s.PreserveUnknownFields != nil && *s.PreserveUnknownFields
}
