package oracle

// This file runs the API server's decode chain for a custom-resource create request body
// (k8s.io/apiserver/pkg/endpoints/handlers/create.go, then the serializer of
// k8s.io/apimachinery/pkg/runtime/serializer/json/json.go and the decoders of
// k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go). The real serializer, versioning codec,
// ObjectMeta, pruning, null-pruning, coercion and defaulting code is called; only the few lines
// that wire them together are unexported upstream and re-typed here. Exactly these steps are
// reproduced by hand (everything else is a call into the Kubernetes modules):
//
//  1. Serving info (k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go,
//     crdHandler.getOrCreateServingInfoFor): the per-version structural schema loop
//     (apihelpers.GetSchemaForVersion, Convert_v1_CustomResourceValidation_To_apiextensions_
//     CustomResourceValidation, NewStructural, and when spec.preserveUnknownFields is false
//     DeepCopy + defaulting.PruneDefaults; a NewStructural error only stops serving when
//     preserveUnknownFields is false, otherwise the version's schema is nil), the request kind
//     (group, version, names.kind; the handler uses status.acceptedNames.kind, which the naming
//     controller copies from spec.names.kind), the unversioned parameter scheme given to the typer,
//     and the two json.SerializerOptions used for application/json and application/yaml (Strict
//     and non-strict; StreamingCollectionsEncoding only matters for encoding).
//  2. unstructuredNegotiatedSerializer.DecoderToVersion (same file): returnUnknownFieldPaths =
//     serializer.IsStrict(), then versioning.NewCodec(nil, schemaCoercingDecoder{...},
//     runtime.UnsafeObjectConvertor(apiserver.Scheme), apiserver.Scheme, apiserver.Scheme,
//     unstructuredDefaulter{...}, nil, hubGV, "unstructuredNegotiatedSerializer"). NewCodec is the
//     real exported function.
//  3. schemaCoercingDecoder.Decode (same file): keep the delegate's strict errors when an object
//     came back, any other error is fatal; apply(); when returnUnknownFieldPaths and there are
//     strict errors or unknown paths, NewStrictDecodingError(strict ++ `unknown field "%s"`).
//  4. unstructuredSchemaCoercer.apply (same file), request-path settings (dropInvalidMetadata and
//     repairGeneration false): unstructured.NestedString for kind and apiVersion (errors fatal),
//     objectmeta.GetObjectMetaWithOptions, schema.ParseGroupVersion, the exact group/kind
//     comparison, pruning.PruneWithOptions(isResourceRoot=true, TrackUnknownFieldPaths=strict) and
//     defaulting.PruneNonNullableNullsWithoutDefaults when preserveUnknownFields is false,
//     objectmeta.CoerceWithOptions(nil, obj, s, false, ...), then SetKind/SetAPIVersion when found
//     and objectmeta.SetObjectMeta.
//  5. unstructuredDefaulter.Default (same file): objects of another group/kind go to the scheme's
//     Default, the CR kind to defaulting.Default(content, schemas[object's version]).
//  6. unstructuredCreator.New (same file): an Unstructured with the requested GVK.
//  7. The create handler (k8s.io/apiserver/pkg/endpoints/handlers/create.go createHandler): the
//     fieldValidation default (rest.go fieldValidation: "" means Warn), the serializer choice
//     (Warn/Strict use the StrictSerializer), into = r.New() (registry/customresource/etcd.go
//     NewStorage's NewFunc: an Unstructured with the request kind), defaultGVK = scope.Kind, the
//     error switch (Warn with a strict error and an object: addStrictDecodingWarnings; anything
//     else: transformDecodeError), and the scope.AcceptsGroupVersion check that follows decoding.
//  8. handlers/rest.go transformDecodeError, summarizeData, parseYAMLWarnings and
//     addStrictDecodingWarnings (message texts, prefixes and the per-line YAML split). The warning
//     texts are then handed to the real warning recorder (endpoints/filters.WithWarningRecorder
//     and warning.AddWarning) to get the exact Warning headers.
//
// Called as they are (exported): serializer/json.NewSerializerWithOptions with
// json.DefaultMetaFactory, apiserver.UnstructuredObjectTyper (the struct newUnstructuredObjectTyper
// fills) with crdserverscheme.NewUnstructuredObjectTyper, apiserver.Scheme, versioning.NewCodec
// and its Decode, runtime.AsStrictDecodingError / NewStrictDecodingError, the objectmeta,
// pruning and defaulting functions, apierrors.NewBadRequest, filters.WithWarningRecorder.
//
// Not reproduced: content negotiation, the request body size limit (3 MiB by default), dry-run,
// admission, field management, ObjectMeta system-field wiping and validation of the object;
// none of them changes what the decoder produces.

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"

	apiextensionshelpers "k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	serializerjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/versioning"
	"k8s.io/apiserver/pkg/endpoints/filters"
	"k8s.io/apiserver/pkg/warning"
	sigsyaml "sigs.k8s.io/yaml"
)

