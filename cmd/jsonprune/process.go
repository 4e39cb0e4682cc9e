package main

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/yaml11"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// A worker prunes the units of batches with a decoder of its own, and
// writes their outputs, stderr lines and report records into the batch.
type worker struct {
	o          *options
	newDecoder func() *decoder.Decoder
	d          *decoder.Decoder
	fixed      bool // --schema: every object is decoded with that schema
	js         []byte
	tm         typeMetaReader
}

func newWorker(o *options, set *schemaauto.Set, fixed *schemaauto.Automaton) *worker {
	opts := []decoder.Option{
		decoder.FieldValidation(o.mode),
		decoder.Defaulting(!o.noDefaults),
		decoder.NullPruning(!o.noNulls),
		decoder.AllowInvalidUTF8(o.invalidUTF8),
	}
	w := &worker{o: o, fixed: fixed != nil, newDecoder: func() *decoder.Decoder { return decoder.New(set, opts...) }}
	if fixed != nil {
		w.newDecoder = func() *decoder.Decoder { return decoder.NewForAutomaton(fixed, opts...) }
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
	a := &origin{b: b, u: u, item: u.item, pos: u.pos, line: u.first, yaml: u.format == formatYAML}
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
	pos  position // JSON: the object's first byte
	yaml bool
	line int // YAML: the document's first content line
	dups []yaml11.DuplicateKey
	root any // YAML: the value, for the paths of duplicates
	tm   *typeMeta
}

// at maps a position in the object's text to the input.
func (a *origin) at(off int64, line, col int) (int64, int, int) {
	if a.yaml {
		return a.pos.offset, a.line, 0
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
// object was written.
func (w *worker) object(a *origin, obj []byte) bool {
	b, u := a.b, a.u
	if isNull(obj) {
		u.tally.empty++ // kubectl skips null documents
		return false
	}
	u.tally.objects++
	start := len(b.out)
	var err error
	if w.o.output == outNone {
		err = w.d.Validate(obj)
	} else {
		b.out, err = w.d.AppendPrune(b.out, obj)
	}
	res := w.d.Result()
	if !w.fixed && !res.Pruned && (err == nil || w.passable(a, obj)) {
		b.out = b.out[:start]
		u.tally.passed++
		w.summarize(a, obj, res, nil, true)
		if w.o.output != outNone {
			b.out = append(b.out, obj...)
			v := jsontext.Value(b.out[start:])
			v.Compact() // valid: decoded or checked by passable
			b.out = w.o.output.object(b.out[:start+len(v)], start, a.item >= 0)
		}
		return true
	}
	if err != nil {
		b.out = b.out[:start]
		var se *jperrors.StrictError
		if errors.As(err, &se) {
			w.reject(a, obj, res, se.Findings, se.Dropped)
		} else {
			w.fatal(a, obj, res, err)
		}
		return false
	}
	var fs []jperrors.Finding
	if res.Len() > 0 {
		fs = res.Findings()
	}
	if w.o.mode == decoder.Strict && len(a.dups) > 0 {
		b.out = b.out[:start]
		w.reject(a, obj, res, fs, 0)
		return false
	}
	u.tally.pruned++
	w.warn(a, obj, res, fs)
	if w.o.output != outNone && u.spaced && hasSpace(b.out[start:]) {
		// the decoder copies some values as they were written
		v := jsontext.Value(b.out[start:])
		v.Compact()
		b.out = b.out[:start+len(v)]
	}
	b.out = w.o.output.object(b.out, start, a.item >= 0)
	return true
}

// passable reports whether an object no schema serves, which the decoder
// refused, can still be passed through untouched: valid JSON, a kind, and
// an apiVersion that parses (a malformed metadata is the business of the
// kind's own server).
func (w *worker) passable(a *origin, obj []byte) bool {
	tm := w.typeMeta(a, obj)
	if !tm.object || tm.kind == "" {
		return false
	}
	if _, _, err := schemaauto.ParseGroupVersion(tm.apiVersion); err != nil {
		return false
	}
	return jsontext.Value(obj).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
}

func (w *worker) typeMeta(a *origin, obj []byte) *typeMeta {
	if a.tm == nil {
		tm := w.tm.read(obj)
		a.tm = &tm
	}
	return a.tm
}

// hasSpace reports whether JSON text has white space outside its strings.
func hasSpace(js []byte) bool {
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
