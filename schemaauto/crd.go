package schemaauto

import (
	"fmt"
	"strings"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// CRD is a CustomResourceDefinition as jsonprune needs it: its names, its
// versions and their schemas, and whether pruning is on.
type CRD struct {
	// APIVersion is the manifest's apiVersion: apiextensions.k8s.io/v1 or
	// apiextensions.k8s.io/v1beta1.
	APIVersion string
	Name       string // metadata.name
	Group      string
	Kind       string
	Plural     string
	// PreserveUnknownFields is spec.preserveUnknownFields with the
	// reference's defaulting: false in v1, true in v1beta1. When true,
	// nothing outside metadata is pruned.
	PreserveUnknownFields bool
	Versions              []*Version

	// topLevel records a v1beta1 spec.validation (applies to every version).
	topLevel bool
}

// Version is one entry of spec.versions.
type Version struct {
	Name    string
	Served  bool
	Storage bool
	// Schema is the version's openAPIV3Schema; nil when it has none.
	Schema *Schema
	// StatusSubresource: the version has the status subresource
	// (subresources.status, or v1beta1's spec.subresources.status), so a
	// create drops the object's status before validating it.
	StatusSubresource bool
	// Scale is the version's scale subresource (subresources.scale, or
	// v1beta1's spec.subresources.scale); nil without one.
	Scale *Scale

	raw any // the schema as read, to tell identical schemas apart
}

const (
	crdV1      = "apiextensions.k8s.io/v1"
	crdV1beta1 = "apiextensions.k8s.io/v1beta1"
)

// ParseCRDs reads every CustomResourceDefinition in data: JSON or YAML,
// one or several documents. A List of CRDs is unpacked. Documents that are
// not CustomResourceDefinitions are an error.
func ParseCRDs(data []byte) ([]*CRD, error) {
	docs, err := parseDocuments(data)
	if err != nil {
		return nil, err
	}
	var crds []*CRD
	var add func(i int, doc any) error
	add = func(i int, doc any) error {
		m, ok := doc.(map[string]any)
		if !ok {
			return fmt.Errorf("document %d: expected an object, got %s", i, describe(doc))
		}
		if m["kind"] == "List" || (m["kind"] == "CustomResourceDefinitionList") {
			items, _ := m["items"].([]any)
			for _, it := range items {
				if err := add(i, it); err != nil {
					return err
				}
			}
			return nil
		}
		c, err := crdFromValue(m)
		if err != nil {
			return fmt.Errorf("document %d: %w", i, err)
		}
		crds = append(crds, c)
		return nil
	}
	for i, d := range docs {
		if err := add(i, d); err != nil {
			return nil, err
		}
	}
	return crds, nil
}

func crdFromValue(m map[string]any) (*CRD, error) {
	av, _ := m["apiVersion"].(string)
	kind, _ := m["kind"].(string)
	if kind != "CustomResourceDefinition" || (av != crdV1 && av != crdV1beta1) {
		return nil, fmt.Errorf("not a CustomResourceDefinition: apiVersion %q, kind %q", av, kind)
	}
	c := &CRD{APIVersion: av}
	if md, ok := m["metadata"].(map[string]any); ok {
		c.Name, _ = md["name"].(string)
	}
	spec, ok := m["spec"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("CustomResourceDefinition %q: spec: must be an object", c.Name)
	}
	c.Group, _ = spec["group"].(string)
	if names, ok := spec["names"].(map[string]any); ok {
		c.Kind, _ = names["kind"].(string)
		c.Plural, _ = names["plural"].(string)
	}
	if c.Group == "" || c.Kind == "" {
		return nil, fmt.Errorf("CustomResourceDefinition %q: spec.group and spec.names.kind are required", c.Name)
	}
	c.PreserveUnknownFields = av == crdV1beta1
	if x, ok := spec["preserveUnknownFields"]; ok && x != nil {
		b, ok := x.(bool)
		if !ok {
			return nil, fmt.Errorf("CustomResourceDefinition %q: spec.preserveUnknownFields: must be a boolean", c.Name)
		}
		c.PreserveUnknownFields = b
	}

	// v1beta1: a top-level spec.validation applies to every version, and a
	// lone spec.version is the single version.
	var topRaw any
	if av == crdV1beta1 {
		if val, ok := spec["validation"].(map[string]any); ok {
			if s, ok := val["openAPIV3Schema"]; ok && s != nil {
				topRaw, c.topLevel = s, true
			}
		}
	}
	versions, _ := spec["versions"].([]any)
	if len(versions) == 0 && av == crdV1beta1 {
		if v, ok := spec["version"].(string); ok && v != "" {
			versions = []any{map[string]any{"name": v, "served": true, "storage": true}}
		}
	}
	if len(versions) == 0 {
		return nil, fmt.Errorf("CustomResourceDefinition %q: spec.versions must not be empty", c.Name)
	}
	for i, x := range versions {
		vm, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("CustomResourceDefinition %q: spec.versions[%d]: must be an object", c.Name, i)
		}
		v := &Version{}
		v.Name, _ = vm["name"].(string)
		v.Served, _ = vm["served"].(bool)
		v.Storage, _ = vm["storage"].(bool)
		v.StatusSubresource = hasStatus(vm) || av == crdV1beta1 && hasStatus(spec)
		if v.Scale = scaleOf(vm); v.Scale == nil && av == crdV1beta1 {
			v.Scale = scaleOf(spec)
		}
		raw := topRaw
		path := "spec.validation.openAPIV3Schema"
		if sch, ok := vm["schema"].(map[string]any); ok {
			if s, ok := sch["openAPIV3Schema"]; ok && s != nil {
				if c.topLevel {
					return nil, fmt.Errorf("CustomResourceDefinition %q: spec.versions[%d].schema: Forbidden: top-level and per-version schemas are mutually exclusive", c.Name, i)
				}
				raw = s
				path = fmt.Sprintf("spec.versions[%d].schema.openAPIV3Schema", i)
			}
		}
		if raw != nil {
			s, err := schemaFromValue(raw, jperrors.NewFieldPath(path))
			if err != nil {
				return nil, fmt.Errorf("CustomResourceDefinition %q: %w", c.Name, err)
			}
			v.Schema, v.raw = s, raw
		}
		c.Versions = append(c.Versions, v)
	}
	return c, nil
}

