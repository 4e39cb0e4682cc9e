package schemaauto

import (
	"fmt"
	"sort"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// Skeleton derives the skeleton schema skel(s) of the earlier pruning KEP
// (spec 001, "Definition: skeleton schema"), so that a non-structural
// schema (v1beta1-era, or a generic OpenAPI schema) can still be pruned:
//
//	skel(s) := merge(drop(s), skel(s.allOf[i])..., skel(s.anyOf[i])..., skel(s.oneOf[i])..., skel(s.not))
//
// drop(s) keeps type, items, properties and additionalProperties (each
// child again by skel). merge keeps a type only where every merged schema
// defines the same one (and a node keeps its own type whatever its
// junctors say, as s requires it), and merges items, every property key,
// and additionalProperties position by position. So every field that s names
// anywhere, even in a branch that cannot validate, is kept by pruning.
//
// Choices where the KEP is silent or predates today's schemas (documented
// in the README):
//   - The flags that steer pruning today are kept from the node itself and
//     OR-ed across branches: x-kubernetes-preserve-unknown-fields,
//     x-kubernetes-embedded-resource, x-kubernetes-int-or-string, nullable.
//     A default is kept from the node itself only.
//   - Tuple items (items given as an array) are merged into one items
//     schema: every key any position names is kept at every position.
//   - additionalProperties true/false merges to true/false (OR); a schema
//     merged with a boolean gives the schema.
//   - $ref and patternProperties cannot be pruned by name and make
//     Skeleton fail with the path; id, $schema, dependencies,
//     additionalItems and definitions are value-level and dropped.
func Skeleton(s *Schema) (*Schema, error) {
	if err := skeletonUnsupported(s, jperrors.NewFieldPath("openAPIV3Schema")); err != nil {
		return nil, err
	}
	return skel(s), nil
}

func skeletonUnsupported(s *Schema, p *jperrors.FieldPath) error {
	if s == nil {
		return nil
	}
	for _, k := range []string{"$ref", "patternProperties"} {
		if s.rejected(k, true) {
			return fmt.Errorf("skeleton: %s: %s cannot be pruned by name", p.Child(k), k)
		}
	}
	check := func(c *Schema, cp *jperrors.FieldPath) error { return skeletonUnsupported(c, cp) }
	if err := check(s.Items, p.Child("items")); err != nil {
		return err
	}
	for i, x := range s.ItemsArray {
		if err := check(x, p.Child("items").Index(i)); err != nil {
			return err
		}
	}
	for _, k := range sortedKeys(s.Properties) {
		if err := check(s.Properties[k], p.Child("properties").Key(k)); err != nil {
			return err
		}
	}
	if s.AdditionalProperties != nil {
		if err := check(s.AdditionalProperties.Schema, p.Child("additionalProperties")); err != nil {
			return err
		}
	}
	for _, j := range []struct {
		name string
		xs   []*Schema
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
		for i, x := range j.xs {
			if err := check(x, p.Child(j.name).Index(i)); err != nil {
				return err
			}
		}
	}
	return check(s.Not, p.Child("not"))
}

// skel computes skel(s).
func skel(s *Schema) *Schema {
	if s == nil {
		return nil
	}
	parts := []*Schema{drop(s)}
	for _, xs := range [][]*Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for _, x := range xs {
			parts = append(parts, skel(x))
		}
	}
	if s.Not != nil {
		parts = append(parts, skel(s.Not))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	m := merge(parts)
	if parts[0].Type != "" {
		// s itself requires its type whatever its junctors say.
		m.Type = parts[0].Type
	}
	return m
}

// drop keeps the skeleton fields of s, their children by skel.
func drop(s *Schema) *Schema {
	d := &Schema{
		Type:                  s.Type,
		Nullable:              s.Nullable,
		Default:               s.Default,
		HasDefault:            s.HasDefault,
		PreserveUnknownFields: s.PreserveUnknownFields,
		EmbeddedResource:      s.EmbeddedResource,
		IntOrString:           s.IntOrString,
	}
	if d.PreserveUnknownFields != nil && !*d.PreserveUnknownFields {
		d.PreserveUnknownFields = nil
	}
	items := []*Schema{}
	if s.Items != nil {
		items = append(items, skel(s.Items))
	}
	for _, x := range s.ItemsArray {
		items = append(items, skel(x))
	}
	switch len(items) {
	case 0:
	case 1:
		d.Items = items[0]
	default:
		d.Items = merge(items)
	}
	if len(s.Properties) > 0 {
		d.Properties = make(map[string]*Schema, len(s.Properties))
		for k, v := range s.Properties {
			d.Properties[k] = skel(v)
		}
	}
	if ap := s.AdditionalProperties; ap != nil {
		d.AdditionalProperties = &SchemaOrBool{Schema: skel(ap.Schema), Allows: ap.Allows}
	}
	return d
}

// merge merges skeletons position by position.
func merge(xs []*Schema) *Schema {
	m := &Schema{Type: xs[0].Type}
	var items []*Schema
	props := map[string][]*Schema{}
	var aps []*Schema
	apBool, hasAP := false, false
	for i, x := range xs {
		if x.Type != m.Type {
			m.Type = "" // not every schema agrees on one type
		}
		m.Nullable = m.Nullable || x.Nullable
		if x.preserves() {
			t := true
			m.PreserveUnknownFields = &t
		}
		m.EmbeddedResource = m.EmbeddedResource || x.EmbeddedResource
		m.IntOrString = m.IntOrString || x.IntOrString
		if i == 0 && x.HasDefault {
			m.Default, m.HasDefault = x.Default, true
		}
		if x.Items != nil {
			items = append(items, x.Items)
		}
		for k, v := range x.Properties {
			props[k] = append(props[k], v)
		}
		if ap := x.AdditionalProperties; ap != nil {
			hasAP = true
			if ap.Schema != nil {
				aps = append(aps, ap.Schema)
			} else {
				apBool = apBool || ap.Allows
			}
		}
	}
	if len(items) == 1 {
		m.Items = items[0]
	} else if len(items) > 1 {
		m.Items = merge(items)
	}
	if len(props) > 0 {
		m.Properties = make(map[string]*Schema, len(props))
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if len(props[k]) == 1 {
				m.Properties[k] = props[k][0]
			} else {
				m.Properties[k] = merge(props[k])
			}
		}
	}
	if hasAP {
		switch len(aps) {
		case 0:
			m.AdditionalProperties = &SchemaOrBool{Allows: apBool}
		case 1:
			m.AdditionalProperties = &SchemaOrBool{Schema: aps[0], Allows: true}
		default:
			m.AdditionalProperties = &SchemaOrBool{Schema: merge(aps), Allows: true}
		}
	}
	return m
}
