package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// warn reports the findings of an object that was written (Warn mode);
// dropped counts the findings the decoder did not keep.
func (w *worker) warn(a *origin, obj []byte, res *decoder.Result, fs []jperrors.Finding, dropped int) {
	w.summarize(a, obj, res, fs, false)
	if len(fs) == 0 {
		return
	}
	w.count(a, fs)
	if w.o.quiet && w.o.report == "" {
		// no line says a warning and no record lists it: the notes and
		// their suggestions (the schema read for them) would be dropped
		w.omitted(a, obj, fs, dropped)
		return
	}
	sugg := w.suggestions(a, res, fs)
	for i, f := range fs {
		n := w.findingNote(a, f, sevWarning)
		n.suggestion = sugg[i]
		w.say(a, obj, n)
	}
	w.records(a, obj, fs, sevWarning, sugg)
	w.omitted(a, obj, fs, dropped)
}

// reject reports an object that Strict mode does not write: one error, the
// API server's message, at the first finding; in the located form, a note
// a finding for the others and for suggestions.
func (w *worker) reject(a *origin, obj []byte, res *decoder.Result, fs []jperrors.Finding, dropped int) {
	a.u.tally.rejected++
	w.summarize(a, obj, res, fs, false)
	w.count(a, fs)
	se := jperrors.StrictError{Findings: fs, Dropped: dropped, DroppedDuplicates: droppedDuplicates(fs, dropped)}
	sugg := w.suggestions(a, res, fs)
	n := note{sev: sevError, kind: "rejected", text: w.handledAs(a, obj, res) + se.Error()}
	if len(fs) > 0 { // at the first finding in the input
		first := 0
		for i, f := range fs {
			if f.Offset < fs[first].Offset {
				first = i
			}
		}
		f := w.findingNote(a, fs[first], sevError)
		n.off, n.line, n.col = f.off, f.line, f.col
	}
	w.say(a, obj, n)
	if !w.o.kubectl && (len(fs) > 1 || sugg[0] != "") {
		for i, f := range fs {
			if i == maxNotes {
				w.sayMore(a, len(fs)-i)
				break
			}
			fn := w.findingNote(a, f, sevNote)
			fn.suggestion = sugg[i]
			w.say(a, obj, fn)
		}
	}
	w.records(a, obj, fs, sevError, sugg)
	w.omitted(a, obj, fs, dropped)
}

// invalid reports an object the API server would decode but refuse for
// its values (422 Invalid): the server's message at its first error, each
// error a note at its place, and a record each in the report.
// summarize: the object is not in the summary yet (warn put it there).
func (w *worker) invalid(a *origin, obj []byte, res *decoder.Result, ie *jperrors.InvalidError, summarize bool) {
	t := &a.u.tally
	t.invalid++
	if t.byReason == nil {
		t.byReason = map[string]int{}
	}
	if summarize {
		w.summarize(a, obj, res, nil, false)
	}
	n := note{sev: sevError, kind: "invalid", text: ie.Error()}
	if len(ie.Errors) > 0 {
		e := ie.Errors[0]
		n.off, n.line, n.col = a.at(e.Offset, e.Line, e.Column)
	}
	if len(ie.Errors) == 1 || w.o.kubectl {
		w.say(a, obj, n)
	} else {
		n.text = shorten(n.text, maxLineMessage)
		w.say(a, obj, n)
	}
	// the notes are said only without -q (say drops them under it): an
	// error's text is built only for a line or a record that says it
	notes := len(ie.Errors) > 1 && !w.o.kubectl && !w.o.quiet
	for i := range ie.Errors {
		e := &ie.Errors[i]
		t.byReason[string(e.Type)]++
		if !(notes && i < maxNotes) && w.o.report == "" {
			continue
		}
		text := e.Error()
		en := note{sev: sevNote, kind: "invalid", text: text, path: e.Field, pointer: e.Pointer}
		en.off, en.line, en.col = a.at(e.Offset, e.Line, e.Column)
		if notes && i < maxNotes {
			w.say(a, obj, en)
		}
		if w.o.report != "" {
			r := w.record(a, obj)
			r.typ, r.message, r.path, r.pointer, r.severity = "invalid", text, e.Field, e.Pointer, "error"
			r.offset, r.line, r.column = en.off, en.line, en.col
			a.b.rep = r.append(a.b.rep)
		}
	}
	if len(ie.Errors) > maxNotes && !w.o.kubectl {
		w.sayMore(a, len(ie.Errors)-maxNotes)
	}
}

