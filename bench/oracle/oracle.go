// Package oracle runs the real Kubernetes apiextensions code (k8s.io/apiextensions-apiserver,
// k8s.io/apimachinery, sigs.k8s.io/yaml, sigs.k8s.io/json; versions pinned in bench/go.mod) so that
// jsonprune's structural-schema checks and skeletons can be compared with the reference
// implementation. Nothing here re-implements Kubernetes logic: every step is a call to an exported
// function of those modules. The steps below are chained by hand only because the API server wires
// them together through its generic REST machinery, which is not needed for an oracle.
//
// CRDViolations(data) chains, in this order (what the API server does on a CRD create):
//
//  1. sigs.k8s.io/yaml.YAMLToJSON (the YAML serializer's conversion; JSON input passes through;
//     for YAML input YAMLToJSONStrict is also run, only to collect the duplicate-key error the
//     strict serializer reports);
//  2. k8s.io/apimachinery/pkg/runtime/serializer/json.DefaultMetaFactory.Interpret to read
//     apiVersion/kind (case-insensitive stdlib JSON, as the serializer does);
//  3. Scheme.New(gvk) for apiextensions.k8s.io/v1 or v1beta1 (scheme built with
//     k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install.Install);
//  4. sigs.k8s.io/json.UnmarshalStrict into that versioned object (the strict serializer's
//     decode, fieldValidation=Warn being the default; it yields the same object as the
//     non-strict UnmarshalCaseSensitivePreserveInts, plus unknown/duplicate-field errors that
//     DecodeCRD returns separately and CRDViolations ignores);
//  5. Scheme.Default (runs the generated SetObjectDefaults_CustomResourceDefinition:
//     v1beta1 spec.preserveUnknownFields defaults to true, versions/scope/conversion defaults, ...);
//  6. Scheme.Convert to the internal apiextensions.CustomResourceDefinition (this is where v1
//     per-version schemas are hoisted into spec.validation when all versions have identical
//     schemas, which selects the spec.validation.openAPIV3Schema vs
//     spec.versions[i].schema.openAPIV3Schema error prefix);
//  7. registry/customresourcedefinition.NewStrategy(scheme).PrepareForCreate (exported method:
//     clears status, sets generation 1 and status.storedVersions from the storage version; without
//     it every input would also report status.storedVersions errors);
//  8. apis/apiextensions/validation.ValidateCustomResourceDefinition(context.Background(), crd).
//
// Nothing had to be reproduced for CRDViolations. The generic ObjectMeta system-field filling of
// the REST layer (rest.FillObjectMetaSystemFields: uid, creation timestamp) is skipped; it does not
// affect the validation result.
//
// SchemaViolations(data) chains: sigs.k8s.io/yaml.YAMLToJSON; sigs.k8s.io/json.UnmarshalStrict
// into a v1 JSONSchemaProps (strict errors are returned by DecodeSchema only);
// v1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps (nil scope, as the CR handler
// does for CustomResourceValidation); apiserver/schema.NewStructural;
// apiserver/schema.ValidateStructural(field.NewPath("openAPIV3Schema"), s). Nothing reproduced.
//
// StructuralSchemas(data) decodes the CRD as CRDViolations does (steps 1-6), converts the internal
// CRD to v1 with Scheme.Convert (the CR handler always works on the v1 type), and then for every
// spec.versions[i] reproduces the short loop at the top of
// customresource_handler.go getOrCreateServingInfoFor (unexported; about ten lines of glue, no
// logic of its own): apihelpers.GetSchemaForVersion, v1.Convert_v1_CustomResourceValidation_To_
// apiextensions_CustomResourceValidation, schema.NewStructural, and, when
// spec.preserveUnknownFields is false, Structural.DeepCopy and defaulting.PruneDefaults. The result
// is rendered with Structural.ToKubeOpenAPI (documented upstream as "faithful and roundtrippable")
// and encoding/json.
package oracle

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	serializerjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kjson "sigs.k8s.io/json"
	sigsyaml "sigs.k8s.io/yaml"
)

// NewStructuralErrorPrefix starts the single message SchemaViolations returns when
// structuralschema.NewStructural fails (ValidateStructural is then not run).
const NewStructuralErrorPrefix = "NewStructural: "

var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
}()

var crdGroupKind = schema.GroupKind{Group: apiextensions.GroupName, Kind: "CustomResourceDefinition"}

