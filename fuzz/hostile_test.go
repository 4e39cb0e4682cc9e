package fuzz

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/stream"
)

// Hostile input: regular tests whose work is bounded by the sizes of their
// inputs (no timing assertions). Each input goes through checkDocument (all
// outputs, modes and paths, idempotence) unless said otherwise, and the
// memory the decoder allocates is bounded by a multiple of the input.

// widgetTarget is the fixture's set, for hostile documents (Widgets).
func widgetTarget(t *testing.T) *target {
	return &target{set: mustFixture(t).set}
}

// widgetDoc wraps members of spec (and, if meta is not empty, a metadata
// member) into a Widget.
func widgetDoc(spec, meta string) []byte {
	var b strings.Builder
	b.WriteString(`{` + widgetTM)
	if meta != "" {
		b.WriteString(`,"metadata":` + meta)
	}
	b.WriteString(`,"spec":{` + spec + `}}`)
	return []byte(b.String())
}

// nested is n levels of open, then the innermost value, then the closing
// brackets.
func nested(n int, open, inner, close string) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

// allocBound fails if decoding doc once with d allocates more than factor
// times the input plus 1 MiB.
func allocBound(t *testing.T, name string, doc []byte, factor int, f func()) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	if limit := uint64(factor*len(doc) + 1<<20); alloc > limit {
		t.Errorf("%s: decoding %d bytes allocated %d bytes (limit %d)", name, len(doc), alloc, limit)
	}
}

// expectError checks that err is a DecodeError whose message contains want,
// located inside doc, and returns it.
func expectError(t *testing.T, name string, doc []byte, err error, want string) *jperrors.DecodeError {
	t.Helper()
	var de *jperrors.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("%s: error %T %v, want a DecodeError (%q)", name, err, err, want)
	}
	if !strings.Contains(de.Msg, want) {
		t.Fatalf("%s: error %q, want %q", name, shorten(de.Msg), want)
	}
	if de.Offset < 0 || de.Offset > int64(len(doc)) {
		t.Fatalf("%s: offset %d outside the input (%d bytes)", name, de.Offset, len(doc))
	}
	return de
}

