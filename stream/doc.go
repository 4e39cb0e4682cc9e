// Package stream cuts a JSON or YAML stream into documents, fast and
// without decoding them, with their positions, so that a decoder (or a pool
// of them) can take them one by one: JSON values concatenated or one per
// line (JSON Lines), multi-document YAML ("---", "..."), and Lists, JSON or
// YAML, of any size, item by item.
//
// The exported surface:
//
//	type Format uint8                 // JSON (1), YAML (2); String
//	type Part uint8                   // Whole, ListHead, ListItem, ListTail; String
//	type Document struct {            // one piece of a stream
//		Format       Format
//		Part         Part
//		Text         []byte // valid until the next ReadDocument
//		Index        int    // the document's index in the stream, from 0
//		Item         int    // the item's index in its List, -1 when Part != ListItem
//		Offset       int64  // byte offset of Text in the stream
//		Line, Column int    // 1-based line and byte column of Text's start
//		FirstLine    int    // YAML: the line of the first content line
//		Indent       int    // YAML ListItem: the index in Text of its "-"
//		Spaced       bool   // JSON: Text has white space outside its strings
//	}
//	type Reader struct{ ... }
//	func NewReader(r io.Reader, opts ...Option) (*Reader, error)
//	func (r *Reader) ReadDocument() (Document, error) // io.EOF after the last one
//	func (r *Reader) BytesRead() int64
//	type Place struct{ Offset int64; Line, Doc int } // where a piece of a stream starts
//	func JSONLines(head []byte) bool  // a stream read as JSON Lines from its first byte
//	func NewLinesReader(piece []byte, at Place, opts ...Option) (*Reader, error) // a piece of it, in place
//	func NewLinesReaderOf(r io.Reader, at Place, opts ...Option) (*Reader, error) // the rest of it
//	type Option = decoder.Option        // the library's one option type
//	func ForceFormat(f Format) Option  // default: "{" or "[" first is JSON, else YAML
//	func ListThreshold(n int) Option   // YAML Lists from this size are streamed; default 1 MiB
//	decoder.MaxDocumentSize(n)         // the size limit; default (0) 256 MiB
//	type Error struct{ Index, Item int; Offset int64; Line, Column int; Msg string; Err error }
//	var ErrTooLarge, ErrSyntax error
//
// # Documents
//
// The format is detected from the first byte that is not white space: "{"
// or "[" is JSON, anything else YAML (ForceFormat overrides it). A UTF-8
// byte order mark at the start is skipped.
//
// JSON documents are top-level values. If the first line of the stream
// holds complete values, the stream is read as JSON Lines: a newline inside
// a value ends it, so a broken line costs that line only. Otherwise a
// value ends where its brackets balance, whatever its lines. A top-level
// object with an "items" array (a List, as kubectl's unstructured decoder
// reads it) is cut into its head (up to and with "["), each item, and its
// tail (from "]"); they share the document's Index.
//
// YAML documents are cut at "---" and "..." at column 0, line by line,
// without parsing (a document's Text holds its markers, comments and
// directives; a stream of comments only has no documents). A document that
// reaches ListThreshold bytes while it reads as a List in kubectl's layout
// ("items:" at column 0, followed by a block sequence) is streamed: its
// head is the text before "items:", each item the lines from its "-", and
// its tail the text after the sequence. A smaller List is one Whole
// document.
//
// Texts are cut as they are: syntax errors are found by whoever decodes
// them. The only syntax the Reader checks is the one it needs to stream a
// JSON List: the commas and the end of the items array.
//
// A JSON Lines stream (JSONLines) can be cut after any line breaks into
// pieces, each cut by a Reader of its own (NewLinesReader, in parallel):
// in line mode every line is read afresh, so the pieces give the
// documents, errors and positions of the whole stream's Reader, their
// Index counted from the Place given (the documents of the pieces before,
// which whoever joins them adds).
//
// # Errors
//
// ReadDocument returns an *Error when a document or List item is larger
// than MaxDocumentSize (Err is ErrTooLarge; its bytes are skipped, not
// kept, and reading goes on after it), when the items of a JSON List are
// not separated as they should be (Err is ErrSyntax, at the place of the
// fault; reading goes on there), and when the underlying reader fails (Err
// is its error; Msg says after how many bytes): that ends the stream, and
// ReadDocument returns the same error from then on. Msg is the message
// without its place, which Offset, Line and Column give.
//
// # Memory
//
// The Reader reads through a window of 1 MiB that grows to hold the
// largest document (up to MaxDocumentSize) and shrinks back after it. A
// Document's Text is a slice of that window: reading a stream allocates
// nothing per document.
package stream
