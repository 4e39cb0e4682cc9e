package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// End-to-end tests of the located messages (issue 15, "every message says
// where"): FILE:LINE:COLUMN: SEVERITY: Kind name: the API server's text.

func TestE2ELocatedWarningsAndErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.yaml")
	// line 9 has non-ASCII text before the unknown field: the column is in
	// characters, as an editor shows it
	text := "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: prod\nspec:\n  replcas: 3\n  ключ: x\n  obj: {\"ключ\": 1, zz: 1}\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, nil, "--crd", crdFile, "-o", "none", file)
	lines := strings.Split(strings.TrimSuffix(r.err, "\n"), "\n")
	wantLines := []string{
		file + `:9:20: warning: Widget prod/w: unknown field "spec.obj.zz"`,
		file + `:9:9: warning: Widget prod/w: unknown field "spec.obj.ключ" (did you mean "spec.ключ"?)`,
		file + `:7:3: warning: Widget prod/w: unknown field "spec.replcas" (did you mean "spec.replicas"?)`,
	}
	if r.code != exitOK || strings.Join(lines, "\n") != strings.Join(wantLines, "\n") {
		t.Errorf("Warn: exit %d, stderr\n%s\nwant\n%s", r.code, r.err, strings.Join(wantLines, "\n"))
	}
	// Strict: one error, the API server's message, at the first finding in
	// the input, and a note a finding
	r = runBinary(t, nil, "--crd", crdFile, "-o", "none", "--field-validation=Strict", file)
	wantLines = []string{
		file + `:7:3: error: Widget prod/w: Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.obj.zz", unknown field "spec.obj.ключ", unknown field "spec.replcas"`,
		file + `:9:20: note: unknown field "spec.obj.zz"`,
		file + `:9:9: note: unknown field "spec.obj.ключ" (did you mean "spec.ключ"?)`,
		file + `:7:3: note: unknown field "spec.replcas" (did you mean "spec.replicas"?)`,
	}
	if got := strings.TrimSuffix(r.err, "\n"); r.code != exitFindings || got != strings.Join(wantLines, "\n") {
		t.Errorf("Strict: exit %d, stderr\n%s\nwant\n%s", r.code, got, strings.Join(wantLines, "\n"))
	}
	// --kubectl: kubectl's lines, for scripts
	r = runBinary(t, nil, "--crd", crdFile, "-o", "none", "--kubectl", file)
	if r.err != "Warning: unknown field \"spec.obj.zz\"\nWarning: unknown field \"spec.obj.ключ\"\nWarning: unknown field \"spec.replcas\"\n" {
		t.Errorf("--kubectl: %q", r.err)
	}
	// JSON: columns in characters (é is 2 bytes, ключ 8), stdin named <stdin>
	in := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"é"},"spec":{"ключ":"x","zz":2}}`
	r = runBinary(t, strings.NewReader(in), "--crd", crdFile, "-o", "none")
	if want := `<stdin>:1:91: warning: Widget é: unknown field "spec.zz"` + "\n"; r.err != want {
		t.Errorf("JSON: %q, want %q", r.err, want)
	}
	// the report's column is the editor's too
	r = runBinary(t, strings.NewReader(in), "--crd", crdFile, "-o", "none", "-q", "--report", "-")
	if !strings.Contains(r.out, `"line":1,"column":91,"offset":95`) {
		t.Errorf("report: %s", r.out)
	}
	// a fatal error: at its place, with its JSON Pointer
	in = "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\n \"metadata\":{\"name\":true}}"
	r = runBinary(t, strings.NewReader(in), "--crd", crdFile, "-o", "none")
	if want := `<stdin>:2:13: error: Widget: Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal bool into Go struct field ObjectMeta.name of type string (at /metadata)` + "\n"; r.code != exitFindings || r.err != want {
		t.Errorf("fatal: exit %d, %q\nwant %q", r.code, r.err, want)
	}
}

// TestE2EYAMLErrorLine: a YAML syntax error is at the line an editor shows
// (the parser's text, the API server's, counts that line from 0), on the
// terminal and in the report, in the second document of a file too.
func TestE2EYAMLErrorLine(t *testing.T) {
	text := "apiVersion: v1\nkind: ConfigMap\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  list: [a, b\n  replicas: 3\n"
	file := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, nil, "--crd", crdFile, "-o", "none", "--report", "-", file)
	if want := file + ":9:1: error: yaml: line 8: did not find expected ',' or ']'\n"; r.code != exitUsage || r.err != want {
		t.Errorf("exit %d, stderr %q\nwant %q", r.code, r.err, want)
	}
	if !strings.Contains(r.out, `"line":9,"column":1`) {
		t.Errorf("report: %s", r.out)
	}
	// a tab in the indentation: the scanner's line is right already
	if err := os.WriteFile(file, []byte("apiVersion: example.com/v1\nkind: Widget\nspec:\n\treplicas: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runBinary(t, nil, "--crd", crdFile, "-o", "none", file)
	if !strings.HasPrefix(r.err, file+":4:1: error: yaml: line 4: found character that cannot start any token\n") {
		t.Errorf("tab: %q", r.err)
	}
}

// TestE2ETruncated: messages that echo a whole document or value, and
// pointers of 10,000 segments, are cut on the terminal and in the report,
// with the full length said.
func TestE2ETruncated(t *testing.T) {
	big := `{"apiVersion":"example.com/v1","metadata":{"name":"` + strings.Repeat("a", 122000) + `"}}`
	r := runBinary(t, strings.NewReader(big), "--crd", crdFile, "-o", "none", "--report", "-")
	line, _, _ := strings.Cut(r.err, "\n")
	if r.code != exitFindings || len(line) > 1200 || !strings.HasSuffix(line, "... (122,084 bytes)") || !strings.HasPrefix(line, "<stdin>:1:1: error: Object 'Kind' is missing in '{") {
		t.Errorf("terminal: exit %d, %d bytes: %.100s ... %s", r.code, len(line), line, line[max(0, len(line)-100):])
	}
	if len(r.out) > 10000 || !strings.Contains(r.out, `... (122,084 bytes)"`) {
		t.Errorf("report: %d bytes: %.300s", len(r.out), r.out)
	}
	// a 10M-digit number: the decoder's error echoes it
	num := `{"apiVersion":"example.com/v1","kind":"Widget","spec":{"replicas":1` + strings.Repeat("0", 10_000_000) + `}}`
	for _, form := range []string{"--kubectl", "--progress=never"} {
		r = runBinary(t, strings.NewReader(num), "--crd", crdFile, "-o", "none", form, "--report", "/dev/stdout")
		if r.code != exitFindings || len(r.err) > 2000 || !strings.Contains(r.err, " bytes)") || len(r.out) > 6000 {
			t.Errorf("a long number %s: exit %d, %d bytes of stderr, %d of report: %.200s", form, r.code, len(r.err), len(r.out), r.err)
		}
	}
	// a 10,000-segment JSON Pointer
	deep := `{"apiVersion":"example.com/v1","kind":"Widget","spec":{"preserved":{"a":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "}}}"
	r = runBinary(t, strings.NewReader(deep), "--crd", crdFile, "-o", "none", "--report", "/dev/stdout")
	if line, _, _ := strings.Cut(r.err, "\n"); r.code == exitOK || len(line) > 1000 || !strings.HasSuffix(line, "... (20,011 bytes))") || len(r.out) > 6000 {
		t.Errorf("a deep pointer: exit %d, %d bytes of stderr, %d of report: %.200s", r.code, len(r.err), len(r.out), r.err)
	}
}