// maxNotes bounds the notes under a Strict error (the report has them all).
const maxNotes = 20

// findingNote is the note of a finding, at its place in the input.
func (w *worker) findingNote(a *origin, f jperrors.Finding, sev severity) note {
	n := note{sev: sev, kind: f.Type.String(), text: f.Message(), path: f.Path, pointer: f.Pointer}
	n.off, n.line, n.col = a.at(f.Offset, f.Line, f.Column)
	return n
}

// droppedDuplicates is how many of the findings the decoder did not keep
// are duplicate fields past the API server's cap of 100 a document, which
// the server does not list either. The command line's decoder keeps
// decoder.DefaultMaxFindings findings: below that, every finding dropped is
// such a duplicate; at that limit, which kind was dropped is not known, and
// none is taken for one (the message then says "and N more").
func droppedDuplicates(fs []jperrors.Finding, dropped int) int {
	if len(fs) < decoder.DefaultMaxFindings {
		return dropped
	}
	return 0
}

// omitted counts, for the summary and the report, the findings of an
// object that are in no message: the duplicate fields past the API
// server's cap of 100 (it drops them without a word), and findings past the
// decoder's limit.
func (w *worker) omitted(a *origin, obj []byte, fs []jperrors.Finding, dropped int) {
	if dropped == 0 {
		return
	}
	a.u.tally.omitted += dropped
	if w.o.report == "" {
		return
	}
	r := w.record(a, obj)
	r.typ, r.omitted = "omitted", dropped
	if dups := droppedDuplicates(fs, dropped); dups == dropped {
		r.message = itoa(dropped) + " more duplicate fields, which the API server does not list (it lists 100 a document)"
	} else {
		r.message = itoa(dropped) + " more findings, past jsonprune's limit of " + itoa(decoder.DefaultMaxFindings) + " a document"
	}
	r.offset, r.line, r.column = a.at(0, 1, 1)
	a.b.rep = r.append(a.b.rep)
}

// fatal reports an object the API server would not decode at all.
func (w *worker) fatal(a *origin, obj []byte, res *decoder.Result, err error) {
	var de *jperrors.DecodeError
	if !errors.As(err, &de) {
		de = &jperrors.DecodeError{Msg: err.Error()}
	}
	msg := de.Msg
	switch {
	case a.src != nil && w.fromSource(a, de):
		// the YAML path's own error ("yaml: cannot decode ...", "json:
		// unsupported value: +Inf"), raised before the object is decoded
		a.u.tally.failed++
	case isSyntax(err, de):
		a.u.tally.unreadable++
	default:
		a.u.tally.failed++
		if a.src != nil && strings.HasPrefix(msg, kindMissing) {
			// the reference quotes the JSON it decodes, not the YAML text
			// (and for a list item, the item)
			msg = kindMissing + string(w.objJSON(a)) + "'"
		}
		switch {
		case res.Pruned && isPreScan(err), isPreScan(err) && res.Kind() != "" && w.servesKind(res.Kind()):
			// the handler wraps a pre-scan error for the URL's kind; here,
			// the kind the object names when a loaded CRD serves it
			// ("apiVersion": 5 on a Widget; issue 14, defect 2)
			msg = w.unrecognized(a, obj, res, msg)
		case res.Pruned:
			msg = w.handledAs(a, obj, res) + msg
		}
	}
	offset := de.Offset
	if a.src != nil && offset == 0 {
		offset = a.start // an error about the whole object ("Object 'Kind' is missing")
	}
	off, line, col := a.at(offset, de.Line, de.Column)
	w.fail(a, obj, msg, de.Pointer, off, line, col)
}

const kindMissing = "Object 'Kind' is missing in '"

