package decoder

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"sort"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// Decoder decodes Kubernetes custom resources against compiled schemas, in
// one pass over the JSON tokens of each document. A Decoder is not safe for
// concurrent use; reuse one per goroutine for many documents, so that its
// buffers are reused (steady-state pruning allocates nothing).
type Decoder struct {
	// configuration
	set   *schemaauto.Set
	fixed *schemaauto.Automaton
	cfg   config

	// the current document, and the mode it is read in (doc.go)
	doc      []byte
	src      TokenSource // its tokens, when not JSON text
	a        *schemaauto.Automaton
	entry    *schemaauto.Entry
	ownDups  bool // the slow path: the walk reports duplicates, the last value wins
	rawFast  bool // whole values may be copied or skipped as raw bytes
	scanning bool // the scanner reads the document
	scanOff  bool // for one decoding: the scanner gave up
	inPlace  bool // jd reads doc in place (peekInPlace)
	depth    int
	fatals   []fatalRec // fatal error candidates of the current document
	anyStart int64      // the offset of the value readAny last read
	res      Result

	// guesses is lookup's guess of the property that the member after
	// some member (or first) of an object in some state of some automaton
	// names, by the last object that had one there (the index + 1; 0:
	// none), in slots hashed by guessSlot; guessSalt tells the automata
	// (their states are numbered from 0 each)
	guesses   [1 << guessBits]uint32
	guessSalt uint32

	// the readers
	sc    scanner           // the fast path's (scanner.go)
	jd    *jsontext.Decoder // jsontext's, reading rd, or a sub-slice with base
	rd    bytes.Buffer
	base  int64             // offset of jd's input in the document
	pre   *jsontext.Decoder // a second one, over preRd: pre-scan, syntax errors
	preRd bytes.Buffer

	// the output
	out     outKind
	buf     []byte // bytes output
	wbuf    []byte // Prune's buffer
	scratch []byte // unquoted strings

	// the state of each job, in the file that does it
	tm   typeMetaScan // the apiVersion/kind pre-scan (root.go)
	find findings     // the path and the findings (findings.go)
	dups dupSets      // the duplicate check of the open objects (dups.go)
	meta metaScratch  // the metadata steps' buffers (meta.go)
	strm streaming    // PruneReader (reader.go)
	val  valState     // value validation (validate.go)

	// tests
	forceSlow     bool // start on the slow path
	noScan        bool // the fast path without the scanner
	scanFallbacks int  // documents the scanner gave up on
}

type outKind uint8

const (
	outNone outKind = iota
	outBytes
	outMap
)

// New returns a Decoder for the objects served by set: each document is
// matched by its apiVersion and kind (exact, as the reference matches them)
// and decoded with that version's automaton. Documents of kinds the set
// does not serve are kept whole, their metadata normalised; a nil set
// serves no kind. Result.Pruned tells whether a document was pruned:
// in Strict mode too, a document of a kind no CRD serves is not an error
// (the API server would answer 404 Not Found).
//
// The error is the first bad option value's.
func New(set *schemaauto.Set, opts ...Option) (*Decoder, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	d := &Decoder{set: set, cfg: cfg}
	d.val.on = cfg.validate
	d.dups.seed = maphash.MakeSeed()
	return d, nil
}

// NewForAutomaton returns a Decoder that decodes every document with a,
// whatever its apiVersion and kind, as the schema of the one CRD version a
// caller serves.
func NewForAutomaton(a *schemaauto.Automaton, opts ...Option) (*Decoder, error) {
	d, err := New(nil, opts...)
	if err != nil {
		return nil, err
	}
	d.fixed = a
	return d, nil
}

// Result describes the last document decoded.
type Result struct {
	d *Decoder
	// Entry is the CRD version the document was decoded with; nil when no
	// CRD of the set serves it (or with NewForAutomaton).
	Entry *schemaauto.Entry
	// Pruned reports whether the document was pruned against a schema;
	// false for documents kept whole.
	Pruned bool
}

// APIVersion and Kind return the root's apiVersion and kind as the decoder
// read them to choose the schema, as the reference's version/kind pre-scan
// reads them (empty when absent or not strings).
func (r *Result) APIVersion() string { return string(r.d.tm.avBuf) }

