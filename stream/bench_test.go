package stream

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// ndjson and yamlStream make inputs of about n bytes of small objects.
func ndjson(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w%d","namespace":"default"},"spec":{"size":%d,"list":[{"a":"x\"y"},{"b":[1,2,3]}]}}`+"\n", i, i)
	}
	return b.Bytes()
}

func yamlStream(n int, list bool) []byte {
	var b bytes.Buffer
	if list {
		b.WriteString("apiVersion: v1\nitems:\n")
	}
	for i := 0; b.Len() < n; i++ {
		if list {
			fmt.Fprintf(&b, "- apiVersion: example.com/v1\n  kind: Widget\n  metadata:\n    name: w%d\n  spec:\n    size: %d\n    list:\n    - a: x\n", i, i)
		} else {
			fmt.Fprintf(&b, "---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w%d\nspec:\n  size: %d\n  list:\n  - a: x\n", i, i)
		}
	}
	if list {
		b.WriteString("kind: List\n")
	}
	return b.Bytes()
}

func readAll(tb testing.TB, r *Reader) (n int) {
	for {
		_, err := r.ReadDocument()
		if err == io.EOF {
			return n
		}
		if err != nil {
			tb.Fatal(err)
		}
		n++
	}
}

func BenchmarkReadDocument(b *testing.B) {
	for _, in := range []struct {
		name string
		data []byte
	}{
		{"ndjson", ndjson(32 << 20)},
		{"yaml", yamlStream(32<<20, false)},
		{"yamllist", yamlStream(32<<20, true)},
	} {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.data)))
			b.ReportAllocs()
			for b.Loop() {
				r, _ := NewReader(bytes.NewReader(in.data))
				readAll(b, r)
			}
		})
	}
}

// Reading a stream allocates nothing per document in steady state.
func TestReadDocumentAllocs(t *testing.T) {
	for name, data := range map[string][]byte{
		"ndjson":   ndjson(4 << 20),
		"yaml":     yamlStream(4<<20, false),
		"yamllist": yamlStream(4<<20, true),
		"list":     append(append([]byte(`{"kind":"List","items":[`), bytes.ReplaceAll(bytes.TrimSpace(ndjson(4<<20)), []byte("\n"), []byte(","))...), "]}"...),
	} {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		for range 100 { // warm up: the window and the queue reach their sizes
			if _, err := r.ReadDocument(); err != nil {
				t.Fatal(err)
			}
		}
		docs := 0
		allocs := testing.AllocsPerRun(1000, func() {
			if _, err := r.ReadDocument(); err != nil && err != io.EOF {
				t.Fatal(err)
			}
			docs++
		})
		if allocs > 0.01 {
			t.Errorf("%s: %.3f allocations per document", name, allocs)
		}
	}
}
