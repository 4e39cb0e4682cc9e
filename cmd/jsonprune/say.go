package main

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/suggest"
)

// The lines on stderr. By default each message says where, as a compiler
// says it, so that editors and CI annotations can jump to it:
//
//	widget.yaml:12:5: warning: Widget prod/w: unknown field "spec.replcas" (did you mean "spec.replicas"?)
//	widget.yaml:3:1: error: Widget w: Widget in version "v1" cannot be handled as a Widget: strict decoding error: ...
//	widget.yaml:12:5: note: unknown field "spec.replcas" (did you mean "spec.replicas"?)
//	  hint: ...
//
// the input, the line and column an editor shows (columns in characters),
// the severity, the object (kind and namespace/name, when known), then the
// message: the API server's text, unchanged, where it has one. With
// --kubectl the lines are kubectl's (`Warning: unknown field "spec.x"`,
// `error: FILE: document N: MESSAGE (line L, column C, offset O)`), for
// scripts that grep them.

// severity says what a message is.
type severity uint8

const (
	sevWarning severity = iota // the object was written (Warn mode)
	sevError                   // the object was not written, or the input not read
	sevNote                    // a detail of the error before it
)

func (s severity) String() string {
	switch s {
	case sevWarning:
		return "warning"
	case sevError:
		return "error"
	}
	return "note"
}

// A note is one message: a finding, a rejection, an error, a kind no CRD
// serves. kind is the report's type of it (unknown, duplicate, error,
// no-crd, ...; value validation will add its own), so that the plumbing
// does not depend on what the message is about.
type note struct {
	sev           severity
	kind          string
	text          string // the API server's text, where it has one
	path, pointer string
	off           int64
	line, col     int // 0: not known; col in bytes (say turns it into characters)
	suggestion    string
	hint          string
}

// say writes a note's stderr line (none for warnings under -q).
func (w *worker) say(a *origin, obj []byte, n note) {
	if w.o.quiet && n.sev != sevError {
		return
	}
	b := a.b
	if w.o.kubectl {
		if n.sev == sevNote {
			return
		}
		if n.sev == sevWarning {
			b.msgs = append(b.msgs, "Warning: "...)
			b.msgs = appendClean(b.msgs, n.shortText())
			b.msgs = append(b.msgs, '\n')
			return
		}
		b.msgs = append(b.msgs, "error: "...)
		b.msgs = append(b.msgs, b.in.name...)
		b.msgs = append(b.msgs, ": "...)
		input := a.u.kind == unitFail && a.u.doc < 0 // about the input, not a place in it
		if !input {
			b.msgs = append(b.msgs, w.docName(a)...)
		}
		b.msgs = appendClean(b.msgs, n.shortText())
		if !input && n.kind == "error" && !yamlLinePrefix.MatchString(n.text) {
			b.msgs = appendPlace(b.msgs, n.off, n.line, n.col, shorten(n.pointer, maxLinePointer))
		}
		b.msgs = append(b.msgs, '\n')
		return
	}
	b.msgs = append(b.msgs, displayName(b.in.name)...)
	b.msgs = append(b.msgs, ':')
	if n.line > 0 {
		b.msgs = strconv.AppendInt(b.msgs, int64(n.line), 10)
		b.msgs = append(b.msgs, ':')
		if n.col > 0 {
			b.msgs = strconv.AppendInt(b.msgs, int64(w.editorColumn(a, n.off, n.line, n.col)), 10)
			b.msgs = append(b.msgs, ':')
		}
	} else if a.u.doc >= 0 && !(a.u.kind == unitFail && a.u.doc < 0) {
		b.msgs = append(b.msgs, " "...)
		b.msgs = append(b.msgs, w.docName(a)[:len(w.docName(a))-2]...)
		b.msgs = append(b.msgs, ':')
	}
	b.msgs = append(b.msgs, ' ')
	b.msgs = append(b.msgs, n.sev.String()...)
	b.msgs = append(b.msgs, ": "...)
	if n.sev != sevNote {
		if obj != nil || a.src != nil || a.tm != nil {
			if name := w.objectName(a, obj); name != "" {
				b.msgs = appendClean(b.msgs, name)
				b.msgs = append(b.msgs, ": "...)
			}
		}
	}
	b.msgs = appendClean(b.msgs, n.shortText())
	if n.pointer != "" && n.sev == sevError && n.kind == "error" {
		b.msgs = append(b.msgs, " (at "...)
		b.msgs = appendClean(b.msgs, shorten(n.pointer, maxLinePointer))
		b.msgs = append(b.msgs, ')')
	}
	if n.suggestion != "" {
		b.msgs = append(b.msgs, ` (did you mean "`...)
		b.msgs = appendClean(b.msgs, n.suggestion)
		b.msgs = append(b.msgs, `"?)`...)
	}
	b.msgs = append(b.msgs, '\n')
	if n.hint != "" {
		b.msgs = append(b.msgs, "  hint: "...)
		b.msgs = append(b.msgs, n.hint...)
		b.msgs = append(b.msgs, '\n')
	}
}