// Kind: see APIVersion.
func (r *Result) Kind() string { return string(r.d.tm.kindBuf) }

// Len returns the number of findings of the last document.
func (r *Result) Len() int { return r.d.numFindings() }

// Findings returns the findings of the last document, in the reference's
// order. The slice is newly allocated.
func (r *Result) Findings() []jperrors.Finding {
	d := r.d
	out := make([]jperrors.Finding, 0, d.numFindings())
	for g := range numGroups {
		for _, x := range d.find.recs[g] {
			f := jperrors.Finding{
				Type:    x.typ,
				Path:    string(d.find.texts[x.pathStart:x.pathEnd]),
				Pointer: d.pointer(x),
				Offset:  x.offset,
			}
			out = append(out, f)
		}
	}
	if d.doc != nil {
		setLineColumns(d.doc, out)
	}
	return out
}

// setLineColumns fills in the lines and columns of findings in one pass
// over the document, in offset order.
func setLineColumns(doc []byte, fs []jperrors.Finding) {
	order := make([]int, len(fs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return fs[order[a]].Offset < fs[order[b]].Offset })
	line, lineStart, pos := 1, 0, 0
	for _, i := range order {
		off := int(min(max(fs[i].Offset, 0), int64(len(doc))))
		for ; pos < off; pos++ {
			if doc[pos] == '\n' {
				line++
				lineStart = pos + 1
			}
		}
		fs[i].Line, fs[i].Column = line, off-lineStart+1
	}
}

// setValueLines fills in the lines and columns of validation errors (see
// setLineColumns).
func setValueLines(doc []byte, es []jperrors.ValueError) {
	fs := make([]jperrors.Finding, len(es))
	for i := range es {
		fs[i].Offset = es[i].Offset
	}
	setLineColumns(doc, fs)
	for i := range es {
		es[i].Line, es[i].Column = fs[i].Line, fs[i].Column
	}
}

// Err returns the strict decoding error of the last document (the
// reference's "strict decoding error: ..."), or nil when it had no findings.
func (r *Result) Err() error {
	if r.d.numFindings() == 0 {
		return nil
	}
	return &jperrors.StrictError{Findings: r.Findings(), Dropped: r.d.find.droppedDups + r.d.find.dropped, DroppedDuplicates: r.d.find.droppedDups}
}

// Invalid returns the value-validation error of the last document (the
// API server's 422), or nil when it has none or validation is off. It
// holds every error in the server's order, each located.
func (r *Result) Invalid() *jperrors.InvalidError {
	d := r.d
	if !d.val.invalid() {
		return nil
	}
	e := &jperrors.InvalidError{Kind: r.Kind(), Name: d.val.rootMetadataName(d.doc)}
	if r.Entry != nil {
		e.Group = r.Entry.GVK.Group
	}
	// the create path's steps in order: root ObjectMeta (8b), the schema
	// (8c), the scale subresource (8d), embedded resources (8e), list
	// types (8f)
	for i, step := range [][]valRec{d.val.rootMeta, d.val.errs, d.val.scale, d.val.embedded, d.val.lists} {
		for _, x := range step {
			e.Errors = append(e.Errors, jperrors.ValueError{FieldError: *x.err, Offset: x.offset, Pointer: x.ptr, Step: jperrors.Step(i)})
		}
	}
	if d.doc != nil {
		setValueLines(d.doc, e.Errors)
	}
	return e
}

// Unchecked lists what the last document's schema has that validation
// does not check (schemaauto Automaton.Unchecked); nil when validation is
// off or the document was not pruned against a schema.
func (r *Result) Unchecked() []string {
	if !r.d.val.on || r.d.a == nil || !r.Pruned {
		return nil
	}
	return r.d.a.Unchecked()
}

// Result returns the result of the last document. It is valid until the
// next call on the Decoder.
func (d *Decoder) Result() *Result { return &d.res }

