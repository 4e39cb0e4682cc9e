package schemaauto

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// This file holds the checks around the structural rules, in the order the
// reference's CRD validation runs them for one CustomResourceValidation
// (validateCustomResourceDefinitionValidation in
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go,
// which calls NewStructural of pkg/apiserver/schema/convert.go): root nullable; the NewStructural
// conversion (whose error is shown only when nothing else is wrong), then
// the structural rules, then the defaults; then the OpenAPI walk of the
// schema. Where the reference iterates a Go map (properties), it is
// nondeterministic; jsonprune walks properties in name order.
//
// The status-subresource rule on the root schema (statusRootErrors, below)
// runs before these, from CRD.Validate, which has the subresources. The
// value validation of defaults is LintValues'.
//
// Not reproduced (documented in the README): CEL compilation and cost
// checks of x-kubernetes-validations.

// validateCRDSchema checks one schema at fp (the path of its
// CustomResourceValidation: "spec.validation" or "spec.versions[i].schema").
// status holds the status-subresource rule's errors for it, which the
// reference finds first: they too keep the NewStructural error from
// showing.
func validateCRDSchema(s *Schema, fp *jperrors.FieldPath, status jperrors.FieldErrors) jperrors.FieldErrors {
	if s == nil {
		return status
	}
	sp := fp.Child("openAPIV3Schema")
	errs := append(jperrors.FieldErrors(nil), status...)
	if s.Nullable {
		errs = append(errs, jperrors.Forbidden(sp.Child("nullable"), "nullable cannot be true at the root"))
	}
	var initErr *jperrors.FieldError
	if err := newStructuralError(s); err != nil {
		initErr = jperrors.Invalid(sp, "", err.Error())
	} else if v := ValidateStructural(sp, s); len(v) > 0 {
		errs = append(errs, v...)
	} else {
		errs = append(errs, unprunedDefaults(s, sp)...)
	}
	errs = append(errs, openAPIErrors(s, sp, true, metaContext{})...)
	if len(errs) == 0 && initErr != nil {
		errs = append(errs, initErr)
	}
	return errs
}

