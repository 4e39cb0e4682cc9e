package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// jobsRun is one run's exit status, stdout, stderr and report.
type jobsRun struct {
	code                 int
	out, errOut, records string
}

// runJobs runs the command line in process with -j jobs, stdin and a
// --report file, and returns what it wrote.
func runJobs(t *testing.T, jobs int, stdin []byte, args ...string) jobsRun {
	t.Helper()
	return runJobsFrom(t, jobs, bytes.NewReader(stdin), args...)
}

// runJobsFrom is runJobs with stdin read from r.
func runJobsFrom(t *testing.T, jobs int, r io.Reader, args ...string) jobsRun {
	t.Helper()
	rep := filepath.Join(t.TempDir(), "report.jsonl")
	var out, errb bytes.Buffer
	code := run(append([]string{"--no-cache", "-j", fmt.Sprint(jobs), "--report", rep}, args...), r, &out, &errb)
	records, err := os.ReadFile(rep)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return jobsRun{code, out.String(), errb.String(), string(records)}
}

// runWhole is runJobs with -j 1 and JSON Lines cut as one stream by the
// reading goroutine (not in blocks): the reference of sameJobs.
func runWhole(t *testing.T, stdin []byte, args ...string) jobsRun {
	t.Helper()
	defer func() { linesInBlocks = true }()
	linesInBlocks = false
	return runJobs(t, 1, stdin, args...)
}

// sameJobs runs args with -j 1, 2 and 4, and with -j 2 and 4 again with
// blocks of JSON Lines of a few bytes (every line a block, lines longer
// than a block, and the reader cutting the rest when a line is longer
// than maxBlockLine), and checks that every run writes the same stdout,
// stderr and report as -j 1 with the input cut as one stream (runWhole).
func sameJobs(t *testing.T, name string, stdin []byte, args ...string) {
	t.Helper()
	sameJobsSizes(t, name, [][2]int{{64, 32 << 20}, {256, 1024}, {4096, 4096}}, stdin, args...)
}

// sameJobsSizes is sameJobs with the block sizes and longest lines given.
// It returns the run with -j 1.
func sameJobsSizes(t *testing.T, name string, sizes [][2]int, stdin []byte, args ...string) jobsRun {
	t.Helper()
	want := runWhole(t, stdin, args...)
	check := func(how string, got jobsRun) {
		t.Helper()
		if got != want {
			t.Errorf("%s, %s: differs from the whole stream's:\nexit %d / %d\nstdout:\n%s\nwhole:\n%s\nstderr:\n%s\nwhole:\n%s\nreport:\n%s\nwhole:\n%s",
				name, how, got.code, want.code, clip(got.out), clip(want.out), clip(got.errOut), clip(want.errOut), clip(got.records), clip(want.records))
		}
	}
	for _, j := range []int{1, 2, 4} {
		check(fmt.Sprintf("-j %d", j), runJobs(t, j, stdin, args...))
	}
	defer func(b, l int) { blockSize, maxBlockLine = b, l }(blockSize, maxBlockLine)
	defer func() { numbering = numberAuto }()
	for _, sizes := range sizes {
		blockSize, maxBlockLine = sizes[0], sizes[1]
		for _, j := range []int{1, 2, 4} {
			for _, num := range []int{numberFirst, numberLazily} {
				numbering = num
				check(fmt.Sprintf("-j %d, blocks of %d bytes, lines up to %d, numbering %d", j, sizes[0], sizes[1], num), runJobs(t, j, stdin, args...))
			}
			numbering = numberAuto
		}
	}
	return want
}

func clip(s string) string {
	if len(s) > 4000 {
		return s[:4000] + "..."
	}
	return s
}

