package decoder

import (
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/internal/metacases"
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
	// the cases objectmeta's quick pass shares, then the decoder's own
	// (spacing, fields the fast path reads, the annotations' size limit)
	for _, tc := range append(metacases.Quick[:len(metacases.Quick):len(metacases.Quick)], []metacases.Case{
		{Meta: `{ "name" : "x" , "namespace" : "y" }`, Quick: true},
		{Meta: `{"generation":3,"name":"w","uid":"u","resourceVersion":"7","creationTimestamp":"2024-01-02T03:04:05Z"}`, Quick: true},
		{Meta: `{"name":"w","labels":{},"annotations":{},"finalizers":[]}`, Quick: true},
		{Meta: `{"annotations":{"a":"` + strings.Repeat("v", 262144-8) + `"},"name":"w"}`, Quick: true},
		{Meta: `{"annotations":{"a":"` + strings.Repeat("v", 262144-7) + `"},"name":"w"}`, Quick: false},
		{Meta: `{"annotations":{"a":"` + strings.Repeat("v", 131060) + `","b":"` + strings.Repeat("v", 131060) + `"},"name":"w"}`, Quick: true},
		{Meta: `{"annotations":{"a":"` + strings.Repeat("v", 131068) + `","b":"` + strings.Repeat("v", 131068) + `"},"name":"w"}`, Quick: false},
		{Meta: `{"finalizers":["foregroundDeletion"],"name":"w"}`, Quick: false},
		{Meta: `{"name":"w","ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u"}]}`, Quick: false},
	}...) {
		quick, fast := quickMetaAgrees(t, d, []byte(tc.Meta))
		if !fast {
			t.Errorf("%.80s: not read by the fast metadata path", tc.Meta)
			continue
		}
		if quick != tc.Quick {
			t.Errorf("%.80s: quick %v, want %v", tc.Meta, quick, tc.Quick)
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
