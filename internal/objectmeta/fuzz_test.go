package objectmeta

import (
	"reflect"
	"testing"
	"time"
)

// FuzzNormalize: any JSON value, as metadata, never panics, and a
// successful result normalises to itself with no unknown fields (except
// where Kubernetes itself is not idempotent: see unstableTimes). It also
// checks that ReportUnknown never changes the result, and that a value that
// decodes in request mode decodes identically in drop mode.
func FuzzNormalize(f *testing.F) {
	for _, tc := range normalizeCases {
		f.Add([]byte(tc.in))
	}
	for _, tc := range coerceCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := parseJSON(data)
		if err != nil {
			return
		}
		meta, unknown, err := Normalize(v, strict)
		quietMeta, quietUnknown, quietErr := Normalize(v, quiet)
		if !sameErr(err, quietErr) || !reflect.DeepEqual(meta, quietMeta) || quietUnknown != nil {
			t.Fatalf("ReportUnknown changed the result: %v %v / %v %v", meta, err, quietMeta, quietErr)
		}
		dropMeta, dropUnknown, dropErr := Normalize(v, dropU)
		if err == nil {
			if dropErr != nil || !reflect.DeepEqual(dropMeta, meta) || !reflect.DeepEqual(dropUnknown, unknown) {
				t.Fatalf("drop mode differs on well-formed metadata: %v %q %v / %v %q", dropMeta, dropUnknown, dropErr, meta, unknown)
			}
		}
		if m, isMap := v.(map[string]any); isMap {
			obj := map[string]any{"metadata": m, "kind": "K"}
			if _, cerr := CoerceEmbedded(obj, "spec.e", strict); (cerr == nil) != (err == nil) {
				t.Fatalf("CoerceEmbedded error %v, Normalize error %v", cerr, err)
			}
		}
		for _, out := range []map[string]any{meta, dropMeta} {
			if out == nil || unstableTimes(out) {
				continue
			}
			again, unknown2, err2 := Normalize(out, strict)
			if err2 != nil || unknown2 != nil || !reflect.DeepEqual(again, out) {
				t.Fatalf("not idempotent:\n%#v\n%#v %q %v", out, again, unknown2, err2)
			}
		}
	})
}

func sameErr(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Error() == b.Error()
}

// unstableTimes reports whether normalised metadata holds a timestamp that a
// second pass changes, as it does in Kubernetes: a null pointer timestamp
// (the zero instant), a rendering of the zero instant, or a rendering
// outside the years 0000-9999 that cannot be parsed again.
func unstableTimes(meta map[string]any) bool {
	unstable := func(v any, present bool) bool {
		if !present {
			return false
		}
		s, ok := v.(string)
		if !ok {
			return true
		}
		t, err := time.Parse(time.RFC3339, s)
		return err != nil || t.IsZero()
	}
	ct, ok := meta["creationTimestamp"]
	if unstable(ct, ok) {
		return true
	}
	dt, ok := meta["deletionTimestamp"]
	if unstable(dt, ok) {
		return true
	}
	mf, _ := meta["managedFields"].([]any)
	for _, e := range mf {
		tm, ok := e.(map[string]any)["time"]
		if unstable(tm, ok) {
			return true
		}
	}
	return false
}
