// Command tree reproduces the table of issue 16: jsonprune on the shared
// corpus laid out as a GitOps repository (every CRD file under crds/, every
// custom resource in a file of its own under crs/), on a YAML stream of the
// same resources and on an NDJSON dump, against kubeconform -strict where it
// is installed, in interleaved rounds; it prints user CPU, wall time and
// peak RSS (the medians of the rounds) and the ratios measured round by
// round (median and range).
//
//	cd bench && go run ./cmd/tree                     # or: make bench-tree
//	go run ./cmd/tree -rounds 5 -kubeconform ~/go/bin/kubeconform -keep -dir /tmp/jptree
//
// kubeconform is optional (make bench-tree installs it with go install from
// the module proxy when it can); its schemas are made from the CRDs as its
// openapi2jsonschema.py makes them (additionalProperties: false on every
// object with properties, int-or-string as oneOf string or integer).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/jsonprune/jsonprune/bench/internal/wholeproc"
	"github.com/jsonprune/jsonprune/bench/oracle"
)

func main() {
	corpus := flag.String("corpus", "../../shared/corpus", "the shared corpus (corpus/index.json, crds/, crs/)")
	dir := flag.String("dir", "", "where to lay out the inputs (default: a temporary directory)")
	keep := flag.Bool("keep", false, "keep the inputs")
	rounds := flag.Int("rounds", 3, "interleaved rounds")
	kc := flag.String("kubeconform", "", "kubeconform binary (default: kubeconform on PATH or in $(go env GOPATH)/bin; none: skip)")
	lines := flag.Int("lines", 500000, "lines of the NDJSON dump")
	dumpCRDs := flag.Int("dump-crds", 8, "CRDs whose resources make the dump (those with the most resources)")
	refLoad := flag.String("reference-load", "", "(the peer of a row) load every CRD of a directory with the Kubernetes reference (oracle.NewCRDecoder) and exit")
	flag.Parse()
	if *rounds < 1 {
		fmt.Fprintln(os.Stderr, "-rounds must be at least 1")
		os.Exit(2)
	}
	if *refLoad != "" {
		referenceLoad(*refLoad)
		return
	}

	root, err := filepath.Abs("..")
	check(err)
	if *dir == "" {
		*dir, err = os.MkdirTemp("", "jsonprune-tree-")
		check(err)
	}
	if !*keep {
		defer os.RemoveAll(*dir)
	}
	jp, commit, err := wholeproc.Build(root, *dir)
	check(err)

	self, err := os.Executable()
	check(err)
	l := layout(*corpus, *dir, *lines, *dumpCRDs)
	kcBin := findKubeconform(*kc)

	tree := filepath.Join(*dir, "tree")
	crds, crs := filepath.Join(tree, "crds"), filepath.Join(tree, "crs")
	jpTree := []string{"--crd", crds, "-R", crs, "--field-validation", "Strict", "-o", "none", "-q"}
	type row struct {
		name       string
		a, b       []string // a against b: the ratio is b's over a's
		aBin, bBin string
		aName      string
		bName      string
		wall       bool   // the ratio of wall times (scaling), not of CPU
		aCache     string // jsonprune's CRD cache: "" none (--no-cache), "cold" emptied before each run, "warm"
	}
	noCache := append([]string{"--no-cache"}, jpTree...)
	rows := []row{
		{name: "`--crd crds -R crs`, Strict, `-o none` (the tree), `--no-cache`", aBin: jp, a: noCache, aName: "jsonprune"},
		{name: "the same, CRD cache cold (empty before each run)", aBin: jp, a: jpTree, aName: "jsonprune", aCache: "cold"},
		{name: "the same, CRD cache warm", aBin: jp, a: jpTree, aName: "jsonprune", aCache: "warm"},
		{name: "the tree, `--no-cache`, `-j 2` against `-j 1` (wall)", aBin: jp, a: append([]string{"-j", "2"}, noCache...), bBin: jp, b: append([]string{"-j", "1"}, noCache...), aName: "-j 2", bName: "-j 1", wall: true},
		{name: "`--crd crds` and one small input (start-up), `--no-cache`", aBin: jp, a: []string{"--no-cache", "--crd", crds, "-o", "none", l.small}, aName: "jsonprune"},
		{name: "loading (compiling) every CRD: `--crd crds --dump --no-cache`", aBin: jp, a: []string{"--no-cache", "--crd", crds, "--dump"}, aName: "jsonprune", bBin: self, b: []string{"-reference-load", crds}, bName: "reference loader"},
		{name: "the same, CRD cache warm", aBin: jp, a: []string{"--crd", crds, "--dump"}, aName: "jsonprune", aCache: "warm", bBin: self, b: []string{"-reference-load", crds}, bName: "reference loader"},
		{name: "the resources as one YAML stream, Strict, `-o none`, `--no-cache`", aBin: jp, a: []string{"--no-cache", "--crd", crds, "--field-validation", "Strict", "-o", "none", "-q", l.stream}, aName: "jsonprune"},
		{name: "the same, CRD cache warm", aBin: jp, a: []string{"--crd", crds, "--field-validation", "Strict", "-o", "none", "-q", l.stream}, aName: "jsonprune", aCache: "warm"},
		{name: fmt.Sprintf("%d CRDs, %d-line NDJSON dump, `-o none`", len(l.dumpCRDs), *lines), aBin: jp, a: append(l.dumpArgs(), "--no-cache", "-o", "none", "-q", l.dump), aName: "jsonprune"},
		{name: "same dump, `-j 2` against `-j 1` (wall)", aBin: jp, a: append(l.dumpArgs(), "--no-cache", "-j", "2", "-o", "none", "-q", l.dump), bBin: jp, b: append(l.dumpArgs(), "--no-cache", "-j", "1", "-o", "none", "-q", l.dump), aName: "-j 2", bName: "-j 1", wall: true},
	}
	if kcBin != "" {
		loc := filepath.Join(*dir, "kc-schemas") + "/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json"
		kcArgs := []string{"-strict", "-n", "1", "-summary", "-ignore-missing-schemas", "-schema-location", loc}
		rows[0].bBin, rows[0].b, rows[0].bName = kcBin, append(kcArgs, crs), "kubeconform -strict -n 1"
		rows[1].bBin, rows[1].b, rows[1].bName = kcBin, append(kcArgs, crs), "kubeconform -strict -n 1"
		rows[2].bBin, rows[2].b, rows[2].bName = kcBin, append(kcArgs, crs), "kubeconform -strict -n 1"
		rows[7].bBin, rows[7].b, rows[7].bName = kcBin, append(kcArgs, l.stream), "kubeconform -strict -n 1"
		rows[8].bBin, rows[8].b, rows[8].bName = kcBin, append(kcArgs, l.stream), "kubeconform -strict -n 1"
	}

	measure(jp, jpTree, cacheEnv(*dir, "warm")) // fills the warm cache
	results := make([][2][]measurement, len(rows))
	for r := range *rounds {
		fmt.Fprintf(os.Stderr, "round %d/%d\n", r+1, *rounds)
		for i, rw := range rows {
			results[i][0] = append(results[i][0], measure(rw.aBin, rw.a, cacheEnv(*dir, rw.aCache)))
			if rw.bBin != "" {
				results[i][1] = append(results[i][1], measure(rw.bBin, rw.b, nil))
			}
		}
	}

	fmt.Printf("%s, commit %s, %d rounds, %d CPUs (%s)\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"), commit, *rounds, runtime.NumCPU(), loadAvg())
	fmt.Println("| run | jsonprune (user CPU, wall, peak RSS) | peer | ratio (median, range) |")
	fmt.Println("|---|---|---|---|")
	for i, rw := range rows {
		a, b := results[i][0], results[i][1]
		peer, ratio := "—", "—"
		if len(b) > 0 {
			peer = rw.bName + ": " + summary(b)
			var rs []float64
			for k := range a {
				if rw.wall {
					rs = append(rs, b[k].Wall.Seconds()/a[k].Wall.Seconds())
				} else {
					rs = append(rs, b[k].User.Seconds()/a[k].User.Seconds())
				}
			}
			ratio = fmt.Sprintf("%.2fx (%.2f-%.2f)", wholeproc.Median(rs), wholeproc.Min(rs), wholeproc.Max(rs))
			if rw.wall {
				ratio += " wall"
			} else {
				ratio += fmt.Sprintf(" CPU; RSS %.2fx", float64(medianRSS(b))/float64(medianRSS(a)))
			}
		}
		fmt.Printf("| %s | %s: %s | %s | %s |\n", rw.name, rw.aName, summary(a), peer, ratio)
	}
	if *keep {
		fmt.Println("\nthe inputs are in", *dir)
	}
}