// DecodeCRD decodes one CustomResourceDefinition document (YAML or JSON, apiextensions.k8s.io/v1
// or v1beta1) into the internal type, with defaulting applied, as the API server does on create
// (steps 1-6 of the package comment). It does not run PrepareForCreate.
//
// strict lists what the API server's strict serializer (fieldValidation=Warn, the default, or
// Strict) would report without changing the object: for YAML input the error of
// sigs.k8s.io/yaml.YAMLToJSONStrict (duplicate keys), then the strict errors of
// sigs.k8s.io/json.UnmarshalStrict (duplicate and unknown fields). With Warn these are warnings,
// with Strict the create fails.
func DecodeCRD(data []byte) (crd *apiextensions.CustomResourceDefinition, strict []string, err error) {
	js, strict, err := toJSON(data)
	if err != nil {
		return nil, nil, err
	}
	gvk, err := serializerjson.DefaultMetaFactory.Interpret(js)
	if err != nil {
		return nil, nil, fmt.Errorf("reading apiVersion/kind: %w", err)
	}
	if gvk.GroupKind() != crdGroupKind {
		return nil, nil, fmt.Errorf("not a CustomResourceDefinition: %s", gvk)
	}
	if gvk.Version == runtime.APIVersionInternal {
		return nil, nil, fmt.Errorf("unsupported version %q", gvk.Version)
	}
	versioned, err := scheme.New(*gvk)
	if err != nil {
		return nil, nil, err
	}
	strictJSON, err := kjson.UnmarshalStrict(js, versioned)
	if err != nil {
		return nil, nil, fmt.Errorf("decoding %s: %w", gvk, err)
	}
	strict = appendErrors(strict, strictJSON)
	scheme.Default(versioned)
	internal := &apiextensions.CustomResourceDefinition{}
	if err := scheme.Convert(versioned, internal, nil); err != nil {
		return nil, nil, fmt.Errorf("converting to internal: %w", err)
	}
	return internal, strict, nil
}

// toJSON converts YAML (or JSON) to JSON with sigs.k8s.io/yaml.YAMLToJSON, as the YAML
// serializer does, and for input that does not start with '{' also runs YAMLToJSONStrict and
// returns its error (duplicate keys) as a strict message.
func toJSON(data []byte) (js []byte, strict []string, err error) {
	js, err = sigsyaml.YAMLToJSON(data)
	if err != nil {
		return nil, nil, fmt.Errorf("yaml to json: %w", err)
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		if _, err := sigsyaml.YAMLToJSONStrict(data); err != nil {
			strict = append(strict, err.Error())
		}
	}
	return js, strict, nil
}

func appendErrors(out []string, errs []error) []string {
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// CRDErrors is CRDViolations returning the field.ErrorList itself.
func CRDErrors(data []byte) (field.ErrorList, error) {
	crd, _, err := DecodeCRD(data)
	if err != nil {
		return nil, err
	}
	return ValidateDecodedCRD(crd), nil
}

// ValidateDecodedCRD runs steps 7-8 of the package comment on a deep copy of a CRD returned by
// DecodeCRD (so the argument can be reused, e.g. for StructuralSchemasOf).
func ValidateDecodedCRD(decoded *apiextensions.CustomResourceDefinition) field.ErrorList {
	crd := decoded.DeepCopy()
	customresourcedefinition.NewStrategy(scheme).PrepareForCreate(context.Background(), crd)
	return validation.ValidateCustomResourceDefinition(context.Background(), crd)
}

// CRDViolations validates one CRD document as the API server does on create and returns every
// field.Error's Error() string in ErrorList order (unfiltered; see FilterSchemaErrors).
//
// The order is ValidateCustomResourceDefinition's: metadata, spec (per version, then the
// top-level validation), status, storedVersions, API approval, preserveUnknownFields. It is NOT
// globally sorted, and errors of ValidateCustomResourceDefinitionOpenAPISchema and of default
// validation come from Go map iteration, so their relative order can change from run to run.
func CRDViolations(data []byte) ([]string, error) {
	errs, err := CRDErrors(data)
	if err != nil {
		return nil, err
	}
	return Messages(errs), nil
}

// Messages renders an ErrorList with field.Error.Error(), keeping its order.
func Messages(errs field.ErrorList) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// IsSchemaMessage reports whether a CRD-validation message is about a schema or about
// spec.preserveUnknownFields (paths spec.validation..., spec.versions[..., spec.preserveUnknownFields).
// Note that spec.versions[i] messages that are not about the schema (names, columns, ...) also match.
func IsSchemaMessage(msg string) bool {
	return strings.HasPrefix(msg, "spec.validation") ||
		strings.HasPrefix(msg, "spec.versions[") ||
		strings.HasPrefix(msg, "spec.preserveUnknownFields")
}

// FilterSchemaErrors keeps the messages for which IsSchemaMessage is true, in order.
func FilterSchemaErrors(msgs []string) []string {
	var out []string
	for _, m := range msgs {
		if IsSchemaMessage(m) {
			out = append(out, m)
		}
	}
	return out
}

// DecodeSchema decodes a bare OpenAPI v3 schema (a v1 JSONSchemaProps, YAML or JSON) and converts
// it to the internal type, as the CR handler does. strict is as for DecodeCRD (unknown fields are
// keys that JSONSchemaProps does not have, e.g. misspelt extensions).
func DecodeSchema(data []byte) (props *apiextensions.JSONSchemaProps, strict []string, err error) {
	js, strict, err := toJSON(data)
	if err != nil {
		return nil, nil, err
	}
	var v1 apiextensionsv1.JSONSchemaProps
	strictJSON, err := kjson.UnmarshalStrict(js, &v1)
	if err != nil {
		return nil, nil, fmt.Errorf("decoding JSONSchemaProps: %w", err)
	}
	strict = appendErrors(strict, strictJSON)
	internal := &apiextensions.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, internal, nil); err != nil {
		return nil, nil, fmt.Errorf("converting to internal: %w", err)
	}
	return internal, strict, nil
}

