package decoder

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/jsonvalue"
	"github.com/jsonprune/jsonprune/schemaauto"
)

func widgetSet(t testing.TB) *schemaauto.Set {
	t.Helper()
	return compileCRDFile(t, "../examples/widget-crd.yaml")
}

// compileCRDFile compiles the CRDs of a file.
func compileCRDFile(t testing.TB, path string) *schemaauto.Set {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return compileCRDText(t, string(data))
}

// compileCRDText compiles the CRDs of a YAML or JSON text.
func compileCRDText(t testing.TB, text string) *schemaauto.Set {
	t.Helper()
	crds, err := schemaauto.ParseCRDs([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	set, err := schemaauto.CompileCRDs(crds)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// canon parses JSON with the reference's number semantics and re-renders
// it with sorted keys, for semantic comparison.
func canon(t testing.TB, s string) string {
	t.Helper()
	var v any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("bad JSON %q: %v", s, err)
	}
	return string(jsonvalue.AppendCanonical(nil, fromJSON(v)))
}

func fromJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = fromJSON(e)
		}
	case []any:
		for i, e := range t {
			t[i] = fromJSON(e)
		}
	case json.Number:
		v, _ := jsonvalue.ParseNumber([]byte(t))
		return v
	}
	return v
}

type tcase struct {
	name string
	in   string
	want string   // canonical pruned output; "" when fatal
	find []string // finding messages, in order
	err  string   // fatal error message (DecodeError.Msg), if any
}

const w = `"apiVersion":"example.com/v1","kind":"Widget"`

// dflt is what defaulting adds to every Widget spec.
const dflt = `"defaulted":"dflt","nullableDefaulted":"nd"`

// run checks one case through the three outputs and both paths.
func run(t *testing.T, d *Decoder, tc tcase) {
	t.Helper()
	for _, slow := range []bool{false, true} {
		d.forceSlow = slow
		out, err := d.AppendPrune(nil, []byte(tc.in))
		checkErr(t, tc, err, slow)
		if tc.err != "" {
			continue
		}
		if got := canon(t, string(out)); got != canon(t, tc.want) {
			t.Errorf("%s (slow=%v): pruned\n got %s\nwant %s", tc.name, slow, got, canon(t, tc.want))
		}
		if !json.Valid(out) {
			t.Errorf("%s: invalid JSON output %s", tc.name, out)
		}
		var msgs []string
		for _, f := range d.Result().Findings() {
			msgs = append(msgs, f.Message())
		}
		if strings.Join(msgs, "\n") != strings.Join(tc.find, "\n") {
			t.Errorf("%s (slow=%v): findings\n got %q\nwant %q", tc.name, slow, msgs, tc.find)
		}
		m, err := d.DecodeMap([]byte(tc.in))
		checkErr(t, tc, err, slow)
		if got := string(jsonvalue.AppendCanonical(nil, m)); got != canon(t, tc.want) {
			t.Errorf("%s (slow=%v): map\n got %s\nwant %s", tc.name, slow, got, canon(t, tc.want))
		}
		if d.Result().Len() != len(tc.find) {
			t.Errorf("%s: map output found %d findings, want %d", tc.name, d.Result().Len(), len(tc.find))
		}
		if err := d.Validate([]byte(tc.in)); err != nil || d.Result().Len() != len(tc.find) {
			t.Errorf("%s: Validate: %v, %d findings", tc.name, err, d.Result().Len())
		}
	}
	d.forceSlow = false
}

func checkErr(t *testing.T, tc tcase, err error, slow bool) {
	t.Helper()
	if tc.err == "" {
		if err != nil {
			t.Errorf("%s (slow=%v): unexpected error %v", tc.name, slow, err)
		}
		return
	}
	var de *jperrors.DecodeError
	if !errorsAs(err, &de) || de.Msg != tc.err {
		t.Errorf("%s (slow=%v): error\n got %v\nwant %s", tc.name, slow, err, tc.err)
	}
}

func errorsAs(err error, de **jperrors.DecodeError) bool {
	e, ok := err.(*jperrors.DecodeError)
	if ok {
		*de = e
	}
	return ok
}

