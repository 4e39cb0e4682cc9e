package main

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/jsonprune/jsonprune/schemaauto"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// cutUnits cuts text read through r into units, as readInput does, and
// returns them as "kind doc.item line:col text".
func cutUnits(t *testing.T, r io.Reader, maxDoc int) []string {
	t.Helper()
	kinds := map[unitKind]string{unitDoc: "doc", unitItem: "item", unitHead: "head", unitTail: "tail", unitFail: "fail"}
	var got []string
	bl := newBuilder(&input{name: "t"}, func(b *batch) bool {
		for _, u := range b.units {
			got = append(got, fmt.Sprintf("%s %d.%d %d:%d %q", kinds[u.kind], u.doc, u.item, u.pos.line, u.pos.col, u.data.of(b.data)))
		}
		return true
	})
	cut(r, bl, maxDoc, 0, nil)
	bl.close()
	return got
}

// The command line's units and messages: those of package stream, with
// the flag named in the size limit's message; a read error is about the
// input (doc -1).
func TestCutUnits(t *testing.T) {
	text := `{"a":"0123456789"} {"b":1} {"items":[{"c":"0123456789"},{"d":1}]}`
	got := cutUnits(t, strings.NewReader(text), 12)
	want := []string{
		`fail 0.-1 1:1 "larger than the limit of 12 bytes (--max-doc-size)"`,
		`doc 1.-1 1:20 "{\"b\":1}"`,
		`head 2.-1 1:28 "{\"items\":["`,
		`fail 2.0 1:38 "larger than the limit of 12 bytes (--max-doc-size)"`,
		`item 2.1 1:57 "{\"d\":1}"`,
		`tail 2.-1 1:64 "]}"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s", strings.Join(got, "\n"))
	}

	broken := io.MultiReader(strings.NewReader("a: 1\n---\nb: 2\n"), iotest.ErrReader(errors.New("boom")))
	got = cutUnits(t, broken, 1<<20)
	want = []string{
		`doc 0.-1 1:1 "a: 1\n"`,
		`doc 1.-1 2:1 "---\nb: 2\n"`,
		`fail -1.-1 4:1 "read error after 14 bytes: boom"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s", strings.Join(got, "\n"))
	}

	got = cutUnits(t, iotest.ErrReader(errors.New("boom")), 1<<20)
	if want := `fail -1.-1 0:0 "read error after 0 bytes: boom"`; strings.Join(got, "\n") != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// BenchmarkCut measures cutting inputs into batches (the reading goroutine
// of the pipeline), on JSON Lines, a YAML stream and a streamed YAML list.
func BenchmarkCut(b *testing.B) {
	var nd, ys, yl bytes.Buffer
	for i := 0; nd.Len() < 32<<20; i++ {
		fmt.Fprintf(&nd, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w%d","namespace":"default"},"spec":{"size":%d,"list":[{"a":"x\"y"},{"b":[1,2,3]}]}}`+"\n", i, i)
	}
	yl.WriteString("apiVersion: v1\nitems:\n")
	for i := 0; ys.Len() < 32<<20; i++ {
		fmt.Fprintf(&ys, "---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w%d\nspec:\n  size: %d\n  list:\n  - a: x\n", i, i)
		fmt.Fprintf(&yl, "- apiVersion: example.com/v1\n  kind: Widget\n  metadata:\n    name: w%d\n  spec:\n    size: %d\n    list:\n    - a: x\n", i, i)
	}
	yl.WriteString("kind: List\n")
	for _, in := range []struct {
		name string
		data []byte
	}{{"ndjson", nd.Bytes()}, {"yaml", ys.Bytes()}, {"yamllist", yl.Bytes()}} {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.data)))
			b.ReportAllocs()
			for b.Loop() {
				bl := newBuilder(&input{name: "t"}, func(bt *batch) bool { freeBatch(bt); return true })
				cut(bytes.NewReader(in.data), bl, 1<<28, 0, nil)
				bl.close()
			}
		})
	}
}

// plainMember reads the members kubectl and jq write first, and nothing
// else; seeLines counts a block's line breaks, with or without a set
// (with one, it reads the lines too).
func TestPlainMember(t *testing.T) {
	for text, want := range map[string]string{
		`{"apiVersion":"v1","kind":"A"}`:   "apiVersion=v1 rest ,\"kind\":\"A\"}",
		`{"kind":"A","x":1}`:               "kind=A rest ,\"x\":1}",
		`{"apiVersion":"v\"1","kind":"A"}`: "= rest ",
		`{"a\\b":"v","kind":"A"}`:          "= rest ",
		`{ "apiVersion":"v1"}`:             "= rest ",
		`{"apiVersion":1}`:                 "= rest ",
		`{"apiVersion"`:                    "= rest ",
		`{"apiVersion":"v1`:                "= rest ",
		`[`:                                "= rest ",
		``:                                 "= rest ",
	} {
		name, value, rest := plainMember([]byte(text), '{')
		if got := string(name) + "=" + string(value) + " rest " + string(rest); got != want {
			t.Errorf("plainMember(%s) = %s, want %s", text, got, want)
		}
	}
	block := []byte("{\"apiVersion\":\"v1\",\"kind\":\"A\"}\n\n{\"kind\":\"B\",\"apiVersion\":\"x/v1\"}\n{\"a\":1}")
	for _, p := range []*prefetcher{nil, {}, {set: &schemaauto.Set{}}} { // the last reads the lines
		for _, first := range []int{0, scanBlocks} {
			if n := p.seeLines(block, first); n != 3 {
				t.Errorf("seeLines: %d line breaks, want 3", n)
			}
			if n := p.seeLines(block[:len(block)-7], first); n != 3 {
				t.Errorf("seeLines: %d line breaks, want 3", n)
			}
		}
	}
}

