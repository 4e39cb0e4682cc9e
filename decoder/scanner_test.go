package decoder

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// scannerAccepts reports whether the scanner read doc to its end (with no
// jsontext fallback).
func scannerAccepts(d *Decoder, doc []byte) bool {
	before := d.scanFallbacks
	d.Validate(doc)
	return d.scanFallbacks == before
}

// checkScanner: the scanner accepts exactly what jsontext.Value.IsValid
// accepts (RFC 8259, UTF-8, no duplicate names). Accepting less would only
// cost time; accepting more would let invalid input through.
func checkScanner(t *testing.T, d *Decoder, name string, doc []byte) {
	t.Helper()
	got, want := scannerAccepts(d, doc), jsontext.Value(doc).IsValid()
	if got && !want {
		t.Fatalf("%s: the scanner accepts what jsontext refuses: %.200q", name, doc)
	}
	if !got && want && textDepth(doc) < DefaultMaxDepth-1 {
		t.Errorf("%s: the scanner refuses what jsontext accepts: %.200q", name, doc)
	}
}

var scannerSeeds = []string{
	`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"list":[{"x":"a"}],"anyVal":{"a":[1,2.5e3,-0,true,false,null]}}}`,
	`{"a":"\u00e9\ud83d\ude00\n\"","b":{"c":{}},"d":[[],{}]}`,
	` [ 1 , 2 ] `, `"x"`, `0`, `-1.5E+10`, `null`,
	`{"a":1,}`, `[1,]`, `{"a" 1}`, `{"a":1 "b":2}`, `[1 2]`, `{,}`, `[,]`, `{"a":1}}`, `]`, `{"a":1}x`,
	`01`, `1.`, `.1`, `1e`, `-`, `+1`, `tru`, `nul`, `falsey`, `"\x"`, `"\ud800"`, `"\udc00"`, "\"\x01\"", "\"\xff\"",
	`{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"spec":{"x":1,"x":2}}`, `{"apiVersion":"example.com/v1","kind":"Widget","spec":{"anyVal":{"k":1,"k":2}}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a","name":"b"}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"unknown":{"k":1,"k":2}}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"unknown":{"a":{"b":[1,{"c":null,"d":"\u00e9"}],"e":{}},"f":[]}}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"unknown":{"a":[1,}]}}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"unknown":{"a":1,"b":{"a":1},"a":2}}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","Kind":1,"metadata":{"name":"a"},"kind":"Widget"}`,
	`{"kind":"Widget","apiVersion":"example.com/v1/x","spec":{"replicas":1}}`,
}