// laidOut is what layout wrote.
type laidOut struct {
	small, stream, dump string
	dumpCRDs            []string
}

func (l laidOut) dumpArgs() []string {
	var args []string
	for _, c := range l.dumpCRDs {
		args = append(args, "--crd", c)
	}
	return args
}

// layout writes the tree (crds/<project>/ and crs/<project>/, as in the
// corpus), the YAML stream of every resource, the NDJSON dump of the
// resources of the dumpCRDs CRDs with the most resources (repeated to
// lines lines; the peer there is the Kubernetes reference chain,
// which bench/perf measures: kubeconform takes minutes on it) and
// kubeconform's schemas.
func layout(corpus, dir string, lines, dumpCRDs int) laidOut {
	var index struct {
		CRS []struct{ File, CRD string }
	}
	data, err := os.ReadFile(filepath.Join(corpus, "index.json"))
	check(err)
	check(json.Unmarshal(data, &index))
	tree := filepath.Join(dir, "tree")
	var l laidOut
	var stream bytes.Buffer
	docs := map[string][][]byte{}
	crdFiles, err := filepath.Glob(filepath.Join(corpus, "crds", "*", "*"))
	check(err)
	for _, f := range crdFiles {
		rel, _ := filepath.Rel(corpus, f)
		copyFile(f, filepath.Join(tree, rel))
		writeSchemas(f, filepath.Join(dir, "kc-schemas"))
	}
	for _, cr := range index.CRS {
		b, err := os.ReadFile(filepath.Join(corpus, cr.File))
		check(err)
		copyFile(filepath.Join(corpus, cr.File), filepath.Join(tree, cr.File))
		if l.small == "" {
			l.small = filepath.Join(tree, cr.File)
		}
		stream.WriteString("---\n")
		stream.Write(b)
		if !bytes.HasSuffix(b, []byte("\n")) {
			stream.WriteByte('\n')
		}
		if js, err := yaml.YAMLToJSON(b); err == nil && bytes.HasPrefix(js, []byte("{")) {
			docs[cr.CRD] = append(docs[cr.CRD], js)
		}
	}
	l.stream = filepath.Join(dir, "stream.yaml")
	check(os.WriteFile(l.stream, stream.Bytes(), 0o644))

	picked, dump := wholeproc.Dump(docs, dumpCRDs, lines)
	for _, c := range picked {
		l.dumpCRDs = append(l.dumpCRDs, filepath.Join(tree, c))
	}
	l.dump = filepath.Join(dir, "dump.ndjson")
	check(os.WriteFile(l.dump, dump, 0o644))
	return l
}