// Field-validation directives (metav1.FieldValidation*).
const (
	FieldValidationStrict = metav1.FieldValidationStrict
	FieldValidationWarn   = metav1.FieldValidationWarn
	FieldValidationIgnore = metav1.FieldValidationIgnore
)

// CROptions are the request parameters of a custom-resource create.
type CROptions struct {
	// YAML selects the application/yaml serializer (default application/json).
	YAML bool
	// FieldValidation is the fieldValidation query parameter: "Strict", "Warn" or "Ignore";
	// empty means "Warn", as in the handler.
	FieldValidation string
	// Version is the version of the REST endpoint the body is posted to. Empty means: the
	// version part of the body's apiVersion when that is a served version of the CRD's group
	// (read with the same pre-scan as the serializer), otherwise the storage version. This choice
	// is the oracle's, not the server's: the server knows the endpoint from the URL.
	Version string
}

// CRResult is what the create handler makes of a body.
type CRResult struct {
	// Object is the decoded, pruned, coerced and defaulted object (encoding/json types:
	// map[string]any, []any, string, bool, int64, float64, nil). It is nil on a fatal error. In
	// Strict mode with strict errors the handler rejects the request, but Object still holds what
	// the decoder returned with the strict error.
	Object map[string]any
	// Strict holds the Error() texts of the strict errors in NewStrictDecodingError order:
	// the YAML duplicate error, JSON duplicate fields, root metadata unknown fields, pruned
	// unknown fields, embedded-resource metadata unknown fields. Empty in Ignore mode.
	Strict []string
	// StrictMessage is the joined "strict decoding error: a, b" text, empty without strict errors.
	StrictMessage string
	// Fatal is the complete 400 message the handler returns for a non-strict decode error
	// (transformDecodeError: `<Kind> in version "<v>" cannot be handled as a <Kind>: <err>`, or
	// `the object provided is unrecognized (must be of type <Kind>): <err> (<summary>)` when the
	// decoder produced no kind). Empty when decoding succeeded.
	Fatal string
	// FatalRaw is the fatal error's own Error() text, without the handler's wrapping.
	FatalRaw string
	// Warnings are the warning texts handed to warning.AddWarning in Warn mode, in order:
	// one per strict error, YAML duplicate errors split into one per line (TrimSpace'd). They are
	// neither de-duplicated nor escaped; see WarningHeaders.
	Warnings []string
	// WarningHeaders are the Warning header values the real warning recorder writes for
	// Warnings (de-duplicated, `"`/`\` escaped, texts with control characters or invalid UTF-8
	// dropped, truncated past 4096 runes).
	WarningHeaders []string
	// HandlerMessage is the 400 message of the request: in Strict mode with strict errors
	// `<Kind> in version "<v>" cannot be handled as a <Kind>: strict decoding error: ...`; equal
	// to Fatal on a fatal error; the GroupVersionMismatch text when only that check fails.
	// Empty when the request would be accepted.
	HandlerMessage string
	// GroupVersionMismatch is the 400 message of the handler's check right after decoding,
	// reached in every mode when decoding did not already fail: `the API version in the data
	// (<gv>) does not match the expected API version (<group>/<version>)`, where <gv> comes from
	// the decoded object's apiVersion (so "" when the map has none). Object, Strict and Warnings
	// are still filled in.
	GroupVersionMismatch string
	// Kind is the GroupVersionKind the decoder returned (the body's, with the endpoint's
	// defaults applied by the serializer), rendered with schema.GroupVersionKind.String(); empty
	// if the decoder returned none.
	Kind string
}

