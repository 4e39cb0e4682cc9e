// Package decoder drives a schemaauto automaton with a JSON token stream.
//
// In a single pass and without building intermediate maps it prunes unknown
// fields, detects duplicate fields, prunes nulls, applies defaults and
// normalises ObjectMeta, producing pruned JSON, a map, or findings only.
//
// # The exported API
//
//   - [New], [NewForAutomaton]: a Decoder for a set of CRDs, or for one
//     automaton; [Option]s: [FieldValidation] (with [Mode], [ParseMode]),
//     [Defaulting], [NullPruning], [MaxDepth], [MaxDocumentSize],
//     [MaxFindings], [AllowInvalidUTF8], [Validation].
//   - One document given as bytes: [Decoder.AppendPrune], [Decoder.Prune],
//     [Decoder.DecodeMap], [Decoder.Validate]; read from an io.Reader in
//     memory bounded by depth: [Decoder.PruneReader]; given as tokens
//     ([TokenSource], [TypeMeta], the YAML bridge's): [Decoder.AppendPruneSource],
//     [Decoder.DecodeMapSource], [Decoder.ValidateSource].
//   - What the last document gave: [Decoder.Result], [Result] (its
//     findings, its validation errors: [Result.Invalid], [Result.Unchecked]);
//     [Decoder.Mode].
//
// The decoder decodes one document at a time. Package stream cuts inputs
// (concatenated JSON, JSON Lines, multi-document YAML, Lists item by item)
// into documents; package jsonprune (the module's root) has the one-call
// form of the common jobs, streams included.
//
// # The files
//
// They follow the data flow: scanner.go reads JSON text on the fast path
// (jsontext.Decoder reads it on the others, source.go a TokenSource such as
// the YAML bridge); root.go picks the automaton by apiVersion and kind;
// walk.go is the state machine that drives it, one step of an object per
// function; dups.go is the duplicate check; meta.go and metafast.go the
// ObjectMeta handling; validate.go is value validation (the Validation
// option: each state's rules, checked as the walk produces each value, and
// the create path's metadata steps); findings.go records what the walk finds; decoder.go
// ties a document's decoding together and picks the mode; reader.go
// streams one document from an io.Reader (PruneReader).
//
// # The modes
//
// A document is read in one of five modes. The walk (walk.go) is the same
// in all of them; what differs is who reads the tokens, who finds
// duplicate names, and whether a whole value may be handled as raw bytes
// (a subtree that is skipped as unknown, copied as preserved, or read whole
// as metadata) instead of token by token. No finding may come from inside
// a raw value: with validation, a preserved value on the way to a scale
// path (its own path a prefix of one) is walked, since the scale
// subresource's check reads those paths whatever the schema (rawOK,
// valState.scaleCur).
//
//	mode              entered                          reader           duplicates         raw values
//	scanner           first, for JSON text in memory   scanner.go, in   the walk (dups.go) yes
//	                  (AppendPrune, DecodeMap,         place            and scanComposite;
//	                  Validate)                                         one sends the
//	                                                                    document to slow
//	jsontext          the scanner gave up on the       jsontext, in     jsontext refuses   yes; under a
//	                  document (a syntax error, an     place            them: the          MaxDepth below
//	                  escaped name in a raw value,                      document goes to   its own, a raw
//	                  more than 64 names in one, the                    slow               value too deep
//	                  depth), except under                                                 sends it to slow
//	                  AllowInvalidUTF8
//	slow              a duplicate name; the scanner    jsontext, in     the walk reports   no: every value
//	                  gave up under AllowInvalidUTF8   place,           each, the last     is walked
//	                  (invalid bytes may make names    duplicates       value wins
//	                  collide); a raw value deeper     allowed          (retract)
//	                  than MaxDepth
//	token source      AppendPruneSource, ...Source     the TokenSource  as slow            no
//	                  (the YAML bridge)
//	streaming         PruneReader                      jsontext over    as slow            no
//	                                                   the io.Reader;
//	                                                   names copied
//
// Each mode gives the same output, findings and errors for the same
// document (the tests hold the modes to this: forceSlow, noScan, and the
// fuzz targets' invariants). Syntax errors are always reported as one
// jsontext scan of the whole document words and places them, so that the
// modes agree.
package decoder
