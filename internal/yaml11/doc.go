// Package yaml11 turns YAML parsed with go.yaml.in/yaml/v3's Node API into JSON values exactly as
// the Kubernetes YAML request path does.
//
// That path is sigs.k8s.io/yaml: go-yaml v2 decodes the document into Go values with YAML 1.1
// resolution rules, the result is converted to a JSON-able tree (non-string keys become strings),
// encoding/json marshals it, and sigs.k8s.io/json decodes the bytes again with PreserveInts. This
// package produces the value at the end of that chain in one walk over the v3 node tree, without
// the intermediate JSON text. The facts it follows are those of go-yaml v2's resolve and
// UnmarshalStrict (go.yaml.in/yaml/v2: resolve.go, decode.go), sigs.k8s.io/yaml's YAMLToJSON and
// YAMLToJSONStrict (yaml.go, convertToJSONableObject) and sigs.k8s.io/json's
// UnmarshalCaseSensitivePreserveInts (json.go); where the reference is silent, the rule chosen is written
// down next to the code that applies it (see ResolveScalar, KeyString, ToValue and Decode).
//
// Values are map[string]any, []any, nil, bool, int64, float64 and string.
//
// Errors come in four kinds:
//   - *Error: a fatal conversion error whose Error() is the reference's text (for example
//     "yaml: cannot decode !!str `foo` as a !!int" or "json: unsupported value: +Inf"), with the
//     position of the offending node in its fields;
//   - *LimitError: a depth or alias-expansion limit was exceeded; its text names the limit and the
//     line;
//   - *DuplicateKeysError: not fatal; it comes together with the value and lists every duplicate
//     key in the reference's "yaml: unmarshal errors:" format;
//   - *SyntaxError (Decode only): the YAML parser's own error, text unchanged, with its line.
package yaml11
