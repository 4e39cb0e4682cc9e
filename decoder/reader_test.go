package decoder

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
)

// streamed runs PruneReader on doc read one byte at a time, with the
// output flushed from flushAt bytes on.
func streamed(d *Decoder, doc []byte, flushAt int) ([]byte, error) {
	var out bytes.Buffer
	d.strm.flushAt = flushAt
	err := d.PruneReader(&out, iotest.OneByteReader(bytes.NewReader(doc)))
	d.strm.flushAt = 0
	return out.Bytes(), err
}

// uniqueNames reports whether doc is one JSON value in which no object
// repeats a member name (jsontext's default checks).
func uniqueNames(doc []byte) bool {
	dec := jsontext.NewDecoder(bytes.NewReader(doc))
	_, err := dec.ReadValue()
	return err == nil && dec.PeekKind() == 0
}

// checkStreamed compares PruneReader with AppendPrune on doc: the same
// bytes (or, when doc has duplicate names, the same object for a reader
// that keeps the last), the same findings without lines, the same error.
func checkStreamed(t *testing.T, d *Decoder, name string, doc []byte) {
	t.Helper()
	want, wantErr := d.AppendPrune(nil, doc)
	wantFs := d.Result().Findings()
	for _, flushAt := range []int{1, 64, flushSize} {
		got, err := streamed(d, doc, flushAt)
		if err != nil && strings.Contains(err.Error(), ": decode it whole") {
			// PruneReader's documented differences, both about a name
			// that repeats: it says so
			if uniqueNames(doc) {
				t.Errorf("%s (flush at %d): %v, but no name repeats", name, flushAt, err)
			}
			continue
		}
		if (err == nil) != (wantErr == nil) {
			t.Errorf("%s (flush at %d): error %v, Prune: %v", name, flushAt, err, wantErr)
			continue
		}
		if err != nil {
			var de, wde *jperrors.DecodeError
			if errors.As(err, &de) && errors.As(wantErr, &wde) && !strings.HasPrefix(wde.Msg, "invalid JSON") && (de.Msg != wde.Msg || de.Offset != wde.Offset) {
				t.Errorf("%s (flush at %d): error\n got %v\nwant %v", name, flushAt, err, wantErr)
			}
			var ie, wie *jperrors.InvalidError
			if errors.As(wantErr, &wie) && (!errors.As(err, &ie) || !sameValueErrors(ie, wie)) {
				t.Errorf("%s (flush at %d): error\n got %v\nwant %v", name, flushAt, err, wantErr)
			}
			continue
		}
		if !bytes.Equal(got, want) {
			if !hasDuplicateNames(doc) || canon(t, string(got)) != canon(t, string(want)) {
				t.Errorf("%s (flush at %d): output\n got %s\nwant %s", name, flushAt, got, want)
			}
		}
		fs := d.Result().Findings()
		if len(fs) != len(wantFs) {
			t.Errorf("%s (flush at %d): %d findings, Prune %d", name, flushAt, len(fs), len(wantFs))
			continue
		}
		for i := range fs {
			if f, w := fs[i], wantFs[i]; f.Type != w.Type || f.Path != w.Path || f.Pointer != w.Pointer || f.Offset != w.Offset || f.Line != 0 && f.Line != w.Line {
				t.Errorf("%s (flush at %d): finding %d: %+v, Prune %+v", name, flushAt, i, f, w)
			}
		}
	}
}

// sameValueErrors reports whether two InvalidErrors have the same errors at
// the same offsets and pointers (PruneReader's have no lines).
func sameValueErrors(x, y *jperrors.InvalidError) bool {
	if x.Error() != y.Error() || len(x.Errors) != len(y.Errors) {
		return false
	}
	for i := range x.Errors {
		if a, b := x.Errors[i], y.Errors[i]; a.Offset != b.Offset || a.Pointer != b.Pointer || a.Step != b.Step {
			return false
		}
	}
	return true
}

// hasDuplicateNames reports whether doc has duplicate names.
func hasDuplicateNames(doc []byte) bool {
	v := jsontext.Value(doc)
	return v.IsValid(jsontext.AllowDuplicateNames(true)) && !v.IsValid()
}