// writeSchemas writes the JSON schemas of a CRD file's versions as
// kubeconform's openapi2jsonschema.py writes them:
// <group>/<kind>_<version>.json, lower case.
func writeSchemas(file, dir string) {
	data, err := os.ReadFile(file)
	check(err)
	for _, doc := range bytes.Split(data, []byte("\n---")) {
		var crd struct {
			Kind string
			Spec struct {
				Group string
				Names struct{ Kind string }
				// v1
				Versions []struct {
					Name   string
					Schema struct {
						OpenAPIV3Schema any `json:"openAPIV3Schema"`
					}
				}
			}
		}
		if yaml.Unmarshal(doc, &crd) != nil || crd.Kind != "CustomResourceDefinition" {
			continue
		}
		for _, v := range crd.Spec.Versions {
			if v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			s := additionalProperties(intOrString(v.Schema.OpenAPIV3Schema), false)
			out, err := json.Marshal(s)
			check(err)
			p := filepath.Join(dir, crd.Spec.Group, strings.ToLower(crd.Spec.Names.Kind+"_"+v.Name)+".json")
			check(os.MkdirAll(filepath.Dir(p), 0o755))
			check(os.WriteFile(p, out, 0o644))
		}
	}
}

// additionalProperties is openapi2jsonschema.py's: every object with
// properties and without additionalProperties gets additionalProperties:
// false.
func additionalProperties(v any, skip bool) any {
	switch t := v.(type) {
	case map[string]any:
		if _, ok := t["properties"]; ok && !skip {
			if _, ok := t["additionalProperties"]; !ok {
				t["additionalProperties"] = false
			}
		}
		for k, x := range t {
			t[k] = additionalProperties(x, false)
		}
	case []any:
		for i, x := range t {
			t[i] = additionalProperties(x, false)
		}
	}
	return v
}

