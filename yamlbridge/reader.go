package yamlbridge

import (
	"bytes"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/opts"
	"github.com/jsonprune/jsonprune/internal/yaml11"
	yaml "go.yaml.in/yaml/v3"
)

// Option configures the bridge. It is decoder.Option, the library's one
// option type: the bridge reads decoder.MaxDepth (the deepest nesting of
// mappings and sequences, the root counting as 1; default 10000, the
// reference's) and its own alias limits below, and ignores the others, so
// that the options of a job can be given to the bridge and the decoder
// alike. A bad value is the error of the first call that reads.
type Option = decoder.Option

type options struct {
	limits yaml11.Options
	err    error // a bad option value
}

func newOptions(o []Option) options {
	var c opts.Config
	err := c.Apply(o)
	return options{limits: yaml11.Options{MaxDepth: c.MaxDepth, MaxAliasNodes: c.MaxAliasNodes, MaxAliasRatio: c.MaxAliasRatio}, err: err}
}

// MaxAliasNodes sets the most nodes one document may produce through aliases, counting every node
// visited inside an alias's anchor once per expansion (default 400,000; negative: no limit; 0 is
// an error).
func MaxAliasNodes(n int) Option {
	return func(c *opts.Config) {
		if n == 0 {
			c.Fail("MaxAliasNodes", n, "must not be 0 (positive: a limit, negative: no limit)")
		}
		c.MaxAliasNodes = n
	}
}

// MaxAliasRatio sets the most alias-expanded nodes per node of the document itself, applied past
// 1000 expanded nodes (default 10; negative: no limit; 0 and NaN are errors). go-yaml v2's own
// rule, which the reference applies, always applies too, so no option makes the bridge accept a
// document the reference rejects for aliasing.
func MaxAliasRatio(r float64) Option {
	return func(c *opts.Config) {
		if r == 0 || r != r {
			c.Fail("MaxAliasRatio", r, "must not be 0 or NaN (positive: a limit, negative: no limit)")
		}
		c.MaxAliasRatio = r
	}
}

// Reader reads the documents of a YAML stream (documents separated by "---") one after another.
// The parser reads one document at a time, so a syntax error in a later document does not keep
// the earlier ones from being read.
type Reader struct {
	data  []byte
	text  *yaml11.Text
	pos   *positions
	dec   *yaml.Decoder
	opts  options
	index int // documents parsed, empty ones included
	err   error

	// lines counted so far ('\n' before offset nlOff), for Document.Line
	nlOff, nlLine int
}

// NewReader returns a Reader of the YAML stream data.
func NewReader(data []byte, opts ...Option) *Reader {
	r := &Reader{data: data, text: yaml11.NewText(data), dec: yaml.NewDecoder(bytes.NewReader(data)), opts: newOptions(opts)}
	r.err = r.opts.err
	r.pos = newPositions(data, r.text)
	return r
}

// Next returns the next document. Documents without content ("---" alone, or comments only) are
// skipped; a document that says null ("--- ~") is returned. It returns io.EOF after the last
// document. A syntax error is a *jperrors.DecodeError whose message is the parser's text ("yaml:
// line 6: found character that cannot start any token", "yaml: invalid leading UTF-8 octet") and
// whose Line is the line in the stream; it ends the stream (later calls return it again).
func (r *Reader) Next() (*Document, error) {
	for r.err == nil {
		var n yaml.Node
		if err := r.dec.Decode(&n); err != nil {
			if errors.Is(err, io.EOF) {
				r.err = io.EOF
				break
			}
			line := editorLine(err.Error(), yaml11.ParserErrorLine(err, r.data), r.data)
			de := &jperrors.DecodeError{Line: line, Column: 1, Msg: err.Error(), Err: err}
			if starts := r.pos.starts; line > 0 && line <= len(starts) {
				de.Offset = int64(starts[line-1])
			}
			if line == 0 {
				de.Column = 0
			}
			r.err = de
			break
		}
		index := r.index
		r.index++
		ns := r.text.NonSpecificScalars(&n)
		if yaml11.EmptyDocument(&n, ns) {
			continue
		}
		start, end := r.span(&n, index)
		if start < r.nlOff {
			r.nlOff, r.nlLine = 0, 0
		}
		r.nlLine += bytes.Count(r.data[r.nlOff:start], []byte("\n"))
		r.nlOff = start
		return &Document{Node: &n, Index: index, r: r, text: r.data[start:end], start: start, line: r.nlLine + 1, nonSpecific: ns}, nil
	}
	return nil, r.err
}

