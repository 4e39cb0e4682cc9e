package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/yamlbridge"
)

// A worker prunes the units of batches with a decoder of its own, and
// writes their outputs, stderr lines and report records into the batch.
type worker struct {
	o           *options
	newDecoder  func() *decoder.Decoder
	d           *decoder.Decoder
	fixed       bool // --schema: every object is decoded with that schema
	set         *schemaauto.Set
	js          []byte
	names       nameReader
	cat         *catalog // what the loaded CRDs serve (nil with --schema)
	yw          yamlWriter
	said        map[schemaauto.GroupVersionKind]bool // the CRD versions whose unchecked features this worker said (noteUnchecked)
	items       map[*schemaauto.Automaton]bool       // reportsItems, by automaton
	lastItems   *schemaauto.Automaton                // reportsItems' last answer, for this automaton
	lastReports bool
}

// decoderOptions are the decoder's options the flags select.
func decoderOptions(o *options) []decoder.Option {
	return []decoder.Option{
		decoder.FieldValidation(o.mode),
		decoder.Defaulting(!o.noDefaults),
		decoder.NullPruning(!o.noNulls),
		decoder.AllowInvalidUTF8(o.invalidUTF8),
		decoder.Validation(!o.noValidate),
	}
}

// mustDecoder is for decoders made with decoderOptions, which prune checks
// before the workers start.
func mustDecoder(d *decoder.Decoder, err error) *decoder.Decoder {
	if err != nil {
		panic("jsonprune: decoder options not checked: " + err.Error())
	}
	return d
}

func newWorker(o *options, set *schemaauto.Set, fixed *schemaauto.Automaton, cat *catalog) *worker {
	opts := decoderOptions(o)
	w := &worker{o: o, fixed: fixed != nil, set: set, cat: cat, newDecoder: func() *decoder.Decoder { return mustDecoder(decoder.New(set, opts...)) }}
	if fixed != nil {
		w.newDecoder = func() *decoder.Decoder { return mustDecoder(decoder.NewForAutomaton(fixed, opts...)) }
	}
	w.d = w.newDecoder()
	return w
}

// run processes every unit of b, in order.
func (w *worker) run(b *batch) {
	for i := range b.units {
		u := &b.units[i]
		o := len(b.out)
		w.safeUnit(b, u)
		u.out = span{o, len(b.out)}
	}
}

// safeUnit processes a unit; should it panic (a bug), the unit is reported
// as unreadable, without output, and the worker goes on with a new decoder.
func (w *worker) safeUnit(b *batch, u *unit) {
	out := len(b.out)
	defer func() {
		if p := recover(); p != nil {
			b.out = b.out[:out]
			w.d = w.newDecoder()
			u.tally.unreadable++
			a := &origin{b: b, u: u, item: u.item, pos: u.pos}
			w.fail(a, nil, fmt.Sprintf("internal error (please report it): %v", p), "", u.pos.offset, u.pos.line, u.pos.col)
		}
	}()
	w.unit(b, u)
}

func (w *worker) unit(b *batch, u *unit) {
	data := u.data.of(b.data)
	a := &origin{b: b, u: u, item: u.item, pos: u.pos, yaml: u.format == formatYAML}
	switch u.kind {
	case unitFail:
		u.tally.unreadable++
		w.fail(a, nil, string(data), "", u.pos.offset, u.pos.line, u.pos.col)
	case unitHead:
		u.tally.docs++
		u.tally.lists++
		w.head(a, data)
	case unitTail:
		w.tail(a, data)
	default:
		if u.kind == unitDoc {
			u.tally.docs++
		}
		if a.yaml {
			w.pruneYAML(a, data)
		} else {
			w.object(a, data)
		}
	}
}