// intOrString is openapi2jsonschema.py's replace_int_or_string.
func intOrString(v any) any {
	switch t := v.(type) {
	case map[string]any:
		if t["format"] == "int-or-string" {
			return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}}
		}
		for k, x := range t {
			t[k] = intOrString(x)
		}
	case []any:
		for i, x := range t {
			t[i] = intOrString(x)
		}
	}
	return v
}

// referenceLoad loads every CRD of the .yaml, .yml and .json files under
// dir as the Kubernetes reference does (oracle.NewCRDecoder: DecodeCRD,
// conversion to v1, the structural schema of every version), the peer of
// jsonprune compiling them all; a CRD it refuses is counted, not fatal.
func referenceLoad(dir string) {
	loaded, refused := 0, 0
	check(filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ext := strings.ToLower(filepath.Ext(p))
		if d.IsDir() || ext != ".yaml" && ext != ".yml" && ext != ".json" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, doc := range bytes.Split(data, []byte("\n---")) {
			if len(bytes.TrimSpace(doc)) == 0 {
				continue
			}
			if _, err := oracle.NewCRDecoder(doc); err != nil {
				refused++
			} else {
				loaded++
			}
		}
		return nil
	}))
	fmt.Printf("%d CRDs loaded, %d refused\n", loaded, refused)
}

func findKubeconform(flagValue string) string {
	switch flagValue {
	case "none":
		return ""
	case "":
	default:
		return flagValue
	}
	if p, err := exec.LookPath("kubeconform"); err == nil {
		return p
	}
	gopath, err := exec.Command("go", "env", "GOPATH").Output()
	if err == nil {
		p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", "kubeconform")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	fmt.Fprintln(os.Stderr, "kubeconform not found: its columns are left out (make bench-tree installs it)")
	return ""
}

// cacheEnv is the environment of a jsonprune run with its CRD cache in
// dir: "cold" is emptied first; "warm" is filled by a run before the rounds.
func cacheEnv(dir, which string) []string {
	if which == "" {
		return nil
	}
	d := filepath.Join(dir, "cache-"+which)
	if which == "cold" {
		check(os.RemoveAll(d))
	}
	return []string{"XDG_CACHE_HOME=" + d}
}

type measurement = wholeproc.Measurement

// measure runs a command with env added to its environment and measures
// its user CPU, wall time and peak RSS.
func measure(bin string, args, env []string) measurement {
	m, err := wholeproc.Run(bin, args, env)
	check(err)
	return m
}

func summary(ms []measurement) string {
	var u, w []float64
	for _, m := range ms {
		u, w = append(u, m.User.Seconds()), append(w, m.Wall.Seconds())
	}
	return fmt.Sprintf("%.2f s CPU, %.2f s wall, %.0f MiB", wholeproc.Median(u), wholeproc.Median(w), float64(medianRSS(ms))/1024)
}

func medianRSS(ms []measurement) int64 {
	var r []float64
	for _, m := range ms {
		r = append(r, float64(m.RSSKB))
	}
	return int64(wholeproc.Median(r))
}

func loadAvg() string {
	return "load average " + wholeproc.LoadAvg() + " at the end"
}

func copyFile(from, to string) {
	b, err := os.ReadFile(from)
	check(err)
	check(os.MkdirAll(filepath.Dir(to), 0o755))
	check(os.WriteFile(to, b, 0o644))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
