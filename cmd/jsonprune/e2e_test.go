package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/internal/peakrss"
	"github.com/jsonprune/jsonprune/yamlbridge"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// End-to-end tests: the built binary on generated dumps (every input
// format, compressed or not, in every mode) and on the shared corpus.

var binary string // built by TestMain

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jsonprune-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "jsonprune")
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache")) // the CRD cache of the runs: theirs
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is a run of the binary.
type result struct {
	code     int
	out, err string
	maxRSS   int64 // KiB
}

func runBinary(t *testing.T, stdin io.Reader, args ...string) result {
	t.Helper()
	// the end-to-end tests are about pruning, findings and messages; value
	// validation, on by default, is tested where a test says --validate
	cmd := exec.Command(binary, append([]string{"--no-validate"}, args...)...)
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	peak, err := peakrss.Wait(cmd, 5*time.Millisecond)
	r := result{out: out.String(), err: errb.String(), maxRSS: peak}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

// A dump of generated objects: Widgets (some with unknown fields, some the
// API server cannot decode) and ConfigMaps (no CRD: passed through).
type dumpObject struct {
	value   map[string]any
	pruned  map[string]any // the expected output; nil when not written
	unknown []string       // the unknown fields, sorted
	fatal   bool
}

func genDump(n int) []dumpObject {
	objs := make([]dumpObject, n)
	for i := range objs {
		name := fmt.Sprintf("w%05d", i)
		switch {
		case i%7 == 6:
			cm := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name, "x": int64(i)}, "data": map[string]any{"k": "v"}}
			objs[i] = dumpObject{value: cm, pruned: cm}
		case i%50 == 49:
			bad := map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": int64(i)}}
			objs[i] = dumpObject{value: bad, fatal: true}
		default:
			spec := map[string]any{"replicas": int64(i), "list": []any{map[string]any{"x": "a"}}}
			pruned := map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": name, "namespace": "ns"},
				"spec": map[string]any{"replicas": int64(i), "list": []any{map[string]any{"x": "a"}}}}
			var unknown []string
			if i%3 == 1 {
				spec["zz"] = true
				spec["list"] = []any{map[string]any{"x": "a", "q": "dropped"}}
				unknown = []string{"spec.list[0].q", "spec.zz"}
			}
			v := map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": name, "namespace": "ns"}, "spec": spec}
			objs[i] = dumpObject{value: v, pruned: pruned, unknown: unknown}
		}
	}
	return objs
}

// Encodings of a dump. Every map is written with sorted keys, so JSON and
// YAML inputs give the same output.
func jsonLine(v any) string {
	b, _ := json.Marshal(v) // sorted keys
	return string(b)
}

func dumpNDJSON(objs []dumpObject) string {
	var b strings.Builder
	for _, o := range objs {
		b.WriteString(jsonLine(o.value) + "\n")
	}
	return b.String()
}

func dumpPretty(objs []dumpObject) string {
	var b strings.Builder
	for _, o := range objs {
		p, _ := json.MarshalIndent(o.value, "", "  ")
		b.Write(p)
		b.WriteString("\n")
	}
	return b.String()
}

func dumpJSONList(objs []dumpObject) string {
	items := make([]any, len(objs))
	for i, o := range objs {
		items[i] = o.value
	}
	p, _ := json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "items": items, "metadata": map[string]any{"resourceVersion": ""}}, "", "    ")
	return string(p) + "\n"
}

func dumpYAML(objs []dumpObject) string {
	var b strings.Builder
	for _, o := range objs {
		b.WriteString("---\n")
		writeYAML(&b, o.value, "", "")
	}
	return b.String()
}

func dumpYAMLList(objs []dumpObject) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n")
	for _, o := range objs {
		writeYAML(&b, o.value, "- ", "  ")
	}
	b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	return b.String()
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// writeYAML writes a map in block style: its first line after first, the
// others after indent.
func writeYAML(b *strings.Builder, m map[string]any, first, indent string) {
	keys := sortedKeys(m)
	for i, k := range keys {
		if i == 0 {
			b.WriteString(first)
		} else {
			b.WriteString(indent)
		}
		switch v := m[k].(type) {
		case map[string]any:
			b.WriteString(k + ":\n")
			writeYAML(b, v, indent+"  ", indent+"  ")
		case []any:
			b.WriteString(k + ":\n")
			for _, e := range v {
				writeYAML(b, e.(map[string]any), indent+"- ", indent+"  ")
			}
		default:
			b.WriteString(k + ": " + jsonLine(v) + "\n")
		}
	}
}

