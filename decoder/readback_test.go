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

// TestListMapValid: when listMapValid says a map list is valid,
// validate.ListTypeErrors (the server's validateListSetsAndMaps) finds
// nothing in it, on random map lists of objects, nulls and scalars whose
// key fields are strings (some with escapes, some repeated), numbers and
// nulls; and it says so for most of the lists that are.
func TestListMapValid(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	values := []string{`"a"`, `"b"`, `"\u0061"`, `""`, `1`, `null`, `{"k":"a"}`}
	names := []string{`"k"`, `"p"`, `"q"`, `"x"`, `"\u006b"`}
	keyss := [][]string{{"k"}, {"k", "p"}, {"p", "k", "q"}}
	var d Decoder
	valid, found := 0, 0
	for range 20000 {
		keys := keyss[r.IntN(len(keyss))]
		text := []byte("[")
		for i := range r.IntN(6) {
			if i > 0 {
				text = append(text, ',')
			}
			switch r.IntN(12) {
			case 0:
				text = append(text, "null"...)
			case 1:
				text = append(text, `"s"`...)
			default:
				text = append(text, '{')
				n := 0
				for _, name := range names {
					if r.IntN(3) == 0 {
						continue
					}
					if n > 0 {
						text = append(text, ',')
					}
					n++
					text = append(append(append(text, name...), ':'), values[r.IntN(len(values))]...)
					if r.IntN(4) == 0 {
						text = append(text, ` `...)
					}
				}
				text = append(text, '}')
			}
		}
		text = append(text, ']')
		v, err := jsonvalue.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		want := len(validate.ListTypeErrors("l", "map", keys, v.([]any))) == 0
		got := d.listMapValid(text, keys)
		if got && !want {
			t.Fatalf("%v %s: listMapValid true, ListTypeErrors finds errors", keys, text)
		}
		if want {
			valid++
			if got {
				found++
			}
		}
	}
	if found < valid/4 {
		t.Errorf("listMapValid found %d of %d valid lists", found, valid)
	}
	t.Logf("listMapValid found %d of %d valid lists", found, valid)
}
