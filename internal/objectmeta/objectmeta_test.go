package objectmeta

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/internal/jsonvalue"
)

// The expected values below were checked against the reference chain
// (k8s.io/apiextensions-apiserver v0.37.2 objectmeta.GetObjectMetaWithOptions
// + SetObjectMeta, and CoerceWithOptions on an x-kubernetes-embedded-resource
// node), run outside this module.

// parse decodes JSON the way sigs.k8s.io/json PreserveInts does: a number
// literal without '.' that fits int64 is int64, any other number float64.
func parse(t testing.TB, s string) any {
	t.Helper()
	v, err := parseJSON([]byte(s))
	if err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return v
}

func parseJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data")
	}
	return convertNumbers(v)
}

func convertNumbers(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if !strings.Contains(s, ".") {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return n, nil
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, err // out of range, as 1e400 is for the reference
		}
		return f, nil
	case map[string]any:
		for k, e := range x {
			c, err := convertNumbers(e)
			if err != nil {
				return nil, err
			}
			x[k] = c
		}
	case []any:
		for i, e := range x {
			c, err := convertNumbers(e)
			if err != nil {
				return nil, err
			}
			x[i] = c
		}
	}
	return v, nil
}

var (
	strict = Options{ReportUnknown: true}
	quiet  = Options{}
	drop   = Options{DropMalformed: true}
	dropU  = Options{DropMalformed: true, ReportUnknown: true}
)

type normalizeCase struct {
	name    string
	in      string // JSON of the metadata value
	opts    Options
	want    string // JSON of the normalised metadata ("" when err is set)
	unknown []string
	err     string
}