// oddLines are JSON Lines that are not one object each: blank lines, CRLF,
// white space, several values on a line, broken values, Lists on a line
// (whole, broken, with syntax errors between items), escaped names.
var oddLines = []string{
	"",
	"  ",
	widgetJSON + "\r",
	"  " + configMap,
	widgetJSON + " " + configMap,
	widgetJSON + "}",
	`{"apiVersion":"example.com/v1","kind":"Widget","spec":`,
	`{"items":[` + widgetJSON + `,` + configMap + `],"kind":"List","apiVersion":"v1"}`,
	`{"items":[` + widgetJSON + `,,` + configMap + `,],"kind":"List"}`,
	`{"items":[` + widgetJSON,
	`{"it\u0065ms":[` + widgetJSON + `],"kind":"List"}`,
	`[1,2] "s" 12 null`,
	`]`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w\"}{"},"spec":{"replicas":"x"}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"` + strings.Repeat("long", 300) + `"},"spec":{"replicas":1}}`,
	// objects a worker reads whole or not (runLines): a List of a served
	// kind, "items" below the root or not an array, escapes, white space,
	// two objects without space, no kind, invalid UTF-8
	`{"apiVersion":"example.com/v1","kind":"Widget","items":[` + widgetJSON + `],"metadata":{"name":"l"}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"i"},"spec":{"items":[1]}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"n"},"items":null}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"u\u0041"},"spec":{"replicas":2}}`,
	"\t " + widgetJSON + " \t\r",
	widgetJSON + widgetJSON,
	`{}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"bad\xff"}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"s"},"spec":{"replicas":3} , "zz":{ "a" : [ 1 , 2 ] }}`,
	// objects the API server would not decode (fatalLine): read whole when
	// the line is one valid object, else cut by the splitter
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":{"a":1}},"spec":{"replicas":1}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":{"a":1}},"spec":{"replicas":1}} x`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":{}},"spec":{"replicas":tru}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":{}},"items":[` + widgetJSON + `]}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":{}},"spec":{"it\u0065ms":1}}`,
	`{"apiVersion":"example.com/v1","metadata":{"name":"k"}}`,
	`{"apiVersion":5,"kind":"Widget","metadata":{"name":"v"}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":{}},"spec":{},"spec":{}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":{}},"spec":"\xff"}`,
	// escapes that cannot spell "items" (read whole), and some that do
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":{"a":"\u003cb\u003e"}},"spec":{"replicas":1}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"e\u003c"},"spec":{"replicas":1}}`,
	`{"ite\u006Ds":[` + widgetJSON + `],"kind":"List"}`,
	`{"\u0069\u0074\u0065\u006d\u0073":[` + widgetJSON + `],"kind":"List"}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":{}},"item\u0073":[` + widgetJSON + `]}`,
}

// TestMayHoldItems: every \u escape of a letter of "items", in either
// case of its hex digits, may spell it; no other escape of a byte does.
func TestMayHoldItems(t *testing.T) {
	for c := range 256 {
		for _, hex := range []string{fmt.Sprintf("%04x", c), fmt.Sprintf("%04X", c)} {
			text := []byte(`{"a":"x\u` + hex + `y"}`)
			want := strings.ContainsRune("items", rune(c))
			if got := mayHoldItems(text); got != want {
				t.Errorf("%s: %v, want %v", text, got, want)
			}
		}
	}
	for _, text := range []string{`{"items":1}`, `{"a":"items"}`, `x\u00`, `x\u006`} {
		if !mayHoldItems([]byte(text)) {
			t.Errorf("%s: false", text)
		}
	}
	for _, text := range []string{`{"item":1}`, `{"a":"\\"}`, `\u`, `{"\u0049TEMS":1}`} {
		if mayHoldItems([]byte(text)) {
			t.Errorf("%s: true", text)
		}
	}
}

