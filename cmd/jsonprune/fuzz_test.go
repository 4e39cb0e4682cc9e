package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// fuzzRunSeeds are FuzzRun's seeds (TestJobsSameOutput runs them too).
var fuzzRunSeeds = []string{
	widgetJSON + "\n" + configMap,
	`{"items":[` + widgetJSON + `,` + configMap + `],"kind":"List"}`,
	"{\n \"items\": [\n  {\"a\": 1}\n ]\n}",
	"apiVersion: v1\nitems:\n- apiVersion: example.com/v1\n  kind: Widget\n  spec: {a: 1, a: 2}\nkind: List\n",
	"---\napiVersion: example.com/v1\nkind: Widget\n---\n~\n...\n%YAML 1.1\n---\n[1",
	`{"a":"\u00e9\"}{[`,
	"\x1f\x8b\x08\x00",
}

// FuzzRun feeds any input to the command line: it must not panic, must
// exit 0, 1 or 2, and every line of -o ndjson output must be valid JSON.
// Its seeds run with go test; go test -fuzz=FuzzRun ./cmd/jsonprune/
// explores further.
func FuzzRun(f *testing.F) {
	for _, s := range fuzzRunSeeds {
		f.Add([]byte(s), byte(0))
		f.Add([]byte(s), byte(0xff))
	}
	f.Fuzz(func(t *testing.T, in []byte, flags byte) {
		defer func(n int) { listThreshold = n }(listThreshold)
		if flags&1 != 0 {
			listThreshold = 8 // stream YAML lists
		}
		args := []string{"--crd", crdFile, "-o", "ndjson", "-j", "2", "--max-doc-size", "4096"}
		if flags&2 != 0 {
			args = append(args, "--field-validation=Strict")
		}
		if flags&4 != 0 {
			args = append(args, "--allow-invalid-utf8")
		}
		if flags&8 != 0 {
			args = append(args, "--kubectl")
		}
		if f := flags >> 4 & 3; f != 0 { // every record through a report format
			args = append(args, "--report", os.DevNull, "--report-format", []string{"", "junit", "sarif", "tap"}[f])
		}
		if flags&64 != 0 {
			args = append(args, "--summary", "--report", os.DevNull, "--report-format", "github")
		}
		if flags&128 != 0 {
			args = append(args, "--missing-crd=error")
		}
		var out, errb bytes.Buffer
		code := run(args, bytes.NewReader(in), &out, &errb)
		if code < 0 || code > 2 {
			t.Fatalf("exit %d", code)
		}
		for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if l != "" && !jsontext.Value(l).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
				t.Fatalf("invalid output line %q for input %q", l, in)
			}
		}
	})
}