// TestReferencePruning covers the rules of prune and skipPrune
// (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go)
// and their surprising cases on the Widget CRD.
func TestReferencePruning(t *testing.T) {
	d := must(New(widgetSet(t)))
	for _, tc := range []tcase{
		{name: "known fields and defaults", in: `{` + w + `,"spec":{"replicas":3,"name":"n"}}`,
			want: `{` + w + `,"spec":{"replicas":3,"name":"n",` + dflt + `}}`},
		{name: "unknown at every level, sorted bytewise", in: `{` + w + `,"zroot":1,"spec":{"z":1,"a":{"b":1},"list":[{"q":1}],"List":1,"list2":1,"listX":1},"aroot":[1]}`,
			want: `{` + w + `,"spec":{"list":[{}],` + dflt + `}}`,
			find: []string{`unknown field "aroot"`, `unknown field "spec.List"`, `unknown field "spec.a"`, `unknown field "spec.list2"`, `unknown field "spec.listX"`, `unknown field "spec.list[0].q"`, `unknown field "spec.z"`, `unknown field "zroot"`}},
		{name: "case-sensitive (P21)", in: `{` + w + `,"Spec":{},"spec":{"Replicas":1}}`,
			want: `{` + w + `,"spec":{` + dflt + `}}`, find: []string{`unknown field "Spec"`, `unknown field "spec.Replicas"`}},
		{name: "odd names are not escaped (P09)", in: `{` + w + `,"spec":{"q\"uote":1,"b\\s":2,"a.b":"kept","":3}}`,
			want: `{` + w + `,"spec":{"a.b":"kept",` + dflt + `}}`,
			find: []string{`unknown field "spec."`, `unknown field "spec.b\s"`, `unknown field "spec.q"uote"`}},
		{name: "additionalProperties true empties objects (P07)", in: `{` + w + `,"spec":{"apTrue":{"s":"x","o":{"deep":1},"l":[{"e":1},3]}}}`,
			want: `{` + w + `,"spec":{"apTrue":{"s":"x","o":{},"l":[{},3]},` + dflt + `}}`,
			find: []string{`unknown field "spec.apTrue.l[0].e"`, `unknown field "spec.apTrue.o.deep"`}},
		{name: "map of objects (P77)", in: `{` + w + `,"spec":{"mapOfObj":{"k.1":{"y":"a","zz":1}}}}`,
			want: `{` + w + `,"spec":{"mapOfObj":{"k.1":{"y":"a"}},` + dflt + `}}`, find: []string{`unknown field "spec.mapOfObj.k.1.zz"`}},
		{name: "preserve keeps, properties reset", in: `{` + w + `,"spec":{"preserved":{"any":{"x":[1,{"y":null}]},"known":{"k":"v","extra":1}}}}`,
			want: `{` + w + `,"spec":{"preserved":{"any":{"x":[1,{"y":null}]},"known":{"k":"v"}},` + dflt + `}}`, find: []string{`unknown field "spec.preserved.known.extra"`}},
		{name: "preserve inherited by items (P50)", in: `{` + w + `,"spec":{"preservedList":[{"k":"v","other":{"z":1}},[1,{"a":2}]]}}`,
			want: `{` + w + `,"spec":{"preservedList":[{"k":"v","other":{"z":1}},[1,{"a":2}]],` + dflt + `}}`},
		{name: "embedded keeps meta keys, prunes others (P33)", in: `{` + w + `,"spec":{"embeddedStrict":{"apiVersion":"v1","kind":"K","metadata":{"name":"e"},"spec":{"a":"x","b":1},"other":2}}}`,
			want: `{` + w + `,"spec":{"embeddedStrict":{"apiVersion":"v1","kind":"K","metadata":{"name":"e"},"spec":{"a":"x"}},` + dflt + `}}`,
			find: []string{`unknown field "spec.embeddedStrict.other"`, `unknown field "spec.embeddedStrict.spec.b"`}},
		{name: "nested apiVersion is ordinary (P68)", in: `{` + w + `,"spec":{"obj":{"apiVersion":"v1","kind":"K","metadata":{}}}}`,
			want: `{` + w + `,"spec":{"obj":{},` + dflt + `}}`,
			find: []string{`unknown field "spec.obj.apiVersion"`, `unknown field "spec.obj.kind"`, `unknown field "spec.obj.metadata"`}},
		{name: "types are not checked (P49)", in: `{` + w + `,"spec":{"replicas":"three","obj":[{"a":1}],"list":{"x":1}}}`,
			want: `{` + w + `,"spec":{"replicas":"three","obj":[{}],"list":{},` + dflt + `}}`,
			find: []string{`unknown field "spec.list.x"`, `unknown field "spec.obj[0].a"`}},
		{name: "int-or-string object emptied (P52)", in: `{` + w + `,"spec":{"intOrString":{"a":1}}}`,
			want: `{` + w + `,"spec":{"intOrString":{},` + dflt + `}}`, find: []string{`unknown field "spec.intOrString.a"`}},
		{name: "other kinds are kept whole (P83)", in: `{"apiVersion":"Example.com/v1","kind":"Widget","spec":{"zz":1},"metadata":{"x":1}}`,
			want: `{"apiVersion":"Example.com/v1","kind":"Widget","spec":{"zz":1},"metadata":{}}`, find: []string{`unknown field "metadata.x"`}},
		{name: "unserved version prunes all but meta (P82)", in: `{"apiVersion":"example.com/v9","kind":"Widget","spec":{"replicas":1}}`,
			want: `{"apiVersion":"example.com/v9","kind":"Widget"}`, find: []string{`unknown field "spec"`}},
	} {
		run(t, d, tc)
	}
}