// fromSource reports whether the decoder's error de is the error of the
// object's YAML source (the bridge's errors are sticky: reading again
// returns it).
func (w *worker) fromSource(a *origin, de *jperrors.DecodeError) bool {
	_, err := a.src.ReadToken()
	var se *jperrors.DecodeError
	return errors.As(err, &se) && se == de
}

// fail writes an error line and its record (about obj, if known).
func (w *worker) fail(a *origin, obj []byte, msg, pointer string, off int64, line, col int) {
	n := note{sev: sevError, kind: "error", text: msg, pointer: pointer, off: off, line: line, col: col}
	n.hint = w.hint(a, msg)
	w.say(a, obj, n)
	if w.o.report != "" {
		r := w.record(a, obj)
		r.typ, r.severity, r.pointer, r.offset, r.line, r.column = "error", sevError.String(), pointer, off, line, col
		r.message, r.hint = shorten(msg, maxReportMessage), n.hint
		r.pointer = shorten(pointer, maxReportMessage)
		r.column = w.editorColumn(a, off, line, col)
		a.b.rep = r.append(a.b.rep)
	}
}

// isSyntax tells the errors that make a document unreadable (invalid JSON)
// from those the API server raises for a readable one.
func isSyntax(err error, de *jperrors.DecodeError) bool {
	var se *jsontext.SyntacticError
	return errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) ||
		strings.HasPrefix(de.Msg, "invalid JSON") || de.Msg == "invalid data after the top-level value"
}

// handledAs is the API server's wrapper of a decoding error for an object
// a schema serves: `Widget in version "v1" cannot be handled as a Widget: `.
func (w *worker) handledAs(a *origin, obj []byte, res *decoder.Result) string {
	var kind, version string
	if e := res.Entry; e != nil {
		kind, version = e.GVK.Kind, e.GVK.Version
	} else {
		tm := a.gvk()
		kind = tm.kind
		_, version, _ = schemaauto.ParseGroupVersion(tm.apiVersion)
	}
	if kind == "" {
		return ""
	}
	return kind + ` in version "` + version + `" cannot be handled as a ` + kind + ": "
}

// unrecognized is the API server's wrapper of an error of its version/kind
// pre-scan, which leaves it without a kind (transformDecodeError): `the
// object provided is unrecognized (must be of type Widget): <err>
// (<summary>)`, the summary being the first 30 bytes of the body (in hex
// unless it starts with '{'). The type is the kind of the CRD that serves
// the object.
func (w *worker) unrecognized(a *origin, obj []byte, res *decoder.Result, msg string) string {
	kind := a.gvk().kind
	if e := res.Entry; e != nil {
		kind = e.GVK.Kind
	}
	body := obj
	if body == nil {
		body = a.u.data.of(a.b.data)
	}
	return "the object provided is unrecognized (must be of type " + kind + "): " + msg + " (" + summarizeData(body, 30) + ")"
}

// summarizeData is the API server's summary of a request body in its
// "unrecognized" errors.
func summarizeData(data []byte, max int) string {
	switch {
	case len(data) == 0:
		return "<empty>"
	case data[0] == '{':
		if len(data) > max {
			return string(data[:max]) + " ..."
		}
		return string(data)
	case len(data) > max:
		return hex.EncodeToString(data[:max]) + " ..."
	default:
		return hex.EncodeToString(data)
	}
}

// count adds an object's findings to the tally.
func (w *worker) count(a *origin, fs []jperrors.Finding) {
	t := &a.u.tally
	t.withFindings++
	for _, f := range fs {
		if f.Type == jperrors.DuplicateField {
			t.duplicate++
		} else {
			t.unknown++
		}
	}
}

