package stream

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestOptions(t *testing.T) {
	for _, c := range []struct {
		opt  Option
		want string
	}{
		{MaxDocumentSize(-1), "jsonprune: MaxDocumentSize(-1): must not be negative (0: no limit)"},
		{ListThreshold(-5), "jsonprune: ListThreshold(-5): must not be negative"},
		{ForceFormat(0), "jsonprune: ForceFormat(0): must be JSON or YAML"},
		{ForceFormat(3), "jsonprune: ForceFormat(3): must be JSON or YAML"},
	} {
		r, err := NewReader(strings.NewReader(""), MaxDocumentSize(10), c.opt)
		if r != nil || err == nil || err.Error() != c.want {
			t.Errorf("got %v, %v; want %s", r, err, c.want)
		}
	}
	if _, err := NewReader(nil); err == nil {
		t.Error("NewReader(nil): no error")
	}
	if _, err := NewReader(strings.NewReader(""), nil, ListThreshold(0), ForceFormat(YAML), MaxDocumentSize(1)); err != nil {
		t.Error(err)
	}
	// MaxDocumentSize(0), the decoder's "no limit", is the Reader's default
	r, err := NewReader(strings.NewReader(""), MaxDocumentSize(0))
	if err != nil || r.opts.maxDoc != defaultMaxDocumentSize {
		t.Errorf("MaxDocumentSize(0): %v, %d", err, r.opts.maxDoc)
	}
}

func TestStrings(t *testing.T) {
	for v, want := range map[interface{ String() string }]string{
		JSON: "JSON", YAML: "YAML", Format(0): "Format(0)",
		Whole: "Whole", ListHead: "ListHead", ListItem: "ListItem", ListTail: "ListTail", Part(9): "Part(9)",
	} {
		if got := v.String(); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	e := &Error{Index: 2, Item: 0, Offset: 37, Line: 1, Column: 38, Msg: "larger than the limit of 12 bytes", Err: ErrTooLarge}
	if got, want := e.Error(), "stream: document 2, item 0 at line 1, column 38 (offset 37): larger than the limit of 12 bytes"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if !errors.Is(e, ErrTooLarge) {
		t.Error("not ErrTooLarge")
	}
	e = &Error{Index: 0, Item: -1, Line: 1, Column: 19, Offset: 18, Msg: "invalid JSON: x", Err: ErrSyntax}
	if got, want := e.Error(), "stream: document 0 at line 1, column 19 (offset 18): invalid JSON: x"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A read error ends the stream after the documents read before it, and is
// returned again from then on.
func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	for _, c := range []struct {
		text string
		want []string
	}{
		{"a: 1\n---\nb: 2\n", []string{`doc 0.-1 1:1 "a: 1\n"`, `doc 1.-1 2:1 "---\nb: 2\n"`, `fail -1.-1 4:1 "read error after 14 bytes: boom"`}},
		{`{"a":1} {"b":`, []string{`doc 0.-1 1:1 "{\"a\":1}"`, `doc 1.-1 1:9 "{\"b\":"`, `fail -1.-1 1:14 "read error after 13 bytes: boom"`}},
		{"", []string{`fail -1.-1 0:0 "read error after 0 bytes: boom"`}},
	} {
		r, _ := NewReader(io.MultiReader(strings.NewReader(c.text), iotest.ErrReader(boom)))
		var got []string
		var last error
		for range len(c.want) {
			d, err := r.ReadDocument()
			got = append(got, show(d, err))
			last = err
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%q: got\n%s", c.text, strings.Join(got, "\n"))
		}
		if !errors.Is(last, boom) {
			t.Errorf("%q: %v is not the read error", c.text, last)
		}
		if _, err := r.ReadDocument(); err != last {
			t.Errorf("%q: then %v, want the same error", c.text, err)
		}
	}
}

func TestForceFormat(t *testing.T) {
	text := "{\"a\": 1}\n---\n[1]\n"
	for f, want := range map[Format][]string{
		0:    {`doc 0.-1 1:1 "{\"a\": 1}"`, `doc 1.-1 2:1 "---"`, `doc 2.-1 3:1 "[1]"`},
		YAML: {`doc 0.-1 1:1 "{\"a\": 1}\n"`, `doc 1.-1 2:1 "---\n[1]\n"`},
	} {
		var opts []Option
		if f != 0 {
			opts = append(opts, ForceFormat(f))
		}
		got := splitText(t, text, nil, opts...)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%v: got\n%s", f, strings.Join(got, "\n"))
		}
	}
	got := splitText(t, "a: 1\n", nil, ForceFormat(JSON))
	if want := `doc 0.-1 1:1 "a"`; len(got) == 0 || got[0] != want {
		t.Errorf("JSON: got %s", got)
	}
}