// span finds the text of a document: from the start of the stream for the first one, else from
// the start of the line of its "---" marker, to the start of the next "---" line or the end of
// the stream. A "---" at the start of a line always starts a document: the parser ends any block
// there and refuses it inside a quoted scalar.
func (r *Reader) span(doc *yaml.Node, index int) (start, end int) {
	starts := r.pos.starts
	line := doc.Line
	if line < 1 {
		line = 1
	}
	if index > 0 && line <= len(starts) {
		start = starts[line-1]
	}
	end = len(r.data)
	for l := line; l < len(starts); l++ { // the lines after the document's first
		if isDocumentStart(r.data[starts[l]:]) {
			end = starts[l]
			break
		}
	}
	return start, max(start, end)
}

func isDocumentStart(b []byte) bool {
	return len(b) >= 3 && b[0] == '-' && b[1] == '-' && b[2] == '-' &&
		(len(b) == 3 || b[3] == ' ' || b[3] == '\t' || b[3] == '\n' || b[3] == '\r')
}

// Parse returns the first document of data that has content, as the reference reads a request
// body (it reads only the first document; jsonprune skips leading empty ones). It returns io.EOF
// when there is none.
func Parse(data []byte, opts ...Option) (*Document, error) {
	return NewReader(data, opts...).Next()
}

// Document is one document of a stream.
type Document struct {
	// Node is the DocumentNode the parser made; Source reads it, Rewrite copies it.
	Node *yaml.Node
	// Index is the document's position in the stream, counting every document (empty ones too)
	// from 0.
	Index int

	r           *Reader
	text        []byte
	start       int
	line        int
	nonSpecific map[*yaml.Node]bool
}

// Source returns a new token source over the whole document, for the decoder's *Source methods.
func (d *Document) Source() *Source {
	return newSource(d.Node, d.text, int64(d.start), d.r.pos, d.walker())
}

func (d *Document) walker() *yaml11.Walker {
	return yaml11.NewWalker(d.Node, d.nonSpecific, d.r.opts.limits)
}

// Text returns the document's text: from the start of its "---" line (of the stream, for the
// first document) to the next "---" line. Offsets of its Sources, and the positions of the
// findings and errors the decoder reports for them, are relative to it (as they are to the Text
// of a stream.Document); Position turns them into positions in the stream. Package jsonprune's
// calls report positions in the input instead.
func (d *Document) Text() []byte { return d.text }

// Offset returns the offset of Text in the stream.
func (d *Document) Offset() int64 { return int64(d.start) }

// Line returns the line of the stream Text starts at (1-based).
func (d *Document) Line() int { return d.line }

// Position turns an offset in Text (a finding's or an error's Offset) into the line and column
// in the stream (1-based; the column in bytes, as for JSON; lines end at '\n').
func (d *Document) Position(offset int64) (line, column int) {
	line, column = jperrors.LineColumn(d.text, offset)
	return d.line + line - 1, column
}

// IsList reports whether the document is a list as kubectl's unstructured decoder sees one: a
// mapping whose items is a sequence (through aliases and merge keys, the last occurrence
// winning), whatever its kind ("List", "WidgetList", the output of kubectl get -o yaml).
func (d *Document) IsList() bool {
	_, ok := d.items()
	return ok
}