func compress(t *testing.T, text, kind string) []byte {
	var buf bytes.Buffer
	var w io.WriteCloser
	switch kind {
	case "":
		return []byte(text)
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "zstd":
		z, err := zstd.NewWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		w = z
	}
	io.WriteString(w, text)
	w.Close()
	return buf.Bytes()
}

func unzip(t *testing.T, data []byte) string {
	r, closeZ, err := decompress(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer closeZ()
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// expected returns the stdout (-o ndjson) and stderr of a mode; name names
// an object in messages ("document 3" or "document 0, item 3").
func expected(objs []dumpObject, mode string, name func(i int) string) (string, string, int) {
	var out, errb strings.Builder
	code := exitOK
	for i, o := range objs {
		switch {
		case o.fatal:
			code = exitFindings
			errb.WriteString("error: " + name(i) + `: Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string` + "\n")
			continue
		case len(o.unknown) > 0 && mode == "Strict":
			code = exitFindings
			errb.WriteString("error: " + name(i) + `: Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.list[0].q", unknown field "spec.zz"` + "\n")
			continue
		case len(o.unknown) > 0 && mode == "Warn":
			errb.WriteString("Warning: unknown field \"spec.list[0].q\"\nWarning: unknown field \"spec.zz\"\n")
		}
		out.WriteString(jsonLine(o.pruned) + "\n")
	}
	return out.String(), errb.String(), code
}

// place matches the position a message ends with.
var place = regexp.MustCompile(` \((line|offset) [^)]*\)\n`)

func TestE2EDumps(t *testing.T) {
	objs := genDump(8000)
	dir := t.TempDir()
	type format struct {
		name, text, ext string
		list            bool
	}
	formats := []format{
		{"ndjson", dumpNDJSON(objs), ".json", false},
		{"pretty", dumpPretty(objs), ".json", false},
		{"jsonlist", dumpJSONList(objs), ".json", true},
		{"yaml", dumpYAML(objs), ".yaml", false},
		{"yamllist", dumpYAMLList(objs), ".yaml", true}, // over 1 MiB: streamed
	}
	if n := len(formats[4].text); n < listThreshold {
		t.Fatalf("the YAML list (%d bytes) is too small to be streamed", n)
	}
	for _, f := range formats {
		for _, z := range []string{"", "gzip", "zstd"} {
			file := filepath.Join(dir, f.name+f.ext+map[string]string{"": "", "gzip": ".gz", "zstd": ".zst"}[z])
			if err := os.WriteFile(file, compress(t, f.text, z), 0o644); err != nil {
				t.Fatal(err)
			}
			name := func(i int) string { return fmt.Sprintf("%s: document %d", file, i) }
			if f.list {
				name = func(i int) string { return fmt.Sprintf("%s: document 0, item %d", file, i) }
			}
			modes := []string{"Warn", "Strict", "Ignore"}
			if z != "" {
				modes = modes[:1]
			}
			for _, mode := range modes {
				r := runBinary(t, nil, "--crd", crdFile, "--kubectl", "--no-defaults", "--field-validation", mode, "-o", "ndjson", file)
				wantOut, wantErr, wantCode := expected(objs, mode, name)
				if r.code != wantCode || r.out != wantOut || place.ReplaceAllString(r.err, "\n") != wantErr {
					t.Errorf("%s %s %s: exit %d (want %d), stdout %s, stderr %.400s", f.name, z, mode, r.code, wantCode,
						diffLines(r.out, wantOut), diffLines(place.ReplaceAllString(r.err, "\n"), wantErr))
				}
			}
			if !f.list || z != "" {
				continue
			}
			// -o json keeps the list, --compress compresses it
			r := runBinary(t, nil, "--crd", crdFile, "--no-defaults", "-q", "--compress", "zstd", file)
			var list struct {
				Kind  string
				Items []map[string]any
			}
			written := 0
			for _, o := range objs {
				if !o.fatal {
					written++
				}
			}
			if err := json.Unmarshal([]byte(unzip(t, []byte(r.out))), &list); err != nil || list.Kind != "List" || len(list.Items) != written {
				t.Errorf("%s -o json: %v, kind %q, %d items", f.name, err, list.Kind, len(list.Items))
			}
		}
	}
}

func diffLines(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n  got  %q\n  want %q", i+1, g[i], w[i])
		}
	}
	if len(g) != len(w) {
		return fmt.Sprintf("%d lines, want %d", len(g), len(w))
	}
	return "same"
}