// The fields a decoder needs besides the text.
func TestDocumentFields(t *testing.T) {
	r, _ := NewReader(strings.NewReader("# c\n\n---\na: 1\nitems:\n  - x: 1\n  - y: 2\nz: 3\n"), ListThreshold(0))
	var got []Document
	for {
		d, err := r.ReadDocument()
		if err != nil {
			break
		}
		d.Text = nil
		got = append(got, d)
	}
	want := []Document{
		{Format: YAML, Part: ListHead, Index: 0, Item: -1, Offset: 0, Line: 1, Column: 1, FirstLine: 4},
		{Format: YAML, Part: ListItem, Index: 0, Item: 0, Offset: 21, Line: 6, Column: 1, FirstLine: 6, Indent: 2},
		{Format: YAML, Part: ListItem, Index: 0, Item: 1, Offset: 30, Line: 7, Column: 1, FirstLine: 7, Indent: 2},
		{Format: YAML, Part: ListTail, Index: 0, Item: -1, Offset: 39, Line: 8, Column: 1, FirstLine: 8},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if fmt.Sprintf("%+v", got[i]) != fmt.Sprintf("%+v", want[i]) {
			t.Errorf("%d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	r, _ = NewReader(strings.NewReader("{\"a\": [1, 2]}\n{\"b\":1}"))
	for _, spaced := range []bool{true, false} {
		d, err := r.ReadDocument()
		if err != nil || d.Spaced != spaced || d.Format != JSON || d.FirstLine != d.Line {
			t.Errorf("got %+v, %v; want Spaced %v", d, err, spaced)
		}
	}
}

// A document larger than the window grows it; the window shrinks back
// after it, and a document too large is not kept.
func TestWindow(t *testing.T) {
	big := strings.Repeat("x", 5000)
	text := `{"a":"` + big + `"}` + "\n" + `{"b":1}` + "\n" + strings.Repeat(`{"c":2}`+"\n", 20)
	r, _ := NewReader(strings.NewReader(text), smallWindow)
	d, err := r.ReadDocument()
	if err != nil || len(d.Text) != len(big)+8 {
		t.Fatalf("got %d bytes, %v", len(d.Text), err)
	}
	if len(r.src.buf) < len(big) {
		t.Errorf("window of %d bytes", len(r.src.buf))
	}
	for {
		if _, err := r.ReadDocument(); err != nil {
			break
		}
	}
	if len(r.src.buf) != 64 {
		t.Errorf("window of %d bytes after the large document", len(r.src.buf))
	}
	r, _ = NewReader(strings.NewReader(text), smallWindow, MaxDocumentSize(100))
	if _, err := r.ReadDocument(); !errors.Is(err, ErrTooLarge) {
		t.Errorf("got %v", err)
	}
	if len(r.src.buf) > 256 {
		t.Errorf("window of %d bytes for a document too large", len(r.src.buf))
	}
	if d, err := r.ReadDocument(); err != nil || string(d.Text) != `{"b":1}` {
		t.Errorf("got %q, %v", d.Text, err)
	}
}

// A YAML item, document or tail too large.
func TestYAMLTooLarge(t *testing.T) {
	text := "items:\n- a: 1\n- b: 2\n- c: 0123456789012345678901234567890123456789\n- d: 4\nk: v\n---\nd: 0123456789012345678901234567890123456789\n---\ne: 5\n"
	got := splitText(t, text, nil, MaxDocumentSize(30), ListThreshold(0))
	// before streaming, the List as a whole is held to the limit
	got = append(got, splitText(t, "items:\n- a: 1\n- b: 0123456789012345678901234567890123456789\n", nil, MaxDocumentSize(30), ListThreshold(0))...)
	want := []string{
		`head 0.-1 1:1 ""`,
		`item 0.0 2:1 "- a: 1\n"`,
		`item 0.1 3:1 "- b: 2\n"`,
		`fail 0.2 4:1 "larger than the limit of 30 bytes"`,
		`item 0.3 5:1 "- d: 4\n"`,
		`tail 0.-1 6:1 "k: v\n"`,
		`fail 1.-1 7:1 "larger than the limit of 30 bytes"`,
		`doc 2.-1 9:1 "---\ne: 5\n"`,
		`fail 0.-1 1:1 "larger than the limit of 30 bytes"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s", strings.Join(got, "\n"))
	}
}