var normalizeCases = []normalizeCase{
	// 4.1: known fields, case-sensitive matching (P22).
	{name: "P22 case-sensitive", in: `{"name":"w","Name":"x","Labels":{"a":"b"},"labels":{"a":"b"}}`, opts: strict,
		want: `{"labels":{"a":"b"},"name":"w"}`, unknown: []string{"metadata.Labels", "metadata.Name"}},
	{name: "all string fields", in: `{"name":"n","generateName":"g","namespace":"ns","selfLink":"/l","uid":"u","resourceVersion":"7"}`, opts: strict,
		want: `{"name":"n","generateName":"g","namespace":"ns","selfLink":"/l","uid":"u","resourceVersion":"7"}`},
	{name: "empty strings omitted", in: `{"name":"","generateName":"","namespace":"","selfLink":"","uid":"","resourceVersion":""}`, opts: strict, want: `{}`},
	{name: "null strings omitted", in: `{"name":null,"uid":null}`, opts: strict, want: `{}`},

	// 4.2 item 3: what is unknown.
	{name: "top-level unknown no descent", in: `{"foo":{"bar":1,"baz":[{"q":1}]},"x.y":1}`, opts: strict,
		want: `{}`, unknown: []string{"metadata.foo", "metadata.x.y"}},
	{name: "empty key", in: `{"":1,"ownerReferences":[{"":1}]}`, opts: strict,
		want:    `{"ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":""}]}`,
		unknown: []string{"metadata.", "metadata.ownerReferences[0]."}},
	{name: "never inside labels annotations fieldsV1", in: `{"labels":{"zzz":"1"},"annotations":{"q":"r"},"managedFields":[{"fieldsV1":{"f:spec":{"f:x":{}},"junk":[1]}}]}`, opts: strict,
		want: `{"labels":{"zzz":"1"},"annotations":{"q":"r"},"managedFields":[{"fieldsV1":{"f:spec":{"f:x":{}},"junk":[1]}}]}`},
	{name: "unknown inside list elements", in: `{"ownerReferences":[{"b":1,"a":2,"uid":"u"},{"c":{"d":1}}],"managedFields":[{"bogus":1},null,{"Manager":"m"}]}`, opts: strict,
		want:    `{"ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":"u"},{"apiVersion":"","kind":"","name":"","uid":""}],"managedFields":[{},{},{}]}`,
		unknown: []string{"metadata.managedFields[0].bogus", "metadata.managedFields[2].Manager", "metadata.ownerReferences[0].a", "metadata.ownerReferences[0].b", "metadata.ownerReferences[1].c"}},
	// 4.2 item 4: sorted per level, not globally (P25).
	{name: "P25 order", in: `{"ownerReferences":[{"uid":"u","extra":1}],"managedFields":[{"manager":"m","bogus":true}],"zz":1,"aa":1}`, opts: strict,
		want:    `{"ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":"u"}],"managedFields":[{"manager":"m"}]}`,
		unknown: []string{"metadata.aa", "metadata.managedFields[0].bogus", "metadata.ownerReferences[0].extra", "metadata.zz"}},
	{name: "unknown not reported when not asked", in: `{"foo":1,"ownerReferences":[{"extra":1}],"name":"n"}`, opts: quiet,
		want: `{"name":"n","ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":""}]}`},
	{name: "ParentPath embedded", in: `{"foo":1,"ownerReferences":[{"b":1}]}`, opts: Options{ReportUnknown: true, ParentPath: "spec.embedded"},
		want:    `{"ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":""}]}`,
		unknown: []string{"spec.embedded.metadata.foo", "spec.embedded.metadata.ownerReferences[0].b"}},
	{name: "ParentPath list", in: `{"foo":1}`, opts: Options{ReportUnknown: true, ParentPath: "spec.embeddedList[0]"},
		want: `{}`, unknown: []string{"spec.embeddedList[0].metadata.foo"}},
	{name: "ParentPath map key", in: `{"foo":1}`, opts: Options{ReportUnknown: true, ParentPath: "spec.embeddedMap[k.1]"},
		want: `{}`, unknown: []string{"spec.embeddedMap[k.1].metadata.foo"}},

	// 4.2 item 7: malformed known fields are errors, with encoding/json texts.
	{name: "labels value number", in: `{"labels":{"a":5}}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string`},
	{name: "name number", in: `{"name":5}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`},
	{name: "metadata string", in: `"x"`, opts: strict, err: `json: cannot unmarshal string into Go value of type v1.ObjectMeta`},
	{name: "metadata number", in: `5`, opts: strict, err: `json: cannot unmarshal number into Go value of type v1.ObjectMeta`},
	{name: "metadata bool", in: `true`, opts: quiet, err: `json: cannot unmarshal bool into Go value of type v1.ObjectMeta`},
	{name: "metadata array", in: `[{"name":"a"}]`, opts: strict, err: `json: cannot unmarshal array into Go value of type v1.ObjectMeta`},
	{name: "finalizers string", in: `{"finalizers":"x"}`, opts: strict, err: `json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type []string`},
	{name: "generation 1.5", in: `{"generation":1.5}`, opts: strict, err: `json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64`},
	{name: "deletionGracePeriodSeconds string", in: `{"deletionGracePeriodSeconds":"30"}`, opts: strict, err: `json: cannot unmarshal string into Go struct field ObjectMeta.deletionGracePeriodSeconds of type int64`},
	{name: "creationTimestamp yesterday", in: `{"creationTimestamp":"yesterday"}`, opts: strict, err: `parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
	{name: "P31 unknown and malformed", in: `{"foo":1,"labels":{"a":5}}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string`},

	// Other kinds into each field type.
	{name: "uid number", in: `{"uid":5}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ObjectMeta.uid of type types.UID`},
	{name: "name bool", in: `{"name":true}`, opts: strict, err: `json: cannot unmarshal bool into Go struct field ObjectMeta.name of type string`},
	{name: "name object", in: `{"name":{}}`, opts: strict, err: `json: cannot unmarshal object into Go struct field ObjectMeta.name of type string`},
	{name: "name array", in: `{"name":[]}`, opts: strict, err: `json: cannot unmarshal array into Go struct field ObjectMeta.name of type string`},
	{name: "labels array", in: `{"labels":[]}`, opts: strict, err: `json: cannot unmarshal array into Go struct field ObjectMeta.labels of type map[string]string`},
	{name: "labels string", in: `{"labels":"a=b"}`, opts: strict, err: `json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string`},
	{name: "annotations number", in: `{"annotations":5}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string`},
	{name: "labels value object", in: `{"labels":{"a":{}}}`, opts: strict, err: `json: cannot unmarshal object into Go struct field ObjectMeta.labels of type string`},
	{name: "labels value bool", in: `{"labels":{"a":true}}`, opts: strict, err: `json: cannot unmarshal bool into Go struct field ObjectMeta.labels of type string`},
	{name: "finalizers element number", in: `{"finalizers":["a",5]}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ObjectMeta.finalizers of type string`},
	{name: "finalizers object", in: `{"finalizers":{}}`, opts: strict, err: `json: cannot unmarshal object into Go struct field ObjectMeta.finalizers of type []string`},
	{name: "generation string", in: `{"generation":"1"}`, opts: strict, err: `json: cannot unmarshal string into Go struct field ObjectMeta.generation of type int64`},
	{name: "generation bool", in: `{"generation":true}`, opts: strict, err: `json: cannot unmarshal bool into Go struct field ObjectMeta.generation of type int64`},
	{name: "generation 1e21", in: `{"generation":1e21}`, opts: strict, err: `json: cannot unmarshal number 1e+21 into Go struct field ObjectMeta.generation of type int64`},
	{name: "generation 1e20", in: `{"generation":1e20}`, opts: strict, err: `json: cannot unmarshal number 100000000000000000000 into Go struct field ObjectMeta.generation of type int64`},
	{name: "generation 1e-7", in: `{"generation":1e-7}`, opts: strict, err: `json: cannot unmarshal number 1e-7 into Go struct field ObjectMeta.generation of type int64`},
	{name: "generation 0.000001", in: `{"generation":0.000001}`, opts: strict, err: `json: cannot unmarshal number 0.000001 into Go struct field ObjectMeta.generation of type int64`},
	{name: "generation 2^63 float", in: `{"generation":9223372036854775808}`, opts: strict, err: `json: cannot unmarshal number 9223372036854776000 into Go struct field ObjectMeta.generation of type int64`},
	{name: "deletionGracePeriodSeconds 1.5", in: `{"deletionGracePeriodSeconds":1.5}`, opts: strict, err: `json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.deletionGracePeriodSeconds of type int64`},
	{name: "creationTimestamp number", in: `{"creationTimestamp":5}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ObjectMeta.creationTimestamp of type string`},
	{name: "creationTimestamp object", in: `{"creationTimestamp":{}}`, opts: strict, err: `json: cannot unmarshal object into Go struct field ObjectMeta.creationTimestamp of type string`},
	{name: "creationTimestamp array", in: `{"creationTimestamp":[1]}`, opts: strict, err: `json: cannot unmarshal array into Go struct field ObjectMeta.creationTimestamp of type string`},
	{name: "creationTimestamp bool", in: `{"creationTimestamp":true}`, opts: strict, err: `json: cannot unmarshal bool into Go struct field ObjectMeta.creationTimestamp of type string`},
	{name: "creationTimestamp empty string", in: `{"creationTimestamp":""}`, opts: strict, err: `parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"`},
	{name: "creationTimestamp month", in: `{"creationTimestamp":"2020-13-01T00:00:00Z"}`, opts: strict, err: `parsing time "2020-13-01T00:00:00Z": month out of range`},
	{name: "creationTimestamp lower z", in: `{"creationTimestamp":"2020-01-01T00:00:00z"}`, opts: strict, err: `parsing time "2020-01-01T00:00:00z" as "2006-01-02T15:04:05Z07:00": cannot parse "z" as "Z07:00"`},
	{name: "deletionTimestamp number", in: `{"deletionTimestamp":1}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ObjectMeta.deletionTimestamp of type string`},
	{name: "ownerReferences controller number", in: `{"ownerReferences":[{"uid":"u","controller":5}]}`, opts: strict, err: `json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.controller of type bool`},
	{name: "ownerReferences blockOwnerDeletion string", in: `{"ownerReferences":[{"blockOwnerDeletion":"true"}]}`, opts: strict, err: `json: cannot unmarshal string into Go struct field OwnerReference.ownerReferences.blockOwnerDeletion of type bool`},
	{name: "ownerReferences uid number", in: `{"ownerReferences":[{"uid":5}]}`, opts: strict, err: `json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.uid of type types.UID`},
	{name: "ownerReferences kind object", in: `{"ownerReferences":[{"kind":{}}]}`, opts: strict, err: `json: cannot unmarshal object into Go struct field OwnerReference.ownerReferences.kind of type string`},
	{name: "ownerReferences element number", in: `{"ownerReferences":[5]}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ObjectMeta.ownerReferences of type v1.OwnerReference`},
	{name: "ownerReferences element array", in: `{"ownerReferences":[[]]}`, opts: strict, err: `json: cannot unmarshal array into Go struct field ObjectMeta.ownerReferences of type v1.OwnerReference`},
	{name: "ownerReferences object", in: `{"ownerReferences":{}}`, opts: strict, err: `json: cannot unmarshal object into Go struct field ObjectMeta.ownerReferences of type []v1.OwnerReference`},
	{name: "managedFields element number", in: `{"managedFields":[5]}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ObjectMeta.managedFields of type v1.ManagedFieldsEntry`},
	{name: "managedFields string", in: `{"managedFields":"x"}`, opts: strict, err: `json: cannot unmarshal string into Go struct field ObjectMeta.managedFields of type []v1.ManagedFieldsEntry`},
	{name: "managedFields manager number", in: `{"managedFields":[{"manager":5}]}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ManagedFieldsEntry.managedFields.manager of type string`},
	{name: "managedFields operation number", in: `{"managedFields":[{"operation":5}]}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ManagedFieldsEntry.managedFields.operation of type v1.ManagedFieldsOperationType`},
	{name: "managedFields subresource bool", in: `{"managedFields":[{"subresource":false}]}`, opts: strict, err: `json: cannot unmarshal bool into Go struct field ManagedFieldsEntry.managedFields.subresource of type string`},
	{name: "managedFields time number", in: `{"managedFields":[{"time":5}]}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ManagedFieldsEntry.managedFields.time of type string`},
	{name: "managedFields time bad", in: `{"managedFields":[{"time":"x"},{"time":"y"}]}`, opts: strict, err: `parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`},

	// Which error wins: the first mismatch in sorted key order, unless a
	// timestamp fails anywhere later (it aborts and wins).
	{name: "first mismatch in key order", in: `{"labels":"x","annotations":5}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string`},
	{name: "first mismatch inside map", in: `{"labels":{"b":true,"a":5,"c":[]}}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string`},
	{name: "first mismatch inside list", in: `{"finalizers":[true,5]}`, opts: strict, err: `json: cannot unmarshal bool into Go struct field ObjectMeta.finalizers of type string`},
	{name: "first mismatch across elements", in: `{"ownerReferences":[{"name":1},{"controller":"x"}]}`, opts: strict, err: `json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.name of type string`},
	{name: "time error wins over earlier mismatch", in: `{"annotations":5,"creationTimestamp":"yesterday"}`, opts: strict, err: `parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
	{name: "time kind error wins over earlier mismatch", in: `{"annotations":5,"creationTimestamp":5}`, opts: strict, err: `json: cannot unmarshal number into Go struct field ObjectMeta.creationTimestamp of type string`},
	{name: "nested time error wins", in: `{"finalizers":[1],"managedFields":[{"time":"bad"}]}`, opts: strict, err: `parsing time "bad" as "2006-01-02T15:04:05Z07:00": cannot parse "bad" as "2006"`},
	{name: "time error stops the walk", in: `{"creationTimestamp":"yesterday","deletionTimestamp":"bad","labels":"x"}`, opts: strict, err: `parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
	{name: "errors same without unknown reporting", in: `{"foo":1,"generation":1.5}`, opts: quiet, err: `json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64`},

	// 4.2 item 9: normalisation.
	{name: "P30 metadata null", in: `null`, opts: strict, want: `{}`},
	{name: "metadata empty", in: `{}`, opts: strict, want: `{}`},
	{name: "null and empty collections omitted", in: `{"labels":null,"annotations":{},"finalizers":[],"ownerReferences":[],"managedFields":[]}`, opts: strict, want: `{}`},
	{name: "null collections omitted", in: `{"annotations":null,"finalizers":null,"ownerReferences":null,"managedFields":null}`, opts: strict, want: `{}`},
	{name: "creationTimestamp null", in: `{"creationTimestamp":null,"name":"a"}`, opts: strict, want: `{"name":"a"}`},
	{name: "creationTimestamp zero", in: `{"creationTimestamp":"0001-01-01T00:00:00Z"}`, opts: strict, want: `{}`},
	{name: "creationTimestamp zero instant with offset", in: `{"creationTimestamp":"0001-01-01T01:00:00+01:00"}`, opts: strict, want: `{}`},
	{name: "timestamps UTC whole seconds", in: `{"creationTimestamp":"2020-01-01T01:02:03.999+02:00","deletionTimestamp":"2021-06-01T12:00:00.5-07:30","managedFields":[{"time":"2022-02-02T02:02:02.000000001Z"}]}`, opts: strict,
		want: `{"creationTimestamp":"2019-12-31T23:02:03Z","deletionTimestamp":"2021-06-01T19:30:00Z","managedFields":[{"time":"2022-02-02T02:02:02Z"}]}`},
	{name: "deletionTimestamp null omitted", in: `{"deletionTimestamp":null}`, opts: strict, want: `{}`},
	{name: "deletionTimestamp zero is null", in: `{"deletionTimestamp":"0001-01-01T00:00:00Z"}`, opts: strict, want: `{"deletionTimestamp":null}`},
	{name: "managedFields time zero is null", in: `{"managedFields":[{"manager":"m","time":"0001-01-01T00:00:00Z"}]}`, opts: strict, want: `{"managedFields":[{"manager":"m","time":null}]}`},
	{name: "timestamp beyond year 9999", in: `{"creationTimestamp":"9999-12-31T23:59:59-01:00"}`, opts: strict, want: `{"creationTimestamp":"10000-01-01T00:59:59Z"}`},
	{name: "ownerReferences required fields", in: `{"ownerReferences":[{"uid":"u"}]}`, opts: strict, want: `{"ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":"u"}]}`},
	{name: "ownerReferences null entry", in: `{"ownerReferences":[null]}`, opts: strict, want: `{"ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":""}]}`},
	{name: "ownerReferences pointers", in: `{"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","controller":true,"blockOwnerDeletion":false},{"controller":null,"blockOwnerDeletion":null,"name":null}]}`, opts: strict,
		want: `{"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","controller":true,"blockOwnerDeletion":false},{"apiVersion":"","kind":"","name":"","uid":""}]}`},
	{name: "null label and annotation values", in: `{"labels":{"a":null,"b":"c"},"annotations":{"x":null}}`, opts: strict, want: `{"labels":{"a":"","b":"c"},"annotations":{"x":""}}`},
	{name: "null finalizer", in: `{"finalizers":[null,"a"]}`, opts: strict, want: `{"finalizers":["","a"]}`},
	{name: "generation integral floats", in: `{"generation":2.0}`, opts: strict, want: `{"generation":2}`},
	{name: "generation 1e1", in: `{"generation":1e1}`, opts: strict, want: `{"generation":10}`},
	{name: "generation zero omitted", in: `{"generation":0,"name":"a"}`, opts: strict, want: `{"name":"a"}`},
	{name: "generation minus zero omitted", in: `{"generation":-0.0}`, opts: strict, want: `{}`},
	{name: "generation null omitted", in: `{"generation":null}`, opts: strict, want: `{}`},
	{name: "generation int64 bounds", in: `{"generation":-9223372036854775808}`, opts: strict, want: `{"generation":-9223372036854775808}`},
	{name: "deletionGracePeriodSeconds zero kept", in: `{"deletionGracePeriodSeconds":0}`, opts: strict, want: `{"deletionGracePeriodSeconds":0}`},
	{name: "deletionGracePeriodSeconds float", in: `{"deletionGracePeriodSeconds":30.0}`, opts: strict, want: `{"deletionGracePeriodSeconds":30}`},
	{name: "deletionGracePeriodSeconds null omitted", in: `{"deletionGracePeriodSeconds":null}`, opts: strict, want: `{}`},
	{name: "managedFields full entry", in: `{"managedFields":[{"manager":"kubectl","operation":"Update","apiVersion":"example.com/v1","time":"2020-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{".":{},"f:x":{}}},"subresource":"status"}]}`, opts: strict,
		want: `{"managedFields":[{"manager":"kubectl","operation":"Update","apiVersion":"example.com/v1","time":"2020-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{".":{},"f:x":{}}},"subresource":"status"}]}`},
	{name: "managedFields empty values omitted", in: `{"managedFields":[{"manager":"","operation":null,"time":null,"fieldsV1":null},null]}`, opts: strict, want: `{"managedFields":[{},{}]}`},
	{name: "fieldsV1 numbers re-parsed", in: `{"managedFields":[{"fieldsV1":{"a":2.0,"b":[1.5,1e3,1e21,-0.0],"c":9007199254740993}}]}`, opts: strict,
		want: `{"managedFields":[{"fieldsV1":{"a":2,"b":[1.5,1000,1e21,0],"c":9007199254740993}}]}`},
	{name: "fieldsV1 scalars and empties kept", in: `{"managedFields":[{"fieldsV1":5},{"fieldsV1":"s"},{"fieldsV1":true},{"fieldsV1":[]},{"fieldsV1":{}},{"fieldsV1":2.0},{"fieldsV1":1.5}]}`, opts: strict,
		want: `{"managedFields":[{"fieldsV1":5},{"fieldsV1":"s"},{"fieldsV1":true},{"fieldsV1":[]},{"fieldsV1":{}},{"fieldsV1":2},{"fieldsV1":1.5}]}`},

	// 4.2 item 8: drop mode (G03).
	{name: "G03 drop whole labels", in: `{"name":"a","labels":{"a":"b","c":5},"annotations":{"x":"y"}}`, opts: drop,
		want: `{"annotations":{"x":"y"},"name":"a"}`},
	{name: "drop several", in: `{"name":"a","generation":1.5,"creationTimestamp":"bad","namespace":5,"ownerReferences":[{"uid":"u","controller":5}],"finalizers":["f"],"foo":1}`, opts: drop,
		want: `{"name":"a","finalizers":["f"]}`},
	{name: "drop mode well-formed", in: `{"name":"a","generation":2.0,"foo":1}`, opts: drop, want: `{"name":"a","generation":2}`},
	{name: "drop null", in: `null`, opts: drop, want: `{}`},
	{name: "drop array", in: `[1]`, opts: drop, err: `invalid metadata: expected object, got []interface {}`},
	{name: "drop string", in: `"x"`, opts: dropU, err: `invalid metadata: expected object, got string`},
	{name: "drop int", in: `5`, opts: drop, err: `invalid metadata: expected object, got int64`},
	{name: "drop float", in: `1.5`, opts: drop, err: `invalid metadata: expected object, got float64`},
	{name: "drop bool", in: `false`, opts: drop, err: `invalid metadata: expected object, got bool`},
	{name: "drop with unknown", in: `{"name":"a","foo":1,"labels":{"a":5},"ownerReferences":[{"x":1,"controller":5}],"managedFields":[{"y":1}]}`, opts: dropU,
		want: `{"name":"a","managedFields":[{}]}`, unknown: []string{"metadata.foo", "metadata.managedFields[0].y"}},
	{name: "drop with unknown all good", in: `{"zz":1,"ownerReferences":[{"x":1}],"aa":1}`, opts: dropU,
		want: `{"ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":""}]}`, unknown: []string{"metadata.aa", "metadata.ownerReferences[0].x", "metadata.zz"}},
}

func TestNormalize(t *testing.T) {
	for _, tc := range normalizeCases {
		t.Run(tc.name, func(t *testing.T) {
			in := parse(t, tc.in)
			before := parse(t, tc.in)
			meta, unknown, err := Normalize(in, tc.opts)
			if !reflect.DeepEqual(in, before) {
				t.Errorf("input modified: %v", in)
			}
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error = %v\nwant    %s", err, tc.err)
				}
				if meta != nil || unknown != nil {
					t.Errorf("got %v %v with the error", meta, unknown)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if want := parse(t, tc.want); !reflect.DeepEqual(meta, want) {
				t.Errorf("meta = %s (%#v)\nwant   %s", mustJSON(t, meta), meta, tc.want)
			}
			if !reflect.DeepEqual(unknown, tc.unknown) {
				t.Errorf("unknown = %q\nwant      %q", unknown, tc.unknown)
			}
			// ReportUnknown never changes the result, only the paths.
			other := tc.opts
			other.ReportUnknown = !other.ReportUnknown
			meta2, _, err2 := Normalize(in, other)
			if err2 != nil || !reflect.DeepEqual(meta2, meta) {
				t.Errorf("with ReportUnknown=%v: %v %v", other.ReportUnknown, meta2, err2)
			}
			// A well-formed metadata decodes the same in both modes.
			if !tc.opts.DropMalformed {
				dopts := tc.opts
				dopts.DropMalformed = true
				meta3, unknown3, err3 := Normalize(in, dopts)
				if err3 != nil || !reflect.DeepEqual(meta3, meta) || !reflect.DeepEqual(unknown3, unknown) {
					t.Errorf("drop mode: %v %q %v", meta3, unknown3, err3)
				}
			}
		})
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Output numbers are int64 for the int64 fields, whatever the input type.
func TestNormalizeNumberTypes(t *testing.T) {
	meta, _, err := Normalize(map[string]any{
		"generation":                 float64(3),
		"deletionGracePeriodSeconds": float64(0),
	}, strict)
	if err != nil {
		t.Fatal(err)
	}
	if g, ok := meta["generation"].(int64); !ok || g != 3 {
		t.Errorf("generation = %#v", meta["generation"])
	}
	if g, ok := meta["deletionGracePeriodSeconds"].(int64); !ok || g != 0 {
		t.Errorf("deletionGracePeriodSeconds = %#v", meta["deletionGracePeriodSeconds"])
	}
}

// The 100-error cap of sigs.k8s.io/json: per decode call.
func TestNormalizeUnknownCap(t *testing.T) {
	m := map[string]any{}
	for i := range 150 {
		m[fmt.Sprintf("k%03d", i)] = int64(i)
	}
	_, unknown, err := Normalize(m, strict)
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) != 100 || unknown[0] != "metadata.k000" || unknown[99] != "metadata.k099" {
		t.Errorf("got %d paths %q...%q", len(unknown), unknown[0], unknown[len(unknown)-1])
	}

	refs := func(prefix string) map[string]any {
		r := map[string]any{}
		for i := range 60 {
			r[fmt.Sprintf("%s%03d", prefix, i)] = int64(1)
		}
		return r
	}
	m = map[string]any{"aa": int64(1), "zz": int64(1), "ownerReferences": []any{refs("x"), refs("y")}}
	for _, opts := range []Options{strict, dropU} {
		_, unknown, err = Normalize(m, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(unknown) != 100 || unknown[0] != "metadata.aa" || unknown[99] != "metadata.ownerReferences[1].y038" {
			t.Errorf("%+v: got %d paths, last %q", opts, len(unknown), unknown[len(unknown)-1])
		}
	}
	// In drop mode with a dropped key every kept key had its own decode
	// call, hence its own cap: 1 + 100 + 1.
	m["labels"] = int64(5)
	_, unknown, err = Normalize(m, dropU)
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) != 102 || unknown[100] != "metadata.ownerReferences[1].y039" || unknown[101] != "metadata.zz" {
		t.Errorf("got %d paths, tail %q", len(unknown), unknown[len(unknown)-2:])
	}
}

// Values that are not JSON-shaped: what encoding/json.Marshal does with them.
func TestNormalizeGoValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   any
		opts Options
		want map[string]any
		err  string
	}{
		{name: "nil slice is null", in: []any(nil), opts: drop, want: map[string]any{}},
		{name: "nil map is null", in: map[string]any(nil), opts: strict, want: map[string]any{}},
		{name: "nil map label set", in: map[string]any{"labels": map[string]any(nil), "finalizers": []any(nil)}, opts: strict, want: map[string]any{}},
		{name: "nil map in finalizers", in: map[string]any{"finalizers": []any{map[string]any(nil)}}, opts: strict, want: map[string]any{"finalizers": []any{""}}},
		{name: "NaN", in: map[string]any{"foo": math.Inf(1), "bar": math.NaN()}, opts: drop, err: "json: unsupported value: NaN"},
		{name: "Go int", in: map[string]any{"generation": 1}, opts: strict, err: "objectmeta: unsupported value of type int"},
		{name: "invalid UTF-8", in: map[string]any{"name": "a\xffb", "labels": map[string]any{"k\xfe": "v\xff"}, "x\xff": int64(1)}, opts: strict,
			want: map[string]any{"name": "a\uFFFDb", "labels": map[string]any{"k\uFFFD": "v\uFFFD"}}},
		{name: "UTF-8 collision", in: map[string]any{"labels": map[string]any{"k\xfe": "1", "k\xff": "2"}}, opts: strict,
			want: map[string]any{"labels": map[string]any{"k\uFFFD": "2"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			meta, _, err := Normalize(tc.in, tc.opts)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error = %v, want %s", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(meta, tc.want) {
				t.Errorf("got %#v, %v; want %#v", meta, err, tc.want)
			}
		})
	}
	_, unknown, _ := Normalize(map[string]any{"x\xff": int64(1)}, strict)
	if !reflect.DeepEqual(unknown, []string{"metadata.x\uFFFD"}) {
		t.Errorf("unknown = %q", unknown)
	}
}

func TestNormalizeErrorTypes(t *testing.T) {
	_, _, err := Normalize(parse(t, `{"ownerReferences":[{"controller":5}]}`), strict)
	te, ok := err.(*UnmarshalTypeError)
	if !ok {
		t.Fatalf("%T %v", err, err)
	}
	want := UnmarshalTypeError{Value: "number", Type: "bool", Struct: "OwnerReference", Field: "ownerReferences.controller"}
	if *te != want {
		t.Errorf("got %+v", *te)
	}
}

type coerceCase struct {
	name    string
	in      string // JSON of the embedded object
	path    string
	opts    Options
	want    string // JSON of the object afterwards ("" when err is set)
	unknown []string
	err     string
}

var coerceCases = []coerceCase{
	{name: "kind number", in: `{"kind":5}`, path: "spec.embedded", opts: strict, err: `spec.embedded.kind: Invalid value: 5: must be a string`},
	{name: "apiVersion null", in: `{"apiVersion":null,"kind":"K"}`, path: "spec.embedded", opts: strict, err: `spec.embedded.apiVersion: Invalid value: null: must be a string`},
	{name: "apiVersion float", in: `{"apiVersion":1.5}`, path: "spec.embedded", opts: strict, err: `spec.embedded.apiVersion: Invalid value: 1.5: must be a string`},
	{name: "apiVersion big float", in: `{"apiVersion":1e21}`, path: "spec.embedded", opts: strict, err: `spec.embedded.apiVersion: Invalid value: 1e+21: must be a string`},
	{name: "apiVersion bool", in: `{"apiVersion":true}`, path: "spec.embedded", opts: strict, err: `spec.embedded.apiVersion: Invalid value: true: must be a string`},
	{name: "apiVersion object", in: `{"apiVersion":{"b":1,"a":"<x>"}}`, path: "spec.embedded", opts: strict, err: `spec.embedded.apiVersion: Invalid value: {"a":"\u003cx\u003e","b":1}: must be a string`},
	{name: "kind array", in: `{"kind":[1,"x"]}`, path: "spec.embeddedList[0]", opts: strict, err: `spec.embeddedList[0].kind: Invalid value: [1,"x"]: must be a string`},
	{name: "metadata name number", in: `{"metadata":{"name":5}}`, path: "spec.embedded", opts: strict,
		err: `spec.embedded.metadata: Invalid value: {"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`},
	{name: "metadata string", in: `{"metadata":"x"}`, path: "spec.embedded", opts: strict,
		err: `spec.embedded.metadata: Invalid value: "x": json: cannot unmarshal string into Go value of type v1.ObjectMeta`},
	{name: "metadata number", in: `{"metadata":5}`, path: "spec.embeddedMap[k.1]", opts: strict,
		err: `spec.embeddedMap[k.1].metadata: Invalid value: 5: json: cannot unmarshal number into Go value of type v1.ObjectMeta`},
	{name: "metadata array sorted JSON", in: `{"metadata":[1,{"b":1,"a":2.5}]}`, path: "spec.embedded", opts: strict,
		err: `spec.embedded.metadata: Invalid value: [1,{"a":2.5,"b":1}]: json: cannot unmarshal array into Go value of type v1.ObjectMeta`},
	{name: "metadata labels HTML escaped", in: `{"metadata":{"labels":{"z":1,"a":"<&>"}}}`, path: "spec.embedded", opts: strict,
		err: `spec.embedded.metadata: Invalid value: {"labels":{"a":"\u003c\u0026\u003e","z":1}}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string`},
	{name: "metadata time", in: `{"metadata":{"creationTimestamp":"yesterday"}}`, path: "spec.embedded", opts: quiet,
		err: `spec.embedded.metadata: Invalid value: {"creationTimestamp":"yesterday"}: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
	{name: "C09 metadata null", in: `{"apiVersion":"v1","kind":"K","metadata":null}`, path: "spec.embedded", opts: strict,
		want: `{"apiVersion":"v1","kind":"K","metadata":{}}`},
	{name: "unknown and creationTimestamp", in: `{"metadata":{"creationTimestamp":null,"foo":1,"name":"x","ownerReferences":[{"b":1}]}}`, path: "spec.embedded", opts: strict,
		want:    `{"metadata":{"name":"x","ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":""}]}}`,
		unknown: []string{"spec.embedded.metadata.foo", "spec.embedded.metadata.ownerReferences[0].b"}},
	{name: "creationTimestamp kept", in: `{"metadata":{"creationTimestamp":"2020-01-01T00:00:00+01:00"}}`, path: "spec.embedded", opts: strict,
		want: `{"metadata":{"creationTimestamp":"2019-12-31T23:00:00Z"}}`},
	{name: "unknown in list", in: `{"metadata":{"m3":1}}`, path: "spec.embeddedList[0]", opts: strict, want: `{"metadata":{}}`, unknown: []string{"spec.embeddedList[0].metadata.m3"}},
	{name: "unknown in map", in: `{"metadata":{"foo":1}}`, path: "spec.embeddedMap[k.1]", opts: strict, want: `{"metadata":{}}`, unknown: []string{"spec.embeddedMap[k.1].metadata.foo"}},
	{name: "unknown not asked", in: `{"metadata":{"foo":1}}`, path: "spec.embedded", opts: quiet, want: `{"metadata":{}}`},
	{name: "no metadata", in: `{"apiVersion":"v1","spec":{"x":1}}`, path: "spec.embedded", opts: strict, want: `{"apiVersion":"v1","spec":{"x":1}}`},
	{name: "apiVersion checked before metadata", in: `{"kind":5,"metadata":"x"}`, path: "spec.embedded", opts: strict, err: `spec.embedded.kind: Invalid value: 5: must be a string`},
	{name: "root path", in: `{"kind":5}`, path: "", opts: strict, err: `kind: Invalid value: 5: must be a string`},
	{name: "drop kind and apiVersion", in: `{"apiVersion":5,"kind":null,"metadata":{"name":"n"}}`, path: "spec.embedded", opts: drop, want: `{"metadata":{"name":"n"}}`},
	{name: "drop passes bad metadata through", in: `{"apiVersion":"v1","kind":5,"metadata":"x"}`, path: "spec.embedded", opts: drop, want: `{"apiVersion":"v1","metadata":"x"}`},
	{name: "drop malformed metadata fields", in: `{"metadata":{"name":5,"namespace":"n","x":1}}`, path: "spec.embedded", opts: drop, want: `{"metadata":{"namespace":"n"}}`},
	{name: "drop with unknown", in: `{"metadata":{"name":5,"x":1}}`, path: "spec.embedded", opts: dropU, want: `{"metadata":{}}`, unknown: []string{"spec.embedded.metadata.x"}},
}

func TestCoerceEmbedded(t *testing.T) {
	for _, tc := range coerceCases {
		t.Run(tc.name, func(t *testing.T) {
			obj := parse(t, tc.in).(map[string]any)
			unknown, err := CoerceEmbedded(obj, tc.path, tc.opts)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error = %v\nwant    %s", err, tc.err)
				}
				if _, ok := err.(*InvalidValueError); !ok {
					t.Errorf("error type %T", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if want := parse(t, tc.want); !reflect.DeepEqual(obj, want) {
				t.Errorf("obj = %s\nwant  %s", mustJSON(t, obj), tc.want)
			}
			if !reflect.DeepEqual(unknown, tc.unknown) {
				t.Errorf("unknown = %q\nwant      %q", unknown, tc.unknown)
			}
		})
	}
}

// appendJSONFloat, sanitize and renderBadValue mirror encoding/json; check
// them against it.
func TestJSONRenderingMatchesEncodingJSON(t *testing.T) {
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 1.5, 2.0, 1e20, 1e21, 1e-6, 1e-7, 9.99e-7, 123456789e-15,
		9.223372036854776e18, 1e300, -1e-300, math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1, 1.0 / 3}
	for _, f := range floats {
		want, _ := json.Marshal(f)
		if got := jsonvalue.AppendFloat(nil, f); string(got) != string(want) {
			t.Errorf("%v: got %s want %s", f, got, want)
		}
	}
	for _, s := range []string{"", "abc", "a\xffb", "\xfe\xff", "é\xc3", "\xed\xa0\x80", "ok\u2028"} {
		want, _ := json.Marshal(s)
		var back string
		_ = json.Unmarshal(want, &back)
		if got := jsonvalue.ReplaceInvalidUTF8(s); got != back {
			t.Errorf("%q: got %q want %q", s, got, back)
		}
	}
	for _, tc := range []struct {
		v    any
		want string
	}{
		{"a\"b", `"a\"b"`}, {int64(-5), "-5"}, {1e6, "1e+06"}, {2.5, "2.5"}, {false, "false"}, {nil, "null"},
		{map[string]any{"b": []any{int64(1)}, "a": nil}, `{"a":null,"b":[1]}`}, {[]any(nil), "null"},
	} {
		if got := renderBadValue(tc.v); got != tc.want {
			t.Errorf("%#v: got %s want %s", tc.v, got, tc.want)
		}
	}
}
