// Command bench measures jsonprune on large dumps made from the shared
// corpus: it writes a JSON Lines dump of at least -size bytes (plain, gzip
// and zstd), a kubectl-style JSON List of the same size and a YAML stream,
// runs the jsonprune binary on each, serially (-j 1) and with -j 2, and
// reports throughput (MB/s of decompressed input), objects/s, CPU time and
// peak RSS. It is not part of go test:
//
//	go run ./cmd/jsonprune/bench                  # 1 GiB dumps, in a temporary directory
//	go run ./cmd/jsonprune/bench -size 2GiB -dir /var/tmp/jp -keep
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jsonprune/jsonprune/internal/peakrss"
	"github.com/jsonprune/jsonprune/internal/yaml11"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"go.yaml.in/yaml/v3"
)

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "the shared corpus")
	size := flag.String("size", "1GiB", "size of the JSON dumps")
	yamlSize := flag.String("yaml-size", "256MiB", "size of the YAML dump (YAML is read far more slowly)")
	projects := flag.String("projects", "velero,fluxcd,knative-serving,keda,cert-manager,istio,gateway-api,crossplane",
		"corpus projects whose CRDs and CRs are used (all: every project)")
	dir := flag.String("dir", "", "where the dumps are written (default: a temporary directory)")
	keep := flag.Bool("keep", false, "keep the dumps (and reuse those already in -dir)")
	jobs := flag.String("j", "1,2", "the -j values to run")
	flag.Parse()

	n, err1 := parseSize(*size)
	ny, err2 := parseSize(*yamlSize)
	if err1 != nil || err2 != nil {
		fail("bad size: %v %v", err1, err2)
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "jsonprune-bench")
		check(err)
		*dir = d
	}
	check(os.MkdirAll(*dir, 0o755))
	if !*keep {
		defer os.RemoveAll(*dir)
	}

	bin := filepath.Join(*dir, "jsonprune")
	build := exec.Command("go", "build", "-o", bin, "github.com/jsonprune/jsonprune/cmd/jsonprune")
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // static, as README's install is (TestNoCgo)
	if out, err := build.CombinedOutput(); err != nil {
		fail("go build: %v\n%s", err, out)
	}
	crdArgs, docs, yamlDocs := loadCorpus(*corpus, *projects)
	fmt.Printf("corpus: %d custom resources, %d --crd directories\n", len(docs), len(crdArgs)/2)

	dumps := []dump{
		{name: "dump.jsonl", size: n, write: writeNDJSON},
		{name: "dump.jsonl.gz", size: n, write: writeNDJSON, z: "gzip"},
		{name: "dump.jsonl.zst", size: n, write: writeNDJSON, z: "zstd"},
		{name: "list.json", size: n, write: writeList},
		{name: "list.json.zst", size: n, write: writeList, z: "zstd"},
		{name: "dump.yaml", size: ny, write: writeYAML, yaml: true},
		{name: "list.yaml", size: ny, write: writeYAMLList, yaml: true},
	}
	for i := range dumps {
		d := &dumps[i]
		d.path = filepath.Join(*dir, d.name)
		start := time.Now()
		if fi, err := os.Stat(d.path); err == nil && *keep {
			d.onDisk = fi.Size()
			fmt.Printf("reusing %s (%s)\n", d.name, mib(d.onDisk))
			continue
		}
		if d.yaml {
			d.onDisk = writeDump(d, yamlDocs)
		} else {
			d.onDisk = writeDump(d, docs)
		}
		fmt.Printf("wrote %s: %s in %.1fs\n", d.name, mib(d.onDisk), time.Since(start).Seconds())
	}

	// the cost of loading the CRDs alone
	empty := filepath.Join(*dir, "empty.json")
	check(os.WriteFile(empty, nil, 0o644))
	base := measure(bin, append(crdArgs, "-j", "1", empty))
	fmt.Printf("\nloading the CRDs alone: %.2fs, peak RSS %s\n\n", base.wall.Seconds(), mib(base.rss<<10))

	fmt.Println("| input | on disk | -j | wall | CPU | MB/s | objects/s | MB/s after loading | peak RSS |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, d := range dumps {
		for _, j := range strings.Split(*jobs, ",") {
			r := measure(bin, append(crdArgs, "-j", j, "--summary", "-q", "-o", "json", d.path))
			secs := r.wall.Seconds()
			net := max(secs-base.wall.Seconds(), 1e-3)
			fmt.Printf("| %s | %s | %s | %.1fs | %.1fs | %.0f | %.0f | %.0f | %s |\n", d.name, mib(d.onDisk), j, secs, r.cpu.Seconds(),
				float64(r.bytesIn)/1e6/secs, float64(r.objects)/secs, float64(r.bytesIn)/1e6/net, mib(r.rss<<10))
		}
	}
	if *keep {
		fmt.Println("\nthe dumps are in", *dir)
	}
}

