package stream

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// FuzzReadDocument checks the invariants of any stream: no panic; every
// Text is the stream's bytes at its Offset, and Line and Column are those
// of that offset; pieces come in stream order and do not overlap; indexes
// grow; a List's pieces are a head, items, a tail; the stream ends.
func FuzzReadDocument(f *testing.F) {
	for _, s := range []string{
		`{"a":1}{"b":"}{\"["} [1,[2]] "s\"" 12 null`,
		"{\"a\":1}\n{\"b\":[1,\n{\"c\":\"x}\n{\"d\":{}}\n",
		`{"items":[{"a":1} {"b":2},]}`,
		"{}\n{\"items\":[{\"a\":1},{\"b\":\n{\"c\":1}\n",
		"# head\na: 1\n---\nb: 2\n...\n# between\n---\n--- # empty\n--- c\n---\n  d: [1,\n---\ne: 5",
		"apiVersion: v1\nitems:\n- a: 1\n  b: |\n    text\n\n# comment\n- c: 2\n-\n  d: 3\nkind: List\nmetadata: {}\n---\nx: 1\n",
		"\ufeff%YAML 1.1\n---\na: 1\r\n---x: 2\r\n---\r\nb: 3\r\n",
	} {
		f.Add([]byte(s), uint8(40), uint8(8), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, maxDoc, threshold, how uint8) {
		opts := []Option{smallWindow, MaxDocumentSize(int(maxDoc) + 1), ListThreshold(int(threshold))}
		if how&3 != 0 {
			opts = append(opts, ForceFormat(Format(how&1+1)))
		}
		var in io.Reader = bytes.NewReader(data)
		if how&4 != 0 {
			in = iotest.OneByteReader(in)
		}
		r, err := NewReader(in, opts...)
		if err != nil {
			t.Fatal(err)
		}
		end, index, inList, item := int64(0), -1, false, 0
		for n := 0; ; n++ {
			// every piece but an error consumes a byte at least, and an
			// error is followed by a piece (a List's item after a missing
			// comma) or the end
			if n > 2*len(data)+3 {
				t.Fatalf("more pieces than bytes")
			}
			d, err := r.ReadDocument()
			if err == io.EOF {
				break
			}
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || !(errors.Is(e, ErrTooLarge) || errors.Is(e, ErrSyntax)) {
					t.Fatalf("error %v", err)
				}
				checkPlace(t, data, e.Offset, e.Line, e.Column)
				if e.Item >= 0 {
					item = e.Item + 1
				}
				continue
			}
			if !bytes.Equal(d.Text, data[d.Offset:d.Offset+int64(len(d.Text))]) {
				t.Fatalf("%+v: text is not the stream's", d)
			}
			if d.Offset < end {
				t.Fatalf("%+v: before the end of the previous piece (%d)", d, end)
			}
			end = d.Offset + int64(len(d.Text))
			checkPlace(t, data, d.Offset, d.Line, d.Column)
			switch d.Part {
			case Whole, ListHead:
				if inList || d.Index <= index {
					t.Fatalf("%+v after document %d (in a List: %v)", d, index, inList)
				}
				index, inList, item = d.Index, d.Part == ListHead, 0
			case ListItem:
				if !inList || d.Index != index || d.Item != item {
					t.Fatalf("%+v: want item %d of document %d", d, item, index)
				}
				item++
			case ListTail:
				if !inList || d.Index != index {
					t.Fatalf("%+v: no List", d)
				}
				inList = false
			}
		}
		if inList {
			t.Fatal("a List without a tail")
		}
	})
}

// checkPlace checks a line and column against an offset (a UTF-8 byte
// order mark at the start does not count as a column).
func checkPlace(t *testing.T, data []byte, off int64, line, col int) {
	t.Helper()
	before := data[:off]
	wantLine := bytes.Count(before, []byte("\n")) + 1
	wantCol := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	if wantLine == 1 && bytes.HasPrefix(data, []byte("\ufeff")) {
		wantCol -= 3
	}
	if line != wantLine || col != wantCol {
		t.Fatalf("offset %d at %d:%d, want %d:%d", off, line, col, wantLine, wantCol)
	}
}