func TestPruneReaderCases(t *testing.T) {
	d := must(New(widgetSet(t)))
	for i, doc := range []string{
		`{` + w + `,"spec":{"list":[{"x":"a","y":1},{"x":"b"}],"replicas":3,"extra":{"deep":[1,2]}}}`,
		`{` + w + `,"metadata":{"name":"n","labels":{"a":"b"},"junk":1},"spec":{"replicas":1}}`,
		// duplicates: small (retracted in the buffer) and across a flush
		`{` + w + `,"spec":{"replicas":1,"name":"a","replicas":2,"list":[{"x":"1"}],"list":[{"x":"2","x":"3"}]}}`,
		`{` + w + `,"spec":{"name":"a"},"spec":{"name":"b","zzz":1}}`,
		// the same kind repeated is fine (another one: see below)
		`{` + w + `,"spec":{},"kind":"Widget"}`,
		// apiVersion and kind after the rest, or missing: read whole
		`{"spec":{"replicas":1,"bad":2},` + w + `}`,
		`{"spec":{"replicas":1}}`,
		`{"apiVersion":"example.com/v1","kind":"","spec":{}}`,
		`[1,2]`,
		// names read while others are still needed, escapes
		`{"apiVersion":"example.com/v1","ki\u006ed":"Widget","spec":{"n\u0061me":"x","\u00e9":1}}`,
		`{` + w + `,"Kind":5,"spec":{}}`,
		// errors
		`{` + w + `,"spec":{"replicas":1e400}}`,
		`{` + w + `,"metadata":{"name":5}}`,
		`{` + w + `,"spec":{"replicas":1,}}`,
		`{` + w + `,"spec":{}} x`,
		`{` + w + `,"spec":{"list":[`,
	} {
		checkStreamed(t, d, "case "+itoa(i), []byte(doc))
	}
	// a root that changes its apiVersion or kind after the head: the
	// reference decodes it with the last, a stream cannot
	for _, doc := range []string{`{` + w + `,"spec":{},"kind":"Gadget"}`, `{` + w + `,"spec":{},"apiVersion":null}`} {
		var de *jperrors.DecodeError
		if _, err := streamed(d, []byte(doc), 64); !errors.As(err, &de) || !strings.Contains(de.Msg, "a streamed document is decoded with the first") || de.Offset != 57 {
			t.Errorf("%s: %v", doc, err)
		}
		if err := d.Prune(io.Discard, []byte(doc)); err != nil && strings.Contains(err.Error(), "streamed") {
			t.Errorf("%s: Prune: %v", doc, err)
		}
	}
	for _, pct := range []int{0, 10, 50} {
		checkStreamed(t, d, "synthetic "+itoa(pct)+"%", synthetic(20<<10, pct))
	}
}

// TestPruneReaderCorpus streams every corpus CR, without validation and
// with it (the corpus has invalid CRs: the same errors).
func TestPruneReaderCorpus(t *testing.T) {
	c := needCorpus(t)
	for _, v := range []bool{false, true} {
		d := must(New(c.set, Validation(v)))
		for i, doc := range c.docs {
			checkStreamed(t, d, "corpus CR "+itoa(i)+" (validation "+strconv.FormatBool(v)+")", doc)
		}
	}
}

// TestPruneReaderPrunedDuplicate: a member whose name repeats one written
// out already, and whose last value is pruned (a null that is neither
// nullable nor defaulted), ends PruneReader in a fatal error that says to
// decode the document whole: the output keeps the first value, which the
// reference drops. Held in the buffer, the first is cut, as Prune cuts it;
// a last value that is kept, or defaulted, follows the first and wins.
func TestPruneReaderPrunedDuplicate(t *testing.T) {
	d := must(New(widgetSet(t)))
	const w = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":`
	pruned := []byte(w + `{"nonNullable":"x","replicas":1,"nonNullable":null}}`)
	want, err := d.AppendPrune(nil, pruned)
	if err != nil || strings.Contains(string(want), "nonNullable") {
		t.Fatalf("Prune: %s %v", want, err)
	}
	if uniqueNames(pruned) || !uniqueNames([]byte(w+`{"replicas":1}}`)) || uniqueNames([]byte(w+`{"n\u0061me":"x","name":"y"}}`)) {
		t.Error("uniqueNames: checkStreamed's test of a document that PruneReader says to decode whole")
	}
	var de *jperrors.DecodeError
	if _, err := streamed(d, pruned, 1); !errors.As(err, &de) || !strings.Contains(de.Msg, `"nonNullable" repeats one written out already`) || de.Pointer != "/spec/nonNullable" || de.Offset != 110 {
		t.Errorf("flush at 1: %v", err)
	}
	for _, flushAt := range []int{64, flushSize} { // the first is held
		if got, err := streamed(d, pruned, flushAt); err != nil || !bytes.Equal(got, want) {
			t.Errorf("flush at %d: %s %v, Prune %s", flushAt, got, err, want)
		}
	}
	for _, doc := range []string{
		w + `{"nonNullable":"x","replicas":1,"nonNullable":"y"}}`,
		w + `{"defaulted":"x","replicas":1,"defaulted":null}}`,
	} {
		if _, err := streamed(d, []byte(doc), 1); err != nil {
			t.Errorf("%s: %v", doc, err)
		}
		checkStreamed(t, d, doc, []byte(doc))
	}
}

