package decoder

import (
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/internal/objectmeta"
)

// quickMetaAgrees decodes a document whose root metadata is meta (any
// JSON text) with validation, and checks that when quickRootMeta says the
// metadata the fast path read is surely valid, objectmeta's checks of the
// metadata as written (ValidateIndexed) find nothing. It reports the quick
// verdict, and whether the fast path read the metadata at all.
func quickMetaAgrees(t *testing.T, d *Decoder, meta []byte) (quick, fast bool) {
	t.Helper()
	doc := append(append([]byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":`), meta...), `,"spec":{"size":"small"}}`...)
	d.AppendPrune(nil, doc) // its errors, if any, are not what is compared
	if !d.meta.indexed || !d.val.meta {
		return false, false
	}
	quick = d.quickRootMeta()
	full := d.val.metaV.ValidateIndexed(d.val.metaJSON, &d.meta.spans, objectmeta.ValidateOptions{}, nil)
	if quick && len(full) > 0 {
		t.Errorf("metadata %s (written %s): the quick pass says valid, the checks find %v", meta, d.val.metaJSON, full)
	}
	return quick, true
}

// TestQuickRootMeta: the decoder's quick pass on the root metadata as the
// fast path read it (quickRootMeta) says valid only of metadata that
// objectmeta's checks pass, and says so of the usual forms.
func TestQuickRootMeta(t *testing.T) {
	d := newValDecoder(t)
	for _, tc := range []struct {
		meta  string
		quick bool
	}{
		{`{"name":"x","namespace":"y"}`, true},
		{`{ "name" : "x" , "namespace" : "y" }`, true},
		{`{"name":"a.b-c.d9","namespace":"ns-1"}`, true},
		{`{"labels":{"app":"web","example.com/Tier":"Front_end.1","k":""},"name":"w"}`, true},
		{`{"annotations":{"Example.COM/Key":"any \"value\" \\ at all","x":""},"name":"w"}`, true},
		{`{"finalizers":["example.com/f","kubernetes"],"name":"w"}`, true},
		{`{"generation":3,"name":"w","uid":"u","resourceVersion":"7","creationTimestamp":"2024-01-02T03:04:05Z"}`, true},
		{`{"name":"w","namespace":""}`, true},
		{`{"name":"w","labels":{},"annotations":{},"finalizers":[]}`, true},
		{`{"annotations":{"A.COM/b":"v"},"name":"w"}`, true},
		{`{}`, false},
		{`{"name":""}`, false},
		{`{"name":"W"}`, false},
		{`{"name":"a..b"}`, false},
		{`{"name":"a.-b"}`, false},
		{`{"name":"-a"}`, false},
		{`{"name":"a-"}`, false},
		{`{"name":"a\u0062"}`, false},
		{`{"name":"` + strings.Repeat("a", 254) + `"}`, false},
		{`{"name":"w","namespace":"a.b"}`, false},
		{`{"name":"w","namespace":"` + strings.Repeat("a", 64) + `"}`, false},
		// generateName: checked masked, and the name generated from it
		// when the name is empty (maskTrailingDash, generatedTail)
		{`{"generateName":"w-"}`, true},
		{`{"generateName":"large-workflow-","namespace":"argo"}`, true},
		{`{"generateName":"w"}`, true},
		{`{"generateName":"a-","name":"b"}`, true},
		{`{"generateName":"a-","name":""}`, true},
		{`{"generateName":"","name":"w"}`, true},
		{`{"generateName":"` + strings.Repeat("a", 60) + `-"}`, true},
		{`{"generateName":"` + strings.Repeat("a", 253) + `-"}`, true},
		{`{"generateName":""}`, false},
		{`{"generateName":"W-"}`, false},
		{`{"generateName":"a.-"}`, false},
		{`{"generateName":"-"}`, false},
		{`{"generateName":"a..b-"}`, false},
		{`{"generateName":"a-","name":"B"}`, false},
		{`{"generateName":"a\u002d"}`, false},
		{`{"generateName":"` + strings.Repeat("a", 254) + `"}`, false},
		{`{"generateName":"` + strings.Repeat("a", 254) + `-"}`, false},
		{`{"generateName":"w-","ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u"}]}`, false},
		{`{"generation":-1,"name":"w"}`, false},
		{`{"labels":{"a/b/c":"v"},"name":"w"}`, false},
		{`{"labels":{"/a":"v"},"name":"w"}`, false},
		{`{"labels":{"a/":"v"},"name":"w"}`, false},
		{`{"labels":{"A.com/a":"v"},"name":"w"}`, false},
		{`{"labels":{"a":"-v"},"name":"w"}`, false},
		{`{"labels":{"a":"` + strings.Repeat("v", 64) + `"},"name":"w"}`, false},
		{`{"labels":{"a":"v\u0041"},"name":"w"}`, false},
		{`{"annotations":{"a b":"v"},"name":"w"}`, false},
		{`{"annotations":{"a":"` + strings.Repeat("v", 262144) + `"},"name":"w"}`, false},
		{`{"annotations":{"a":"` + strings.Repeat("v", 262144-8) + `"},"name":"w"}`, true},
		{`{"annotations":{"a":"` + strings.Repeat("v", 262144-7) + `"},"name":"w"}`, false},
		{`{"annotations":{"a":"` + strings.Repeat("v", 131060) + `","b":"` + strings.Repeat("v", 131060) + `"},"name":"w"}`, true},
		{`{"annotations":{"a":"` + strings.Repeat("v", 131068) + `","b":"` + strings.Repeat("v", 131068) + `"},"name":"w"}`, false},
		{`{"finalizers":["orphan"],"name":"w"}`, false},
		{`{"finalizers":["foregroundDeletion"],"name":"w"}`, false},
		{`{"finalizers":["a/b/c"],"name":"w"}`, false},
		{`{"name":"w","ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u"}]}`, false},
	} {
		quick, fast := quickMetaAgrees(t, d, []byte(tc.meta))
		if !fast {
			t.Errorf("%.80s: not read by the fast metadata path", tc.meta)
			continue
		}
		if quick != tc.quick {
			t.Errorf("%.80s: quick %v, want %v", tc.meta, quick, tc.quick)
		}
	}
}

// FuzzQuickRootMeta: quickRootMeta says valid only of root metadata that
// objectmeta's checks pass.
func FuzzQuickRootMeta(f *testing.F) {
	for _, s := range []string{
		`{"name":"x","namespace":"y"}`, `{"labels":{"a/b":"c"},"name":"w"}`, `{"annotations":{"K":"\"v\\"},"name":"w"}`,
		`{"finalizers":["a","b/c"],"name":"a.b"}`, `{"name":"a.-b"}`, `{"labels":{"a":"b-"},"name":"w"}`,
		`{"generation":2,"name":"w","uid":"u"}`, `{"name":"w","namespace":""}`,
	} {
		f.Add([]byte(s))
	}
	var d *Decoder
	f.Fuzz(func(t *testing.T, meta []byte) {
		if d == nil {
			d = newValDecoder(t)
		}
		quickMetaAgrees(t, d, meta)
	})
}