// origin says where an object comes from, for messages and records.
type origin struct {
	b    *batch
	u    *unit
	item int      // index in its list, -1 if none
	pos  position // JSON: the object's first byte; YAML: the first byte of the document's text
	yaml bool
	// the object's apiVersion and kind (the decoder's, set once it decoded
	// the object) and its namespace and name (read when a message needs them)
	res      *decoder.Result
	tm       *typeMeta
	namesSet bool
	valid    bool // the object's text is one valid JSON value (quickNames)

	// YAML: the parsed document (for positions and -o yaml) and the source
	// of the object (the document, or an item of a list read whole)
	doc *yamlbridge.Document
	src *yamlbridge.Source
	// YAML: the object as JSON without a schema (yamlbridge.AppendJSON),
	// for pass-through, messages and records; computed when needed
	js     []byte
	jsDone bool
	inList bool // an item of a YAML list read whole: the list writes the YAML
	// reported as a kind or version no loaded CRD serves
	unserved bool
	start    int64 // YAML: the offset of the object's first token in the document's text
}

// at maps a position in the object's text to the input. YAML positions
// come from the offset (the bridge's offsets are in the document's text).
func (a *origin) at(off int64, line, col int) (int64, int, int) {
	if a.doc != nil {
		l, c := a.doc.Position(off)
		return a.pos.offset + off, a.pos.line + l - 1, c
	}
	if line <= 0 {
		return a.pos.offset + off, 0, 0
	}
	if line == 1 {
		col += a.pos.col - 1
	}
	return a.pos.offset + off, a.pos.line + line - 1, col
}

// object prunes one object and writes its output; it reports whether the
// object was written. A YAML object is read from a.src (obj is nil).
func (w *worker) object(a *origin, obj []byte) bool {
	b, u := a.b, a.u
	if a.src != nil {
		if a.src.PeekKind() == 'n' {
			u.tally.empty++ // kubectl skips null documents
			return false
		}
		a.start = a.src.InputOffset()
	} else if isNull(obj) {
		u.tally.empty++ // kubectl skips null documents
		return false
	}
	u.tally.objects++
	start := len(b.out)
	return w.decided(a, obj, start, w.decode(a, obj))
}

// decode decodes an object (obj, or a.src), appending its output to the
// batch's unless -o none.
func (w *worker) decode(a *origin, obj []byte) error {
	b := a.b
	var err error
	switch {
	case a.src != nil && w.o.output == outNone:
		err = w.d.ValidateSource(a.src)
	case a.src != nil:
		b.out, err = w.d.AppendPruneSource(b.out, a.src)
	case w.o.output == outNone:
		err = w.d.Validate(obj)
	default:
		b.out, err = w.d.AppendPrune(b.out, obj)
	}
	return err
}

// decided is object once the object is decoded (its output, if any, from
// start; err is decode's).
func (w *worker) decided(a *origin, obj []byte, start int, err error) bool {
	b, u := a.b, a.u
	res := w.d.Result()
	a.setTypeMeta(res)
	w.noteUnchecked(a, obj, res)
	passing := !w.fixed && !res.Pruned && (err == nil || w.passable(a, obj, err))
	if w.checkServed(a, obj, res, passing) {
		b.out = b.out[:start] // rejected: reported
		w.summarize(a, obj, res, nil, false)
		return false
	}
	if passing {
		b.out = b.out[:start]
		u.tally.passed++
		w.summarize(a, obj, res, nil, true)
		if w.o.output != outNone {
			if a.src != nil {
				obj = w.objJSON(a) // valid: checked by AppendJSON
			}
			b.out = append(b.out, obj...)
			v := jsontext.Value(b.out[start:])
			v.Compact() // valid: decoded or checked by passable
			b.out = b.out[:start+len(v)]
			return w.finish(a, start)
		}
		return true
	}
	if err != nil {
		b.out = b.out[:start]
		var se *jperrors.StrictError
		var ie *jperrors.InvalidError
		if errors.As(err, &se) {
			w.reject(a, obj, res, se.Findings, se.Dropped)
		} else if errors.As(err, &ie) {
			warned := res.Len() > 0 // Warn mode: the findings are warnings still
			if warned {
				fs, dropped := findings(res)
				w.warn(a, obj, res, fs, dropped)
			}
			w.invalid(a, obj, res, ie, !warned)
		} else {
			w.fatal(a, obj, res, err)
		}
		return false
	}
	fs, dropped := findings(res)
	u.tally.pruned++
	w.warn(a, obj, res, fs, dropped)
	if w.o.output != outNone && u.spaced && hasSpace(b.out[start:]) {
		// the decoder copies some values as they were written
		v := jsontext.Value(b.out[start:])
		v.Compact()
		b.out = b.out[:start+len(v)]
	}
	return w.finish(a, start)
}

