package fuzz

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/stream"
)

// FuzzSyntax checks the syntax layer: every input jsontext rejects (not one
// valid JSON value, duplicate names allowed; invalid UTF-8 rejected unless
// AllowInvalidUTF8) is rejected by AppendPrune, DecodeMap and Validate with
// a syntax error located inside the input, never a panic; every input it
// accepts gets no syntax error. Package stream cuts the same bytes into
// documents, each the input's bytes at its offset, line and column, and
// each decoded as AppendPrune decodes it alone; its own errors are located
// in the input.
func FuzzSyntax(f *testing.F) {
	fx := mustFixture(f)
	files := suiteFiles(f)
	for _, name := range sortedNames(files) {
		f.Add(files[name], false)
	}
	for _, name := range []string{"i_string_invalid_utf-8.json", "i_string_UTF-8_invalid_sequence.json", "i_object_key_lone_2nd_surrogate.json"} {
		if data, ok := files[name]; ok {
			f.Add(data, true)
		}
	}
	for _, d := range widgetDocs[:6] {
		f.Add([]byte(d), false)
		f.Add([]byte(d+"\n"+d), false)
	}
	for _, s := range []string{"", " ", "{", "}", "[", `"`, `{"a"`, `{"a":`, `{"a":1,}`, `{"a":1}x`, `{"a":1} {"b":2}`,
		"\xef\xbb\xbf{}", `{"a":"\x"}`, "{\"a\":\"\t\"}", `{"a":01}`, `{"a":NaN}`, `{'a':1}`, "{\"a\":\"\xff\"}", `{"a":"\ud800"}`,
		"{\"a\":1}\x00", "\x00", `{"kind":"x"}{"kind":"y"}`, `1 2 3`, `[1,]`, `{"a":tru}`, `{"a" 1}`} {
		f.Add([]byte(s), false)
	}
	set := fx.set
	f.Fuzz(func(t *testing.T, b []byte, invalidUTF8 bool) {
		jopts := []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(invalidUTF8)}
		valid := jsontext.Value(b).IsValid(jopts...)
		d := must(decoder.New(set, decoder.AllowInvalidUTF8(invalidUTF8)))
		_, e1 := d.AppendPrune(nil, b)
		_, e2 := d.DecodeMap(b)
		e3 := d.Validate(b)
		for i, err := range []error{e1, e2, e3} {
			what := [...]string{"AppendPrune", "DecodeMap", "Validate"}[i]
			if !valid {
				if err == nil {
					t.Fatalf("%s accepts input jsontext rejects: %q", what, b)
				}
				checkError(t, what, b, err, false)
				if !isSyntaxError(err) && !depthError(err) {
					t.Fatalf("%s: invalid JSON rejected with a non-syntax error: %v", what, err)
				}
			} else if err != nil {
				checkError(t, what, b, err, false)
				if isSyntaxError(err) {
					t.Fatalf("%s: syntax error on valid JSON: %v", what, err)
				}
			}
		}

		// the stream over the same bytes: package stream cuts it into
		// documents (JSON, whatever the first byte), each the input's bytes
		// at its offset, each decoded as it is decoded alone
		rd, err := stream.NewReader(bytes.NewReader(b), stream.ForceFormat(stream.JSON))
		if err != nil {
			t.Fatal(err)
		}
		single := must(decoder.New(set, decoder.AllowInvalidUTF8(invalidUTF8)))
		for n := 0; n < 1000; n++ {
			doc, err := rd.ReadDocument()
			if err == io.EOF {
				break
			}
			if err != nil {
				// the stream's own error (a syntax error between List
				// items): located in the stream, and the stream goes on
				checkStreamError(t, b, err)
				continue
			}
			text := doc.Text
			if doc.Offset < 0 || doc.Offset+int64(len(text)) > int64(len(b)) || !bytes.Equal(b[doc.Offset:doc.Offset+int64(len(text))], text) {
				t.Fatalf("document at %d (%d bytes) is not the input's bytes there", doc.Offset, len(text))
			}
			if l, c := streamLineColumn(b, doc.Offset); l != doc.Line || c != doc.Column {
				t.Fatalf("document at %d: line %d, column %d; the input says %d:%d", doc.Offset, doc.Line, doc.Column, l, c)
			}
			if doc.Part != stream.Whole && doc.Part != stream.ListItem {
				continue
			}
			out, err := d.AppendPrune(nil, text)
			want, werr := single.AppendPrune(nil, text)
			if !bytes.Equal(out, want) || errText(err) != errText(werr) {
				t.Fatalf("stream document %d: %s %v; alone: %s %v", doc.Index, out, err, want, werr)
			}
			if err != nil {
				checkError(t, "stream document", text, err, false)
			}
		}
	})
}

// streamLineColumn is where package stream places offset in b: lines and
// byte columns, a byte-order mark at the start not counted (an editor does
// not show it).
func streamLineColumn(b []byte, offset int64) (line, column int) {
	line, column = jperrors.LineColumn(b, offset)
	if line == 1 && bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) && offset >= 3 {
		column -= 3
	}
	return line, column
}

// depthError reports a DecodeError for nesting beyond the depth limit,
// which jsontext also rejects.
func depthError(err error) bool {
	var de *jperrors.DecodeError
	return errors.As(err, &de) && bytes.Contains([]byte(de.Msg), []byte("depth"))
}

// checkStreamError checks an error of a Stream's own reading: a
// DecodeError located in the stream.
func checkStreamError(t *testing.T, b []byte, err error) {
	t.Helper()
	var se *stream.Error
	if !errors.As(err, &se) {
		t.Fatalf("stream error of type %T: %v", err, err)
	}
	if se.Offset < 0 || se.Offset > int64(len(b)) {
		t.Fatalf("stream error offset %d outside the input of %d bytes: %v", se.Offset, len(b), err)
	}
	if l, c := streamLineColumn(b, se.Offset); se.Offset > 0 && (l != se.Line || c != se.Column) {
		t.Fatalf("stream error at %d: line %d, column %d; the input says %d:%d", se.Offset, se.Line, se.Column, l, c)
	}
}