// SchemaViolations runs NewStructural and ValidateStructural(field.NewPath("openAPIV3Schema"), s)
// on a bare schema. It returns ValidateStructural's messages in the order returned (which
// ValidateStructural sorts by Error() string). If NewStructural fails, the result is the single
// message NewStructuralErrorPrefix + err.Error(). The error return is for input that cannot be
// decoded at all.
func SchemaViolations(data []byte) ([]string, error) {
	props, _, err := DecodeSchema(data)
	if err != nil {
		return nil, err
	}
	return ValidateDecodedSchema(props), nil
}

// ValidateDecodedSchema is SchemaViolations for a schema returned by DecodeSchema.
func ValidateDecodedSchema(props *apiextensions.JSONSchemaProps) []string {
	s, err := structuralschema.NewStructural(props)
	if err != nil {
		return []string{NewStructuralErrorPrefix + err.Error()}
	}
	return Messages(structuralschema.ValidateStructural(field.NewPath("openAPIV3Schema"), s))
}

// VersionSchema is the structural schema the CR request handler would use for one version.
type VersionSchema struct {
	Name    string `json:"name"`
	Served  bool   `json:"served"`
	Storage bool   `json:"storage"`
	// NoSchema is true when the version has no schema: the handler has no structural schema for
	// it and prunes everything but apiVersion/kind/metadata.
	NoSchema bool `json:"noSchema,omitempty"`
	// NewStructuralError is NewStructural's error, if any (the handler refuses to serve then,
	// unless preserveUnknownFields is true).
	NewStructuralError string `json:"newStructuralError,omitempty"`
	// PruneDefaultsError is defaulting.PruneDefaults' error, if any.
	PruneDefaultsError string `json:"pruneDefaultsError,omitempty"`
	// Schema is Structural.ToKubeOpenAPI() marshalled with encoding/json (object keys sorted).
	Schema json.RawMessage `json:"schema,omitempty"`
}

// CRDSchemas is the result of StructuralSchemas.
type CRDSchemas struct {
	PreserveUnknownFields bool            `json:"preserveUnknownFields"`
	Versions              []VersionSchema `json:"versions"`
}

// StructuralSchemas returns, for every spec.versions[i] of a CRD (in spec order, served or not,
// as the handler builds them), the structural schema the CR request handler uses: NewStructural
// of the v1 version schema, then DeepCopy and PruneDefaults when spec.preserveUnknownFields is
// false. v1beta1 input is converted to v1 first (top-level spec.validation is copied into every
// version).
func StructuralSchemas(data []byte) (*CRDSchemas, error) {
	internal, _, err := DecodeCRD(data)
	if err != nil {
		return nil, err
	}
	return StructuralSchemasOf(internal)
}

// StructuralSchemasOf is StructuralSchemas for a CRD returned by DecodeCRD (which is not modified).
func StructuralSchemasOf(internal *apiextensions.CustomResourceDefinition) (*CRDSchemas, error) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := scheme.Convert(internal.DeepCopy(), crd, nil); err != nil {
		return nil, fmt.Errorf("converting to v1: %w", err)
	}
	out := &CRDSchemas{PreserveUnknownFields: crd.Spec.PreserveUnknownFields}
	for _, v := range crd.Spec.Versions {
		vs := VersionSchema{Name: v.Name, Served: v.Served, Storage: v.Storage}
		val, err := apihelpers.GetSchemaForVersion(crd, v.Name)
		if err != nil {
			return nil, err
		}
		if val == nil {
			vs.NoSchema = true
			out.Versions = append(out.Versions, vs)
			continue
		}
		internalValidation := &apiextensions.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internalValidation, nil); err != nil {
			return nil, fmt.Errorf("version %s: converting validation: %w", v.Name, err)
		}
		s, err := structuralschema.NewStructural(internalValidation.OpenAPIV3Schema)
		if err != nil {
			vs.NewStructuralError = err.Error()
			out.Versions = append(out.Versions, vs)
			continue
		}
		if !crd.Spec.PreserveUnknownFields {
			s = s.DeepCopy()
			if err := defaulting.PruneDefaults(s); err != nil {
				vs.PruneDefaultsError = err.Error()
			}
		}
		if s == nil {
			vs.NoSchema = true
		} else {
			b, err := json.Marshal(s.ToKubeOpenAPI())
			if err != nil {
				return nil, fmt.Errorf("version %s: rendering schema: %w", v.Name, err)
			}
			vs.Schema = b
		}
		out.Versions = append(out.Versions, vs)
	}
	return out, nil
}

// NewStructuralErrors returns "<version>: <NewStructural error>" for each version whose schema
// NewStructural rejects, in spec order.
func (c *CRDSchemas) NewStructuralErrors() []string {
	var out []string
	for _, v := range c.Versions {
		if v.NewStructuralError != "" {
			out = append(out, v.Name+": "+v.NewStructuralError)
		}
	}
	return out
}
