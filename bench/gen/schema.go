// Package gen generates tricky custom resources for differential tests against the Kubernetes
// oracle (package oracle): instances of a structural schema, and mutations of a JSON body
// returned as raw JSON text (so that duplicate keys, escapes and invalid UTF-8 survive).
//
// Everything is deterministic for a seed: the same seed, schema and input give the same output.
// The package uses the standard library only; schemas come in as JSON (an openAPIV3Schema, or
// the oracle's rendering of a structural schema, oracle.CRDecoder.SchemaJSON).
package gen

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Schema is the part of a structural schema that decoding looks at (the skeleton: properties,
// additionalProperties, items and the x-kubernetes flags), plus the value validations the
// instance generator uses to make plausible values. allOf/anyOf/oneOf/not are ignored, as
// pruning ignores them.
type Schema struct {
	Type string
	// Properties by name; Names lists them sorted (iteration order must not depend on maps).
	Properties map[string]*Schema
	Names      []string
	// AdditionalProperties is non-nil when additionalProperties is present: the schema, or an
	// empty Schema with APBool set for `true`/`false`.
	AdditionalProperties *Schema
	// APBool is set on the placeholder AdditionalProperties for `additionalProperties: true` or
	// `false`; APAllows says which.
	APBool, APAllows bool
	Items            *Schema
	Nullable         bool
	Default          json.RawMessage // nil when there is no default
	Preserve         bool            // x-kubernetes-preserve-unknown-fields
	Embedded         bool            // x-kubernetes-embedded-resource
	IntOrString      bool            // x-kubernetes-int-or-string
	Enum             []json.RawMessage
	Format, Pattern  string
	Minimum, Maximum *float64
	// ExclusiveMinimum and ExclusiveMaximum make the bounds exclusive.
	ExclusiveMinimum, ExclusiveMaximum bool
	MultipleOf                         *float64
	MinLength                          *int64
	MaxLength                          *int64
	MinItems                           *int64
	MaxItems                           *int64
	MinProperties, MaxProperties       *int64
	Required                           []string
	ListType                           string
	ListMapKeys                        []string
}

// rawSchema is the JSON form (JSONSchemaProps field names).
type rawSchema struct {
	Type                 string                `json:"type"`
	Properties           map[string]*rawSchema `json:"properties"`
	AdditionalProperties json.RawMessage       `json:"additionalProperties"`
	Items                json.RawMessage       `json:"items"`
	Nullable             bool                  `json:"nullable"`
	Default              json.RawMessage       `json:"default"`
	Preserve             *bool                 `json:"x-kubernetes-preserve-unknown-fields"`
	Embedded             bool                  `json:"x-kubernetes-embedded-resource"`
	IntOrString          bool                  `json:"x-kubernetes-int-or-string"`
	Enum                 []json.RawMessage     `json:"enum"`
	Format               string                `json:"format"`
	Pattern              string                `json:"pattern"`
	Minimum              *float64              `json:"minimum"`
	Maximum              *float64              `json:"maximum"`
	ExclusiveMinimum     bool                  `json:"exclusiveMinimum"`
	ExclusiveMaximum     bool                  `json:"exclusiveMaximum"`
	MultipleOf           *float64              `json:"multipleOf"`
	MinProperties        *int64                `json:"minProperties"`
	MaxProperties        *int64                `json:"maxProperties"`
	MinLength            *int64                `json:"minLength"`
	MaxLength            *int64                `json:"maxLength"`
	MinItems             *int64                `json:"minItems"`
	MaxItems             *int64                `json:"maxItems"`
	Required             []string              `json:"required"`
	ListType             string                `json:"x-kubernetes-list-type"`
	ListMapKeys          []string              `json:"x-kubernetes-list-map-keys"`
}

// ParseSchema reads a schema in JSONSchemaProps JSON form: an openAPIV3Schema converted to JSON,
// or oracle.CRDecoder.SchemaJSON's rendering of the structural schema the API server uses. JSON
// `null` gives a nil Schema (a version without a schema).
func ParseSchema(data []byte) (*Schema, error) {
	var raw *rawSchema
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("gen: parsing schema: %w", err)
	}
	if raw == nil {
		return nil, nil
	}
	return convert(raw, 0)
}

func convert(r *rawSchema, depth int) (*Schema, error) {
	if r == nil {
		return &Schema{}, nil
	}
	if depth > 1000 {
		return nil, fmt.Errorf("gen: schema deeper than 1000 levels")
	}
	s := &Schema{
		Type: r.Type, Nullable: r.Nullable, Embedded: r.Embedded, IntOrString: r.IntOrString,
		Preserve: r.Preserve != nil && *r.Preserve, Enum: r.Enum, Format: r.Format, Pattern: r.Pattern,
		Minimum: r.Minimum, Maximum: r.Maximum, MinLength: r.MinLength, MaxLength: r.MaxLength,
		MinItems: r.MinItems, MaxItems: r.MaxItems, Required: r.Required,
		ExclusiveMinimum: r.ExclusiveMinimum, ExclusiveMaximum: r.ExclusiveMaximum, MultipleOf: r.MultipleOf,
		MinProperties: r.MinProperties, MaxProperties: r.MaxProperties,
		ListType: r.ListType, ListMapKeys: r.ListMapKeys,
	}
	if len(r.Default) > 0 && string(r.Default) != "null" {
		s.Default = r.Default
	}
	if len(r.Properties) > 0 {
		s.Properties = map[string]*Schema{}
		for k, p := range r.Properties {
			c, err := convert(p, depth+1)
			if err != nil {
				return nil, err
			}
			s.Properties[k] = c
			s.Names = append(s.Names, k)
		}
		slices.Sort(s.Names)
	}
	switch ap := string(r.AdditionalProperties); ap {
	case "", "null":
	case "true", "false":
		s.AdditionalProperties = &Schema{}
		s.APBool, s.APAllows = true, ap == "true"
	default:
		var rs *rawSchema
		if err := json.Unmarshal(r.AdditionalProperties, &rs); err != nil {
			return nil, fmt.Errorf("gen: additionalProperties: %w", err)
		}
		c, err := convert(rs, depth+1)
		if err != nil {
			return nil, err
		}
		s.AdditionalProperties = c
	}
	if it := string(r.Items); it != "" && it != "null" {
		var rs *rawSchema
		if err := json.Unmarshal(r.Items, &rs); err != nil {
			return nil, fmt.Errorf("gen: items (arrays of schemas are not structural): %w", err)
		}
		c, err := convert(rs, depth+1)
		if err != nil {
			return nil, err
		}
		s.Items = c
	}
	return s, nil
}

// apSchema returns the schema of an additionalProperties value: nil for `true`/`false` (pruning
// recurses with a nil schema there) and for no additionalProperties.
func (s *Schema) apSchema() *Schema {
	if s == nil || s.AdditionalProperties == nil || s.APBool {
		return nil
	}
	return s.AdditionalProperties
}

// child returns the schema of key k of an object with schema s, and whether the key is known
// (a property or an additionalProperties entry). At a resource root or embedded resource,
// apiVersion/kind/metadata are known and have no schema here.
func (s *Schema) child(k string, resource bool) (*Schema, bool) {
	if s == nil {
		return nil, false
	}
	if resource && (k == "apiVersion" || k == "kind" || k == "metadata") {
		return nil, true
	}
	if p, ok := s.Properties[k]; ok {
		return p, true
	}
	if s.AdditionalProperties != nil {
		return s.apSchema(), true
	}
	return nil, false
}