// deepSeeds are at the depth limit (too large to fuzz from).
var deepSeeds = []string{
	strings.Repeat("[", 9998) + strings.Repeat("]", 9998),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"unknown":` + strings.Repeat("[", 9996) + strings.Repeat("]", 9996) + `}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"unknown":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}}`,
}

func TestScannerJSONTestSuite(t *testing.T) {
	dir := "../../shared/testdata/JSONTestSuite/test_parsing"
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Skipf("SKIP: JSONTestSuite is not available at %s", dir)
	}
	d := must(NewForAutomaton(widgetSet(t).Entries()[0].Automaton))
	for _, f := range files {
		doc, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkScanner(t, d, filepath.Base(f), doc)
	}
	for i, s := range append(scannerSeeds, deepSeeds...) {
		checkScanner(t, d, "seed "+itoa(i), []byte(s))
	}
	t.Logf("%d JSONTestSuite files and %d seeds", len(files), len(scannerSeeds)+len(deepSeeds))
}

// FuzzScanner checks, on arbitrary bytes, that the scanner accepts what
// jsontext accepts, against the Widget schema and against a schema that
// keeps everything.
func FuzzScanner(f *testing.F) {
	for _, s := range scannerSeeds {
		f.Add([]byte(s))
	}
	set := widgetSet(f)
	widget := must(New(set))
	keep := must(NewForAutomaton(set.Entries()[0].Automaton, FieldValidation(Ignore)))
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkScanner(t, widget, "widget", doc)
		checkScanner(t, keep, "fixed", doc)
	})
}

// TestScannerMatchesJSONText decodes every corpus CR and the scanner seeds
// on the fast path twice, with the scanner and with jsontext's decoder:
// the same output, findings and errors.
func TestScannerMatchesJSONText(t *testing.T) {
	c := needCorpus(t)
	docs := c.docs
	for _, s := range scannerSeeds {
		docs = append(docs, []byte(s))
	}
	scan, jt := must(New(c.set)), must(New(c.set))
	jt.noScan = true
	for i, doc := range docs {
		sameAsJSONText(t, fmt.Sprintf("doc %d", i), scan, jt, doc)
	}
}

// sameAsJSONText checks that scan, a decoder with the scanner, and jt, one
// without (noScan), give doc the same output, error and findings.
func sameAsJSONText(t *testing.T, name string, scan, jt *Decoder, doc []byte) {
	t.Helper()
	a, errA := scan.AppendPrune(nil, doc)
	b, errB := jt.AppendPrune(nil, doc)
	if string(a) != string(b) || errText(errA) != errText(errB) {
		t.Errorf("%s: scanner %s (%v)\njsontext %s (%v)", name, a, errA, b, errB)
		return
	}
	if fa, fb := scan.Result().Findings(), jt.Result().Findings(); !slices.Equal(fa, fb) {
		t.Errorf("%s: scanner findings %+v\njsontext findings %+v", name, fa, fb)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestPrescanPlain: the in-place pre-scan of the usual start
// {"apiVersion":"…","kind":"…"} and the general pre-scan it stands in for
// (jsontext's decoder, noScan) agree on every start, plain or not.
func TestPrescanPlain(t *testing.T) {
	set := widgetSet(t)
	rests := []string{`"metadata":{"name":"w"},"spec":{"replicas":1,"junk":2}}`,
		// the root's members after the two the fast lane takes at once
		// (takeTypeMeta): the pre-scan's other spellings, duplicates
		`"metadata":{"name":"w"},"APIVERSION":5}`, `"Kind":"Gadget","metadata":{"name":"w"}}`,
		`"metadata":{"name":"w"},"kind":"Widget"}`, `"apiVersion":"example.com/v1"}`, `"junk":1}`, `}`}
	for _, start := range []string{
		`{"apiVersion":"example.com/v1","kind":"Widget",`,
		`{"kind":"Widget","apiVersion":"example.com/v1",`,
		" \n{ \"apiVersion\" :\t\"example.com/v1\" , \"kind\" : \"Widget\" ,",
		`{"apiVersion":"example.com\/v1","kind":"Widget",`,
		`{"apiVersion":"example.com/v1","kind":"Widg\u0065t",`,
		`{"apiVersio\u006e":"example.com/v1","kind":"Widget",`,
		`{"apiVersion":"example.com/v1","kind":"",`,
		`{"apiVersion":"","kind":"Widget",`,
		`{"apiVersion":"example.com/v1","kind":"Wídget",`,
		"{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\x7f\",",
		`{"apiVersion":"example.com/v1","apiVersion":"example.com/v1","kind":"Widget",`,
		`{"apiVersion":"example.com/v1","kind":"Widget","kind":"Gadget",`,
		`{"kind":"Widget","kind":"Widget","apiVersion":"example.com/v1",`,
		`{"apiVersion":"other.com/v1","kind":"Widget",`,
		`{"apiVersion":"example.com/v1","kind":5,`,
		`{"apiVersion":null,"kind":"Widget",`,
		`{"apiVersion":"example.com/v1" "kind":"Widget",`,
		`{"apiVersion":"example.com/v1","kind":"Widget"`,
		`{"apiVersion":"example.com/v1","kind":"Widget`,
		`{"apiVersion":"example.com/v1","Kind":"Gadget","kind":"Widget",`,
		`{"spec":{},"apiVersion":"example.com/v1","kind":"Widget",`,
		`["apiVersion","example.com/v1","kind","Widget",`,
		`{"apiVersion":"example.com/v1/x","kind":"Widget",`,
		`{"apiVersion":"example.com/v1","kind":"Widget"  ,`,
		`{"apiVersion":"example.com/v1","kind" :"Widget",`,
		`{"apiVersion":"example.com/v1", "kind":"Widget",`,
		`{"kind":"Widget", "apiVersion":"example.com/v1" ,`,
		`{"apiVersion":"example.com/v1","kind":"Widget"}`,
		`{"apiVersion":"example.com/v1","kindx":"Widget",`,
		`{"apiVersion":"example.com/v1",kind":"Widget",`,
		`{"apiVersion":"example.com/v1","kind":"Widget`,
	} {
		for _, rest := range rests {
			scan, jt := must(New(set)), must(New(set))
			jt.noScan = true
			sameAsJSONText(t, start+rest, scan, jt, []byte(start+rest))
			if scan.Result().APIVersion() != jt.Result().APIVersion() || scan.Result().Kind() != jt.Result().Kind() {
				t.Errorf("%s: scanner %s %s, jsontext %s %s", start+rest, scan.Result().APIVersion(), scan.Result().Kind(),
					jt.Result().APIVersion(), jt.Result().Kind())
			}
		}
	}
}

// TestPlainRun compares plainRun (8 bytes at a time) with the byte loop it
// speeds up, at every start of texts with every byte value at every place
// of a word.
func TestPlainRun(t *testing.T) {
	byteLoop := func(doc []byte, i int) int {
		for i < len(doc) && plainByte[doc[i]] {
			i++
		}
		return i
	}
	check := func(doc []byte) {
		for i := 0; i <= len(doc); i++ {
			if got, want := plainRun(doc, i), byteLoop(doc, i); got != want {
				t.Fatalf("plainRun(%q, %d) = %d, want %d", doc, i, got, want)
			}
			if got, want := plainRunWide(doc, i), byteLoop(doc, i); got != want {
				t.Fatalf("plainRunWide(%q, %d) = %d, want %d", doc, i, got, want)
			}
		}
	}
	for c := 0; c < 256; c++ {
		for at := 0; at < 44; at++ {
			doc := []byte(strings.Repeat("abcdefgh", 6))
			doc[at] = byte(c)
			check(doc)
			// a special byte after another: the borrow of the first must
			// not hide the second nor flag a byte before it
			for _, prev := range []byte{0x00, 0x1f, '"', '\\', 0x80, 0xff, 0x21, 0x5d} {
				if at > 0 {
					doc[at-1] = prev
					check(doc)
				}
			}
		}
	}
	rnd := uint64(1)
	for n := 0; n < 20000; n++ {
		doc := make([]byte, n%80)
		for i := range doc {
			rnd = rnd*6364136223846793005 + 1442695040888963407
			doc[i] = byte(rnd >> 56)
			if rnd>>50&31 != 0 { // mostly printable ASCII
				doc[i] = 0x20 + byte(rnd>>40)%0x5f
			}
		}
		check(doc)
	}
}

// TestStringEndUnchecked compares stringEndUnchecked with a byte loop.
func TestStringEndUnchecked(t *testing.T) {
	byteLoop := func(doc []byte, i int) int {
		for ; i < len(doc); i++ {
			switch doc[i] {
			case '"':
				return i + 1
			case '\\':
				i++
			}
		}
		return i
	}
	rnd := uint64(7)
	for n := 0; n < 50000; n++ {
		doc := make([]byte, n%40)
		for i := range doc {
			rnd = rnd*6364136223846793005 + 1442695040888963407
			switch rnd >> 60 {
			case 0:
				doc[i] = '"'
			case 1:
				doc[i] = '\\'
			default:
				doc[i] = byte(rnd >> 40)
			}
		}
		for i := 0; i <= len(doc); i++ {
			if got, want := stringEndUnchecked(doc, i), byteLoop(doc, i); got != want {
				t.Fatalf("stringEndUnchecked(%q, %d) = %d, want %d", doc, i, got, want)
			}
		}
	}
}

// metaSeeds are metadata values for TestScanFastMeta and FuzzScanFastMeta:
// the forms scanFastMeta reads and those it leaves to the value's
// ordinary reading.
var metaSeeds = []string{
	`{}`, ` { } `, `{"name":"w"}`, `{"name":"w","namespace":"default"}`,
	` { "name" : "w" , "namespace" : "default" } `,
	`{"name":"w","labels":{"app":"demo","tier":"web"},"annotations":{"a/b":"c\"d\u00e9","x":""}}`,
	`{"labels":{},"annotations":{},"finalizers":[]}`, `{"finalizers":["a","b\\c"," "]}`,
	`{"generation":3,"creationTimestamp":"2024-01-02T03:04:05Z","uid":"u","resourceVersion":"1","selfLink":"/x","generateName":"g-"}`,
	`{"generation":0,"creationTimestamp":"0001-01-01T00:00:00Z","name":""}`,
	`{"generation":-0}`, `{"generation":1.0}`, `{"generation":1e2}`, `{"generation":01}`, `{"generation":99999999999999999999}`,
	`{"generation":"3"}`, `{"creationTimestamp":"2024-01-02T03:04:05+01:00"}`, `{"creationTimestamp":null}`,
	`{"name":"w","name":"v"}`, `{"labels":{"a":"1","a":"2"}}`, `{"labels":{"a":"1"},"labels":{}}`,
	`{"labels":{"a":1}}`, `{"labels":{"a":null}}`, `{"labels":null}`, `{"labels":[]}`, `{"finalizers":{}}`,
	`{"finalizers":[1]}`, `{"labels":{"\u0061":"1"}}`, `{"l\u0061bels":{"a":"1"}}`, `{"name":"\ud800"}`,
	`{"name":"` + "\x01" + `"}`, `{"name":"w",}`, `{"labels":{"a":"1",}}`, `{"finalizers":["a",]}`,
	`{"name":"w" "namespace":"d"}`, `{"name":}`, `{"name"}`, `{"name":"w"`, `{"labels":{"a":"1"}`,
	`{"unknown":1}`, `{"name":{"x":null}}`, `{"name":null}`, `{"namespace":true}`,
	`{"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","controller":true}]}`,
	`{"managedFields":[]}`, `null`, `[]`, `"x"`, `{"name":"w","deletionGracePeriodSeconds":5}`,
	`{"labels":{` + strings.Repeat(`"k":"v",`, 70) + `"z":"v"}}`,
}

// TestScanFastMeta decodes documents with each of metaSeeds for a
// metadata with the scanner and with jsontext: the same output, findings
// and errors, with value validation and without.
func TestScanFastMeta(t *testing.T) {
	set := widgetSet(t)
	for _, opts := range [][]Option{nil, {Validation(true)}, {FieldValidation(Ignore)}} {
		scan, jt := must(New(set, opts...)), must(New(set, opts...))
		jt.noScan = true
		for _, m := range metaSeeds {
			doc := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":` + m + `,"spec":{"replicas":1}}`
			sameAsJSONText(t, doc, scan, jt, []byte(doc))
		}
	}
}

// FuzzScanFastMeta is TestScanFastMeta on arbitrary metadata text.
func FuzzScanFastMeta(f *testing.F) {
	for _, m := range metaSeeds {
		f.Add([]byte(m))
	}
	set := widgetSet(f)
	scan, jt := must(New(set)), must(New(set))
	jt.noScan = true
	f.Fuzz(func(t *testing.T, m []byte) {
		doc := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":` + string(m) + `,"spec":{"replicas":1}}`
		sameAsJSONText(t, doc, scan, jt, []byte(doc))
	})
}

// TestSameName compares sameName (a word at a time) with the byte
// comparison it stands for, for names of every length up to 24 against
// texts that differ from them at every place, or end early.
func TestSameName(t *testing.T) {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	spec := &schemaauto.Schema{Type: "object", Properties: map[string]*schemaauto.Schema{}}
	for n := 0; n <= 24; n++ {
		spec.Properties[letters[:n]] = &schemaauto.Schema{Type: "string"}
	}
	a := must(schemaauto.Compile(&schemaauto.Schema{Type: "object", Properties: map[string]*schemaauto.Schema{"spec": spec}}))
	spp := &a.Props(a.Root())[slices.IndexFunc(a.Props(a.Root()), func(p schemaauto.Prop) bool { return p.Name == "spec" })]
	for n := 0; n <= 24; n++ {
		props := a.Props(spp.Target)
		p := props[slices.IndexFunc(props, func(p schemaauto.Prop) bool { return p.Name == letters[:n] })]
		if !p.Plain {
			t.Fatalf("%q is not Plain", p.Name)
		}
		for _, pad := range []string{`":1}`, `"`, `":{"a":"bcdefghijklmnop"}}`} {
			good := []byte(`"` + p.Name + pad)
			for at := 0; at <= n; at++ {
				for _, c := range []byte{'"', 'x', 0, 0x80} {
					doc := append([]byte(nil), good...)
					doc[1+at] = c
					for cut := n + 2; cut <= len(doc); cut++ {
						d := doc[:cut]
						want := d[1+n] == '"' && string(d[1:1+n]) == p.Name
						if got := sameName(d, 1, 1+n, &p); got != want {
							t.Fatalf("sameName(%q, %q) = %v, want %v", d, p.Name, got, want)
						}
					}
				}
			}
		}
	}
}