// findings are the findings of the last document decoded and the number
// the decoder did not keep (res.Err builds the findings: taken from it, not
// built twice).
func findings(res *decoder.Result) ([]jperrors.Finding, int) {
	if res.Len() == 0 {
		return nil, 0
	}
	if se, ok := res.Err().(*jperrors.StrictError); ok {
		return se.Findings, se.Dropped
	}
	var se *jperrors.StrictError
	if errors.As(res.Err(), &se) {
		return res.Findings(), se.Dropped
	}
	return res.Findings(), 0
}

// finish turns the compact JSON output of an object, at b.out[start:], into
// the output format; it reports whether the object was written.
func (w *worker) finish(a *origin, start int) bool {
	b := a.b
	if w.o.output != outYAML {
		b.out = w.o.output.object(b.out, start, a.item >= 0)
		return true
	}
	if a.inList {
		return true // the list writes its YAML when its items are done
	}
	out, err := w.yw.object(b.out[:start], b.out[start:], a.doc, a.item >= 0)
	if err != nil {
		b.out = b.out[:start]
		a.u.tally.unreadable++
		w.fail(a, nil, "internal error (please report it): writing YAML: "+err.Error(), "", a.pos.offset, a.pos.line, a.pos.col)
		return false
	}
	b.out = out
	return true
}

// objJSON is a YAML object as JSON without a schema (empty if it has no
// JSON form: the decoder reports why).
func (w *worker) objJSON(a *origin) []byte {
	if !a.jsDone {
		a.jsDone = true
		if a.doc != nil {
			a.js, _ = yamlbridge.AppendJSON(nil, a.doc.Source())
		}
	}
	return a.js
}

// passable reports whether an object no schema serves, which the decoder
// refused with err, can still be passed through untouched: valid JSON, a
// kind, and an apiVersion that parses (a malformed metadata is the business
// of the kind's own server). An object whose apiVersion or kind is not a
// string (the version/kind pre-scan's error), or whose kind a loaded CRD
// serves, is never passed through: the decoder refused it before it could
// choose the CRD (a key of invalid UTF-8 ahead of them, say), and the error
// is the decoder's. The apiVersion and kind are the decoder's.
func (w *worker) passable(a *origin, obj []byte, err error) bool {
	tm := a.gvk()
	if tm.kind == "" || isPreScan(err) {
		return false
	}
	if _, _, err := schemaauto.ParseGroupVersion(tm.apiVersion); err != nil {
		return false
	}
	if w.set != nil {
		if a, _, _ := w.set.Resolve(tm.apiVersion, tm.kind); a != nil {
			return false
		}
	}
	if a.src != nil {
		obj = w.objJSON(a)
	}
	return jsontext.Value(obj).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
}

// isPreScan reports whether err is an error of the API server's
// version/kind pre-scan (the serializer's SimpleMetaFactory.Interpret),
// which the handler wraps as "the object provided is unrecognized".
func isPreScan(err error) bool {
	var de *jperrors.DecodeError
	if err == nil || !errors.As(err, &de) {
		return false
	}
	return strings.HasPrefix(de.Msg, preScanJSON) || strings.HasPrefix(de.Msg, preScanGroupVersion)
}

// The texts of the version/kind pre-scan's errors.
const (
	preScanJSON         = "couldn't get version/kind; json parse error: "
	preScanGroupVersion = "unexpected GroupVersion string: "
)