// TestJobsSameOutput: -j 1, 2 and 4 write the same stdout, stderr and
// report, byte for byte, on FuzzRun's seeds, on JSON Lines with odd lines
// (cut in blocks by the workers under -j > 1) and on the shared corpus
// (files of four projects, and the same as JSON Lines with odd lines).
func TestJobsSameOutput(t *testing.T) {
	flagSets := [][]string{
		{"-o", "ndjson"},
		{"-o", "json", "--field-validation=Strict", "--max-doc-size", "600", "--summary"},
		{"-o", "yaml", "--kubectl", "--no-validate", "-v"},
	}
	small := [][2]int{{64, 1024}}
	for i, seed := range fuzzRunSeeds {
		for _, flags := range flagSets {
			sameJobsSizes(t, fmt.Sprintf("seed %d %v", i, flags), small, []byte(seed), append([]string{"--crd", crdFile}, flags...)...)
		}
	}
	var dump bytes.Buffer
	for i := range 400 {
		if i%7 == 3 {
			dump.WriteString(oddLines[i/7%len(oddLines)])
		} else {
			fmt.Fprintf(&dump, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w%d","namespace":"ns"},"spec":{"replicas":%d,"zz":%d,"list":[{"x":"a","q":1}]}}`, i, i, i%3)
		}
		dump.WriteByte('\n')
	}
	for i, flags := range flagSets {
		if i == 0 {
			sameJobs(t, fmt.Sprintf("dump %v", flags), dump.Bytes(), append([]string{"--crd", crdFile}, flags...)...)
		} else {
			sameJobsSizes(t, fmt.Sprintf("dump %v", flags), small, dump.Bytes(), append([]string{"--crd", crdFile}, flags...)...)
		}
	}
	// the same dump without its last line break, and from a file
	last := bytes.TrimSuffix(dump.Bytes(), []byte("\n"))
	sameJobsSizes(t, "dump without its last line break", small, last, "--crd", crdFile, "-o", "ndjson")
	file := filepath.Join(t.TempDir(), "dump.json")
	if err := os.WriteFile(file, dump.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sameJobsSizes(t, "dump in a file, twice", small, nil, "--crd", crdFile, "-o", "ndjson", file, file)

	// a read error in the middle of a JSON Lines input: the reader cuts
	// the rest, and reports the error where -j 1 does
	defer func(b, l int) { blockSize, maxBlockLine = b, l }(blockSize, maxBlockLine)
	for _, sizes := range [][2]int{{1 << 20, 4 << 20}, {256, 1024}, {64, 128}} {
		for _, at := range []int{100, 3000, 9001} {
			broken := func() io.Reader {
				return io.MultiReader(bytes.NewReader(dump.Bytes()[:at]), iotest.ErrReader(errors.New("boom")))
			}
			linesInBlocks = false
			want := runJobsFrom(t, 1, broken(), "--crd", crdFile, "-o", "ndjson")
			linesInBlocks = true
			if !strings.Contains(want.errOut, "boom") {
				t.Fatalf("read error at %d: not reported: %s", at, want.errOut)
			}
			blockSize, maxBlockLine = sizes[0], sizes[1]
			for _, j := range []int{1, 2, 4} {
				if got := runJobsFrom(t, j, broken(), "--crd", crdFile, "-o", "ndjson"); got != want {
					t.Errorf("read error at %d, -j %d, blocks of %d: differs from the whole stream's:\nstderr:\n%s\nwhole:\n%s\nstdout:\n%s\nwhole:\n%s", at, j, sizes[0], clip(got.errOut), clip(want.errOut), clip(got.out), clip(want.out))
				}
			}
			blockSize, maxBlockLine = 1<<20, 4<<20
		}
	}

	if testing.Short() {
		return
	}
	corpus := "../../../shared/corpus"
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("the shared corpus is missing (%v): clone it beside the checkout as ../shared", err)
	}
	// four projects of the corpus (520 resources; their CRDs give the
	// once-per-run notes of unchecked features), as files and as JSON Lines
	var args []string
	for _, p := range []string{"cert-manager", "keda", "knative-serving", "opentelemetry-operator"} {
		args = append(args, "--crd", filepath.Join(corpus, "crds", p), filepath.Join(corpus, "crs", p))
	}
	tree := sameJobsSizes(t, "corpus files", nil, nil, append(args, "-o", "ndjson")...)
	if tree.code == exitUsage || strings.Count(tree.out, "\n") < 400 || !strings.Contains(tree.errOut, "value validation does not check") {
		t.Fatalf("corpus files: exit %d, %d lines out", tree.code, strings.Count(tree.out, "\n"))
	}
	crdArgs := []string{"--crd", crdFile}
	for i := 0; i < len(args); i += 3 {
		crdArgs = append(crdArgs, args[i:i+2]...)
	}
	dump.Reset()
	for i, line := range strings.Split(strings.TrimSuffix(tree.out, "\n"), "\n") {
		if i%20 == 7 {
			dump.WriteString(oddLines[i/20%len(oddLines)] + "\n")
		}
		dump.WriteString(line + "\n")
	}
	sameJobsSizes(t, "corpus JSON Lines", [][2]int{{8192, 4096}}, dump.Bytes(), append(crdArgs, "-o", "ndjson", "--field-validation=Strict")...)
}