// TestPruneReaderValidation: PruneReader with Validation ends an invalid
// document in the InvalidError Prune gives, whatever it has written out
// already, and checks a value that is checked whole (enum, junctors, list
// types, a scale path's value) though it is longer than what it holds
// before writing: it is held until checked.
func TestPruneReaderValidation(t *testing.T) {
	d := must(New(compileCRDText(t, wholeCRD), Validation(true)))
	const g = `"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"}`
	long := strings.Repeat("x", 100)
	for i, doc := range []string{
		`{` + g + `,"spec":{"ports":[{"port":80,"name":"h\u00e9"},{"port":80,"protocol":"UDP"},{"port":443}],"tags":[1,2.5,1e3,-7],"choice":{"str":"x"},"v":12345}}`,
		`{` + g + `,"spec":{"ports":[{"port":80},{"port":80,"protocol":"TCP"}],"tags":[2.5,2.5],"mode":{"a":3},"choice":{},"v":"x"}}`,
		// the duplicate far from the list's start
		`{` + g + `,"spec":{"ports":[{"port":80,"name":"` + long + `"},{"port":81,"name":"` + long + `"},{"name":"` + long + `","port":80}]}}`,
		`{` + g + `,"spec":{"tags":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,1]}}`,
		`{` + g + `,"spec":{"mode":{"a":2.5,"b":["x\"y"],"c":"` + long + `"}}}`,
		`{` + g + `,"spec":{"choice":{"other":"` + long + `"}}}`,
	} {
		want, wantErr := d.AppendPrune(nil, []byte(doc))
		if i == 0 && wantErr != nil || i > 0 && wantErr == nil {
			t.Fatalf("case %d: Prune: %v (%s)", i, wantErr, want)
		}
		checkStreamed(t, d, "case "+itoa(i), []byte(doc))
	}
	// a scale path's value that is an object: the server shows it whole
	s := must(New(compileCRDText(t, keeperCRD), Validation(true)))
	doc := []byte(`{"apiVersion":"example.com/v1","kind":"Keeper","metadata":{"name":"k"},"spec":{"a":{"replicas":{"n":"` + long + `"}}}}`)
	if _, err := s.AppendPrune(nil, doc); err == nil || !strings.Contains(err.Error(), long) {
		t.Fatalf("Prune: %v", err)
	}
	checkStreamed(t, s, "scale", doc)
}

