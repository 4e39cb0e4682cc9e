package decoder

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/fieldpath"
)

// TestPointerFromPath: for every path of up to four segments built from
// names with and without the separators, and indexes, the pointer derived
// from a plain path's text is the pointer rendered from its segments; a
// path that is not plain is rendered eagerly.
func TestPointerFromPath(t *testing.T) {
	names := []string{"spec", "", "x", "a.b", "a[0]", "a]", "a/b", "a~b", "ключ", `q"k`, "0"}
	var segs []fieldpath.Segment
	n, plain := 0, 0
	var walk func(depth int)
	walk = func(depth int) {
		if len(segs) > 0 {
			d := &Decoder{find: findings{path: segs}}
			want := string(fieldpath.AppendPointer(nil, segs))
			if d.plainPath() {
				plain++
				if got := pointerFromPath(d.appendPath(nil)); got != want {
					t.Errorf("%q: derived pointer %q, want %q", d.appendPath(nil), got, want)
				}
			}
			n++
		}
		if depth == 4 {
			return
		}
		for _, name := range names {
			segs = append(segs, fieldpath.Segment{Kind: fieldpath.Key, Name: []byte(name)})
			walk(depth + 1)
			segs = segs[:len(segs)-1]
		}
		for _, i := range []int{0, 12} {
			segs = append(segs, fieldpath.Segment{Kind: fieldpath.Index, Index: i})
			walk(depth + 1)
			segs = segs[:len(segs)-1]
		}
	}
	walk(0)
	if plain == 0 || plain == n {
		t.Fatalf("%d of %d paths plain: the test covers nothing", plain, n)
	}
	t.Logf("%d paths, %d plain", n, plain)
}

// TestCoerceErrorOffset: a non-string apiVersion of an embedded resource is
// reported at its value, on the fast path, the slow path and from a reader.
func TestCoerceErrorOffset(t *testing.T) {
	doc := `{"apiVersion":"example.com/v1","kind":"Widget","spec":{"embedded":{"apiVersion" : 5,"kind":"K"}}}`
	want := int64(strings.Index(doc, ": 5") + 2)
	d := must(New(widgetSet(t)))
	for _, slow := range []bool{false, true} {
		d.forceSlow = slow
		_, err := d.AppendPrune(nil, []byte(doc))
		var de *jperrors.DecodeError
		if !errors.As(err, &de) || de.Offset != want {
			t.Errorf("slow=%v: %v, want an error at offset %d", slow, err, want)
		}
	}
	d.forceSlow = false
	err := d.PruneReader(io.Discard, strings.NewReader(doc))
	var de *jperrors.DecodeError
	if !errors.As(err, &de) || de.Offset != want {
		t.Errorf("PruneReader: %v, want an error at offset %d", err, want)
	}
}

// TestSortRecs: the natural merge sort orders findings as a stable sort by
// path text does, on random paths with ties, runs and reversed input.
func TestSortRecs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	d := &Decoder{}
	for trial := range 500 {
		d.find.texts = d.find.texts[:0]
		n := r.IntN(60)
		var recs []rec
		for i := range n {
			var p string
			switch trial % 3 {
			case 0: // few distinct paths: ties
				p = "spec." + string(rune('a'+r.IntN(3)))
			case 1: // indexes in document order
				p = "spec.list[" + strconv.Itoa(i) + "].x"
			default:
				p = "spec.list[" + strconv.Itoa(n-i) + "]." + string(rune('a'+r.IntN(26)))
			}
			s := int32(len(d.find.texts))
			d.find.texts = append(d.find.texts, p...)
			recs = append(recs, rec{pathStart: s, pathEnd: int32(len(d.find.texts)), offset: int64(i)})
		}
		want := slices.Clone(recs)
		slices.SortStableFunc(want, func(x, y rec) int {
			return bytes.Compare(d.find.texts[x.pathStart:x.pathEnd], d.find.texts[y.pathStart:y.pathEnd])
		})
		d.sortRecs(recs)
		if !slices.Equal(recs, want) {
			t.Fatalf("trial %d: got %v\nwant %v", trial, recs, want)
		}
	}
}