// TestReferenceDuplicates covers duplicate detection (sigs.k8s.io/json's
// UnmarshalStrict: duplicate field errors, their paths, order and cap).
func TestReferenceDuplicates(t *testing.T) {
	d := must(New(widgetSet(t)))
	for _, tc := range []tcase{
		{name: "last wins (P11: escaped spelling)", in: `{` + w + `,"spec":{"privileged":true,"priv\u0069leged":false}}`,
			want: `{` + w + `,"spec":{"privileged":false,` + dflt + `}}`, find: []string{`duplicate field "spec.privileged"`}},
		{name: "triple reported once (P14)", in: `{` + w + `,"spec":{"name":"a","name":"b","name":"c"}}`,
			want: `{` + w + `,"spec":{"name":"c",` + dflt + `}}`, find: []string{`duplicate field "spec.name"`}},
		{name: "duplicate and unknown (P17)", in: `{` + w + `,"spec":{"foo":1,"foo":2}}`,
			want: `{` + w + `,"spec":{` + dflt + `}}`, find: []string{`duplicate field "spec.foo"`, `unknown field "spec.foo"`}},
		{name: "metadata duplicate (P18)", in: `{` + w + `,"metadata":{"name":"a","name":"b"}}`,
			want: `{` + w + `,"metadata":{"name":"b"}}`, find: []string{`duplicate field "metadata.name"`}},
		{name: "inside an unknown subtree (P69)", in: `{` + w + `,"spec":{"zz":{"a":1,"a":2}}}`,
			want: `{` + w + `,"spec":{` + dflt + `}}`, find: []string{`duplicate field "spec.zz.a"`, `unknown field "spec.zz"`}},
		{name: "inside the first occurrence first (K02)", in: `{"a":{"b":[{"c":1,"c":2}]},"a":{}` + "," + w + `}`,
			want: `{` + w + `}`, find: []string{`duplicate field "a.b[0].c"`, `duplicate field "a"`, `unknown field "a"`}},
		{name: "preserved subtree keeps the last", in: `{` + w + `,"spec":{"anyVal":{"x":1,"y":2,"x":3}}}`,
			want: `{` + w + `,"spec":{"anyVal":{"y":2,"x":3},` + dflt + `}}`, find: []string{`duplicate field "spec.anyVal.x"`}},
		{name: "first member duplicated", in: `{"spec":{"name":"a","replicas":1,"name":"b"},` + w + `}`,
			want: `{` + w + `,"spec":{"replicas":1,"name":"b",` + dflt + `}}`, find: []string{`duplicate field "spec.name"`}},
		{name: "quoted path", in: `{` + w + `,"spec":{"q\"k":{"x":1,"x":2}}}`,
			want: `{` + w + `,"spec":{` + dflt + `}}`, find: []string{`duplicate field "spec.q\"k.x"`, `unknown field "spec.q"k"`}},
	} {
		run(t, d, tc)
	}

	// at most 100 duplicates (P60), unknown fields uncapped (P61)
	var b strings.Builder
	b.WriteString(`{` + w + `,"spec":{`)
	for i := range 150 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"u` + itoa(i) + `":1,"u` + itoa(i) + `":2`)
	}
	b.WriteString(`}}`)
	if err := d.Validate([]byte(b.String())); err != nil {
		t.Fatal(err)
	}
	dups, unknown := 0, 0
	for _, f := range d.Result().Findings() {
		if f.Type == jperrors.DuplicateField {
			dups++
		} else {
			unknown++
		}
	}
	if dups != 100 || unknown != 150 {
		t.Errorf("got %d duplicates and %d unknown, want 100 and 150", dups, unknown)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestReferenceNullsAndDefaults covers null pruning and defaulting
// (PruneNonNullableNullsWithoutDefaults in prunenulls.go and Default in
// algorithm.go of k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting).
func TestReferenceNullsAndDefaults(t *testing.T) {
	d := must(New(widgetSet(t)))
	for _, tc := range []tcase{
		{name: "non-nullable null pruned, nullable kept", in: `{` + w + `,"spec":{"nonNullable":null,"nullableField":null,"name":null}}`,
			want: `{` + w + `,"spec":{"nullableField":null,` + dflt + `}}`},
		{name: "null with default replaced; nullable defaulted keeps null", in: `{` + w + `,"spec":{"defaulted":null,"nullableDefaulted":null}}`,
			want: `{` + w + `,"spec":{"defaulted":"dflt","nullableDefaulted":null}}`},
		{name: "preserve node null deleted (P39)", in: `{` + w + `,"spec":{"anyVal":null}}`,
			want: `{` + w + `,"spec":{` + dflt + `}}`},
		{name: "unknown nulls in preserved subtrees kept", in: `{` + w + `,"spec":{"preserved":{"x":null}}}`,
			want: `{` + w + `,"spec":{"preserved":{"x":null},` + dflt + `}}`},
		{name: "null array elements never pruned", in: `{` + w + `,"spec":{"strList":[null,"a"],"list":[null]}}`,
			want: `{` + w + `,"spec":{"strList":[null,"a"],"list":[null],` + dflt + `}}`},
		{name: "additionalProperties null pruned", in: `{` + w + `,"spec":{"labelsLike":{"a":null,"b":"x"}}}`,
			want: `{` + w + `,"spec":{"labelsLike":{"b":"x"},` + dflt + `}}`},
		{name: "additionalProperties true null kept", in: `{` + w + `,"spec":{"apTrue":{"a":null}}}`,
			want: `{` + w + `,"spec":{"apTrue":{"a":null},` + dflt + `}}`},
	} {
		run(t, d, tc)
	}
	d = must(New(widgetSet(t), Defaulting(false), NullPruning(false)))
	run(t, d, tcase{name: "switched off", in: `{` + w + `,"spec":{"nonNullable":null}}`, want: `{` + w + `,"spec":{"nonNullable":null}}`})
}

// TestReferenceObjectMeta covers ObjectMeta handling: GetObjectMetaWithOptions
// and SetObjectMeta (coerce.go) and CoerceWithOptions (algorithm.go) in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta.
func TestReferenceObjectMeta(t *testing.T) {
	d := must(New(widgetSet(t)))
	for _, tc := range []tcase{
		{name: "unknown and case variants (P22), sorted (P25)", in: `{` + w + `,"metadata":{"zz":1,"Name":"x","name":"n","managedFields":[{"bogus":1}],"ownerReferences":[{"extra":1,"uid":"u"}]}}`,
			want: `{` + w + `,"metadata":{"name":"n","managedFields":[{}],"ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":"u"}]}}`,
			find: []string{`unknown field "metadata.Name"`, `unknown field "metadata.managedFields[0].bogus"`, `unknown field "metadata.ownerReferences[0].extra"`, `unknown field "metadata.zz"`}},
		{name: "normalised (4.2 item 9)", in: `{` + w + `,"metadata":{"labels":null,"annotations":{},"finalizers":[],"creationTimestamp":"2020-01-01T01:02:03.999+02:00","generation":2.0}}`,
			want: `{` + w + `,"metadata":{"creationTimestamp":"2019-12-31T23:02:03Z","generation":2}}`},
		{name: "null becomes {} (P30)", in: `{` + w + `,"metadata":null}`, want: `{` + w + `,"metadata":{}}`},
		{name: "malformed is fatal (P31)", in: `{` + w + `,"metadata":{"name":5,"zz":1}}`,
			err: "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"},
		{name: "embedded metadata unknowns after pruned ones (P76)", in: `{` + w + `,"spec":{"embedded":{"metadata":{"m1":1}},"embeddedList":[{"metadata":{"m3":1}}],"embeddedMap":{"k.1":{"metadata":{"foo":1}}},"zz":1}}`,
			want: `{` + w + `,"spec":{"embedded":{"metadata":{}},"embeddedList":[{"metadata":{}}],"embeddedMap":{"k.1":{"metadata":{}}},` + dflt + `}}`,
			find: []string{`unknown field "spec.zz"`, `unknown field "spec.embedded.metadata.m1"`, `unknown field "spec.embeddedList[0].metadata.m3"`, `unknown field "spec.embeddedMap[k.1].metadata.foo"`}},
		{name: "embedded kind must be a string (C)", in: `{` + w + `,"spec":{"embedded":{"kind":5}}}`,
			err: "spec.embedded.kind: Invalid value: 5: must be a string"},
		// several bad embedded nodes: the reference's first in one of its
		// possible orders, whatever the order of the members
		{name: "embedded apiVersion before kind", in: `{` + w + `,"spec":{"embedded":{"kind":5,"apiVersion":5}}}`,
			err: "spec.embedded.apiVersion: Invalid value: 5: must be a string"},
		{name: "embedded kind before metadata", in: `{` + w + `,"spec":{"embedded":{"metadata":{"name":5},"kind":null}}}`,
			err: "spec.embedded.kind: Invalid value: null: must be a string"},
		{name: "embedded siblings by name", in: `{` + w + `,"spec":{"embeddedMap":{"b":{"kind":1}},"embedded":{"kind":2}}}`,
			err: "spec.embedded.kind: Invalid value: 2: must be a string"},
		{name: "embedded map entries by key", in: `{` + w + `,"spec":{"embeddedMap":{"b":{"kind":1},"a":{"kind":2}}}}`,
			err: "spec.embeddedMap[a].kind: Invalid value: 2: must be a string"},
		{name: "embedded malformed metadata", in: `{` + w + `,"spec":{"embedded":{"metadata":{"name":5}}}}`,
			err: `spec.embedded.metadata: Invalid value: {"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`},
		{name: "embedded metadata null becomes {} (C09)", in: `{` + w + `,"spec":{"embedded":{"metadata":null}}}`,
			want: `{` + w + `,"spec":{"embedded":{"metadata":{}},` + dflt + `}}`},
	} {
		run(t, d, tc)
	}
}

