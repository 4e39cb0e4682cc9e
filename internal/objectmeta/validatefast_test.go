package objectmeta

import (
	"strings"
	"testing"
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
	for _, tc := range []struct {
		meta  string
		quick bool // the quick pass decides it
	}{
		{`{"name":"x","namespace":"y"}`, true},
		{`{"name":"a.b-c.d9","namespace":"ns-1"}`, true},
		{`{"labels":{"app":"web","example.com/Tier":"Front_end.1","k":""},"name":"w"}`, true},
		{`{"annotations":{"Example.COM/Key":"any \"value\" \\ at all","x":""},"name":"w"}`, true},
		{`{"finalizers":["example.com/f","kubernetes"],"name":"w"}`, true},
		{`{"generation":3,"name":"w","uid":"u"}`, true},
		// errors, or what the quick pass leaves to the full checks
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
		{`{"name":"w","namespace":""}`, true},
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
		{`{"labels":{"a":null},"name":"w"}`, false},
		{`{"labels":{ "a":"v"},"name":"w"}`, false},
		{`{"annotations":{"a b":"v"},"name":"w"}`, false},
		{`{"annotations":{"A.COM/b":"v"},"name":"w"}`, true},
		{`{"annotations":{"a":"` + strings.Repeat("v", 262144) + `"},"name":"w"}`, false},
		{`{"finalizers":["orphan"],"name":"w"}`, false},
		{`{"finalizers":["a/b/c"],"name":"w"}`, false},
		{`{"name":"w","ownerReferences":[]}`, false},
	} {
		if got := quickAgrees(t, []byte(tc.meta)); got != tc.quick {
			t.Errorf("%.80s: quick pass %v, want %v", tc.meta, got, tc.quick)
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