// TestE2EReport checks that every record points at its field in the input.
func TestE2EReport(t *testing.T) {
	objs := genDump(300)
	for _, text := range []string{dumpNDJSON(objs), dumpPretty(objs), dumpJSONList(objs)} {
		r := runBinary(t, strings.NewReader(text), "--crd", crdFile, "-q", "-o", "none", "--report", "-")
		lines := strings.Split(strings.TrimSuffix(r.out, "\n"), "\n")
		unknown := 0
		for _, l := range lines {
			var rec struct {
				Input, Type, Path, Pointer, Message, APIVersion, Kind, Name string
				Doc, Item, Line, Column                                     *int
				Offset                                                      int64
			}
			if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Input != "-" || rec.Doc == nil || rec.Line == nil || rec.Column == nil {
				t.Fatalf("record %s: %v", l, err)
			}
			i := *rec.Doc
			if rec.Item != nil {
				i = *rec.Item
			}
			if rec.Type == "error" {
				if !objs[i].fatal || rec.Pointer != "/metadata" {
					t.Errorf("error record %s", l)
				}
				continue
			}
			unknown++
			field := rec.Path[strings.LastIndexAny(rec.Path, ".")+1:]
			lineStart := strings.LastIndexByte(text[:rec.Offset], '\n') + 1
			if rec.Type != "unknown" || !strings.HasPrefix(text[rec.Offset:], `"`+field+`"`) || *rec.Column != int(rec.Offset)-lineStart+1 ||
				*rec.Line != strings.Count(text[:rec.Offset], "\n")+1 || rec.Kind != "Widget" || rec.Name != objs[i].value["metadata"].(map[string]any)["name"] ||
				rec.Message != `unknown field "`+rec.Path+`"` || rec.Pointer != "/"+strings.NewReplacer(".", "/", "[", "/", "]", "").Replace(rec.Path) {
				t.Errorf("record %s does not point at %q", l, field)
			}
		}
		want := 0
		for _, o := range objs {
			want += len(o.unknown)
		}
		if unknown != want {
			t.Errorf("%d unknown-field records, want %d", unknown, want)
		}
	}
}

func TestE2EExitStatus(t *testing.T) {
	clean := dumpNDJSON(genDump(6)) // no fatal object, some findings
	broken := "{\"apiVersion\":\"v1\",\"kind\":\"A\"}\n{\"broken\":\n{\"apiVersion\":\"v1\",\"kind\":\"B\"}\n"
	for _, c := range []struct {
		stdin string
		args  []string
		code  int
		out   int // lines
	}{
		{clean, []string{"--field-validation=Warn"}, exitOK, 6},
		{clean, []string{"--field-validation=Ignore"}, exitOK, 6},
		{clean, []string{"--field-validation=Strict"}, exitFindings, 4},
		{broken, nil, exitUsage, 2}, // the broken line costs that line only
		{string(compress(t, broken, "gzip")), nil, exitUsage, 2},
		{string(compress(t, clean, "gzip")[:40]), nil, exitUsage, 0}, // a truncated gzip stream
		{"", nil, exitOK, 0},
	} {
		args := append([]string{"--crd", crdFile, "-q"}, c.args...)
		r := runBinary(t, strings.NewReader(c.stdin), args...)
		if r.code != c.code || strings.Count(r.out, "\n") != c.out {
			t.Errorf("%v on %.40q: exit %d (want %d), %d lines (want %d); %s", c.args, c.stdin, r.code, c.code, strings.Count(r.out, "\n"), c.out, r.err)
		}
	}
}