// CRDecoder holds the serving information of one CRD, so that many bodies can be decoded
// against it. It is safe for concurrent use.
type CRDecoder struct {
	// Group and Kind are the CRD's spec.group and spec.names.kind.
	Group, Kind string
	// PreserveUnknownFields is spec.preserveUnknownFields (v1beta1 defaults it to true).
	PreserveUnknownFields bool
	// Served lists the served versions in spec order; Storage is the storage version.
	Served  []string
	Storage string

	schemas map[string]*structuralschema.Structural
}

// NewCRDecoder decodes one CRD document (YAML or JSON, v1 or v1beta1) with DecodeCRD, converts
// it to v1 and builds the per-version structural schemas as the handler's serving info does.
// It fails where the handler would refuse to serve (a NewStructural or PruneDefaults error
// while spec.preserveUnknownFields is false).
func NewCRDecoder(crd []byte) (*CRDecoder, error) {
	internal, _, err := DecodeCRD(crd)
	if err != nil {
		return nil, err
	}
	return NewCRDecoderOf(internal)
}

// NewCRDecoderOf is NewCRDecoder for a CRD returned by DecodeCRD (which is not modified).
func NewCRDecoderOf(internal *apiextensions.CustomResourceDefinition) (*CRDecoder, error) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := scheme.Convert(internal.DeepCopy(), crd, nil); err != nil {
		return nil, fmt.Errorf("converting to v1: %w", err)
	}
	d := &CRDecoder{
		Group:                 crd.Spec.Group,
		Kind:                  crd.Spec.Names.Kind,
		PreserveUnknownFields: crd.Spec.PreserveUnknownFields,
		schemas:               map[string]*structuralschema.Structural{},
	}
	for _, v := range crd.Spec.Versions {
		if v.Served {
			d.Served = append(d.Served, v.Name)
		}
		if v.Storage {
			d.Storage = v.Name
		}
		val, err := apiextensionshelpers.GetSchemaForVersion(crd, v.Name)
		if err != nil {
			return nil, err
		}
		if val == nil {
			continue
		}
		internalValidation := &apiextensions.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internalValidation, nil); err != nil {
			return nil, fmt.Errorf("version %s: converting validation: %w", v.Name, err)
		}
		s, err := structuralschema.NewStructural(internalValidation.OpenAPIV3Schema)
		if !crd.Spec.PreserveUnknownFields && err != nil {
			return nil, fmt.Errorf("version %s: the server could not properly serve the CR schema: %w", v.Name, err)
		}
		if !crd.Spec.PreserveUnknownFields {
			s = s.DeepCopy()
			if err := defaulting.PruneDefaults(s); err != nil {
				return nil, fmt.Errorf("version %s: the server could not properly serve the CR schema: prune defaults: %w", v.Name, err)
			}
		}
		d.schemas[v.Name] = s
	}
	if d.Storage == "" {
		return nil, fmt.Errorf("CRD %s has no storage version", crd.Name)
	}
	return d, nil
}

// Schema returns the structural schema the handler uses for a version (nil if the version has
// none, or if NewStructural failed while preserveUnknownFields is true).
func (d *CRDecoder) Schema(version string) *structuralschema.Structural {
	return d.schemas[version]
}

// SchemaJSON renders Schema(version) with Structural.ToKubeOpenAPI and encoding/json (JSON
// null when there is none), the form gen.ParseSchema reads.
func (d *CRDecoder) SchemaJSON(version string) ([]byte, error) {
	s := d.schemas[version]
	if s == nil {
		return []byte("null"), nil
	}
	return json.Marshal(s.ToKubeOpenAPI())
}