func shorten(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// depthAt is the nesting depth of the bracket at offset off (the root's
// bracket being 1).
func depthAt(doc []byte, off int64) int {
	return textDepthUpTo(doc[:off]) + 1
}

// textDepthUpTo is the number of brackets open at the end of b.
func textDepthUpTo(b []byte) int {
	d, in, esc := 0, false, false
	for _, c := range b {
		switch {
		case in && esc:
			esc = false
		case in && c == '\\':
			esc = true
		case in && c == '"':
			in = false
		case in:
		case c == '"':
			in = true
		case c == '{' || c == '[':
			d++
		case c == '}' || c == ']':
			d--
		}
	}
	return d
}

// TestHostileDepth: nesting beyond the limit (10000 levels, the root
// included) is a fatal error at the first bracket past the limit, in every
// place of a document (a kept value, a pruned one, a schema'd one,
// metadata), on every path (fast, slow, map), for objects and arrays,
// 10001 and 100000 deep; exactly 10000 levels are accepted.
func TestHostileDepth(t *testing.T) {
	tg := widgetTarget(t)
	places := []struct {
		name   string
		levels int // levels above the nested value
		doc    func(v string) []byte
	}{
		{"spec.anyVal (kept)", 2, func(v string) []byte { return widgetDoc(`"anyVal":`+v, "") }},
		{"spec.zz (pruned)", 2, func(v string) []byte { return widgetDoc(`"zz":`+v, "") }},
		{"spec.obj (schema)", 2, func(v string) []byte { return widgetDoc(`"obj":`+v, "") }},
		{"spec.list (items)", 2, func(v string) []byte { return widgetDoc(`"list":`+v, "") }},
		{"metadata.annotations", 2, func(v string) []byte { return widgetDoc("", `{"annotations":`+v+`}`) }},
		{"spec.anyVal after a duplicate (slow path)", 2, func(v string) []byte { return widgetDoc(`"name":"a","name":"b","anyVal":`+v, "") }},
		{"root of a kind no CRD serves", 1, func(v string) []byte {
			return []byte(`{"apiVersion":"v1","kind":"ConfigMap","data":` + v + `}`)
		}},
	}
	shapes := []struct{ name, open, inner, close string }{
		{"arrays", "[", "1", "]"},
		{"objects", `{"a":`, "1", "}"},
	}
	for _, p := range places {
		for _, s := range shapes {
			// exactly at the limit
			n := decoder.DefaultMaxDepth - p.levels
			doc := p.doc(nested(n, s.open, s.inner, s.close))
			d := must(decoder.New(tg.set))
			if _, err := d.AppendPrune(nil, doc); err != nil && strings.Contains(err.Error(), "depth") {
				t.Errorf("%s, %s, %d levels: %v", p.name, s.name, n+p.levels, shorten(err.Error()))
			}
			// beyond it
			for _, total := range []int{decoder.DefaultMaxDepth + 1, 100000} {
				doc := p.doc(nested(total-p.levels, s.open, s.inner, s.close))
				name := p.name + ", " + s.name + ", " + strconv.Itoa(total) + " levels"
				for _, run := range decodings(tg) {
					de := expectError(t, name+", "+run.name, doc, run.f(doc), "depth")
					if c := doc[de.Offset]; c != '[' && c != '{' {
						t.Errorf("%s, %s: the error is at %q, not at a bracket", name, run.name, c)
					} else if got := depthAt(doc, de.Offset); got != decoder.DefaultMaxDepth+1 {
						t.Errorf("%s, %s: the error is at the bracket of depth %d, want %d", name, run.name, got, decoder.DefaultMaxDepth+1)
					}
				}
			}
		}
	}
	// a lower limit
	doc := widgetDoc(`"anyVal":`+nested(200, "[", "1", "]"), "")
	expectError(t, "MaxDepth(100)", doc, must(decoder.New(tg.set, decoder.MaxDepth(100))).Validate(doc), "depth")
	if err := must(decoder.New(tg.set, decoder.MaxDepth(202))).Validate(doc); err != nil {
		t.Errorf("MaxDepth(202) on 202 levels: %v", err)
	}
}

// decodings are the ways a document is decoded: the three outputs, and
// the slow path.
func decodings(tg *target) []struct {
	name string
	f    func([]byte) error
} {
	return []struct {
		name string
		f    func([]byte) error
	}{
		{"AppendPrune", func(b []byte) error { _, err := tg.decoder().AppendPrune(nil, b); return err }},
		{"DecodeMap", func(b []byte) error { _, err := tg.decoder().DecodeMap(b); return err }},
		{"Validate", func(b []byte) error { return tg.decoder().Validate(b) }},
		{"AllowInvalidUTF8", func(b []byte) error {
			_, err := tg.decoder(decoder.AllowInvalidUTF8(true)).AppendPrune(nil, b)
			return err
		}},
	}
}

// TestHostileDeepPreserved: a preserved subtree 9990 levels deep is kept
// verbatim, in bytes and map output, and pruned subtrees as deep are
// skipped; both are checked as any document.
func TestHostileDeepPreserved(t *testing.T) {
	tg := widgetTarget(t)
	for _, doc := range [][]byte{
		widgetDoc(`"anyVal":`+nested(4995, `{"a":[`, `{"leaf":null}`, `]}`), ""),
		widgetDoc(`"preserved":`+nested(9990, `{"x":`, `1`, `}`), ""),
		widgetDoc(`"zz":`+nested(4995, `[{"x":`, `1`, `}]`)+`,"name":"n"`, ""),
	} {
		r := checkDocument(t, tg, doc)
		if r.err != nil {
			t.Fatalf("%s...: %v", doc[:80], shorten(r.err.Error()))
		}
	}
}

// TestHostileHugeStrings: 10 MB strings as a kept value, an unknown value,
// an unknown name, a map key, a label and in a preserved subtree decode in
// bounded memory; an unknown name of 10 MB is reported with its path.
func TestHostileHugeStrings(t *testing.T) {
	tg := widgetTarget(t)
	big := strings.Repeat("x", 10<<20)
	escaped := strings.Repeat(`\u00e9`, 1<<20) // 6 MB of escapes
	for _, c := range []struct {
		name string
		doc  []byte
	}{
		{"spec.name", widgetDoc(`"name":"`+big+`"`, "")},
		{"unknown value", widgetDoc(`"zz":"`+big+`"`, "")},
		{"unknown name", widgetDoc(`"`+big+`":1`, "")},
		{"map key", widgetDoc(`"labelsLike":{"`+big+`":"v"}`, "")},
		{"label", widgetDoc("", `{"labels":{"a":"`+big+`"}}`)},
		{"preserved", widgetDoc(`"anyVal":{"a":["`+big+`"]}`, "")},
		{"escapes", widgetDoc(`"name":"`+escaped+`","zz":"`+escaped+`"`, "")},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := tg.decoder()
			allocBound(t, c.name, c.doc, 12, func() {
				if _, err := d.AppendPrune(nil, c.doc); err != nil {
					t.Fatal(shorten(err.Error()))
				}
			})
			if c.name == "unknown name" {
				f := d.Result().Findings()
				if len(f) != 1 || f[0].Path != "spec."+big {
					t.Fatalf("findings: %d, want the unknown name", len(f))
				}
			}
			checkDocument(t, tg, c.doc)
		})
	}
}

