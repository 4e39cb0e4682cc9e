// Package decoder drives a schemaauto automaton with a JSON token stream.
//
// In a single pass and without building intermediate maps it prunes unknown
// fields, detects duplicate fields, prunes nulls, applies defaults and
// normalises ObjectMeta, producing pruned JSON, a map, or findings only.
//
// The files follow the data flow: scanner.go reads JSON text on the fast
// path (jsontext.Decoder reads it on the others, source.go a TokenSource
// such as the YAML bridge); root.go picks the automaton by apiVersion and
// kind; walk.go is the state machine that drives it, meta.go and
// metafast.go the ObjectMeta handling; findings.go records what the walk
// finds; decoder.go ties a document's decoding together, stream.go and
// reader.go read documents from an io.Reader (PruneReader in memory bounded
// by depth, not size).
package decoder