// DecodeCR decodes a CRD with NewCRDecoder and then one request body with CRDecoder.Decode.
func DecodeCR(crd []byte, body []byte, opts CROptions) (CRResult, error) {
	d, err := NewCRDecoder(crd)
	if err != nil {
		return CRResult{}, err
	}
	return d.Decode(body, opts)
}

// Decode runs the create handler's decode chain on body (see the comment at the top of this
// file). The error return is for bad options or a version the CRD does not serve; everything
// the server would answer is in the result.
func (d *CRDecoder) Decode(body []byte, opts CROptions) (CRResult, error) {
	directive := opts.FieldValidation
	if directive == "" {
		directive = FieldValidationWarn
	}
	switch directive {
	case FieldValidationStrict, FieldValidationWarn, FieldValidationIgnore:
	default:
		return CRResult{}, fmt.Errorf("unsupported fieldValidation %q", opts.FieldValidation)
	}
	version := opts.Version
	if version == "" {
		version = d.endpointVersion(body, opts.YAML)
	}
	if !slices.Contains(d.Served, version) {
		return CRResult{}, fmt.Errorf("version %q is not served", version)
	}
	kind := schema.GroupVersionKind{Group: d.Group, Version: version, Kind: d.Kind}

	// Serving info: the typer delegates non-Unstructured types to a parameter scheme.
	parameterScheme := runtime.NewScheme()
	parameterScheme.AddUnversionedTypes(kind.GroupVersion(), &metav1.ListOptions{}, &metav1.GetOptions{}, &metav1.DeleteOptions{})
	typer := apiserver.UnstructuredObjectTyper{Delegate: parameterScheme, UnstructuredTyper: crdserverscheme.NewUnstructuredObjectTyper()}
	serializer := serializerjson.NewSerializerWithOptions(serializerjson.DefaultMetaFactory, unstructuredCreator{}, typer,
		serializerjson.SerializerOptions{Yaml: opts.YAML, Strict: directive != FieldValidationIgnore})

	// DecoderToVersion.
	coercer := unstructuredSchemaCoercer{
		structuralSchemas:       d.schemas,
		structuralSchemaGK:      kind.GroupKind(),
		preserveUnknownFields:   d.PreserveUnknownFields,
		returnUnknownFieldPaths: serializer.IsStrict(),
	}
	decoder := versioning.NewCodec(nil, schemaCoercingDecoder{delegate: serializer, validator: coercer},
		runtime.UnsafeObjectConvertor(apiserver.Scheme), apiserver.Scheme, apiserver.Scheme,
		unstructuredDefaulter{delegate: apiserver.Scheme, structuralSchemas: d.schemas, structuralSchemaGK: kind.GroupKind()},
		nil, kind.GroupVersion(), "unstructuredNegotiatedSerializer")

	// createHandler.
	defaultGVK := kind
	original, _ := unstructuredCreator{}.New(kind)
	obj, gvk, err := decoder.Decode(body, &defaultGVK, original)

	var res CRResult
	if gvk != nil {
		res.Kind = gvk.String()
	}
	if err != nil {
		strictError, isStrict := runtime.AsStrictDecodingError(err)
		if isStrict {
			res.StrictMessage = err.Error()
			for _, e := range strictError.Errors() {
				res.Strict = append(res.Strict, e.Error())
			}
		}
		switch {
		case isStrict && obj != nil && directive == FieldValidationWarn:
			for _, e := range strictError.Errors() {
				res.Warnings = append(res.Warnings, parseYAMLWarnings(e.Error())...)
			}
			res.WarningHeaders = warningHeaders(res.Warnings)
		case isStrict && obj != nil:
			// Strict (Ignore cannot produce strict errors: its serializer is not strict and
			// returnUnknownFieldPaths is false). The handler answers 400.
			res.HandlerMessage = transformDecodeError(typer, err, original, gvk, body)
		default:
			res.FatalRaw = err.Error()
			res.Fatal = transformDecodeError(typer, err, original, gvk, body)
			res.HandlerMessage = res.Fatal
			return res, nil
		}
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		res.Object = u.Object
	} else if obj != nil {
		return res, fmt.Errorf("decoder returned %T, not *unstructured.Unstructured", obj)
	}
	// The handler only gets here without a 400 from decoding.
	if gvk == nil {
		return res, fmt.Errorf("decoder returned no GroupVersionKind")
	}
	if objGV := gvk.GroupVersion(); res.HandlerMessage == "" && objGV != kind.GroupVersion() {
		res.GroupVersionMismatch = apierrors.NewBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%v)", objGV.String(), kind.GroupVersion().String())).Error()
		res.HandlerMessage = res.GroupVersionMismatch
	}
	return res, nil
}