// TestReferenceFatal covers the fatal errors of the decode chain: the
// serializer (k8s.io/apimachinery/pkg/runtime/serializer/json/json.go, with
// sigs.k8s.io/json and sigs.k8s.io/yaml) and schemaCoercingDecoder.Decode
// (customresource_handler.go).
func TestReferenceFatal(t *testing.T) {
	d := must(New(widgetSet(t)))
	for _, tc := range []tcase{
		{name: "1e400", in: `{` + w + `,"spec":{"ratio":1e400}}`, err: "json: cannot unmarshal number 1e400 into Go value of type float64"},
		{name: "1e400 in a pruned subtree", in: `{` + w + `,"zz":[{"a":-1E+999}]}`, err: "json: cannot unmarshal number -1E+999 into Go value of type float64"},
		{name: "1e400 in metadata", in: `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","generation":1e400}}`, err: "json: cannot unmarshal number 1e400 into Go value of type float64"},
		{name: "1E400 in a kept subtree", in: `{` + w + `,"spec":{"anyVal":{"a":[1,{"b":1E400}]}}}`, err: "json: cannot unmarshal number 1E400 into Go value of type float64"},
		{name: "400 digits in a pruned subtree", in: `{` + w + `,"zz":{"a":[` + strings.Repeat("9", 400) + `]}}`, err: "json: cannot unmarshal number " + strings.Repeat("9", 400) + " into Go value of type float64"},
		{name: "1e-400 is fine", in: `{` + w + `,"spec":{"ratio":1e-400}}`, want: `{` + w + `,"spec":{"ratio":0,` + dflt + `}}`},
		{name: "kind missing", in: `{"apiVersion":"example.com/v1"}`, err: `Object 'Kind' is missing in '{"apiVersion":"example.com/v1"}'`},
		{name: "only Kind (P88)", in: `{"apiVersion":"example.com/v1","Kind":"Widget"}`, err: `Object 'Kind' is missing in '{"apiVersion":"example.com/v1","Kind":"Widget"}'`},
		{name: "APIVersion after apiVersion (P87)", in: `{` + w + `,"APIVersion":"a/b/c"}`, err: "unexpected GroupVersion string: a/b/c"},
		{name: "bad apiVersion", in: `{"apiVersion":"a/b/c","kind":"Widget"}`, err: "unexpected GroupVersion string: a/b/c"},
	} {
		run(t, d, tc)
	}
	for _, bad := range []string{`{"a":1,}`, `{"a" 1}`, `{"a":tru}`, `{"a":"x`, `{"a":1}x`, `{'a':1}`, ``, `{"a":"\x"}`, "\xef\xbb\xbf{}", `{"a":"` + "\t" + `"}`, `{"a":"` + "\xff" + `"}`} {
		_, err := d.AppendPrune(nil, []byte(bad))
		var de *jperrors.DecodeError
		if !errorsAs(err, &de) || de.Line == 0 {
			t.Errorf("%q: got %v, want a DecodeError with a position", bad, err)
		}
	}
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	if _, err := d.AppendPrune(nil, []byte(`{`+w+`,"spec":{"anyVal":`+deep+`}}`)); err == nil {
		t.Error("depth beyond 10000 accepted")
	}
	d = must(New(widgetSet(t), MaxDepth(5), MaxDocumentSize(1000)))
	if _, err := d.AppendPrune(nil, []byte(`{`+w+`,"spec":{"anyVal":[[[[1]]]]}}`)); err == nil || !strings.Contains(err.Error(), "max depth of 5") {
		t.Errorf("MaxDepth: %v", err)
	}
	if _, err := d.AppendPrune(nil, bytes.Repeat([]byte(" "), 1001)); err == nil || !strings.Contains(err.Error(), "exceeds the limit") {
		t.Errorf("MaxDocumentSize: %v", err)
	}
}

