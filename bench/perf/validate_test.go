package perf

import (
	"errors"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"testing"

	"context"
	"encoding/json"
	"fmt"
	"github.com/jsonprune/jsonprune/decoder"

	"github.com/jsonprune/jsonprune/bench/oracle"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// refValidator is the API server's create-path validation of a custom
// resource of one CRD version: the strategy's Validate
// (k8s.io/apiextensions-apiserver/pkg/registry/customresource), i.e.
// TypeMeta, the root's ObjectMeta, the OpenAPI schema validator
// (NewSchemaValidator of the version's openAPIV3Schema, as
// bench/conformance's validation differential builds it), the scale
// subresource, embedded resources and list types. CEL rules are taken
// out of the structural schema it is given: jsonprune does not check them,
// so the reference does not either (equal work).
type refValidator struct {
	validate func(*unstructured.Unstructured) field.ErrorList
	status   bool // the status subresource: a create drops status first
	// namespaced: the request's namespace fills an empty one ("default",
	// as bench/apiserver posts it); cluster-scoped: the server clears it
	namespaced bool
}

func newRefValidator(crd []byte, version string) (*refValidator, error) {
	internal, _, err := oracle.DecodeCRD(crd)
	if err != nil {
		return nil, err
	}
	var props *apiextensions.JSONSchemaProps
	if internal.Spec.Validation != nil {
		props = internal.Spec.Validation.OpenAPIV3Schema
	}
	status := internal.Spec.Subresources != nil && internal.Spec.Subresources.Status != nil
	var scale *apiextensions.CustomResourceSubresourceScale
	if internal.Spec.Subresources != nil {
		scale = internal.Spec.Subresources.Scale
	}
	found := false
	for _, v := range internal.Spec.Versions {
		if v.Name != version {
			continue
		}
		found = true
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			props = v.Schema.OpenAPIV3Schema
		}
		if v.Subresources != nil {
			status = v.Subresources.Status != nil
			scale = v.Subresources.Scale
		}
	}
	if !found || props == nil {
		return nil, fmt.Errorf("%s: no schema for version %q", internal.Name, version)
	}
	sv, _, err := apiservervalidation.NewSchemaValidator(props)
	if err != nil {
		return nil, err
	}
	o, err := oracle.NewCRDecoderOf(internal)
	if err != nil {
		return nil, err
	}
	st := withoutCEL(o.Schema(version))
	gvk := schema.GroupVersionKind{Group: internal.Spec.Group, Version: version, Kind: internal.Spec.Names.Kind}
	strategy := customresource.NewStrategy(nil, internal.Spec.Scope == apiextensions.NamespaceScoped, gvk, sv, nil, st, nil, scale, nil)
	return &refValidator{
		validate:   func(u *unstructured.Unstructured) field.ErrorList { return strategy.Validate(context.Background(), u) },
		status:     status,
		namespaced: internal.Spec.Scope == apiextensions.NamespaceScoped,
	}, nil
}

// withoutCEL is a copy of s without x-kubernetes-validations.
func withoutCEL(s *structuralschema.Structural) *structuralschema.Structural {
	if s == nil {
		return nil
	}
	c := *s
	c.XValidations = nil
	c.Items = withoutCEL(s.Items)
	if s.Properties != nil {
		c.Properties = make(map[string]structuralschema.Structural, len(s.Properties))
		for k, p := range s.Properties {
			c.Properties[k] = *withoutCEL(&p)
		}
	}
	if s.AdditionalProperties != nil {
		ap := *s.AdditionalProperties
		ap.Structural = withoutCEL(ap.Structural)
		c.AdditionalProperties = &ap
	}
	return &c
}

// referenceValidate is the reference chain (oracle.PipelineObject: strict
// decoding, ObjectMeta, pruning, nulls, coercion, defaulting), then the
// create path's validation of the object (status dropped where the
// version has the status subresource, metadata present as the server's
// object always has it by then, with the request's namespace and a name
// generated from generateName as the create handler sets them), then
// encoding/json of the object. It
// returns the output and the number of validation errors.
func referenceValidate(body []byte, s *structuralschema.Structural, v *refValidator) ([]byte, int) {
	obj, _ := oracle.PipelineObject(body, s)
	if obj == nil {
		return nil, 0
	}
	if v.status {
		delete(obj, "status")
	}
	meta, ok := obj["metadata"].(map[string]any)
	if !ok {
		meta = map[string]any{}
		obj["metadata"] = meta
	}
	if !v.namespaced {
		delete(meta, "namespace")
	} else if ns, _ := meta["namespace"].(string); ns == "" {
		meta["namespace"] = "default"
	}
	if name, _ := meta["name"].(string); name == "" {
		if gn, _ := meta["generateName"].(string); gn != "" {
			meta["name"] = gn[:min(len(gn), 58)] + "xxxxx"
		}
	}
	errs := v.validate(&unstructured.Unstructured{Object: obj})
	out, _ := json.Marshal(obj)
	return out, len(errs)
}

// TestReferenceValidateAgrees checks that the validating contenders do
// the same work on the corpus: the reference's create-path validation and
// jsonprune's Validation(true) accept and refuse the same documents.
func TestReferenceValidateAgrees(t *testing.T) {
	ins, err := corpusInputs()
	if err != nil {
		t.Skipf("SKIP: the shared corpus is not available at %s: %v", corpusRoot, err)
	}
	var docs, same, refused int
	for key, in := range ins {
		d := must(decoder.New(in.set, decoder.Validation(true)))
		for i, doc := range in.docs {
			_, n := referenceValidate(doc, in.schema, in.val)
			_, err := d.AppendPrune(nil, doc)
			var ie *jperrors.InvalidError
			inv := errors.As(err, &ie)
			docs++
			if n > 0 {
				refused++
			}
			if err != nil && !inv {
				continue // a fatal error: no object to validate
			}
			if (n > 0) == inv {
				same++
			} else if err == nil || inv {
				obj, _ := oracle.PipelineObject(doc, in.schema)
				t.Errorf("%s document %d: the reference finds %d errors (%v), jsonprune: %v", key, i, n, in.val.validate(&unstructured.Unstructured{Object: obj}), err)
			}
		}
	}
	t.Logf("%d documents, %d refused by the reference, %d with the same verdict", docs, refused, same)
}