// TestHostileHugeNumbers: numbers of a million digits. An integer that
// large overflows a float64, which is the reference's fatal "cannot
// unmarshal number" wherever it is (kept, pruned, schema'd, metadata); a
// fraction or an underflow of that length is accepted and kept as written.
func TestHostileHugeNumbers(t *testing.T) {
	tg := widgetTarget(t)
	digits := strings.Repeat("7", 1_000_000)
	zeros := strings.Repeat("0", 1_000_000)
	for _, c := range []struct {
		name, spec, meta string
		fatal            bool
	}{
		{"integer in spec.replicas", `"replicas":` + digits, "", true},
		{"integer in an unknown field", `"zz":[` + digits + `]`, "", true},
		{"integer in a kept value", `"anyVal":{"n":-` + digits + `}`, "", true},
		{"integer in metadata", ``, `{"generation":` + digits + `}`, true},
		{"fraction", `"ratio":0.` + digits + `,"anyVal":1.` + digits, "", false},
		{"underflow", `"ratio":0.` + zeros + `1,"zz":1e-` + digits, "", false},
		{"long exponent", `"ratio":1e0` + zeros + `1`, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := widgetDoc(c.spec, c.meta)
			allocBound(t, c.name, doc, 24, func() { _ = tg.decoder().Validate(doc) })
			r := checkDocument(t, tg, doc)
			if c.fatal {
				expectError(t, c.name, doc, r.err, "json: cannot unmarshal number ")
			} else if r.err != nil {
				t.Fatal(shorten(r.err.Error()))
			} else if !bytes.Contains(r.out, []byte(digits)) && !bytes.Contains(r.out, []byte(zeros)) {
				t.Fatal("the number is not kept as written")
			}
		})
	}
}

// manyKeys is "k0":v,"k1":v,... n members.
func manyKeys(n int, v string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":` + v)
	}
	return b.String()
}

// TestHostileManyKeys: 100,000 distinct names in a kept object, a map, an
// object whose names are all unknown (findings capped at MaxFindings, the
// rest counted as dropped), metadata labels, and long runs of unknown
// members with subtrees.
func TestHostileManyKeys(t *testing.T) {
	tg := widgetTarget(t)
	const n = 100_000
	keys := manyKeys(n, `"v"`)
	// allocation factors measured (linear in the number of names): about
	// 16x the input for objects, 52x for labels (ObjectMeta is decoded
	// into a value tree and its keys sorted, as the reference renders it)
	for _, c := range []struct {
		name     string
		doc      []byte
		findings int
		factor   int
	}{
		{"kept", widgetDoc(`"anyVal":{`+keys+`}`, ""), 0, 24},
		{"map", widgetDoc(`"labelsLike":{`+keys+`}`, ""), 0, 24},
		{"unknown", widgetDoc(`"obj":{`+keys+`}`, ""), decoder.DefaultMaxFindings, 24},
		{"unknown at spec", widgetDoc(keys, ""), decoder.DefaultMaxFindings, 24},
		{"labels", widgetDoc("", `{"labels":{`+keys+`}}`), 0, 64},
		{"unknown subtrees", widgetDoc(manyKeys(n, `{"a":[1,{"b":null}],"c":"d"}`), ""), decoder.DefaultMaxFindings, 24},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := tg.decoder()
			allocBound(t, c.name, c.doc, c.factor, func() {
				if _, err := d.AppendPrune(nil, c.doc); err != nil {
					t.Fatal(shorten(err.Error()))
				}
			})
			if got := d.Result().Len(); got != c.findings {
				t.Fatalf("%d findings, want %d", got, c.findings)
			}
			if c.findings > 0 {
				var se *jperrors.StrictError
				if err := d.Result().Err(); !errors.As(err, &se) || se.Dropped != n-c.findings {
					t.Fatalf("strict error %v: want %d dropped", err, n-c.findings)
				}
			}
			// every invariant, with fewer findings: listing findings costs
			// time in the size of the document for each of them
			// (TestRegressionFindingsLineColumn)
			checkDocument(t, &target{set: tg.set, opts: []decoder.Option{decoder.MaxFindings(500)}}, c.doc)
		})
	}
}

