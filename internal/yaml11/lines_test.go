package yaml11

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf8"
)

// naiveLineStarts is lineStarts as first written, byte by byte: the
// reference the skipping version must agree with.
func naiveLineStarts(data []byte) []int {
	starts := []int{0}
	for i := 0; i < len(data); {
		switch {
		case data[i] == '\n':
			i++
		case data[i] == '\r':
			i++
			if i < len(data) && data[i] == '\n' {
				i++
			}
		case bytes.HasPrefix(data[i:], []byte("\u0085")), bytes.HasPrefix(data[i:], []byte("\u2028")),
			bytes.HasPrefix(data[i:], []byte("\u2029")):
			_, size := utf8.DecodeRune(data[i:])
			i += size
		default:
			i++
			continue
		}
		starts = append(starts, i)
	}
	return starts
}

func TestLineStarts(t *testing.T) {
	pieces := []string{"a", "key: value", "\n", "\r", "\r\n", "\u0085", "\u2028", "\u2029", "\u00e9",
		"\u2030", "\xc2", "\xe2", "\xe2\x80", "\xff", " ", "é\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 20000 {
		var b []byte
		for range r.IntN(12) {
			b = append(b, pieces[r.IntN(len(pieces))]...)
		}
		if got, want := lineStarts(b), naiveLineStarts(b); !slices.Equal(got, want) {
			t.Fatalf("case %d %q: lineStarts = %v, want %v", n, b, got, want)
		}
	}
}

func FuzzLineStarts(f *testing.F) {
	f.Add([]byte("a\r\nb\u2028c\u0085\rd\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := lineStarts(b), naiveLineStarts(b); !slices.Equal(got, want) {
			t.Fatalf("%q: lineStarts = %v, want %v", b, got, want)
		}
	})
}

func BenchmarkLineStarts(b *testing.B) {
	data := bytes.Repeat([]byte("metadata:\n  name: example-é\n  labels: {app: web}\n"), 20000)
	for _, bc := range []struct {
		name string
		f    func([]byte) []int
	}{{"skipping", lineStarts}, {"naive", naiveLineStarts}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				bc.f(data)
			}
		})
	}
}