// TestModes checks Strict, Warn and Ignore.
func TestModes(t *testing.T) {
	in := []byte(`{` + w + `,"spec":{"foo":1,"name":"a","name":"b"}}`)
	d := must(New(widgetSet(t), FieldValidation(Strict)))
	out, err := d.AppendPrune([]byte("prefix"), in)
	want := `strict decoding error: duplicate field "spec.name", unknown field "spec.foo"`
	if err == nil || err.Error() != want || string(out) != "prefix" {
		t.Errorf("Strict: %q, %v", out, err)
	}
	d = must(New(widgetSet(t), FieldValidation(Warn)))
	if out, err := d.AppendPrune(nil, in); err != nil || d.Result().Err().Error() != want || !json.Valid(out) {
		t.Errorf("Warn: %s %v", out, err)
	}
	d = must(New(widgetSet(t), FieldValidation(Ignore)))
	if out, err := d.AppendPrune(nil, in); err != nil || d.Result().Len() != 0 || canon(t, string(out)) != canon(t, `{`+w+`,"spec":{"name":"b",`+dflt+`}}`) {
		t.Errorf("Ignore: %s %v %d", out, err, d.Result().Len())
	}
}

// TestFindingPositions checks offsets, lines, columns and pointers.
func TestFindingPositions(t *testing.T) {
	d := must(New(widgetSet(t)))
	in := "{\n  " + w + ",\n  \"spec\": {\n    \"a/b~c\": 1\n  }\n}"
	if _, err := d.AppendPrune(nil, []byte(in)); err != nil {
		t.Fatal(err)
	}
	got := d.Result().Findings()
	want := []jperrors.Finding{{Type: jperrors.UnknownField, Path: "spec.a/b~c", Pointer: "/spec/a~1b~0c", Offset: int64(strings.Index(in, `"a/b~c"`)), Line: 4, Column: 5}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

// TestInvalidUTF8 checks both policies (sigs.k8s.io/json, like
// encoding/json, replaces each invalid byte with U+FFFD, so two keys can
// collide).
func TestInvalidUTF8(t *testing.T) {
	in := []byte(`{` + w + `,"spec":{"k` + "\xfe" + `":1,"k` + "\xff" + `":2,"name":"a` + "\xff" + `"}}`)
	if _, err := must(New(widgetSet(t))).AppendPrune(nil, in); err == nil {
		t.Error("invalid UTF-8 accepted by default")
	}
	d := must(New(widgetSet(t), AllowInvalidUTF8(true)))
	out, err := d.AppendPrune(nil, in)
	if err != nil {
		t.Fatal(err)
	}
	if want := canon(t, `{`+w+`,"spec":{"name":"a`+"\ufffd"+`",`+dflt+`}}`); canon(t, string(out)) != want {
		t.Errorf("got %s\nwant %s", out, want)
	}
	if got := d.Result().Err().Error(); got != "strict decoding error: duplicate field \"spec.k\ufffd\", unknown field \"spec.k\ufffd\"" {
		t.Errorf("findings: %s", got)
	}
}

// TestMaxFindings: findings beyond the limit are counted, not kept.
func TestMaxFindings(t *testing.T) {
	d := must(New(widgetSet(t), MaxFindings(3)))
	if err := d.Validate([]byte(`{` + w + `,"a":1,"b":2,"c":3,"d":4,"e":5}`)); err != nil {
		t.Fatal(err)
	}
	if got := d.Result().Err().Error(); got != `strict decoding error: unknown field "a", unknown field "b", unknown field "c", and 2 more` {
		t.Errorf("got %s", got)
	}
}

// TestTripleDuplicates: the last of three occurrences wins, for properties
// and other names alike, and the output holds each name once.
func TestTripleDuplicates(t *testing.T) {
	d := must(New(widgetSet(t)))
	run(t, d, tcase{name: "triple unknown and preserved", in: `{` + w + `,"spec":{"anyVal":{"x":1,"x":2,"x":3},"zz":1,"zz":2,"zz":3}}`,
		want: `{` + w + `,"spec":{"anyVal":{"x":3},` + dflt + `}}`,
		find: []string{`duplicate field "spec.anyVal.x"`, `duplicate field "spec.zz"`, `unknown field "spec.zz"`}})
	run(t, d, tcase{name: "first member twice", in: `{"kind":"Widget","a":1,"kind":"Widget","a":2,"apiVersion":"example.com/v1"}`,
		want: `{` + w + `}`, find: []string{`duplicate field "kind"`, `duplicate field "a"`, `unknown field "a"`}})
}

// TestCompactOutput: the output is compact on every path, also where the
// fast path copies a preserved value whole (found by FuzzDecode, comparing
// PruneReader with AppendPrune).
func TestCompactOutput(t *testing.T) {
	d := must(New(widgetSet(t)))
	doc := "{ \"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\",\n \"spec\": {\n  \"anyVal\": { \"a\" : [ 1 ,\t\"b c\" ], \"s\": \"x\\\" y\" , \"e\": { } }\n }\n}"
	want := `{"apiVersion":"example.com/v1","kind":"Widget","spec":{"anyVal":{"a":[1,"b c"],"s":"x\" y","e":{}},` + dflt + `}}`
	for _, slow := range []bool{false, true} {
		d.forceSlow = slow
		out, err := d.AppendPrune(nil, []byte(doc))
		if err != nil || string(out) != want {
			t.Errorf("slow=%v: %v\n got %s\nwant %s", slow, err, out, want)
		}
	}
	d.forceSlow = false
}

// TestEmbeddedNullMetadata: a null metadata that an embedded resource's
// schema declares (not nullable, no default) is pruned before coercion, on
// every path; an undeclared one becomes {} (SetObjectMeta in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta/coerce.go
// writes the empty ObjectMeta). Found by
// FuzzSchemaAndDocument: the fast path wrote {} for both.
func TestEmbeddedNullMetadata(t *testing.T) {
	set := compileCRDFile(t, "testdata/embedded-null-metadata-crd.yaml")
	run(t, must(New(set)), tcase{
		name: "null metadata of embedded resources",
		in:   `{"apiVersion":"ex.com/v1","kind":"Ex","declared":{"apiVersion":"v1","kind":"K","metadata":null},"undeclared":{"apiVersion":"v1","kind":"K","metadata":null}}`,
		want: `{"apiVersion":"ex.com/v1","kind":"Ex","declared":{"apiVersion":"v1","kind":"K"},"undeclared":{"apiVersion":"v1","kind":"K","metadata":{}}}`,
	})
}

// must returns v, panicking on err: for constructors whose options are
// known to be good.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