// TestE2EFlatMemory streams a 96 MiB list: memory stays at half of it
// and below (the collector's pace, gcPercent, lets the heap grow to three
// times what is live: about 40 MiB with -j 2, where texts of n+2 blocks
// are in flight).
func TestE2EFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	item := jsonLine(genDump(2)[1].value)
	var b strings.Builder
	b.WriteString("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[\n")
	for i := 0; b.Len() < 96<<20; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(item)
	}
	b.WriteString("]}\n")
	file := filepath.Join(t.TempDir(), "big.json")
	os.WriteFile(file, []byte(b.String()), 0o644)
	r := runBinary(t, nil, "--crd", crdFile, "-q", "-j", "2", "-o", "ndjson", file)
	if r.code != exitOK || r.maxRSS == 0 || r.maxRSS > 48<<10 {
		t.Errorf("exit %d, peak RSS %d KiB for a 96 MiB list; %s", r.code, r.maxRSS, r.err)
	}
	t.Logf("peak RSS %d KiB", r.maxRSS)
}

func TestE2EProgress(t *testing.T) {
	text := dumpNDJSON(genDump(48)) // no object the API server refuses
	pr, pw := io.Pipe()
	go func() {
		io.WriteString(pw, text[:len(text)/2])
		time.Sleep(600 * time.Millisecond)
		io.WriteString(pw, text[len(text)/2:])
		pw.Close()
	}()
	r := runBinary(t, pr, "--crd", crdFile, "-q", "-o", "none", "--progress=always")
	if r.code != exitOK || !regexp.MustCompile(`\rjsonprune: \d+\.\d KiB, \d+ objects, [0-9.]+ [KM]?i?B/s, \d+ objects/s\x1b\[K`).MatchString(r.err) || !strings.HasSuffix(r.err, "\r\x1b[K") {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
	// not a terminal: silent
	if r := runBinary(t, strings.NewReader(text), "--crd", crdFile, "-q", "-o", "none"); r.code != exitOK || r.err != "" {
		t.Errorf("exit %d, stderr %q", r.code, r.err)
	}
}

// TestE2ECorpus runs real custom resources of the shared corpus through the
// binary as YAML, as JSON Lines (gzip) and as a JSON List (zstd): the three
// give the same objects, messages and findings, and Strict mode rejects
// exactly the objects Warn mode warns about.
func TestE2ECorpus(t *testing.T) {
	corpus := "../../../shared/corpus"
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("the shared corpus is missing (%v): clone it beside the checkout as ../shared", err)
	}
	projects := []string{"velero", "fluxcd", "knative-serving", "keda", "cert-manager", "istio", "gateway-api", "crossplane"}
	args := []string{"--kubectl"} // the messages compared across formats: kubectl's form
	var yamlDump, ndjson strings.Builder
	var values [][]byte
	for _, p := range projects {
		args = append(args, "--crd", filepath.Join(corpus, "crds", p))
		files, _ := filepath.Glob(filepath.Join(corpus, "crs", p, "*.yaml"))
		sort.Strings(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			yamlDump.WriteString("---\n")
			yamlDump.Write(data)
			yamlDump.WriteString("\n")
			// the JSON of the YAML, its members in the document's order,
			// as jsonprune writes YAML input
			doc, err := yamlbridge.Parse(append(data, '\n'))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			js, err := yamlbridge.AppendJSON(nil, doc.Source())
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			values = append(values, js)
			ndjson.Write(append(js, '\n'))
		}
	}
	list := jsontext.Value(`{"apiVersion":"v1","items":[` + string(bytes.Join(values, []byte(","))) + `],"kind":"List"}`)
	if err := list.Indent(jsontext.WithIndent("  ")); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	inputs := map[string]string{"yaml": filepath.Join(dir, "crs.yaml"), "ndjson": filepath.Join(dir, "crs.json.gz"), "list": filepath.Join(dir, "crs-list.json.zst")}
	os.WriteFile(inputs["yaml"], []byte(yamlDump.String()), 0o644)
	os.WriteFile(inputs["ndjson"], compress(t, ndjson.String(), "gzip"), 0o644)
	os.WriteFile(inputs["list"], compress(t, string(list), "zstd"), 0o644)

	type finding struct{ doc, typ, path string }
	findings := func(report string) (out []finding, docs map[int]bool) {
		docs = map[int]bool{}
		for _, l := range strings.Split(strings.TrimSpace(report), "\n") {
			var rec struct {
				Doc        int
				Item       *int
				Type, Path string
			}
			if l == "" {
				continue
			}
			if err := json.Unmarshal([]byte(l), &rec); err != nil {
				t.Fatalf("record %s: %v", l, err)
			}
			if rec.Item != nil {
				rec.Doc = *rec.Item
			}
			if rec.Type != "error" {
				docs[rec.Doc] = true
			}
			out = append(out, finding{fmt.Sprint(rec.Doc), rec.Type, rec.Path})
		}
		return out, docs
	}
	messages := regexp.MustCompile(`(?m)^(error|Warning): (\S+: document \d+(, item \d+)?: )?`)
	var first result
	var firstFindings []finding
	for _, name := range []string{"yaml", "ndjson", "list"} {
		report := filepath.Join(dir, name+".report")
		r := runBinary(t, nil, append(args, "-o", "ndjson", "--report", report, inputs[name])...)
		rep, _ := os.ReadFile(report)
		fs, _ := findings(string(rep))
		r.err = messages.ReplaceAllString(place.ReplaceAllString(r.err, "\n"), "$1: ")
		if name == "yaml" {
			first, firstFindings = r, fs
			objects := len(values)
			if r.code == exitUsage || strings.Count(r.out, "\n")+strings.Count(r.err, "error: ") != objects || len(fs) == 0 {
				t.Fatalf("yaml: exit %d, %d objects written, %d errors, %d findings for %d objects", r.code, strings.Count(r.out, "\n"), strings.Count(r.err, "error: "), len(fs), objects)
			}
			t.Logf("%d objects, %d written, %d findings", objects, strings.Count(r.out, "\n"), len(fs))
			continue
		}
		if r.code != first.code || r.out != first.out || r.err != first.err || fmt.Sprint(fs) != fmt.Sprint(firstFindings) {
			t.Errorf("%s differs from yaml: exit %d/%d, stdout %s, stderr %s, findings %d/%d", name, r.code, first.code,
				diffLines(r.out, first.out), diffLines(r.err, first.err), len(fs), len(firstFindings))
		}
	}
	// Strict rejects the objects with findings, and only them
	_, warned := findings(string(must(os.ReadFile(filepath.Join(dir, "ndjson.report")))))
	r := runBinary(t, nil, append(args, "-o", "ndjson", "--field-validation", "Strict", inputs["ndjson"])...)
	rejected := strings.Count(r.err, "strict decoding error")
	if want := strings.Count(first.out, "\n") - len(warned); strings.Count(r.out, "\n") != want || rejected != len(warned) {
		t.Errorf("Strict: %d written (want %d), %d rejected (want %d)", strings.Count(r.out, "\n"), want, rejected, len(warned))
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestE2EYAMLOutput runs the binary with -o yaml on every input format, in
// every mode: the YAML reads back as the -o json output, and -j 1 and -j 4
// write the same bytes.
func TestE2EYAMLOutput(t *testing.T) {
	objs := genDump(7500)
	formats := []struct{ name, text string }{
		{"ndjson", dumpNDJSON(objs)},
		{"jsonlist", dumpJSONList(objs)},
		{"yaml", dumpYAML(objs)},
		{"yamllist", dumpYAMLList(objs)}, // over 1 MiB: streamed
	}
	if n := len(formats[3].text); n < listThreshold {
		t.Fatalf("the YAML list (%d bytes) is too small to be streamed", n)
	}
	dir := t.TempDir()
	for _, f := range formats {
		file := filepath.Join(dir, f.name)
		if err := os.WriteFile(file, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, mode := range []string{"Warn", "Strict", "Ignore"} {
			args := []string{"--crd", crdFile, "-q", "--field-validation", mode, file}
			y := runBinary(t, nil, append(args, "-o", "yaml", "-j", "4")...)
			j := runBinary(t, nil, append(args, "-o", "json")...)
			if y.code != exitFindings || y.code != j.code || y.err != j.err {
				t.Errorf("%s %s: -o yaml exit %d, -o json exit %d; stderr differs: %s", f.name, mode, y.code, j.code, diffLines(y.err, j.err))
			}
			if got, want := strings.Join(yamlDocs(t, y.out), "\n"), strings.Join(jsonDocs(t, j.out), "\n"); got != want {
				t.Errorf("%s %s: -o yaml does not read back as -o json: %s", f.name, mode, diffLines(got, want))
			}
			if mode == "Warn" {
				if y1 := runBinary(t, nil, append(args, "-o", "yaml", "-j", "1")...); y1.out != y.out {
					t.Errorf("%s: -j 1 and -j 4 differ: %s", f.name, diffLines(y1.out, y.out))
				}
			}
		}
	}
}
