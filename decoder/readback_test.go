package decoder

import (
	"math/rand/v2"
	"testing"

	"github.com/jsonprune/jsonprune/internal/jsonvalue"
	"github.com/jsonprune/jsonprune/validate"
)

// TestListTypeValid: where listTypeValid decides, it decides as
// validate.ListTypeErrors (the server's validateListSetsAndMaps) does,
// on random sets and map lists of scalars, objects and mixed keys.
func TestListTypeValid(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	scalars := []any{nil, true, false, "a", "b", "1", int64(1), int64(2), float64(1), float64(2.5), ""}
	keyss := [][]string{{"k"}, {"k", "p"}, {"p", "k", "q"}}
	decided := 0
	for range 20000 {
		n := r.IntN(6)
		items := make([]any, n)
		listType := "set"
		var keys []string
		if r.IntN(2) == 0 {
			listType, keys = "map", keyss[r.IntN(len(keyss))]
		}
		for i := range items {
			switch {
			case listType == "set" && r.IntN(8) > 0, r.IntN(20) == 0:
				items[i] = scalars[r.IntN(len(scalars))]
			case r.IntN(10) == 0:
				items[i] = []any{int64(1)}
			default:
				m := map[string]any{}
				for _, k := range []string{"k", "p", "q", "x"} {
					if r.IntN(3) > 0 {
						m[k] = scalars[r.IntN(len(scalars))]
					}
				}
				items[i] = m
			}
		}
		valid, ok := listTypeValid(listType, keys, items)
		if !ok {
			continue
		}
		decided++
		if want := len(validate.ListTypeErrors("l", listType, keys, items)) == 0; valid != want {
			t.Fatalf("%s %v %s: listTypeValid %v, ListTypeErrors %v", listType, keys, jsonvalue.AppendCanonical(nil, items), valid, want)
		}
	}
	if decided < 5000 {
		t.Errorf("only %d decided", decided)
	}
}

// TestReadBack: readBack reads what jsonvalue.Parse reads.
func TestReadBack(t *testing.T) {
	var r readBack
	for _, doc := range []string{`{"a":[1,2.5,-0,1e3,"x\"y","\u00e9",true,false,null,{}],"b":{"c":[]},"a":7}`, `[]`, `[[],[[1]]]`,
		`12345678901234567890`, `-9223372036854775808`, `"a\\b"`, `{"é":"ü"}`, ` { "a" : [ 1 , 2 ] } `} {
		want, err := jsonvalue.Parse([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		r.reset()
		got, _, ok := r.value([]byte(doc), 0)
		if !ok || string(jsonvalue.AppendCanonical(nil, got)) != string(jsonvalue.AppendCanonical(nil, want)) {
			t.Errorf("%s: %v %s, want %s", doc, ok, jsonvalue.AppendCanonical(nil, got), jsonvalue.AppendCanonical(nil, want))
		}
	}
	r.reset()
	if _, _, ok := r.value([]byte(`1e400`), 0); ok {
		t.Error("1e400 read")
	}
}