// Items returns a token source for each item of a List document (nil for any other document),
// in order. The items share the document's limits: the alias expansion of all of them counts
// together, as when the whole List is decoded. Their offsets are relative to Text, as the
// document's.
func (d *Document) Items() []*Source {
	items, ok := d.items()
	if !ok {
		return nil
	}
	w := d.walker()
	out := make([]*Source, len(items))
	for i, it := range items {
		out[i] = newSource(it, d.text, int64(d.start), d.r.pos, w)
	}
	return out
}

// items finds the item nodes of a List document.
func (d *Document) items() ([]*yaml.Node, bool) {
	root := rootValue(d.Node)
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, false
	}
	w := d.walker()
	var items *yaml.Node
	var scratch []byte
	budget := typeMetaBudget
	eachPair(root, w, &budget, func(k, v *yaml.Node) bool {
		if k.Kind == yaml.AliasNode {
			k = k.Alias
		}
		if k == nil || k.Kind != yaml.ScalarNode {
			return true
		}
		var ok bool
		var err error
		if scratch, ok, err = w.AppendKey(scratch[:0], k); err != nil || !ok {
			return true
		}
		if string(scratch) == `"items"` {
			items = v
			if v.Kind == yaml.AliasNode {
				items = v.Alias
			}
		}
		return true
	})
	if items == nil || items.Kind != yaml.SequenceNode {
		return nil, false
	}
	return items.Content, true
}

// positions turns the parser's lines and columns (1-based, columns in characters) into byte
// offsets in the stream.
type positions struct {
	data   []byte
	starts []int
	ascii  bool
	bom    int // a UTF-8 byte order mark the parser does not count as a column

	// the last position computed, to go on from on the same line
	cLine, cCol, cOff int
}

func newPositions(data []byte, t *yaml11.Text) *positions {
	p := &positions{data: data, starts: t.LineStarts(), ascii: isASCII(data)}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		p.bom = 3
	}
	return p
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// offset returns the byte offset of a line and column.
func (p *positions) offset(line, column int) int64 {
	if line < 1 || len(p.starts) == 0 {
		return 0
	}
	if line > len(p.starts) {
		return int64(len(p.data))
	}
	i := p.starts[line-1]
	if line == 1 {
		i += p.bom
	}
	column = max(column, 1)
	if p.ascii {
		return int64(min(i+column-1, len(p.data)))
	}
	c := 1
	if p.cLine == line && p.cCol <= column {
		c, i = p.cCol, p.cOff
	}
	for c < column && i < len(p.data) {
		_, size := utf8.DecodeRune(p.data[i:])
		i += size
		c++
	}
	p.cLine, p.cCol, p.cOff = line, c, i
	return int64(i)
}

// parserProblems are the problems of yaml v3's parser (parserc.go), as
// opposed to its scanner's. The parser's "line N" is the 0-based line of
// its mark: the line an editor shows is N+1 (the scanner adds the 1 itself,
// go-yaml's parser.fail). A message without "line" has both marks on the
// first line. The message keeps the parser's text (the API server's).
var parserProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"did not find expected <stream-start>",
	"did not find expected key",
	"did not find expected node content",
	"found duplicate %TAG directive",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// editorLine turns the line of a parser error (line, from its message)
// into the 1-based line an editor shows: one more for the parser's own
// errors, whose line is 0-based; at most the last line of data (an error
// at the end of the stream is on its last line).
func editorLine(msg string, line int, data []byte) int {
	problem := msg
	if i := bytes.LastIndex([]byte(msg), []byte(": ")); i >= 0 {
		problem = msg[i+2:]
	}
	parser := false
	for _, p := range parserProblems {
		if problem == p {
			parser = true
			break
		}
	}
	if !parser {
		return line
	}
	line++ // 0 (no "line" in the message) is the first line
	last := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		last++
	}
	if line > last && last > 0 {
		line = last
	}
	return line
}