// TestHostileManyDuplicates: a name repeated 100,000 times is one
// duplicate finding (the last value wins); 100 distinct duplicated names at
// most are reported (the reference's cap), the others counted as dropped.
// Documents with duplicates take the slow path, whose duplicate check is
// quadratic in the number of names of an object
// (TestRegressionDuplicateCheckQuadratic): the objects here stay small
// enough for that.
func TestHostileManyDuplicates(t *testing.T) {
	tg := widgetTarget(t)
	var same strings.Builder
	for i := range 100_000 {
		if i > 0 {
			same.WriteByte(',')
		}
		same.WriteString(`"replicas":` + strconv.Itoa(i))
	}
	doc := widgetDoc(same.String(), "")
	d := tg.decoder()
	out, err := d.AppendPrune(nil, doc)
	if err != nil {
		t.Fatal(err)
	}
	if f := d.Result().Findings(); len(f) != 1 || f[0].Message() != `duplicate field "spec.replicas"` {
		t.Fatalf("findings %v", f)
	}
	if !bytes.Contains(out, []byte(`"replicas":99999`)) {
		t.Fatalf("the last value does not win: %s", shorten(string(out)))
	}
	checkDocument(t, tg, doc)

	// many distinct duplicated names, in objects of 2,000 names
	var objs []string
	for o := range 20 {
		k := manyKeys(1000, `"v`+strconv.Itoa(o)+`"`)
		objs = append(objs, `"m`+strconv.Itoa(o)+`":{`+k+`,`+k+`}`)
	}
	for _, where := range []string{"anyVal", "zz"} {
		doc := widgetDoc(`"`+where+`":{`+strings.Join(objs, ",")+`}`, "")
		d := tg.decoder()
		if err := d.Validate(doc); err != nil {
			t.Fatal(err)
		}
		dups := 0
		for _, f := range d.Result().Findings() {
			if f.Type == jperrors.DuplicateField {
				dups++
			}
		}
		var se *jperrors.StrictError
		if dups != decoder.DefaultMaxDuplicates || !errors.As(d.Result().Err(), &se) || se.Dropped < 20*1000-dups {
			t.Fatalf("%s: %d duplicate findings, want %d, and the rest dropped", where, dups, decoder.DefaultMaxDuplicates)
		}
		if where == "zz" || !tolerateRetract {
			checkDocument(t, tg, doc)
		}
	}
}

