package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// End-to-end tests of issue 15's "nothing passes in silence" and "did you
// mean": kinds no loaded CRD serves, kinds differing only in case,
// versions not served, --missing-crd, and suggestions.

const servedInput = `apiVersion: v1
kind: ConfigMap
metadata: {name: cm}
---
apiVersion: example.com/v1
kind: widget
metadata: {name: a}
---
apiVersion: example.com/v1beta1
kind: Widget
metadata: {name: b}
---
apiVersion: other.io/v1
kind: Gizmo
metadata: {name: d}
`

func TestE2EMissingCRD(t *testing.T) {
	file := writeFile(t, "m.yaml", servedInput)
	warnings := []string{
		file + `:5:1: warning: widget a: no loaded CustomResourceDefinition serves kind widget of example.com/v1 (kinds are case-sensitive) (did you mean "kind: Widget"?)`,
		file + `:9:1: warning: Widget b: version v1beta1 is not served by widgets.example.com; served: v1`,
		file + `:13:1: warning: Gizmo d: no loaded CustomResourceDefinition serves kind Gizmo of other.io/v1`,
	}
	// Warn: warnings, every object written (the ConfigMap, of a built-in
	// group, in silence)
	r := runBinary(t, nil, "--crd", crdFile, "-o", "ndjson", "--no-defaults", file)
	if got := strings.TrimSuffix(r.err, "\n"); r.code != exitOK || got != strings.Join(warnings, "\n") || strings.Count(r.out, "\n") != 4 {
		t.Errorf("Warn: exit %d, %d written, stderr\n%s\nwant\n%s", r.code, strings.Count(r.out, "\n"), got, strings.Join(warnings, "\n"))
	}
	// Strict: errors, the three not written, exit 1
	r = runBinary(t, nil, "--crd", crdFile, "-o", "ndjson", "--field-validation=Strict", file)
	if r.code != exitFindings || r.out != `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"}}`+"\n" ||
		r.err != strings.ReplaceAll(strings.Join(warnings, "\n"), ": warning: ", ": error: ")+"\n" {
		t.Errorf("Strict: exit %d, out %q, stderr\n%s", r.code, r.out, r.err)
	}
	// --missing-crd=ignore: as before, in silence
	r = runBinary(t, nil, "--crd", crdFile, "-o", "none", "--field-validation=Strict", "--missing-crd=ignore", file)
	if r.code != exitOK || r.err != "" {
		t.Errorf("ignore: exit %d, stderr %q", r.code, r.err)
	}
	// --missing-crd=error in Warn mode; warn in Strict mode
	r = runBinary(t, nil, "--crd", crdFile, "-o", "none", "--missing-crd=error", file)
	if r.code != exitFindings || strings.Count(r.err, ": error: ") != 3 {
		t.Errorf("error: exit %d, stderr %q", r.code, r.err)
	}
	r = runBinary(t, nil, "--crd", crdFile, "-o", "none", "--field-validation=Strict", "--missing-crd=warn", file)
	if r.code != exitOK || strings.Count(r.err, ": warning: ") != 3 {
		t.Errorf("warn: exit %d, stderr %q", r.code, r.err)
	}
	r = runBinary(t, nil, "--crd", crdFile, "--missing-crd=sometimes", file)
	if r.code != exitUsage || !strings.Contains(r.err, "--missing-crd must be ignore, warn or error") {
		t.Errorf("bad value: exit %d, %q", r.code, r.err)
	}
	// the report and the summary count them
	r = runBinary(t, nil, "--crd", crdFile, "-o", "none", "-q", "--report", "-", "--summary", file)
	var types []string
	for _, l := range strings.Split(strings.TrimSpace(r.out), "\n") {
		var rec struct{ Type, Severity, Suggestion string }
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		types = append(types, rec.Type+"/"+rec.Severity+"/"+rec.Suggestion)
	}
	if got := strings.Join(types, " "); got != "no-crd/warning/kind: Widget unserved-version/warning/ no-crd/warning/" {
		t.Errorf("report types: %s", got)
	}
	for _, want := range []string{"of built-in kinds:      1", "kind not served:          2", "version not served:       1"} {
		if !strings.Contains(r.err, want) {
			t.Errorf("summary has no %q:\n%s", want, r.err)
		}
	}
	// a group near a served one
	r = runBinary(t, strings.NewReader(`{"apiVersion":"exmple.com/v1","kind":"Widget"}`), "--crd", crdFile, "-o", "none")
	if want := `<stdin>:1:1: warning: Widget: no loaded CustomResourceDefinition serves kind Widget of exmple.com/v1 (did you mean "apiVersion: example.com/v1, kind: Widget"?)` + "\n"; r.err != want {
		t.Errorf("near group: %q\nwant %q", r.err, want)
	}
}