// endpointVersion picks the endpoint version for CROptions.Version == "": the body's version
// if the pre-scan finds this CRD's group and a served version, else the storage version.
func (d *CRDecoder) endpointVersion(body []byte, isYAML bool) string {
	data := body
	if isYAML {
		js, err := sigsyaml.YAMLToJSON(body)
		if err != nil {
			return d.Storage
		}
		data = js
	}
	gvk, err := serializerjson.DefaultMetaFactory.Interpret(data)
	if err != nil || gvk.Group != d.Group || !slices.Contains(d.Served, gvk.Version) {
		return d.Storage
	}
	return gvk.Version
}

// unstructuredCreator re-types customresource_handler.go's unstructuredCreator.
type unstructuredCreator struct{}

func (unstructuredCreator) New(kind schema.GroupVersionKind) (runtime.Object, error) {
	ret := &unstructured.Unstructured{}
	ret.SetGroupVersionKind(kind)
	return ret, nil
}

// unstructuredDefaulter re-types customresource_handler.go's unstructuredDefaulter.
type unstructuredDefaulter struct {
	delegate           runtime.ObjectDefaulter
	structuralSchemas  map[string]*structuralschema.Structural
	structuralSchemaGK schema.GroupKind
}

func (d unstructuredDefaulter) Default(in runtime.Object) {
	u, ok := in.(runtime.Unstructured)
	if !ok || u.GetObjectKind().GroupVersionKind().GroupKind() != d.structuralSchemaGK {
		d.delegate.Default(in)
		return
	}
	defaulting.Default(u.UnstructuredContent(), d.structuralSchemas[u.GetObjectKind().GroupVersionKind().Version])
}

// schemaCoercingDecoder re-types customresource_handler.go's schemaCoercingDecoder.Decode.
type schemaCoercingDecoder struct {
	delegate  runtime.Decoder
	validator unstructuredSchemaCoercer
}

func (d schemaCoercingDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	obj, gvk, err := d.delegate.Decode(data, defaults, into)
	var strictErrs []error
	if err != nil {
		strictErr, ok := runtime.AsStrictDecodingError(err)
		if !ok || obj == nil {
			return nil, gvk, err
		}
		strictErrs = strictErr.Errors()
	}
	var unknown []string
	if u, ok := obj.(*unstructured.Unstructured); ok {
		unknown, err = d.validator.apply(u)
		if err != nil {
			return nil, gvk, err
		}
	}
	if d.validator.returnUnknownFieldPaths && (len(strictErrs) > 0 || len(unknown) > 0) {
		for _, p := range unknown {
			strictErrs = append(strictErrs, fmt.Errorf(`unknown field "%s"`, p))
		}
		return obj, gvk, runtime.NewStrictDecodingError(strictErrs)
	}
	return obj, gvk, nil
}

// unstructuredSchemaCoercer re-types customresource_handler.go's unstructuredSchemaCoercer with
// the request-path settings (dropInvalidMetadata and repairGeneration are false, so the
// generation repair of apply is left out).
type unstructuredSchemaCoercer struct {
	structuralSchemas       map[string]*structuralschema.Structural
	structuralSchemaGK      schema.GroupKind
	preserveUnknownFields   bool
	returnUnknownFieldPaths bool
}