// BenchmarkJSONLines measures the command line on JSON Lines (-j 1,
// -o none -q, in process, CRD loading included): the input cut as one
// stream by the reading goroutine (whole), and in blocks whose lines the
// worker decodes as they are (lines).
func BenchmarkJSONLines(b *testing.B) {
	var nd bytes.Buffer
	for i := 0; nd.Len() < 8<<20; i++ {
		fmt.Fprintf(&nd, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w%d","namespace":"default","labels":{"app":"a b"}},"spec":{"replicas":%d,"list":[{"x":"a\"y"},{"x":"b"}]}}`+"\n", i, i%5)
	}
	for _, mode := range []struct {
		name   string
		blocks bool
	}{{"whole", false}, {"lines", true}} {
		b.Run(mode.name, func(b *testing.B) {
			defer func() { linesInBlocks = true }()
			linesInBlocks = mode.blocks
			b.SetBytes(int64(nd.Len()))
			for b.Loop() {
				var out, errb bytes.Buffer
				if code := run([]string{"--no-cache", "--crd", crdFile, "-j", "1", "-o", "none", "-q", "--no-validate", "-"}, bytes.NewReader(nd.Bytes()), &out, &errb); code != exitOK {
					b.Fatalf("exit %d: %s", code, errb.String())
				}
			}
		})
	}
}

// failingWriter fails every write once it has taken n bytes.
type failingWriter struct{ n int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.n < len(p) {
		return 0, errors.New("disk full")
	}
	f.n -= len(p)
	return len(p), nil
}

// TestChainedFiles: the small batches of many regular files go to the
// workers chained (runPipeline); the output is that of -j 1 with the same
// files given one by one on stdin-like inputs in between (which flush the
// chain), and when the output fails mid-run the pipeline stops, with the
// error, whatever the chain holds.
func TestChainedFiles(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 300 {
		p := filepath.Join(dir, fmt.Sprintf("w%03d.json", i))
		// about 1 KB a file: a few chains of chainBytes
		obj := strings.Replace(widgetJSON, `"name":"w"`, fmt.Sprintf(`"name":"w%d","annotations":{"pad":"%s"}`, i, strings.Repeat("p", 900)), 1)
		if i%7 == 0 {
			obj = strings.Replace(obj, `"replicas":1`, `"replicas":"x"`, 1) // an invalid one
		}
		if err := os.WriteFile(p, []byte(obj+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	args := append([]string{"--crd", crdFile, "-o", "ndjson"}, files...)
	want := runJobs(t, 1, nil, args...)
	if strings.Count(want.out, "\n") < 250 || !strings.Contains(want.errOut, "w7") {
		t.Fatalf("-j 1: %d lines out, stderr %s", strings.Count(want.out, "\n"), clip(want.errOut))
	}
	for _, j := range []int{1, 2, 4} {
		// stdin ("-") between the files hands the chain on before it is read
		mixed := append([]string{"--crd", crdFile, "-o", "ndjson"}, files[:100]...)
		mixed = append(append(mixed, "-"), files[100:]...)
		got := runJobs(t, j, nil, mixed...)
		if got != want {
			t.Errorf("-j %d with stdin between: differs:\n%s\nwant:\n%s", j, clip(got.errOut), clip(want.errOut))
		}
		for _, n := range []int{0, 100, 5000, 30000} {
			var errb bytes.Buffer
			code := run(append([]string{"--no-cache", "-j", fmt.Sprint(j)}, args...), nil, &failingWriter{n: n}, &errb)
			if code != exitUsage || !strings.Contains(errb.String(), "disk full") {
				t.Errorf("-j %d, output failing after %d bytes: exit %d, stderr %s", j, n, code, clip(errb.String()))
			}
		}
	}
}