// newStructuralError returns the single error the reference's NewStructural
// conversion reports for s, or nil.
func newStructuralError(s *Schema) error {
	if s == nil {
		return nil
	}
	for _, k := range []string{"id", "$schema", "$ref"} {
		if s.rejected(k, true) {
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
		if s.rejected(k, true) {
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

// metaContext carries what the reference's spec validator knows about the
// position of a schema: inside resource meta (apiVersion, kind, metadata of
// the root or an embedded resource), and why defaults are forbidden there.
type metaContext struct {
	insideMeta        bool
	forbidDefaultsWhy string
}

// openAPIErrors is the reference's OpenAPI walk of a CRD schema
// (ValidateCustomResourceDefinitionOpenAPISchema in
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go),
// in its order of checks.
func openAPIErrors(s *Schema, p *jperrors.FieldPath, root bool, mc metaContext) jperrors.FieldErrors {
	if s == nil {
		return nil
	}
	var errs jperrors.FieldErrors
	add := func(e ...*jperrors.FieldError) { errs = append(errs, e...) }

	// the spec validator
	switch s.Type {
	case "", "array", "boolean", "integer", "number", "object", "string":
	default:
		add(jperrors.NotSupported(p.Child("type"), s.Type, supportedTypes))
	}
	if s.HasDefault && mc.forbidDefaultsWhy != "" {
		add(jperrors.Forbidden(p.Child("default"), "must not be set "+mc.forbidDefaultsWhy))
	}
	for _, k := range []string{"id", "additionalItems", "patternProperties", "definitions", "dependencies", "$ref"} {
		if s.rejected(k, false) {
			add(jperrors.Forbidden(p.Child(k), k+" is not supported"))
		}
	}
	if s.Type == "null" {
		add(jperrors.Forbidden(p.Child("type"), "type cannot be set to null, use nullable as an alternative"))
	}
	if s.ItemsArray != nil {
		add(jperrors.Forbidden(p.Child("items"), "items must be a schema object and not an array"))
	}
	if mc.insideMeta && s.EmbeddedResource {
		add(jperrors.Forbidden(p.Child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"))
	}

	if s.UniqueItems {
		add(jperrors.Forbidden(p.Child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	if ap := s.AdditionalProperties; ap != nil {
		if len(s.Properties) > 0 && (!ap.Allows || ap.Schema != nil) {
			add(jperrors.Forbidden(p.Child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
		}
		sub := mc
		if mc.insideMeta {
			sub.forbidDefaultsWhy = "inside additionalProperties applying to object metadata"
		}
		add(openAPIErrors(ap.Schema, p.Child("additionalProperties"), false, sub)...)
	}
	for _, k := range sortedKeys(s.Properties) {
		sub := mc
		if (root || s.EmbeddedResource) && (k == "metadata" || k == "kind" || k == "apiVersion") {
			sub.insideMeta = true
			if root {
				sub.forbidDefaultsWhy = "in top-level " + k
			}
		}
		add(openAPIErrors(s.Properties[k], p.Child("properties").Key(k), false, sub)...)
	}
	add(openAPIErrors(s.Not, p.Child("not"), false, mc)...)
	for i, x := range s.AllOf {
		add(openAPIErrors(x, p.Child("allOf").Index(i), false, mc)...)
	}
	for i, x := range s.OneOf {
		add(openAPIErrors(x, p.Child("oneOf").Index(i), false, mc)...)
	}
	for i, x := range s.AnyOf {
		add(openAPIErrors(x, p.Child("anyOf").Index(i), false, mc)...)
	}
	add(openAPIErrors(s.Items, p.Child("items"), false, mc)...)
	for i, x := range s.ItemsArray {
		add(openAPIErrors(x, p.Child("items").Index(i), false, mc)...)
	}
	if s.PreserveUnknownFields != nil && !*s.PreserveUnknownFields {
		add(jperrors.Invalid(p.Child("x-kubernetes-preserve-unknown-fields"), false, "must be true or undefined"))
	}
	add(listAndMapTypeErrors(s, p)...)
	return errs
}

// listAndMapTypeErrors checks x-kubernetes-map-type, x-kubernetes-list-type
// and x-kubernetes-list-map-keys as the reference's OpenAPI walk does.
func listAndMapTypeErrors(s *Schema, p *jperrors.FieldPath) jperrors.FieldErrors {
	var errs jperrors.FieldErrors
	add := func(e ...*jperrors.FieldError) { errs = append(errs, e...) }
	if s.MapType != nil && s.Type != "object" {
		if s.Type == "" {
			add(jperrors.Required(p.Child("type"), "must be object if x-kubernetes-map-type is specified"))
		} else {
			add(jperrors.Invalid(p.Child("type"), s.Type, "must be object if x-kubernetes-map-type is specified"))
		}
	}
	if s.MapType != nil && *s.MapType != "atomic" && *s.MapType != "granular" {
		add(jperrors.NotSupported(p.Child("x-kubernetes-map-type"), *s.MapType, []string{"atomic", "granular"}))
	}
	if s.ListType != nil && s.Type != "array" {
		if s.Type == "" {
			add(jperrors.Required(p.Child("type"), "must be array if x-kubernetes-list-type is specified"))
		} else {
			add(jperrors.Invalid(p.Child("type"), s.Type, "must be array if x-kubernetes-list-type is specified"))
		}
	} else if s.ListType != nil && *s.ListType == "set" && s.Items != nil {
		switch it := s.Items; it.Type {
		case "array":
			if it.ListType != nil && *it.ListType != "atomic" {
				add(jperrors.Invalid(p.Child("items").Child("x-kubernetes-list-type"), *it.ListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		case "object":
			if it.MapType == nil || *it.MapType != "atomic" {
				// the reference reports the items' list type as the value
				var v any
				if it.ListType != nil {
					v = *it.ListType
				}
				add(jperrors.Invalid(p.Child("items").Child("x-kubernetes-map-type"), v, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		}
	}
	if s.ListType != nil && *s.ListType != "atomic" && *s.ListType != "set" && *s.ListType != "map" {
		add(jperrors.NotSupported(p.Child("x-kubernetes-list-type"), *s.ListType, []string{"atomic", "map", "set"}))
	}
	if len(s.ListMapKeys) > 0 {
		if s.ListType == nil {
			add(jperrors.Required(p.Child("x-kubernetes-list-type"), "must be map if x-kubernetes-list-map-keys is non-empty"))
		} else if *s.ListType != "map" {
			add(jperrors.Invalid(p.Child("x-kubernetes-list-type"), *s.ListType, "must be map if x-kubernetes-list-map-keys is non-empty"))
		}
	}
	keys := make([]any, len(s.ListMapKeys))
	for i, k := range s.ListMapKeys {
		keys[i] = k
	}
	if s.ListType != nil && *s.ListType == "map" {
		if len(s.ListMapKeys) == 0 {
			add(jperrors.Required(p.Child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"))
		}
		switch {
		case s.Items == nil && s.ItemsArray == nil:
			add(jperrors.Required(p.Child("items"), "must have a schema if x-kubernetes-list-type is map"))
		case s.Items == nil:
			add(jperrors.Invalid(p.Child("items"), "<tuple>", "must only have a single schema if x-kubernetes-list-type is map"))
		case s.Items.Type != "object":
			add(jperrors.Invalid(p.Child("items").Child("type"), s.Items.Type, "must be object if parent array's x-kubernetes-list-type is map"))
		default:
			seen := map[string]bool{}
			for _, k := range s.ListMapKeys {
				if f, ok := s.Items.Properties[k]; ok {
					if f.Type == "array" || f.Type == "object" {
						add(jperrors.Invalid(p.Child("items").Child("properties").Key(k).Child("type"), s.Items.Type, "must be a scalar type if parent array's x-kubernetes-list-type is map"))
					}
				} else {
					add(jperrors.Invalid(p.Child("x-kubernetes-list-map-keys"), keys, "entries must all be names of item properties"))
				}
				if seen[k] {
					add(jperrors.Invalid(p.Child("x-kubernetes-list-map-keys"), keys, "must not contain duplicate entries"))
				}
				seen[k] = true
			}
		}
	}
	// map and set lists: items not nullable, map keys defaulted or required
	if s.Items != nil && s.ListType != nil && (*s.ListType == "set" || *s.ListType == "map") {
		if s.Items.Nullable {
			add(jperrors.Forbidden(p.Child("items").Child("nullable"), "cannot be nullable when x-kubernetes-list-type is "+*s.ListType))
		}
		if *s.ListType == "map" {
			for _, k := range s.ListMapKeys {
				f, ok := s.Items.Properties[k]
				if !ok {
					continue
				}
				kp := p.Child("items").Child("properties").Key(k)
				if !requires(s.Items, k) && !f.HasDefault {
					add(jperrors.Required(kp.Child("default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
				}
				if f.Nullable {
					add(jperrors.Forbidden(kp.Child("nullable"), "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
				}
			}
		}
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

// The status-subresource rule on the root schema
// (validateCustomResourceDefinitionValidation in
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go):
// when the status subresource is enabled, the server walks the fields of
// its internal JSONSchemaProps in declaration order, skips those with their
// zero value, and stops at the first that is a type other than "object",
// or that is not in allowedFieldsAtRootSchema. The schema is then
// rendered as the server's field.Error renders that struct: encoding/json
// with Go field names, every field present.

// internalField is a field of the internal JSONSchemaProps: its Go name,
// its JSON key in the v1 form, and how its value is read and rendered.
type internalField struct {
	name, key string
	kind      fieldKind
	allowed   bool // in allowedFieldsAtRootSchema
}

type fieldKind uint8

const (
	kString       fieldKind = iota // string, "" when absent
	kStringPtr                     // *string
	kBool                          // bool, false when absent
	kBoolPtr                       // *bool
	kFloatPtr                      // *float64
	kIntPtr                        // *int64
	kValue                         // *JSON or JSON: any value
	kValues                        // []JSON
	kStrings                       // []string
	kSchema                        // *JSONSchemaProps
	kSchemas                       // []JSONSchemaProps
	kSchemaMap                     // map[string]JSONSchemaProps
	kItems                         // *JSONSchemaPropsOrArray
	kOrBool                        // *JSONSchemaPropsOrBool
	kDependencies                  // map[string]JSONSchemaPropsOrStringArray
	kExternalDocs                  // *ExternalDocumentation
	kRules                         // []ValidationRule
)

var internalFields = []internalField{
	{"ID", "id", kString, false},
	{"Schema", "$schema", kString, false},
	{"Ref", "$ref", kStringPtr, false},
	{"Description", "description", kString, true},
	{"Type", "type", kString, true},
	{"Nullable", "nullable", kBool, false},
	{"Format", "format", kString, true},
	{"Title", "title", kString, true},
	{"Default", "default", kValue, false},
	{"Maximum", "maximum", kFloatPtr, true},
	{"ExclusiveMaximum", "exclusiveMaximum", kBool, true},
	{"Minimum", "minimum", kFloatPtr, true},
	{"ExclusiveMinimum", "exclusiveMinimum", kBool, true},
	{"MaxLength", "maxLength", kIntPtr, true},
	{"MinLength", "minLength", kIntPtr, true},
	{"Pattern", "pattern", kString, true},
	{"MaxItems", "maxItems", kIntPtr, true},
	{"MinItems", "minItems", kIntPtr, true},
	{"UniqueItems", "uniqueItems", kBool, true},
	{"MultipleOf", "multipleOf", kFloatPtr, true},
	{"Enum", "enum", kValues, false},
	{"MaxProperties", "maxProperties", kIntPtr, false},
	{"MinProperties", "minProperties", kIntPtr, false},
	{"Required", "required", kStrings, true},
	{"Items", "items", kItems, true},
	{"AllOf", "allOf", kSchemas, false},
	{"OneOf", "oneOf", kSchemas, false},
	{"AnyOf", "anyOf", kSchemas, false},
	{"Not", "not", kSchema, false},
	{"Properties", "properties", kSchemaMap, true},
	{"AdditionalProperties", "additionalProperties", kOrBool, false},
	{"PatternProperties", "patternProperties", kSchemaMap, false},
	{"Dependencies", "dependencies", kDependencies, false},
	{"AdditionalItems", "additionalItems", kOrBool, false},
	{"Definitions", "definitions", kSchemaMap, false},
	{"ExternalDocs", "externalDocs", kExternalDocs, true},
	{"Example", "example", kValue, true},
	{"XPreserveUnknownFields", "x-kubernetes-preserve-unknown-fields", kBoolPtr, true},
	{"XEmbeddedResource", "x-kubernetes-embedded-resource", kBool, false},
	{"XIntOrString", "x-kubernetes-int-or-string", kBool, false},
	{"XListMapKeys", "x-kubernetes-list-map-keys", kStrings, false},
	{"XListType", "x-kubernetes-list-type", kStringPtr, false},
	{"XMapType", "x-kubernetes-map-type", kStringPtr, false},
	{"XValidations", "x-kubernetes-validations", kRules, true},
}

// allowedAtRootWithStatus is the server's message list of
// allowedFieldsAtRootSchema.
var allowedAtRootWithStatus = func() string {
	var names []string
	for _, f := range internalFields {
		if f.allowed {
			names = append(names, f.name)
		}
	}
	return "[" + strings.Join(names, " ") + "]"
}()

// statusCheck is the status-subresource rule's verdict on a root schema,
// whatever its path: a type other than "object" (typ), or a field not
// allowed at the root (schema: the internal JSONSchemaProps rendered).
type statusCheck struct {
	typ    any
	schema []byte
}

// statusCheckOf checks the root schema raw (the schema as read, or
// dropRaw's token for it): the server walks the fields of its internal
// JSONSchemaProps in declaration order, skips those with their zero value,
// and stops at the first that is a type other than "object" or a field
// not allowed at the root.
func statusCheckOf(raw any) statusCheck {
	if t, ok := raw.(*rawToken); ok {
		return t.status
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return statusCheck{}
	}
	for _, f := range internalFields {
		v, ok := m[f.key]
		if !ok || isZeroField(f.kind, v) {
			continue
		}
		if f.name == "Type" {
			if v != "object" {
				return statusCheck{typ: v}
			}
			continue
		}
		if !f.allowed {
			return statusCheck{schema: appendInternalSchema(nil, m)}
		}
	}
	return statusCheck{}
}

// statusRootErrors returns the status-subresource rule's error for the
// root schema raw (the schema as read, or dropRaw's token) at sp (its
// openAPIV3Schema path), or nil.
func statusRootErrors(raw any, sp *jperrors.FieldPath) jperrors.FieldErrors {
	c := statusCheckOf(raw)
	switch {
	case c.typ != nil:
		return jperrors.FieldErrors{jperrors.Invalid(sp.Child("type"), c.typ, `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`)}
	case c.schema != nil:
		return jperrors.FieldErrors{jperrors.Invalid(sp, json.RawMessage(c.schema),
			"only "+allowedAtRootWithStatus+" fields are allowed at the root of the schema if the status subresource is enabled")}
	}
	return nil
}

// isZeroField reports whether a field read from v has its zero value in the
// internal struct: absent or null, "" for strings, false for booleans.
func isZeroField(k fieldKind, v any) bool {
	switch k {
	case kString:
		s, _ := v.(string)
		return s == ""
	case kBool:
		b, _ := v.(bool)
		return !b
	}
	return v == nil
}

// appendInternalSchema appends the JSON of the internal JSONSchemaProps
// that the schema m converts to, as encoding/json writes that struct.
func appendInternalSchema(b []byte, m map[string]any) []byte {
	b = append(b, '{')
	for i, f := range internalFields {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONValue(b, f.name)
		b = append(b, ':')
		b = appendInternalField(b, f.kind, m[f.key])
	}
	return append(b, '}')
}

func appendInternalField(b []byte, k fieldKind, v any) []byte {
	switch k {
	case kString:
		s, _ := v.(string)
		return appendJSONValue(b, s)
	case kBool:
		x, _ := v.(bool)
		return strconv.AppendBool(b, x)
	}
	if v == nil {
		return append(b, "null"...)
	}
	switch k {
	case kStringPtr, kBoolPtr, kValue:
		return appendJSONValue(b, v)
	case kFloatPtr:
		switch x := v.(type) {
		case int64:
			return appendJSONValue(b, float64(x))
		}
		return appendJSONValue(b, v)
	case kIntPtr:
		switch x := v.(type) {
		case float64:
			return appendJSONValue(b, int64(x))
		}
		return appendJSONValue(b, v)
	case kValues, kStrings:
		return appendJSONValue(b, v)
	case kSchema:
		return appendInternalSchemaValue(b, v)
	case kSchemas:
		l, _ := v.([]any)
		b = append(b, '[')
		for i, x := range l {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInternalSchemaValue(b, x)
		}
		return append(b, ']')
	case kSchemaMap:
		mm, _ := v.(map[string]any)
		b = append(b, '{')
		for i, key := range sortedKeys(mm) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONValue(b, key)
			b = append(b, ':')
			b = appendInternalSchemaValue(b, mm[key])
		}
		return append(b, '}')
	case kItems:
		if l, ok := v.([]any); ok {
			b = append(b, `{"Schema":null,"JSONSchemas":`...)
			b = appendInternalField(b, kSchemas, l)
			return append(b, '}')
		}
		b = append(b, `{"Schema":`...)
		b = appendInternalSchemaValue(b, v)
		return append(b, `,"JSONSchemas":null}`...)
	case kOrBool:
		if x, ok := v.(bool); ok {
			b = append(b, `{"Allows":`...)
			b = strconv.AppendBool(b, x)
			return append(b, `,"Schema":null}`...)
		}
		b = append(b, `{"Allows":true,"Schema":`...)
		b = appendInternalSchemaValue(b, v)
		return append(b, '}')
	case kDependencies:
		mm, _ := v.(map[string]any)
		b = append(b, '{')
		for i, key := range sortedKeys(mm) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONValue(b, key)
			if l, ok := mm[key].([]any); ok {
				b = append(b, `:{"Schema":null,"Property":`...)
				b = appendJSONValue(b, l)
			} else {
				b = append(b, `:{"Schema":`...)
				b = appendInternalSchemaValue(b, mm[key])
				b = append(b, `,"Property":null`...)
			}
			b = append(b, '}')
		}
		return append(b, '}')
	case kExternalDocs:
		mm, _ := v.(map[string]any)
		d, _ := mm["description"].(string)
		u, _ := mm["url"].(string)
		b = append(b, `{"Description":`...)
		b = appendJSONValue(b, d)
		b = append(b, `,"URL":`...)
		b = appendJSONValue(b, u)
		return append(b, '}')
	case kRules:
		l, _ := v.([]any)
		b = append(b, '[')
		for i, x := range l {
			if i > 0 {
				b = append(b, ',')
			}
			r, _ := x.(map[string]any)
			str := func(k string) string { s, _ := r[k].(string); return s }
			b = append(b, `{"Rule":`...)
			b = appendJSONValue(b, str("rule"))
			b = append(b, `,"Message":`...)
			b = appendJSONValue(b, str("message"))
			b = append(b, `,"MessageExpression":`...)
			b = appendJSONValue(b, str("messageExpression"))
			b = append(b, `,"Reason":`...)
			b = appendJSONValue(b, r["reason"])
			b = append(b, `,"FieldPath":`...)
			b = appendJSONValue(b, str("fieldPath"))
			b = append(b, `,"OptionalOldSelf":`...)
			b = appendJSONValue(b, r["optionalOldSelf"])
			b = append(b, '}')
		}
		return append(b, ']')
	}
	return appendJSONValue(b, v)
}

// appendInternalSchemaValue appends a sub-schema; a value that is not an
// object is written as an empty schema.
func appendInternalSchemaValue(b []byte, v any) []byte {
	m, _ := v.(map[string]any)
	return appendInternalSchema(b, m)
}

// appendJSONValue appends v as encoding/json writes it (HTML characters
// escaped, as field.Error's json.Marshal does).
func appendJSONValue(b []byte, v any) []byte {
	js, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, js...)
}