func (v unstructuredSchemaCoercer) apply(u *unstructured.Unstructured) ([]string, error) {
	kind, foundKind, err := unstructured.NestedString(u.UnstructuredContent(), "kind")
	if err != nil {
		return nil, err
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(u.UnstructuredContent(), "apiVersion")
	if err != nil {
		return nil, err
	}
	objectMeta, foundObjectMeta, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{
		ReturnUnknownFieldPaths: v.returnUnknownFieldPaths,
	})
	if err != nil {
		return nil, err
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	if gv.Group == v.structuralSchemaGK.Group && kind == v.structuralSchemaGK.Kind {
		s := v.structuralSchemas[gv.Version]
		if !v.preserveUnknownFields {
			unknown = append(unknown, pruning.PruneWithOptions(u.Object, s, true,
				structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: v.returnUnknownFieldPaths})...)
			defaulting.PruneNonNullableNullsWithoutDefaults(u.Object, s)
		}
		ferr, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, s, false, schemaobjectmeta.CoerceOptions{
			ReturnUnknownFieldPaths: v.returnUnknownFieldPaths,
		})
		if ferr != nil {
			return nil, ferr
		}
		unknown = append(unknown, paths...)
	}
	if foundKind {
		u.SetKind(kind)
	}
	if foundAPIVersion {
		u.SetAPIVersion(apiVersion)
	}
	if foundObjectMeta {
		if err := schemaobjectmeta.SetObjectMeta(u.Object, objectMeta); err != nil {
			return nil, err
		}
	}
	return unknown, nil
}

// transformDecodeError re-types handlers/rest.go transformDecodeError and returns the
// BadRequest's message.
func transformDecodeError(typer runtime.ObjectTyper, baseErr error, into runtime.Object, gvk *schema.GroupVersionKind, body []byte) string {
	objGVKs, _, err := typer.ObjectKinds(into)
	if err != nil {
		return apierrors.NewBadRequest(err.Error()).Error()
	}
	objGVK := objGVKs[0]
	if gvk != nil && len(gvk.Kind) > 0 {
		return apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, objGVK.Kind, baseErr)).Error()
	}
	return apierrors.NewBadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v (%s)", objGVK.Kind, baseErr, summarizeData(body, 30))).Error()
}

// summarizeData re-types handlers/rest.go summarizeData.
func summarizeData(data []byte, maxLength int) string {
	switch {
	case len(data) == 0:
		return "<empty>"
	case data[0] == '{':
		if len(data) > maxLength {
			return string(data[:maxLength]) + " ..."
		}
		return string(data)
	default:
		if len(data) > maxLength {
			return hex.EncodeToString(data[:maxLength]) + " ..."
		}
		return hex.EncodeToString(data)
	}
}

// The two prefixes of handlers/rest.go parseYAMLWarnings.
const (
	yamlWarningShortPrefix = "yaml: unmarshal errors:\n"
	yamlWarningLongPrefix  = "error converting YAML to JSON: yaml: unmarshal errors:\n"
)

// parseYAMLWarnings re-types handlers/rest.go parseYAMLWarnings.
func parseYAMLWarnings(s string) []string {
	var rest string
	switch {
	case strings.HasPrefix(s, yamlWarningShortPrefix):
		rest = s[len(yamlWarningShortPrefix):]
	case strings.HasPrefix(s, yamlWarningLongPrefix):
		rest = s[len(yamlWarningLongPrefix):]
	default:
		return []string{s}
	}
	parts := strings.Split(rest, "\n")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// warningHeaders feeds texts to the real warning recorder (filters.WithWarningRecorder, as
// addStrictDecodingWarnings does with warning.AddWarning and an empty agent) and returns the
// Warning header values it writes.
func warningHeaders(texts []string) []string {
	if len(texts) == 0 {
		return nil
	}
	rec := httptest.NewRecorder()
	filters.WithWarningRecorder(http.HandlerFunc(func(_ http.ResponseWriter, req *http.Request) {
		for _, t := range texts {
			warning.AddWarning(req.Context(), "", t)
		}
	})).ServeHTTP(rec, (&http.Request{}).WithContext(context.Background()))
	return rec.Header().Values("Warning")
}