// AppendPrune decodes doc and appends the pruned document to dst as
// compact JSON: members in input order, numbers and strings as written,
// defaults added at the end of their object. On a fatal error, or in Strict
// mode when there are findings, dst is returned unchanged with the error.
func (d *Decoder) AppendPrune(dst, doc []byte) ([]byte, error) {
	d.out, d.buf = outBytes, dst
	_, err := d.run(doc)
	out := d.buf
	d.buf = nil
	if err != nil {
		return dst, err
	}
	return out, nil
}

// Prune decodes doc and writes the pruned document to w (see
// AppendPrune). The document is built in the Decoder's buffer first, so
// nothing is written on a fatal error.
func (d *Decoder) Prune(w io.Writer, doc []byte) error {
	out, err := d.AppendPrune(d.wbuf[:0], doc)
	d.wbuf = out[:0]
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// DecodeMap decodes doc into a map with the reference's number semantics
// (int64 for integers that fit, float64 otherwise).
func (d *Decoder) DecodeMap(doc []byte) (map[string]any, error) {
	d.out, d.buf = outMap, d.val.buf[:0] // validation writes what it reads back
	v, err := d.run(doc)
	d.val.buf, d.buf = d.buf[:0], nil
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	return m, nil
}

// Validate decodes doc and reports its findings without producing output.
func (d *Decoder) Validate(doc []byte) error {
	d.out, d.buf = outNone, d.val.buf[:0] // validation writes what it reads back
	_, err := d.run(doc)
	d.val.buf, d.buf = d.buf[:0], nil
	return err
}

// run decodes one document: the fast path first (jsontext detects
// duplicate names), and, if the document has any, the slow path that finds
// and reports each of them.
func (d *Decoder) run(doc []byte) (any, error) {
	if d.cfg.maxDocSize > 0 && int64(len(doc)) > d.cfg.maxDocSize {
		d.reset(doc, false)
		return nil, &jperrors.DecodeError{Msg: fmt.Sprintf("document of %d bytes exceeds the limit of %d bytes", len(doc), d.cfg.maxDocSize)}
	}
	mark := len(d.buf)
	v, err := d.decode(doc, d.forceSlow || d.src != nil || d.noScan && d.cfg.invalidUTF8)
	if err == errUnscanned && !d.cfg.invalidUTF8 {
		// not for the scanner: jsontext reads it (and reports its error)
		d.buf = d.buf[:mark]
		d.scanFallbacks++
		d.scanOff = true
		v, err = d.decode(doc, false)
		d.scanOff = false
	}
	if err == errDuplicate || err == errUnscanned || err == errDeep {
		// errUnscanned with AllowInvalidUTF8: the text may hold invalid
		// UTF-8, whose names collide once it is replaced, which only the
		// slow path sees
		d.scanFallbacks++ // straight to the slow path
	}
	if err == errDuplicate || err == errUnscanned || err == errDeep || err != nil && !d.ownDups && errors.Is(err, jsontext.ErrDuplicateName) {
		d.buf = d.buf[:mark]
		v, err = d.decode(doc, true)
	}
	if err == nil && d.cfg.mode == Strict && d.numFindings() > 0 {
		err = d.res.Err()
	}
	if err == nil && d.val.invalid() {
		err = d.res.Invalid()
	}
	if err != nil {
		d.buf = d.buf[:mark]
		return nil, err
	}
	return v, nil
}

func (d *Decoder) reset(doc []byte, ownDups bool) {
	d.doc = doc
	d.ownDups = ownDups
	d.fatals = d.fatals[:0]
	d.find.names, d.find.path, d.find.texts = d.find.names[:0], d.find.path[:0], d.find.texts[:0]
	d.rawFast = !ownDups && d.src == nil
	for g := range numGroups {
		d.find.recs[g] = d.find.recs[g][:0]
	}
	d.find.droppedDups, d.find.dropped = 0, 0
	d.depth, d.base = 0, 0
	d.tm.ciAPIVersion.set, d.tm.ciKind.set = false, false
	d.tm.ciAPIVersion.typeErr, d.tm.ciKind.typeErr = false, false
	d.tm.ciSeq, d.tm.ciPending = 0, d.tm.ciPending[:0]
	d.dups.seenBits, d.dups.objNames, d.dups.seenNames, d.dups.members = d.dups.seenBits[:0], d.dups.objNames[:0], d.dups.seenNames[:0], d.dups.members[:0]
	d.dups.setSlots = d.dups.setSlots[:0]
	d.resetValidation()
	d.res = Result{d: d}
}

// decode runs one pass over doc.
func (d *Decoder) decode(doc []byte, ownDups bool) (any, error) {
	d.reset(doc, ownDups)
	opts := []jsontext.Options{jsontext.AllowDuplicateNames(ownDups), jsontext.AllowInvalidUTF8(d.cfg.invalidUTF8)}
	d.inPlace = d.src == nil && d.strm.head == nil
	d.scanning = d.rawFast && !d.noScan && !d.scanOff
	d.sc.reset(d.doc, d.cfg.maxDepth)
	if d.scanning {
		d.inPlace = false
	} else if d.inPlace {
		d.rd = *bytes.NewBuffer(doc) // jsontext reads a bytes.Buffer in place
		if d.jd == nil {
			d.jd = jsontext.NewDecoder(&d.rd, opts...)
		} else {
			d.jd.Reset(&d.rd, opts...)
		}
	}

	if d.strm.head != nil {
		if d.jd == nil {
			d.jd = jsontext.NewDecoder(d.headReader(), opts...)
		} else {
			d.jd.Reset(d.headReader(), opts...)
		}
	}
	if err := d.selectAutomaton(); err != nil {
		return nil, err
	}
	v, err := d.value(d.a.Root(), false)
	if err == nil && d.val.rootClose && (d.val.scaleOn || !d.val.meta) {
		d.closeRoot(d.val.rootOff)
	}
	if err == nil {
		if _, err = d.readToken(); err == nil {
			err = &jperrors.DecodeError{Offset: d.offset(), Msg: "invalid data after the top-level value"}
		} else if err == io.EOF {
			err = nil
		}
	}
	if err != nil {
		if we, ok := err.(*writeError); ok {
			return nil, we.err
		}
		if err == errUnscanned || err == errDuplicate || err == errDeep {
			return nil, err
		}
		var le *limitError
		if errors.As(err, &le) {
			return nil, le.decodeError()
		}
		return nil, d.syntaxError(err)
	}
	if err := d.finishRoot(); err != nil {
		return nil, err
	}
	if f := d.firstFatal(); f != nil {
		return nil, f
	}
	d.sortFindings()
	return v, nil
}

// setFatal remembers a fatal error found while decoding goes on (to find
// syntax errors, which come first); rank orders them as the reference's
// pipeline meets them.
//
// Every candidate is kept (a later duplicate may discard the value that
// raised one); the first of the lowest rank is reported.
func (d *Decoder) setFatal(rank int, err *jperrors.DecodeError) {
	d.fatals = append(d.fatals, fatalRec{err, rank})
}

type fatalRec struct {
	err  *jperrors.DecodeError
	rank int
}

// firstFatal picks the fatal error to report, with its line and column.
func (d *Decoder) firstFatal() *jperrors.DecodeError {
	var best *fatalRec
	for i := range d.fatals {
		f := &d.fatals[i]
		if best == nil || f.rank < best.rank || f.rank == rankCoerce && best.rank == rankCoerce && coercedBefore(f.err.Pointer, best.err.Pointer) {
			best = f
		}
	}
	if best == nil {
		return nil
	}
	if best.err.Line == 0 && d.doc != nil {
		best.err.Line, best.err.Column = jperrors.LineColumn(d.doc, best.err.Offset)
	}
	return best.err
}

// coercedBefore orders the pointers of two embedded-resource coercion
// errors (".../apiVersion", ".../kind", ".../metadata" of a node) as one
// run of the reference can meet them, whatever the order of the members in
// the document: the reference checks a node (apiVersion, kind, then
// metadata) before the nodes below it, and visits siblings in Go map order,
// which jsonprune replaces by the order of their names. So a JSON document
// and the same document with its members sorted (the YAML path) report the
// same error.
func coercedBefore(a, b string) bool {
	na, ka := splitLast(a)
	nb, kb := splitLast(b)
	for na != "" && nb != "" {
		sa, ra := splitFirst(na)
		sb, rb := splitFirst(nb)
		if sa != sb {
			return sa < sb
		}
		na, nb = ra, rb
	}
	if na != nb {
		return na == "" // an ancestor's errors come first
	}
	return ka < kb // apiVersion, kind, metadata
}

// splitLast splits a JSON Pointer into its parent and last token.
func splitLast(p string) (string, string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}

// splitFirst splits "/a/b/c" into "a" and "/b/c".
func splitFirst(p string) (string, string) {
	p = p[1:]
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}

// Ranks of fatal errors, in the order of the reference's pipeline.
const (
	rankStream       = iota // PruneReader cannot decode the document as the reference does
	rankVersionKind         // the apiVersion/kind pre-scan
	rankNumber              // a number the map decoding cannot hold
	rankKindMissing         // Object 'Kind' is missing
	rankAccessor            // apiVersion is null in the decoded map
	rankRootMeta            // malformed root metadata
	rankGroupVersion        // the object's apiVersion does not parse
	rankCoerce              // embedded resources
)

// syntaxError turns a jsontext error into a DecodeError with its position.
func (d *Decoder) syntaxError(err error) error {
	if d.src != nil {
		var de *jperrors.DecodeError
		if errors.As(err, &de) {
			return err
		}
		e := &jperrors.DecodeError{Offset: d.src.LastOffset(), Msg: err.Error(), Err: err}
		e.Line, e.Column = jperrors.LineColumn(d.doc, e.Offset)
		return e
	}
	if d.doc != nil && !errors.Is(err, jsontext.ErrDuplicateName) {
		// jsontext words and places a syntax error differently when it
		// reads a value whole and token by token ({"a":1,} fails at the
		// '}' or at the ','), and the decoder does both, depending on the
		// path and the output: the error is taken from one scan of the
		// whole document, so that every path reports the same one, where
		// the reference (encoding/json) reports it
		d.preRd = *bytes.NewBuffer(d.doc)
		opts := []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(d.cfg.invalidUTF8)}
		if d.pre == nil {
			d.pre = jsontext.NewDecoder(&d.preRd, opts...)
		} else {
			d.pre.Reset(&d.preRd, opts...)
		}
		if _, serr := d.pre.ReadValue(); serr != nil {
			return d.syntaxErrorAt(serr, d.pre)
		}
	}
	return d.syntaxErrorAt(err, d.jd)
}

