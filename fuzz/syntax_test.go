package fuzz

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
)

// FuzzSyntax checks the syntax layer: every input jsontext rejects (not one
// valid JSON value, duplicate names allowed; invalid UTF-8 rejected unless
// AllowInvalidUTF8) is rejected by AppendPrune, DecodeMap and Validate with
// a syntax error located inside the input, never a panic; every input it
// accepts gets no syntax error. A Stream over the same bytes decodes each of
// its documents as AppendPrune decodes that document alone, and fails with
// a located error.
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

		// the stream over the same bytes
		s := d.NewStream(bytes.NewReader(b))
		single := must(decoder.New(set, decoder.AllowInvalidUTF8(invalidUTF8)))
		for range 1000 {
			before := s.Count()
			out, err := s.AppendNext(nil)
			if err == io.EOF {
				if s.Count() != before {
					t.Fatal("EOF counted as a document")
				}
				break
			}
			if s.Count() == before {
				// the stream's syntax error: located in the stream
				if err == nil {
					t.Fatal("no document and no error")
				}
				checkStreamError(t, b, err)
				if _, again := s.AppendNext(nil); again == nil || again.Error() != err.Error() {
					t.Fatalf("a syntax error does not end the stream: %v, then %v", err, again)
				}
				break
			}
			doc, off := s.Document()
			if off < 0 || off+int64(len(doc)) > int64(len(b)) || !bytes.Equal(b[off:off+int64(len(doc))], doc) {
				t.Fatalf("document at %d (%d bytes) is not the input's bytes there", off, len(doc))
			}
			want, werr := single.AppendPrune(nil, doc)
			if !bytes.Equal(out, want) || errText(err) != errText(werr) {
				t.Fatalf("stream document %d: %s %v; alone: %s %v", s.Count(), out, err, want, werr)
			}
			if err != nil {
				checkError(t, "stream document", doc, err, false)
			}
		}
	})
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
	var de *jperrors.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("stream error of type %T: %v", err, err)
	}
	if de.Offset < 0 || de.Offset > int64(len(b)) {
		t.Fatalf("stream error offset %d outside the input of %d bytes: %v", de.Offset, len(b), err)
	}
}
