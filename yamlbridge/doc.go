// Package yamlbridge presents YAML documents (go.yaml.in/yaml/v3 nodes) as the token source the
// decoder consumes, with the Kubernetes YAML path's scalar resolution, so that YAML and JSON give
// the same findings (plus line numbers), and writes pruned documents back as YAML.
//
// # Reading
//
//	r := yamlbridge.NewReader(data)          // a stream: documents separated by "---"
//	for {
//		doc, err := r.Next()                  // io.EOF after the last one
//		...
//		out, err := d.AppendPruneSource(buf, doc.Source())   // d is a *decoder.Decoder
//		for _, f := range d.Result().Findings() {
//			line, col := doc.Position(f.Offset)              // in the stream
//		}
//	}
//
// or yamlbridge.Parse(data) for the first document of a request body. A Source walks the parsed
// node tree lazily and hands the decoder JSON tokens: mappings are objects, sequences arrays, keys
// names (internal/yaml11.KeyString: y, yes and on are "true", 1.10 is "1.1"), scalars JSON values
// (internal/yaml11.ResolveScalar: 1.0 is the integer 1, 1e400 the string "1e400", 0777 is 511).
// No document is converted to JSON text or to a map on the way: the decoder reads the tokens
// directly, on its slow path, where it detects duplicate names itself, reports each as
// `duplicate field "<path>"` and keeps the last value.
//
// Merge keys ("<<") are expanded in place in go-yaml v2's order: the merged mapping's pairs are
// read where the merge key is, a sequence of mappings from the last to the first. So the
// decoder's last-wins rule gives the reference's value (an explicit key after the merge key wins,
// an explicit key before it loses, the first of several merged maps wins) and its duplicate
// detection reports what the reference counts as duplicates: an explicit key overriding a merged
// one, two merged maps sharing a key, each with its path. Aliases are followed in place, not
// copied.
//
// Offsets are byte offsets in the document's text (Document.Text), computed from the parser's
// lines and columns (columns count characters; offsets, lines and columns of findings count
// bytes, as for JSON). They point at the key a finding is about; inside an expanded alias or a
// merged mapping, at the text of the anchor. Document.Position turns them into lines and columns
// of the stream.
//
// # Limits
//
// Alias expansion is bounded as internal/yaml11 bounds it, counting work, not time: go-yaml v2's
// own "excessive aliasing" rule (so no document the reference rejects for aliasing is accepted),
// plus at most 400,000 alias-expanded nodes per document and, past 1000 of them, at most ten per
// node of the document itself; nesting is limited to 10000 levels. Exceeding a limit stops the
// walk at once with an error naming the limit, the line and the alias being expanded ("yaml: line
// 4: document contains excessive aliasing: alias expansion of 1131 nodes exceeds 10 times the
// document's own 113 nodes (expanding alias *c of line 7) [MaxAliasRatio]"). A billion-laughs
// document fails after about a thousand tokens; memory is bounded by the nesting, since nothing is
// expanded into memory. decoder.MaxDepth, MaxAliasNodes and MaxAliasRatio change the limits.
//
// # Errors
//
// Fatal errors are *errors.DecodeError values whose message is the reference's text: "json:
// unsupported value: +Inf" for .inf (wherever it is, even in a pruned subtree: the reference's
// JSON conversion comes first), "unsupported map key of type: %!s(<nil>), key: <nil>, value: 1"
// for a null key, "yaml: invalid map key: map[interface {}]interface {}{\"a\":1}" for a mapping
// used as a key, "yaml: cannot decode !!str `x` as a !!int", "yaml: map merge requires map or
// sequence of maps as the value"... When a document has several, the one the reference reports
// wins (go-yaml v2's decoding errors in document order first, then unsupported keys, then
// non-finite floats in json.Marshal's order), before the decoder's own (Kind missing, metadata,
// ...). Parser errors come from Reader.Next with the parser's text and line ("yaml: line 6: found
// character that cannot start any token") and end the stream.
//
// # Choices where the reference is silent, nondeterministic or wrong
//
//   - Duplicates: the reference reports all duplicate keys of a YAML body as one error, "yaml:
//     unmarshal errors:\n  line N: key \"x\" already set in map", with lines and no path; the
//     bridge makes them what they are in JSON, one `duplicate field "spec.x"` per path, with the
//     key's line and column, at most 100 as for JSON (the reference lists every occurrence).
//   - Keys that differ in YAML but not as JSON keys (1 and "1", 1 and 1.0): the reference reports
//     nothing and keeps either value at random; the bridge reports a duplicate and the later value
//     wins, as for the same document in JSON.
//   - Streams: the reference reads the first document of a body only. Reader reads them all;
//     documents without content ("---" alone, comments only) are skipped, and Parse returns the
//     first document with content. A document that says null ("--- ~") is a document.
//   - Lists: a document with a sequence of items (any kind: "List", "WidgetList", as kubectl's
//     unstructured decoder sees lists) is a document like any other (Source reads the whole
//     List); IsList reports it, Items gives a Source for each item (they
//     share the document's limits), and RewriteItems writes the List back with each item pruned.
//   - The non-specific tag "!" ("! 12", a string for go-yaml v2) is found in the text, as
//     internal/yaml11.Decode finds it.
//   - Positions in expanded aliases and merged mappings are those of the anchored text.
//
// # Writing
//
// Document.Rewrite (and RewriteMap, RewriteItems, RewriteNode) walks the original node tree
// alongside the decoder's pruned output and builds a new tree: members the output lacks are
// dropped, changed scalars replaced, defaulted members appended at the end of their mapping, and
// everything else (comments, key order, quoting, block and flow styles, anchors and aliases while
// they still give the pruned value, merge keys while the merged members survive) kept as the node
// API allows. AppendNode encodes it with the document's indentation. The result reads back, on the
// Kubernetes YAML path, as the pruned value: new strings that would read as something else ("yes",
// "1.0", "~") are quoted. Plain JSON output is the decoder's (AppendPruneSource); AppendJSON
// writes a document as JSON without a schema.
//
// # The exported API
//
// Reading:
//   - [Reader] and [NewReader]: the documents of a stream, one per [Reader.Next].
//   - [Parse]: the first document of a request body.
//   - [Document]: one document: [Document.Source], its [Document.Text] and where it is
//     ([Document.Offset], [Document.Line], [Document.Position]); [Document.IsList] and
//     [Document.Items] for List documents.
//   - [Source] and [NewSource]: a document (or a node parsed by the caller) as the decoder's
//     token source ([Source.ReadToken], [Source.ReadValue], [Source.PeekKind],
//     [Source.TypeMeta], [Source.InputOffset], [Source.LastOffset], [Source.Document],
//     [Source.Node]).
//   - [Option] (decoder.Option, the library's one option type) with decoder.MaxDepth,
//     [MaxAliasNodes] and [MaxAliasRatio]: the limits; a bad value is the first read's error.
//
// Writing:
//   - [Document.Rewrite], [Document.RewriteMap], [Document.RewriteItems] and [RewriteNode]:
//     the node tree with the decoder's pruned output applied.
//   - [Document.AppendYAML] and [AppendNode]: YAML text.
//   - [AppendJSON]: a document as JSON, without a schema.
package yamlbridge