// typeMeta is what the messages about an object say of it: its apiVersion
// and kind as the decoder read them (none when it was not decoded), its
// namespace and name.
func (w *worker) typeMeta(a *origin, obj []byte) *typeMeta {
	a.gvk()
	if !a.namesSet {
		a.namesSet = true
		if obj == nil && a.src != nil {
			obj = w.objJSON(a)
		}
		if obj != nil && !(a.valid && quickNames(obj, a.tm)) {
			w.names.read(obj, a.tm)
		}
	}
	return a.tm
}

// hasSpace reports whether JSON text (valid: the decoder's output) has
// white space outside its strings. Tabs and line breaks can only be there
// (a string holds them escaped); a run of spaces is outside strings only
// if a bracket, comma, colon or quote is next to it (two other tokens are
// never next to each other), so a space in the words of a string is
// passed over with bytes.IndexByte, and only a space the rule cannot
// place sends the text to the scan of its strings (scanSpace).
func hasSpace(js []byte) bool {
	if bytes.IndexByte(js, '\n') >= 0 || bytes.IndexByte(js, '\t') >= 0 || bytes.IndexByte(js, '\r') >= 0 {
		return scanSpace(js)
	}
	for i := 0; ; {
		k := bytes.IndexByte(js[i:], ' ')
		if k < 0 {
			return false
		}
		i += k
		r := i + 1
		for r < len(js) && js[r] == ' ' {
			r++
		}
		if i == 0 || r == len(js) || nextToSpace[js[i-1]] || nextToSpace[js[r]] {
			return scanSpace(js)
		}
		i = r
	}
}

// nextToSpace are the bytes next to which a space may be outside strings.
var nextToSpace = [256]bool{'{': true, '}': true, '[': true, ']': true, ',': true, ':': true, '"': true}

// scanSpace is hasSpace, scanning the text's strings.
func scanSpace(js []byte) bool {
	for i := 0; i < len(js); i++ {
		switch js[i] {
		case ' ', '\t', '\r', '\n':
			return true
		case '"': // to the closing quote: one not preceded by an odd run of \
			for {
				q := bytes.IndexByte(js[i+1:], '"')
				if q < 0 {
					return false
				}
				i += q + 1
				n := 0
				for n < i && js[i-1-n] == '\\' {
					n++
				}
				if n%2 == 0 {
					break
				}
			}
		}
	}
	return false
}

func isNull(obj []byte) bool { return string(bytes.TrimSpace(obj)) == "null" }

// noteUnchecked says, once per CRD version and run, what value validation
// does not check in its schema (CEL rules), so that a valid verdict is not
// read as more than it is. It is keyed by group/version/kind, not by
// automaton, so a CRD compiled again after the lazy set let it go is not
// said twice and no let-go automaton is kept alive. The note goes with the
// first object of that version in input order, whatever the workers: each
// worker says it at the first object of the version it sees (which, for the
// first object of the run, is that one) and the writer keeps the first in
// input order (batch.once).
func (w *worker) noteUnchecked(a *origin, obj []byte, res *decoder.Result) {
	list := res.Unchecked()
	if len(list) == 0 || res.Entry == nil {
		return
	}
	key := res.Entry.GVK
	if w.said[key] {
		return
	}
	if w.said == nil {
		w.said = map[schemaauto.GroupVersionKind]bool{}
	}
	w.said[key] = true
	b := a.b
	start := len(b.msgs)
	text := res.Entry.GVK.Kind + " " + res.Entry.GVK.Group + "/" + res.Entry.GVK.Version +
		": value validation does not check " + plural(len(list), "schema feature") + " yet: " + list[0]
	if len(list) > 1 {
		text += " (and " + itoa(len(list)-1) + " more; -v lists them)"
	}
	w.say(a, obj, note{sev: sevNote, kind: "unchecked", text: text})
	if w.o.verbose {
		for _, l := range list[1:] {
			w.say(a, obj, note{sev: sevNote, kind: "unchecked", text: l})
		}
	}
	b.once = append(b.once, onceMsg{key: key.Group + "/" + key.Version + "/" + key.Kind, msgs: span{start, len(b.msgs)}})
}