// loadCorpus returns the --crd arguments and the custom resources of the
// chosen projects, as compact JSON and as block YAML.
func loadCorpus(corpus, projects string) (args []string, docs, yamlDocs [][]byte) {
	var names []string
	if projects == "all" {
		entries, err := os.ReadDir(filepath.Join(corpus, "crs"))
		check(err)
		for _, e := range entries {
			names = append(names, e.Name())
		}
	} else {
		names = strings.Split(projects, ",")
	}
	for _, p := range names {
		args = append(args, "--crd", filepath.Join(corpus, "crds", p))
		files, err := filepath.Glob(filepath.Join(corpus, "crs", p, "*.yaml"))
		check(err)
		sort.Strings(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			check(err)
			vals, err := yaml11.Decode(data, yaml11.Options{})
			if err != nil || len(vals) != 1 {
				continue
			}
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			check(enc.Encode(vals[0]))
			docs = append(docs, bytes.TrimSuffix(b.Bytes(), []byte("\n")))
			y, err := yaml.Marshal(vals[0])
			check(err)
			yamlDocs = append(yamlDocs, y)
		}
	}
	if len(docs) == 0 {
		fail("no custom resources under %s (is the corpus there?)", corpus)
	}
	return args, docs, yamlDocs
}

type dump struct {
	name   string
	size   int64
	z      string
	yaml   bool // written from the YAML documents
	write  func(w io.Writer, docs [][]byte, size int64)
	path   string
	onDisk int64
}

func writeDump(d *dump, docs [][]byte) int64 {
	f, err := os.Create(d.path)
	check(err)
	bw := bufio.NewWriterSize(f, 1<<20)
	var w io.Writer = bw
	var z io.Closer
	switch d.z {
	case "gzip":
		g := gzip.NewWriter(bw)
		w, z = g, g
	case "zstd":
		e, err := zstd.NewWriter(bw)
		check(err)
		w, z = e, e
	}
	d.write(w, docs, d.size)
	if z != nil {
		check(z.Close())
	}
	check(bw.Flush())
	check(f.Close())
	fi, err := os.Stat(d.path)
	check(err)
	return fi.Size()
}

// writeNDJSON writes the documents, one per line, round after round.
func writeNDJSON(w io.Writer, docs [][]byte, size int64) {
	for n := int64(0); n < size; {
		for _, d := range docs {
			w.Write(d)
			w.Write([]byte{'\n'})
			n += int64(len(d)) + 1
		}
	}
}

// writeList writes one List as kubectl get -o json does: indented.
func writeList(w io.Writer, docs [][]byte, size int64) {
	io.WriteString(w, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n")
	var buf bytes.Buffer
	first := true
	for n := int64(0); n < size; {
		for _, d := range docs {
			buf.Reset()
			json.Indent(&buf, d, "        ", "    ")
			if !first {
				io.WriteString(w, ",\n")
			}
			first = false
			io.WriteString(w, "        ")
			w.Write(buf.Bytes())
			n += int64(buf.Len()) + 10
		}
	}
	io.WriteString(w, "\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n")
}

// writeYAML writes a YAML stream of the documents.
func writeYAML(w io.Writer, docs [][]byte, size int64) {
	for n := int64(0); n < size; {
		for _, d := range docs {
			io.WriteString(w, "---\n")
			w.Write(d)
			n += int64(len(d)) + 4
		}
	}
}

// writeYAMLList writes one List as kubectl get -o yaml does.
func writeYAMLList(w io.Writer, docs [][]byte, size int64) {
	io.WriteString(w, "apiVersion: v1\nitems:\n")
	for n := int64(0); n < size; {
		for _, d := range docs {
			for i, l := range bytes.SplitAfter(bytes.TrimSuffix(d, []byte("\n")), []byte("\n")) {
				if i == 0 {
					io.WriteString(w, "- ")
				} else {
					io.WriteString(w, "  ")
				}
				w.Write(l)
			}
			io.WriteString(w, "\n")
			n += int64(len(d)) + 2*int64(bytes.Count(d, []byte("\n")))
		}
	}
	io.WriteString(w, "kind: List\nmetadata:\n  resourceVersion: \"\"\n")
}

type measurement struct {
	wall, cpu time.Duration
	rss       int64 // KiB
	objects   int64
	bytesIn   int64
}

var (
	objectsRE = regexp.MustCompile(`(?m)^  objects: +(\d+)$`)
	bytesRE   = regexp.MustCompile(`in \d+ inputs? \(([0-9.]+) ([KMG]?i?B)\)`)
)

// measure runs the binary (stdout discarded) and reads its peak RSS from
// /proc while it runs: the rusage of a child would count the memory of
// this process, which the child shares until exec.
func measure(bin string, args []string) measurement {
	cmd := exec.Command(bin, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	start := time.Now()
	check(cmd.Start())
	peak, err := peakrss.Wait(cmd, 10*time.Millisecond)
	wall := time.Since(start)
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 {
		fail("%v: %s", args, errb.String())
	}
	m := measurement{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), rss: peak}
	if s := objectsRE.FindStringSubmatch(errb.String()); s != nil {
		m.objects, _ = strconv.ParseInt(s[1], 10, 64)
	}
	if s := bytesRE.FindStringSubmatch(errb.String()); s != nil {
		f, _ := strconv.ParseFloat(s[1], 64)
		m.bytesIn = int64(f * float64(map[string]int64{"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}[s[2]]))
	}
	return m
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	for i, suf := range []string{"KiB", "MiB", "GiB"} {
		if strings.HasSuffix(s, suf) {
			s, mult = strings.TrimSuffix(s, suf), int64(1)<<(10*(i+1))
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n * mult, err
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func check(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", a...)
	os.Exit(1)
}