// Version returns the version named name, or nil.
func (c *CRD) Version(name string) *Version {
	for _, v := range c.Versions {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// topLevelSchema reports whether the reference's internal form of the CRD
// holds one schema for all versions under spec.validation: a v1beta1
// spec.validation, or v1 versions whose schemas are all set and identical
// (Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec
// in k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/conversion.go
// hoists them).
func (c *CRD) topLevelSchema() bool {
	if c.APIVersion == crdV1beta1 {
		return c.topLevel
	}
	for _, v := range c.Versions {
		if v.Schema == nil || (len(c.Versions) > 1 && !sameInternalSchema(v.raw, c.Versions[0].raw)) {
			return false
		}
	}
	return true
}

// Validate checks the CRD's schemas as the API server does when the CRD is
// created, and returns the schema-related violations in the reference's
// order, with its paths: "spec.validation.openAPIV3Schema..." when the
// server's internal form holds one schema for every version,
// "spec.versions[i].schema.openAPIV3Schema..." otherwise (see topLevelSchema;
// the checks are validateCustomResourceDefinitionValidation in
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go).
// An empty result means the CRD's schemas are accepted.
//
// The order is the reference's: versions without a schema, defaults with
// preserveUnknownFields, each version's schema, the top-level schema, and
// preserveUnknownFields: true (which a create rejects). Each schema's
// checks start with the status-subresource rule on the root schema: when
// the status subresource is enabled (for a schema under spec.validation:
// on any version), the root may only carry description, type (object),
// format, title, the number, string and array bounds, pattern,
// uniqueItems, multipleOf, required, items, properties, externalDocs,
// example, x-kubernetes-preserve-unknown-fields and
// x-kubernetes-validations; the first other keyword (in the order of the
// server's internal JSONSchemaProps) gives "<path>.openAPIV3Schema:
// Invalid value: <that struct as JSON>: only [Description Type ...] fields
// are allowed at the root of the schema if the status subresource is
// enabled", a type other than object "<path>.openAPIV3Schema.type: Invalid
// value: "array": only "object" is allowed as the type at the root of the
// schema if the status subresource is enabled".
func (c *CRD) Validate() jperrors.FieldErrors {
	var errs jperrors.FieldErrors
	top := c.topLevelSchema()
	if !top {
		for i, v := range c.Versions {
			if v.Schema == nil {
				errs = append(errs, jperrors.Required(jperrors.NewFieldPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema"), ""))
			}
		}
	}
	if c.PreserveUnknownFields && c.hasDefaults() {
		errs = append(errs, jperrors.Invalid(jperrors.NewFieldPath("spec", "preserveUnknownFields"), true, "must be false in order to use defaults in the schema"))
	}
	if top {
		fp := jperrors.NewFieldPath("spec", "validation")
		var status jperrors.FieldErrors
		if c.anyStatusSubresource() && c.Versions[0].Schema != nil {
			status = statusRootErrors(c.Versions[0].raw, fp.Child("openAPIV3Schema"))
		}
		errs = append(errs, validateCRDSchema(c.Versions[0].Schema, fp, status)...)
	} else {
		for i, v := range c.Versions {
			fp := jperrors.NewFieldPath("spec", "versions").Index(i).Child("schema")
			var status jperrors.FieldErrors
			if v.StatusSubresource && v.Schema != nil {
				status = statusRootErrors(v.raw, fp.Child("openAPIV3Schema"))
			}
			errs = append(errs, validateCRDSchema(v.Schema, fp, status)...)
		}
	}
	if c.PreserveUnknownFields {
		errs = append(errs, jperrors.Invalid(jperrors.NewFieldPath("spec", "preserveUnknownFields"), true, "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"))
	}
	return errs
}

// anyStatusSubresource reports whether a version has the status
// subresource (the reference's hasAnyStatusEnabled).
func (c *CRD) anyStatusSubresource() bool {
	for _, v := range c.Versions {
		if v.StatusSubresource {
			return true
		}
	}
	return false
}

func (c *CRD) hasDefaults() bool {
	for _, v := range c.Versions {
		if hasDefault(v.Schema) {
			return true
		}
	}
	return false
}

func hasDefault(s *Schema) bool {
	if s == nil {
		return false
	}
	if s.HasDefault || hasDefault(s.Items) {
		return true
	}
	for _, p := range s.Properties {
		if hasDefault(p) {
			return true
		}
	}
	return s.AdditionalProperties != nil && hasDefault(s.AdditionalProperties.Schema)
}

// hasStatus reports whether m (a version, or a v1beta1 spec) has
// subresources.status set.
func hasStatus(m map[string]any) bool {
	sub, _ := m["subresources"].(map[string]any)
	st, ok := sub["status"]
	return ok && st != nil
}

// Scale is a scale subresource: the JSON paths (".spec.replicas") of the
// replica counts and of the label selector ("" when not set).
type Scale struct {
	SpecReplicasPath, StatusReplicasPath, LabelSelectorPath string

	segs [3][]string
}

// Segments returns the names of the path of SpecReplicasPath (i = 0),
// StatusReplicasPath (1) or LabelSelectorPath (2), the leading dot
// dropped, split at dots as the server splits them (nil when not set).
func (s *Scale) Segments(i int) []string { return s.segs[i] }

// scaleOf reads subresources.scale of m (a version, or a v1beta1 spec).
func scaleOf(m map[string]any) *Scale {
	sub, _ := m["subresources"].(map[string]any)
	sc, ok := sub["scale"].(map[string]any)
	if !ok {
		return nil
	}
	s := &Scale{}
	s.SpecReplicasPath, _ = sc["specReplicasPath"].(string)
	s.StatusReplicasPath, _ = sc["statusReplicasPath"].(string)
	s.LabelSelectorPath, _ = sc["labelSelectorPath"].(string)
	for i, p := range [3]string{s.SpecReplicasPath, s.StatusReplicasPath, s.LabelSelectorPath} {
		if p != "" {
			s.segs[i] = strings.Split(strings.TrimPrefix(p, "."), ".")
		}
	}
	return s
}
