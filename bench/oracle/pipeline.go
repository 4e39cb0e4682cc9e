package oracle

import (
	"encoding/json"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	sigsjson "sigs.k8s.io/json"
	sigsyaml "sigs.k8s.io/yaml"
)

// Pipeline runs the API server's decode functions on one JSON body, as the
// CR handler chains them (schemaCoercingDecoder.Decode and
// unstructuredSchemaCoercer.apply in
// k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go,
// then the versioning codec's defaulting), without the handler's
// serializer plumbing, for benchmarks: strict decode to a map
// (sigs.k8s.io/json), ObjectMeta with unknown paths, pruning with unknown
// paths, null pruning, embedded coercion, metadata restore, defaulting; and,
// with remarshal, encoding/json of the result. It returns the output (nil
// without remarshal or on a fatal error) and the number of findings.
// CRDecoder.Decode is the exact chain; Pipeline is the same work, minus
// what no implementation could avoid measuring twice.
func Pipeline(body []byte, s *structuralschema.Structural, remarshal bool) ([]byte, int) {
	obj, findings := PipelineObject(body, s)
	if !remarshal || obj == nil {
		return nil, findings
	}
	out, _ := json.Marshal(obj)
	return out, findings
}

// PipelineObject is Pipeline without the remarshalling: the decoded,
// pruned and defaulted object (nil on a fatal error) and the number of
// findings, for the benchmarks that validate it next.
func PipelineObject(body []byte, s *structuralschema.Structural) (map[string]any, int) {
	var obj map[string]any
	strict, err := sigsjson.UnmarshalStrict(body, &obj)
	if err != nil || obj == nil {
		return nil, 0
	}
	findings := len(strict)
	meta, found, unknown, err := objectmeta.GetObjectMetaWithOptions(obj, objectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		return nil, 0
	}
	findings += len(unknown)
	findings += len(pruning.PruneWithOptions(obj, s, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}))
	defaulting.PruneNonNullableNullsWithoutDefaults(obj, s)
	if _, unknown := objectmeta.CoerceWithOptions(nil, obj, s, false, objectmeta.CoerceOptions{ReturnUnknownFieldPaths: true}); unknown != nil {
		findings += len(unknown)
	}
	if found {
		objectmeta.SetObjectMeta(obj, meta)
	}
	defaulting.Default(obj, s)
	return obj, findings
}

// PipelineYAML is Pipeline after sigs.k8s.io/yaml's strict YAML-to-JSON
// conversion (the API server's YAML request path), remarshalled.
func PipelineYAML(body []byte, s *structuralschema.Structural) ([]byte, int) {
	js, err := sigsyaml.YAMLToJSONStrict(body)
	if err != nil {
		return nil, 0
	}
	return Pipeline(js, s, true)
}