// records writes an object's findings to the report, with their severity
// (warning: the object was written; error: it was not) and suggestions.
func (w *worker) records(a *origin, obj []byte, fs []jperrors.Finding, sev severity, sugg []string) {
	if w.o.report == "" {
		return
	}
	b := a.b
	for i, f := range fs {
		r := w.record(a, obj)
		r.typ, r.severity, r.path, r.pointer, r.message = f.Type.String(), sev.String(), f.Path, f.Pointer, f.Message()
		r.path, r.pointer, r.message = shorten(r.path, maxReportMessage), shorten(r.pointer, maxReportMessage), shorten(r.message, maxReportMessage)
		if i < len(sugg) {
			r.suggestion = sugg[i]
		}
		r.offset, r.line, r.column = a.at(f.Offset, f.Line, f.Column)
		r.column = w.editorColumn(a, r.offset, r.line, r.column)
		b.rep = r.append(b.rep)
	}
}

// record starts a report record about the object obj (nil: the document).
func (w *worker) record(a *origin, obj []byte) *record {
	r := &record{input: a.b.in.name, doc: a.docIndex(), item: a.item}
	if obj != nil || a.src != nil {
		tm := w.typeMeta(a, obj)
		r.apiVersion, r.kind = shorten(tm.apiVersion, maxReportName), shorten(tm.kind, maxReportName)
		r.namespace, r.name = shorten(tm.namespace, maxReportName), shorten(tm.name, maxReportName)
	}
	return r
}

// summarize keeps what --summary needs of an object.
func (w *worker) summarize(a *origin, obj []byte, res *decoder.Result, fs []jperrors.Finding, passed bool) {
	if !w.o.summary {
		return
	}
	s := objSummary{passed: passed, findings: len(fs) > 0 || a.unserved, unserved: a.unserved}
	if e := res.Entry; e != nil && !passed {
		s.gvk = gvkString(e.GVK)
	} else {
		tm := a.gvk()
		s.gvk = strings.TrimSpace(tm.apiVersion + " " + tm.kind)
	}
	for _, f := range fs {
		if f.Type == jperrors.UnknownField {
			s.paths = append(s.paths, normalizePath(f.Path))
		}
	}
	slices.Sort(s.paths) // an object counts once per path
	s.paths = slices.Compact(s.paths)
	a.u.objs = append(a.u.objs, s)
}

func gvkString(g schemaauto.GroupVersionKind) string {
	if g.Group == "" {
		return g.Version + " " + g.Kind
	}
	return g.Group + "/" + g.Version + " " + g.Kind
}

// docName is "document 3: " or "document 0, item 5: ".
func (w *worker) docName(a *origin) string {
	s := "document " + itoa(a.docIndex())
	if a.item >= 0 {
		s += ", item " + itoa(a.item)
	}
	return s + ": "
}

// appendClean appends a message with its control characters and invalid
// UTF-8 escaped, so that it stays on one line of stderr (the API server
// drops such warnings; jsonprune shows them escaped).
func appendClean(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			dst = fmt.Appendf(dst, `\x%02x`, c)
		case c == '\n':
			dst = append(dst, `\n`...)
		case c == '\t':
			dst = append(dst, `\t`...)
		case c == '\r':
			dst = append(dst, `\r`...)
		case r < 0x20 || r == 0x7f:
			dst = fmt.Appendf(dst, `\x%02x`, c)
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}

func cleanString(s string) string { return string(appendClean(nil, s)) }

// appendPlace appends where an error is: " (line 3, column 5, offset 40,
// at /spec)".
func appendPlace(dst []byte, off int64, line, col int, pointer string) []byte {
	var parts []string
	if line > 0 {
		parts = append(parts, "line "+strconv.Itoa(line))
		if col > 0 {
			parts = append(parts, "column "+strconv.Itoa(col))
		}
	}
	parts = append(parts, "offset "+strconv.FormatInt(off, 10))
	if pointer != "" {
		parts = append(parts, "at "+pointer)
	}
	if len(parts) == 0 {
		return dst
	}
	dst = append(dst, " ("...)
	dst = append(dst, strings.Join(parts, ", ")...)
	return append(dst, ')')
}

func itoa(n int) string { return strconv.Itoa(n) }

// servesKind reports whether a loaded CRD serves kind (in any group).
func (w *worker) servesKind(kind string) bool {
	if w.cat == nil || kind == "" {
		return false
	}
	i := sort.SearchStrings(w.cat.kinds, kind)
	return i < len(w.cat.kinds) && w.cat.kinds[i] == kind
}