// TestHostileInvalidUTF8: invalid UTF-8 in a value, a name, an unknown
// name, metadata and a kept value is an error at the string by default; with
// AllowInvalidUTF8(true) each bad byte becomes U+FFFD (and two names that
// differ only in bad bytes collide, as in the reference).
func TestHostileInvalidUTF8(t *testing.T) {
	tg := widgetTarget(t)
	for _, c := range []struct{ name, spec, meta string }{
		{"value", `"name":"a` + "\xff" + `b"`, ""},
		{"name", `"na` + "\xfe" + `me":"x"`, ""},
		{"kept", `"anyVal":{"k` + "\xc3\x28" + `":"` + "\xed\xa0\x80" + `"}`, ""},
		{"metadata", ``, `{"name":"` + "\xf8\x88\x80\x80\x80" + `"}`},
		{"label key", ``, `{"labels":{"` + "\x80" + `":"v"}}`},
		{"truncated sequence", `"name":"` + "\xe2\x82" + `"`, ""},
	} {
		doc := widgetDoc(c.spec, c.meta)
		for _, run := range decodings(tg)[:3] {
			de := expectError(t, c.name+", "+run.name, doc, run.f(doc), "invalid UTF-8")
			if bad := firstInvalidUTF8(doc); de.Offset > int64(bad) {
				t.Errorf("%s, %s: error at %d, after the bad byte at %d", c.name, run.name, de.Offset, bad)
			}
		}
		d := tg.decoder(decoder.AllowInvalidUTF8(true))
		out, err := d.AppendPrune(nil, doc)
		if err != nil {
			t.Fatalf("%s, AllowInvalidUTF8(true): %v", c.name, err)
		}
		if !utf8.Valid(out) || !jsontext.Value(out).IsValid() {
			t.Fatalf("%s: output is not valid UTF-8 JSON: %q", c.name, out)
		}
		second := prune(tg.decoder(), out)
		if second.err != nil || !bytes.Equal(second.out, out) {
			t.Fatalf("%s: the replaced output does not decode to itself: %v %s", c.name, second.err, second.out)
		}
	}
	// names that differ only in bad bytes collide: sigs.k8s.io/json, like encoding/json,
	// replaces each invalid byte of a key with U+FFFD before its duplicate check
	doc := widgetDoc(`"k`+"\xfe"+`":1,"k`+"\xff"+`":2`, "")
	d := tg.decoder(decoder.AllowInvalidUTF8(true))
	if err := d.Validate(doc); err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, f := range d.Result().Findings() {
		msgs = append(msgs, f.Message())
	}
	if want := []string{"duplicate field \"spec.k\ufffd\"", "unknown field \"spec.k\ufffd\""}; strings.Join(msgs, "|") != strings.Join(want, "|") {
		t.Fatalf("findings %q, want %q", msgs, want)
	}
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// TestHostileSurrogates: lone and misordered surrogate escapes are errors
// by default and U+FFFD with AllowInvalidUTF8(true); a valid pair is one
// character.
func TestHostileSurrogates(t *testing.T) {
	tg := widgetTarget(t)
	for _, s := range []string{`\ud800`, `\udfff`, `\ud800\u0041`, `\udc00\ud800`, `\ud800\ud800`, `x\ud83d`} {
		for _, doc := range [][]byte{widgetDoc(`"name":"`+s+`"`, ""), widgetDoc(`"`+s+`":1`, ""), widgetDoc(`"anyVal":["`+s+`"]`, "")} {
			for _, run := range decodings(tg)[:3] {
				expectError(t, s+", "+run.name, doc, run.f(doc), "surrogate")
			}
			out, err := tg.decoder(decoder.AllowInvalidUTF8(true)).AppendPrune(nil, doc)
			if err != nil {
				t.Fatalf("%s: AllowInvalidUTF8(true): %v", doc, err)
			}
			if !jsontext.Value(out).IsValid() {
				t.Fatalf("%s: invalid output %q", doc, out)
			}
			if bytes.Contains(doc, []byte(`"name"`)) && !bytes.Contains(out, []byte("\ufffd")) && !bytes.Contains(out, []byte(`\ufffd`)) {
				t.Fatalf("%s: no U+FFFD in %s", doc, out)
			}
		}
	}
	doc := widgetDoc(`"name":"\ud83d\ude00","\ud83d\ude00":1`, "")
	r := checkDocument(t, tg, doc)
	if r.err != nil || len(r.findings) != 1 || r.findings[0].Path != "spec.\U0001F600" {
		t.Fatalf("valid pair: %v %v", r.err, r.findings)
	}
}

// TestHostileControlBytes: a NUL byte (and other control bytes) in a
// string or between tokens is an error at that byte; an escaped NUL is a
// character like any other, in values and names (and paths).
func TestHostileControlBytes(t *testing.T) {
	tg := widgetTarget(t)
	for _, c := range []struct {
		name string
		doc  []byte
	}{
		{"NUL in a value", widgetDoc(`"name":"a`+"\x00"+`b"`, "")},
		{"NUL in a name", widgetDoc(`"a`+"\x00"+`":1`, "")},
		{"NUL between tokens", widgetDoc(`"name":`+"\x00"+`"b"`, "")},
		{"NUL after the document", append(widgetDoc("", ""), 0)},
		{"NUL before the document", append([]byte{0}, widgetDoc("", "")...)},
		{"tab in a string", widgetDoc(`"name":"a`+"\t"+`b"`, "")},
		{"control byte 0x1f", widgetDoc(`"zz":"`+"\x1f"+`"`, "")},
	} {
		ctl := bytes.IndexFunc(c.doc, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\r' && r != ' ' })
		for _, run := range decodings(tg) {
			err := run.f(c.doc)
			if err == nil {
				t.Fatalf("%s, %s: accepted", c.name, run.name)
			}
			checkError(t, c.name, c.doc, err, false)
			var de *jperrors.DecodeError
			errors.As(err, &de)
			if de.Offset > int64(ctl) {
				t.Errorf("%s, %s: error at %d, after the control byte at %d: %v", c.name, run.name, de.Offset, ctl, err)
			}
		}
	}
	doc := widgetDoc(`"name":"a\u0000b","\u0000":1`, "")
	r := checkDocument(t, tg, doc)
	if r.err != nil || len(r.findings) != 1 || r.findings[0].Path != "spec.\x00" {
		t.Fatalf("escaped NUL: %v %v", r.err, r.findings)
	}
}

// TestHostileBOM: a byte-order mark before the document is an error at
// offset 0 (as in the reference); inside a string it is a character.
func TestHostileBOM(t *testing.T) {
	tg := widgetTarget(t)
	doc := append([]byte("\xef\xbb\xbf"), widgetDoc("", "")...)
	for _, run := range decodings(tg) {
		de := expectError(t, "BOM, "+run.name, doc, run.f(doc), "invalid")
		if de.Offset != 0 {
			t.Errorf("BOM, %s: offset %d, want 0", run.name, de.Offset)
		}
	}
	r := checkDocument(t, tg, widgetDoc(`"name":"`+"\xef\xbb\xbf"+`x"`, ""))
	if r.err != nil {
		t.Fatal(r.err)
	}
	// package stream skips a BOM at the start of a stream, as kubectl's
	// and the command line's readers do: the document after it is the
	// stream's first, at offset 3 and, as an editor shows it, column 1
	rd, err := stream.NewReader(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if d, err := rd.ReadDocument(); err != nil || d.Offset != 3 || d.Column != 1 || string(d.Text) != string(doc[3:]) {
		t.Fatalf("stream: BOM: %+v %v", d, err)
	}
}

// TestHostileTruncation: every proper prefix of sample documents is an
// error located inside the prefix (never a panic), unless the prefix is a
// complete JSON value itself; the full documents decode. Package stream
// cuts them without a panic, and the decoder locates its documents' errors.
func TestHostileTruncation(t *testing.T) {
	tg := widgetTarget(t)
	samples := [][]byte{
		[]byte(widgetDocs[1]),
		[]byte(widgetDocs[13]),
		widgetDoc(`"name":"\u00e9\ud83d\ude00 \"q\" \\","ratio":-1.5e-3,"strList":["a",null,true,false],"anyVal":{"x":[{},[]]},"name":"dup"`, ""),
		[]byte(" \n{ \"apiVersion\" : \"example.com/v1\" ,\n \"kind\" : \"Widget\" , \"spec\" : { \"replicas\" : 12 } }\n "),
	}
	samples = append(samples, exampleDocs(t)...)
	for _, doc := range samples {
		if r := checkDocument(t, tg, doc); r.err != nil {
			t.Fatalf("full document: %v", r.err)
		}
		for n := range len(doc) {
			prefix := doc[:n:n] // no spare capacity: reads past the end fault
			complete := jsontext.Value(prefix).IsValid(jsontext.AllowDuplicateNames(true))
			for _, run := range decodings(tg) {
				err := run.f(prefix)
				if complete {
					if isSyntaxError(err) {
						t.Fatalf("prefix %q is complete, %s: %v", prefix, run.name, err)
					}
					continue
				}
				if err == nil {
					t.Fatalf("prefix %q accepted by %s", prefix, run.name)
				}
				checkError(t, run.name, prefix, err, false)
				if !isSyntaxError(err) {
					t.Fatalf("prefix %q, %s: not a syntax error: %v", prefix, run.name, err)
				}
			}
			// the stream reader and the decoder over the prefix: no panic,
			// and errors located in it
			rd, err := stream.NewReader(bytes.NewReader(prefix))
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				d, err := rd.ReadDocument()
				if err == io.EOF {
					break
				}
				if err != nil {
					checkStreamError(t, prefix, err)
					continue
				}
				if d.Format == stream.JSON && (d.Part == stream.Whole || d.Part == stream.ListItem) {
					if _, err := tg.decoder().AppendPrune(nil, d.Text); err != nil {
						checkError(t, "stream document", d.Text, err, false)
					}
				}
			}
		}
	}
}
