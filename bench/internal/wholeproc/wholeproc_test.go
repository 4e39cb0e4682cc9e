package wholeproc

import (
	"slices"
	"testing"
)

func TestDump(t *testing.T) {
	docs := map[string][][]byte{
		"b": {[]byte(`{"b":1}`), []byte(`{"b":2}`)},
		"a": {[]byte(`{"a":1}`), []byte(`{"a":2}`)},
		"c": {[]byte(`{"c":1}`)},
		"d": {[]byte(`{"d":1}`), []byte(`{"d":2}`), []byte(`{"d":3}`)},
	}
	crds, dump := Dump(docs, 2, 7)
	if !slices.Equal(crds, []string{"d", "a"}) {
		t.Errorf("crds %q", crds)
	}
	want := `{"d":1}` + "\n" + `{"d":2}` + "\n" + `{"d":3}` + "\n" + `{"a":1}` + "\n" + `{"a":2}` + "\n" + `{"d":1}` + "\n" + `{"d":2}` + "\n"
	if string(dump) != want {
		t.Errorf("dump %q", dump)
	}
	if _, d := Dump(nil, 2, 5); len(d) != 0 {
		t.Errorf("no documents: %q", d)
	}
	if m := Median([]float64{3, 1, 2, 10}); m != 2.5 {
		t.Errorf("median %v", m)
	}
	if Min([]float64{3, 1, 2}) != 1 || Max([]float64{3, 1, 2}) != 3 {
		t.Error("min/max")
	}
	for _, c := range []struct {
		xs     []float64
		q1, q3 float64
	}{
		{[]float64{7}, 7, 7},
		{[]float64{2, 1}, 1, 2},
		{[]float64{5, 1, 3, 2, 4}, 1.5, 4.5},
		{[]float64{8, 1, 2, 7, 3, 6, 4, 5}, 2.5, 6.5},
	} {
		if q1, q3 := Quartiles(c.xs); q1 != c.q1 || q3 != c.q3 {
			t.Errorf("Quartiles(%v) = %v, %v, want %v, %v", c.xs, q1, q3, c.q1, c.q3)
		}
	}
}