func TestPruneReaderStrictAndWriter(t *testing.T) {
	doc := synthetic(100<<10, 10)
	d := must(New(widgetSet(t), FieldValidation(Strict)))
	var se *jperrors.StrictError
	if err := d.PruneReader(io.Discard, bytes.NewReader(doc)); !errors.As(err, &se) || len(se.Findings) == 0 {
		t.Errorf("Strict: %v", err)
	}
	d = must(New(widgetSet(t)))
	werr := errors.New("disk full")
	if err := d.PruneReader(failWriter{werr}, bytes.NewReader(doc)); err != werr {
		t.Errorf("writer error: %v", err)
	}
	d = must(New(widgetSet(t), MaxDocumentSize(1000)))
	var de *jperrors.DecodeError
	if err := d.PruneReader(io.Discard, bytes.NewReader(doc)); !errors.As(err, &de) || !strings.Contains(de.Msg, "limit of 1000 bytes") {
		t.Errorf("MaxDocumentSize: %v", err)
	}
	// the decoder is usable afterwards
	d = must(New(widgetSet(t)))
	d.PruneReader(failWriter{werr}, bytes.NewReader(doc))
	if _, err := d.AppendPrune(nil, doc); err != nil || d.Result().Len() == 0 {
		t.Errorf("AppendPrune after PruneReader: %v", err)
	}
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

// widgetStream produces a Widget whose spec.list has n items, without
// holding it in memory (nor allocating per item).
type widgetStream struct {
	n, i int
	buf  []byte
	pos  int
	done bool
}

func (s *widgetStream) Read(p []byte) (int, error) {
	for s.pos == len(s.buf) {
		s.buf, s.pos = s.buf[:0], 0
		switch {
		case s.done:
			return 0, io.EOF
		case s.i == 0:
			s.buf = append(s.buf, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"list":[`...)
		case s.i > s.n:
			s.buf, s.done = append(s.buf, `],"replicas":3}}`...), true
		default:
			if s.i > 1 {
				s.buf = append(s.buf, ',')
			}
			s.buf = append(s.buf, `{"x":"value-`...)
			s.buf = strconv.AppendInt(s.buf, int64(s.i), 10)
			s.buf = append(s.buf, `","unknownField":{"nested":[1,2,3]}}`...)
		}
		s.i++
	}
	n := copy(p, s.buf[s.pos:])
	s.pos += n
	return n, nil
}

// countWriter counts the bytes written.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// TestPruneReaderMemory streams a ~10 MB and a ~40 MB Widget from a reader
// that generates them to a writer that counts: the bytes allocated do not
// grow with the document (measured with runtime.MemStats, not time).
func TestPruneReaderMemory(t *testing.T) {
	d := must(New(widgetSet(t)))
	alloc := func(n int) (uint64, int64) {
		var out countWriter
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if err := d.PruneReader(&out, &widgetStream{n: n}); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, out.n
	}
	// the first document grows the decoder's buffers, the findings' texts
	// (up to MaxFindings) among them; later ones reuse them
	first, _ := alloc(200_000)
	small, _ := alloc(200_000)   // ~10 MB
	large, out := alloc(800_000) // ~40 MB
	t.Logf("PruneReader allocated %d bytes for a first ~10 MB document (%d findings kept), then %d bytes for ~10 MB and %d bytes for ~40 MB (%d bytes out)",
		first, d.Result().Len(), small, large, out)
	const bound = 64 << 10
	if small > bound || large > bound {
		t.Errorf("PruneReader allocated %d and %d bytes, want both under %d", small, large, bound)
	}
}

// TestWideMapAllocations: an object with many names outside its
// properties (an additionalProperties map) gets its duplicate check's set
// without allocating, on the fast and the slow path.
func TestWideMapAllocations(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"labelsLike":{`)
	for i := range 300 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":"v"`)
	}
	b.WriteString(`,"k7":"dup"}}}`)
	dup := []byte(b.String())
	doc := []byte(strings.Replace(b.String(), `,"k7":"dup"`, "", 1))
	d := must(New(widgetSet(t)))
	for _, c := range []struct {
		name string
		doc  []byte
		dups int
	}{{"without duplicates", doc, 0}, {"with a duplicate (slow path)", dup, 1}} {
		buf, _ := d.AppendPrune(nil, c.doc)
		if n := d.Result().Len(); n != c.dups {
			t.Errorf("%s: %d findings, want %d: %v", c.name, n, c.dups, d.Result().Findings())
		}
		if n := testing.AllocsPerRun(10, func() { buf, _ = d.AppendPrune(buf[:0], c.doc) }); n != 0 {
			t.Errorf("%s: %v allocations per document", c.name, n)
		}
	}
}

// FuzzPruneReader streams documents for the Widget CRD, without
// validation, with the output flushed after every byte, every 64 bytes
// and every 32 KiB, against AppendPrune (checkStreamed): duplicates
// written out before their last value, nulls pruned or defaulted, escaped
// names, unknown and preserved members. (The fuzz package's targets
// stream too, but cannot flush before 32 KiB; FuzzValidation streams with
// validation.)
func FuzzPruneReader(f *testing.F) {
	const w = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},`
	for _, s := range []string{
		w + `"spec":{"nonNullable":"x","replicas":1,"nonNullable":null}}`,
		w + `"spec":{"defaulted":"x","list":[{"x":"a","x":null}],"defaulted":null,"defaulted":"y"}}`,
		w + `"spec":{"labelsLike":{"a":"1","b":null,"a":"2"},"preserved":{"k":[1,{"n":null}],"k":null}},"spec":{"ratio":1.5}}`,
		w + `"spec":{"n\u0061me":"x","name":"y","bogus":{"a":1},"mapOfObj":{"m":{"y":"1","z":2}}}}`,
		`{"kind":"Widget","metadata":{"name":"w","labels":{"a":"b","a":null}},"apiVersion":"example.com/v1","spec":null}`,
	} {
		f.Add([]byte(s))
	}
	d := must(New(widgetSet(f)))
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkStreamed(t, d, "PruneReader", doc)
	})
}