// shortText is the text of a note on the terminal: shortened, but for
// the API server's list of a Strict rejection, which only lists names
// (each finding's name is shortened in its own note).
func (n note) shortText() string {
	if n.kind == "rejected" {
		return n.text
	}
	return shorten(n.text, maxLineMessage)
}

// sayMore ends the notes under an error that has more than maxNotes.
func (w *worker) sayMore(a *origin, n int) {
	if w.o.quiet || w.o.kubectl {
		return
	}
	b := a.b
	b.msgs = append(b.msgs, displayName(b.in.name)...)
	b.msgs = append(b.msgs, ": note: and "...)
	b.msgs = strconv.AppendInt(b.msgs, int64(n), 10)
	b.msgs = append(b.msgs, " more (all of them are in --report)\n"...)
}

// displayName is an input's name on the terminal.
func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// objectName is "Kind namespace/name", "Kind name" or "Kind": the object a
// message is about (empty when not known).
func (w *worker) objectName(a *origin, obj []byte) string {
	tm := w.typeMeta(a, obj)
	name := shorten(tm.name, maxLinePointer)
	if tm.namespace != "" && name != "" {
		name = shorten(tm.namespace, maxLinePointer) + "/" + name
	}
	switch {
	case tm.kind == "":
		return ""
	case name == "":
		return shorten(tm.kind, maxLinePointer)
	}
	return shorten(tm.kind, maxLinePointer) + " " + name
}

// editorColumn turns a byte column into the column an editor shows: the
// number of characters before it on its line, plus one. The line's text is
// the unit's (before the unit's first byte, on its first line, bytes are
// counted as characters).
func (w *worker) editorColumn(a *origin, off int64, line, col int) int {
	if col <= 0 || a.u.kind == unitFail {
		return col
	}
	data := a.u.data.of(a.b.data)
	rel := off - a.pos.offset
	if rel < 0 || rel > int64(len(data)) {
		return col
	}
	text := data[:rel]
	i := bytes.LastIndexByte(text, '\n')
	if i < 0 {
		if line != a.pos.line {
			return col
		}
		return utf8.RuneCount(text) + a.pos.col
	}
	if n := utf8.RuneCount(text[i+1:]) + 1; len(text)-i-1 == col-1 {
		return n
	}
	return col
}

// Limits of the text of one message: values and documents echoed whole
// (`Object 'Kind' is missing in '<122 KB>'`, a 10M-digit number) are cut,
// with their full length said.
const (
	maxLineMessage   = 1024
	maxLinePointer   = 256
	maxReportMessage = 4096
	maxReportName    = 512 // an object's apiVersion, kind, namespace, name
)

// shorten cuts s to about max bytes (at a character's start), saying the
// full length: `... (122,177 bytes)`.
func shorten(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "... (" + thousands(len(s)) + " bytes)"
}

// thousands writes n with commas: 122,177.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// hint is advice for a common cause of an error that the parser's text
// does not name: tabs in YAML indentation, a Helm template, a top-level
// JSON array or scalar.
func (w *worker) hint(a *origin, msg string) string {
	var data []byte
	if a.u.kind != unitFail {
		data = a.u.data.of(a.b.data)
	}
	switch {
	case bytes.Contains(data, []byte("{{")) && bytes.Contains(data, []byte("}}")):
		return "this looks like a Helm or Go template ({{ ... }}): render it first (helm template ...) and check what it renders"
	case strings.HasPrefix(msg, "yaml: ") && tabIndented(data):
		return "YAML does not allow tabs in indentation: indent with spaces"
	case strings.HasPrefix(msg, preScanJSON+"json: cannot unmarshal array into Go value of type struct"):
		return "the document is an array: a manifest is an object with apiVersion and kind (a List is an object whose \"items\" is the array)"
	case strings.HasPrefix(msg, preScanJSON+"json: cannot unmarshal ") && strings.Contains(msg, "into Go value of type struct"):
		return "the document is not an object: a manifest is an object with apiVersion and kind"
	}
	return ""
}

// tabIndented reports whether a line of data starts with white space
// that holds a tab.
func tabIndented(data []byte) bool {
	for line := range bytes.Lines(data) {
		for _, c := range line {
			if c == '\t' {
				return true
			}
			if c != ' ' {
				break
			}
		}
	}
	return false
}

// suggestions are the "did you mean" of each unknown field ("" for
// none), computed only for findings, from the automaton of the object's CRD
// version; never part of the API server's text.
func (w *worker) suggestions(a *origin, res *decoder.Result, fs []jperrors.Finding) []string {
	out := make([]string, max(1, len(fs)))
	e := res.Entry
	if e == nil {
		return out
	}
	// from the automaton, which holds the names the schema declares: a
	// CRD the cache held compiled needs no schema loaded (it took 25 ms of
	// a run over the corpus tree, a tenth of it)
	for i, f := range fs {
		if f.Type == jperrors.UnknownField && i < maxSuggestions {
			out[i] = suggest.FieldOf(e.Automaton, f.Pointer)
		}
	}
	return out
}

// maxSuggestions bounds the suggestions of one object.
const maxSuggestions = 1000
