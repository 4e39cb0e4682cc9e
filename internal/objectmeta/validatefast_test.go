package objectmeta

import (
	"testing"

	"github.com/jsonprune/jsonprune/internal/metacases"
)

// quickAgrees checks the quick pass against the full checks on meta: when
// the quick pass says valid, the full checks find nothing. It reports
// whether the quick pass said valid.
func quickAgrees(t *testing.T, meta []byte) bool {
	t.Helper()
	var v Validator
	if v.index(meta) != "" {
		return false
	}
	quick := v.quickValid()
	if errs := v.validate(ValidateOptions{}, nil); quick && len(errs) > 0 {
		t.Fatalf("%s: the quick pass says valid, the full checks say %v", meta, errs)
	}
	return quick
}

func TestQuickValid(t *testing.T) {
	// the cases the decoder's quick pass shares, then objectmeta's own
	// (forms the decoder's fast path does not hand on as they are)
	for _, tc := range append(metacases.Quick[:len(metacases.Quick):len(metacases.Quick)], []metacases.Case{
		{Meta: `{"generation":3,"name":"w","uid":"u"}`, Quick: true},
		{Meta: `{"labels":{"a":null},"name":"w"}`, Quick: false},
		{Meta: `{"labels":{ "a":"v"},"name":"w"}`, Quick: false},
		{Meta: `{"name":"w","ownerReferences":[]}`, Quick: false},
	}...) {
		if got := quickAgrees(t, []byte(tc.Meta)); got != tc.Quick {
			t.Errorf("%.80s: quick pass %v, want %v", tc.Meta, got, tc.Quick)
		}
	}
}

// FuzzQuickValid: whatever the quick pass finds valid, the full checks
// find valid too.
func FuzzQuickValid(f *testing.F) {
	for _, s := range []string{
		`{"name":"x","namespace":"y"}`, `{"labels":{"a/b":"c"},"name":"w"}`, `{"annotations":{"K":"\"v\\"},"name":"w"}`,
		`{"finalizers":["a","b/c"],"name":"a.b"}`, `{"name":"a.-b"}`, `{"labels":{"a":"b-"},"name":"w"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		quickAgrees(t, data)
	})
}