// yamlHint is what a syntax error adds when the document does not start
// as JSON text can (with {, [, a string, a number or a literal): the usual
// cause is YAML given where JSON is read.
func yamlHint(doc []byte) string {
	doc = bytes.TrimLeft(doc, " \t\r\n")
	if len(doc) == 0 || tokenKind[doc[0]] != 0 || doc[0] >= 0x80 {
		return ""
	}
	return " (the document is not JSON: read YAML with package yamlbridge, or with jsonprune.Schemas, which reads both)"
}

// syntaxErrorAt is syntaxError for errors of the jsontext decoder jd.
func (d *Decoder) syntaxErrorAt(err error, jd *jsontext.Decoder) error {
	var de *jperrors.DecodeError
	if errors.As(err, &de) {
		if de.Line == 0 && d.doc != nil {
			de.Line, de.Column = jperrors.LineColumn(d.doc, de.Offset)
		}
		return de
	}
	e := &jperrors.DecodeError{Offset: jd.InputOffset(), Msg: err.Error(), Err: err}
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		e.Offset, e.Pointer = se.ByteOffset, string(se.JSONPointer)
		e.Msg = se.Error()
		if se.Err != nil {
			e.Msg = strings.TrimPrefix(se.Err.Error(), "jsontext: ")
		}
		e.Msg = "invalid JSON: " + e.Msg + yamlHint(d.doc)
	} else if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
		e.Msg = "invalid JSON: unexpected end of input"
	}
	if d.doc != nil {
		e.Line, e.Column = jperrors.LineColumn(d.doc, e.Offset)
	}
	return e
}