// TestE2ESuggestions: "did you mean" on the terminal and as the report's
// suggestion field; the API server's message is unchanged.
func TestE2ESuggestions(t *testing.T) {
	in := "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  lables: {a: b}\nspec:\n  replcas: 3\n  obj:\n    replicas: 2\n  Name: x\n  mapOfObj: {k: {y: a}}\n"
	file := writeFile(t, "w.yaml", in)
	r := runBinary(t, nil, "--crd", crdFile, "-o", "none", file)
	want := []string{
		file + `:5:3: warning: Widget w: unknown field "metadata.lables" (did you mean "metadata.labels"?)`,
		file + `:10:3: warning: Widget w: unknown field "spec.Name" (did you mean "spec.name"?)`,
		file + `:11:18: warning: Widget w: unknown field "spec.mapOfObj.k.true" (did you mean "spec.mapOfObj.k.y"?)`,
		file + `:9:5: warning: Widget w: unknown field "spec.obj.replicas" (did you mean "spec.replicas"?)`,
		file + `:7:3: warning: Widget w: unknown field "spec.replcas" (did you mean "spec.replicas"?)`,
	}
	if got := strings.TrimSuffix(r.err, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("stderr\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	rep := filepath.Join(t.TempDir(), "r.jsonl")
	r = runBinary(t, nil, "--crd", crdFile, "-o", "none", "--kubectl", "--report", rep, file)
	if strings.Contains(r.err, "did you mean") {
		t.Errorf("--kubectl: %q", r.err)
	}
	data := string(must(readFileString(rep)))
	if !strings.Contains(data, `"message":"unknown field \"spec.replcas\"","suggestion":"spec.replicas"`) ||
		!strings.Contains(data, `"message":"unknown field \"metadata.lables\"","suggestion":"metadata.labels"`) {
		t.Errorf("report:\n%s", data)
	}
}

// TestE2ESummaryOrder: --summary lists the kinds with findings first (and
// those no loaded CRD serves), then caps the others.
func TestE2ESummaryOrder(t *testing.T) {
	var in strings.Builder
	for i := range 15 {
		for range i + 1 { // the clean kinds have more objects
			in.WriteString(`{"apiVersion":"v1","kind":"K` + string(rune('A'+i)) + `","metadata":{"name":"x"}}` + "\n")
		}
	}
	in.WriteString(`{"apiVersion":"example.com/v1","kind":"Widget","spec":{"zz":1}}` + "\n")
	in.WriteString(`{"apiVersion":"other.io/v1","kind":"Gizmo"}` + "\n")
	r := runBinary(t, strings.NewReader(in.String()), "--crd", crdFile, "-o", "none", "-q", "--summary")
	_, kinds, _ := strings.Cut(r.err, "Objects by kind:\n")
	kinds, _, _ = strings.Cut(kinds, "Most frequent")
	lines := strings.Split(strings.TrimSuffix(kinds, "\n"), "\n")
	want := []string{
		"           1  example.com/v1 Widget  (1 would lose fields)",
		"           1  other.io/v1 Gizmo  (no loaded CRD serves it)",
		"          15  v1 KO  (passed through: no CRD)",
	}
	if len(lines) != 2+10+1 || strings.Join(lines[:3], "\n") != strings.Join(want, "\n") ||
		lines[12] != "          15  (5 kinds more without findings)" {
		t.Errorf("objects by kind:\n%s", kinds)
	}
}
