// Package jsonprune decodes Kubernetes custom resources, JSON or YAML,
// against their CustomResourceDefinitions as the API server does (pruning of
// unknown fields, duplicate detection, null pruning, defaulting, ObjectMeta
// normalisation, Strict/Warn/Ignore field validation, with the API server's
// findings), one call per common job. It is the front door to the packages
// below it: schemaauto (CRDs to automata), decoder (the token-level
// decoder), yamlbridge (YAML as tokens) and errors (findings).
//
// Strictly decoding a YAML file against a CRD:
//
//	s, err := jsonprune.LoadCRDFiles("examples/widget-crd.yaml")
//	if err == nil {
//		_, err = s.PruneFile("examples/widget.yaml", decoder.FieldValidation(decoder.Strict))
//	}
//	fmt.Println(err) // examples/widget.yaml: strict decoding error: unknown field "metadata.garbage", ...
//
// # Loading
//
// LoadCRDs reads CRDs from bytes, LoadCRDFiles from files and directories (a
// directory: every .yaml, .yml and .json file below it, recursively, in
// lexical order). JSON or YAML, one or several documents, v1 or v1beta1, Lists
// of CRDs unpacked. Documents of other kinds are skipped, so a directory of
// manifests can be given; an input, a named file or a directory without any
// CRD is an error, and so is a document that says it is a CRD but is not a
// valid one (with its file and line). A CRD that does not compile is an
// error naming its file and the CRD (a *schemaauto.CRDError inside). Compile
// with schemaauto yourself for other options (schemaauto.AllowSkeleton(true))
// and wrap the set with NewSchemas. Schemas are immutable and safe for
// concurrent use.
//
// # Decoding
//
// Options are the decoder's: decoder.FieldValidation(decoder.Strict),
// decoder.Defaulting(false), decoder.MaxDocumentSize(n)... The default mode is
// Warn, as the API server's: findings are reported and the document is kept,
// pruned. In Strict mode findings are an *errors.StrictError and no output.
//
// One document: Schemas.Prune (pruned JSON), Schemas.Validate (findings
// only), Schemas.Decode (everything, as an *Object). The input is JSON if its
// first non-blank byte is '{' or '[', YAML otherwise. A YAML input with
// several documents is an error (ErrManyDocuments): read it with NewStream.
// An empty input (blanks, or YAML comments only) is ErrEmpty. For many
// documents, one Decoder per goroutine (NewDecoder) reuses its buffers; its
// methods are those of Schemas.
//
// Many documents: NewStream reads multi-document YAML, or JSON values
// concatenated or one per line, and Stream.Next returns an *Object per
// document (io.EOF after the last one). A document's error is its Object's
// Err and the stream goes on; a nil Object means the stream has ended.
//
// # Positions
//
// Every Offset, Line and Column (of findings, of *errors.DecodeError, of an
// Object) is in the bytes the caller gave: for YAML, the line in the whole
// input, not in the document; in a stream, the line in the stream. Columns
// count bytes, lines start at 1. (The lower packages give positions relative
// to a document; this package moves them.)
//
// # Kinds no CRD serves
//
// A document whose apiVersion and kind no CRD of the Schemas serves (another
// kind, or a served kind in a version it does not serve) is an error wrapping
// ErrNoSchema in Strict mode, with no output. In Warn and Ignore mode it is
// kept whole, its metadata normalised, without error, as the decoder does;
// its Object's Entry is nil.
//
// # Exported surface
//
//	type Schemas                                  compiled CRDs
//	func LoadCRDs(data []byte) (*Schemas, error)
//	func LoadCRDFiles(paths ...string) (*Schemas, error)
//	func NewSchemas(set *schemaauto.Set) *Schemas
//	func (s *Schemas) Set() *schemaauto.Set
//	func (s *Schemas) Prune(doc []byte, opts ...decoder.Option) ([]byte, error)
//	func (s *Schemas) PruneFile(path string, opts ...decoder.Option) ([]byte, error)
//	func (s *Schemas) Validate(doc []byte, opts ...decoder.Option) ([]errors.Finding, error)
//	func (s *Schemas) Decode(doc []byte, opts ...decoder.Option) (*Object, error)
//
//	type Decoder                                  one per goroutine, reuses buffers
//	func NewDecoder(s *Schemas, opts ...decoder.Option) (*Decoder, error)
//	func (d *Decoder) Prune(doc []byte) ([]byte, error)
//	func (d *Decoder) AppendPrune(dst, doc []byte) ([]byte, error)
//	func (d *Decoder) Validate(doc []byte) ([]errors.Finding, error)
//	func (d *Decoder) Decode(doc []byte) (*Object, error)
//
//	type Stream                                   documents of a stream
//	func NewStream(s *Schemas, r io.Reader, opts ...decoder.Option) (*Stream, error)
//	func (st *Stream) Next() (*Object, error)
//
//	type Object                                   one decoded document
//	var ErrNoSchema, ErrEmpty, ErrManyDocuments
package jsonprune
