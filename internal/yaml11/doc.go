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
//
// # The exported API
//
// Whole documents:
//   - [Decode]: every document of a stream, as values.
//   - [ToValue]: one document (or node) as a value.
//   - [Options] with [DefaultMaxDepth], [DefaultMaxAliasNodes], [DefaultMaxAliasRatio] and
//     [AliasRatioFloor]: the nesting and alias-expansion limits.
//   - [EmptyDocument]: a document without content, which Decode skips.
//
// Scalars and keys:
//   - [ResolveScalar]: a scalar node's value.
//   - [KeyString]: a mapping key node's JSON object key.
//   - [PlainIsString]: whether a string may be written as a plain scalar.
//
// Walking a document token by token (yamlbridge):
//   - [Walker] and [NewWalker]: the limits, aliases, merge keys and conversion errors of one
//     walk ([Walker.Enter], [Walker.EnterAlias], [Walker.Count], [Walker.AppendKey],
//     [Walker.AppendScalar], [Walker.IsMerge], [Walker.MergeError], [Walker.InvalidKey],
//     [Walker.ConversionError], [Walker.Leave], [Walker.LeaveAlias], [Walker.Unwind]).
//   - [Mergeable]: whether a node may be merged.
//   - [Text] and [NewText]: the stream text, for line starts ([Text.LineStarts]) and the
//     scalars tagged "!" ([Text.NonSpecificScalars]).
//   - [ParserErrorLine]: the line a parser error is about.
//
// Errors:
//   - [Error], [LimitError], [SyntaxError]: fatal errors (see above).
//   - [DuplicateKeysError] and [DuplicateKey]: the duplicate keys of a document.
package yaml11
