package decoder

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/jsonvalue"
	"github.com/jsonprune/jsonprune/internal/yaml11"
	"github.com/jsonprune/jsonprune/schemaauto"
)

const corpusDir = "../../shared/corpus"

// corpus is every CR of the shared corpus as JSON, with the set of all
// corpus CRDs.
type corpus struct {
	set  *schemaauto.Set
	docs [][]byte
	size int64
}

var loadCorpus = sync.OnceValues(func() (*corpus, error) {
	idx, err := os.ReadFile(filepath.Join(corpusDir, "index.json"))
	if err != nil {
		return nil, err
	}
	var index struct {
		CRDs []struct{ File string } `json:"crds"`
		CRs  []struct{ File string } `json:"crs"`
	}
	if err := json.Unmarshal(idx, &index); err != nil {
		return nil, err
	}
	var crds []*schemaauto.CRD
	for _, c := range index.CRDs {
		data, err := os.ReadFile(filepath.Join(corpusDir, c.File))
		if err != nil {
			return nil, err
		}
		cs, err := schemaauto.ParseCRDs(data)
		if err != nil {
			return nil, err
		}
		crds = append(crds, cs...)
	}
	set, err := schemaauto.CompileCRDs(crds)
	if err != nil {
		return nil, err
	}
	c := &corpus{set: set}
	for _, cr := range index.CRs {
		data, err := os.ReadFile(filepath.Join(corpusDir, cr.File))
		if err != nil {
			return nil, err
		}
		vs, err := yaml11.Decode(data, yaml11.Options{})
		if err != nil || len(vs) != 1 {
			continue
		}
		doc := jsonvalue.AppendCanonical(nil, vs[0])
		c.docs = append(c.docs, doc)
		c.size += int64(len(doc))
	}
	return c, nil
})

func needCorpus(b testing.TB) *corpus {
	c, err := loadCorpus()
	if err != nil {
		b.Skipf("SKIP: the shared corpus is not available at %s: %v", corpusDir, err)
	}
	return c
}

// TestCorpusCRs decodes every corpus CR: no fatal error, valid JSON, the
// bytes and map outputs agree, pruning the output again changes nothing and
// finds nothing, and the fast and slow paths agree.
func TestCorpusCRs(t *testing.T) {
	c := needCorpus(t)
	d := must(New(c.set))
	var findings, pruned, fatal int
	fatals := map[string]int{}
	for i, doc := range c.docs {
		out, err := d.AppendPrune(nil, doc)
		if err != nil {
			// templates with placeholders in metadata ("name: {{x}}" read
			// as a map): the reference refuses them too
			fatal++
			msg := err.(*jperrors.DecodeError).Msg
			fatals[msg]++
			if !strings.HasPrefix(msg, "json: cannot unmarshal") {
				t.Errorf("doc %d: %v\n%.300s", i, err, doc)
			}
			if _, err2 := d.DecodeMap(doc); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("doc %d: map output error %v, bytes output error %v", i, err2, err)
			}
			continue
		}
		if d.Result().Pruned {
			pruned++
		}
		findings += d.Result().Len()
		m, err := d.DecodeMap(doc)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(jsonvalue.AppendCanonical(nil, m)), canon(t, string(out)); got != want {
			t.Errorf("doc %d: map and bytes differ\n map %s\nbytes %s", i, got, want)
		}
		again, err := d.AppendPrune(nil, out)
		if err != nil || !bytes.Equal(again, out) || d.Result().Len() != 0 {
			t.Errorf("doc %d: not idempotent: %v, %d findings\n%s\n%s", i, err, d.Result().Len(), out, again)
		}
		d.forceSlow = true
		slow, err := d.AppendPrune(nil, doc)
		d.forceSlow = false
		if err != nil || canon(t, string(slow)) != canon(t, string(out)) {
			t.Errorf("doc %d: slow path differs: %v\n%s\n%s", i, err, out, slow)
		}
	}
	t.Logf("%d corpus CRs (%d bytes of JSON), %d pruned against their CRD, %d findings, %d fatal: %v", len(c.docs), c.size, pruned, findings, fatal, fatals)
}

// pass prunes each document once into buf: an iteration of BenchmarkCorpus.
// Profiles name it (valgrind's --toggle-collect) to leave the set-up out.
//
//go:noinline
func pass(d *Decoder, docs [][]byte, buf []byte) []byte {
	for _, doc := range docs {
		buf, _ = d.AppendPrune(buf[:0], doc)
	}
	return buf
}

// BenchmarkValidationCost measures issue 12's bar, "validation costs at
// most 25% over prune-only", as one number: each iteration is two passes
// over the corpus documents that validate, one prune-only and one
// validating (the order alternating), timed apart, so that both see the
// same machine within milliseconds; validate/prune is the ratio of their
// total times, overhead-ns/pass their difference per pass (compare builds
// by both: a ratio also falls when prune-only gets slower).
// BenchmarkCorpus's prune-valid-bytes and prune-validate-valid-bytes
// measure the same passes one after the other, seconds apart, where the
// machine's drift shows in the ratio.
func BenchmarkValidationCost(b *testing.B) {
	c := needCorpus(b)
	dp, dv := must(New(c.set)), must(New(c.set, Validation(true)))
	var docs [][]byte
	for _, doc := range c.docs {
		if _, err := dv.AppendPrune(nil, doc); err == nil {
			docs = append(docs, doc)
		}
	}
	buf := make([]byte, 0, 1<<20)
	var prune, validate time.Duration
	timed := func(d *Decoder, sum *time.Duration) {
		t := time.Now()
		buf = pass(d, docs, buf)
		*sum += time.Since(t)
	}
	n := 0
	for b.Loop() {
		if n%2 == 0 {
			timed(dp, &prune)
			timed(dv, &validate)
		} else {
			timed(dv, &validate)
			timed(dp, &prune)
		}
		n++
	}
	b.ReportMetric(float64(prune.Nanoseconds())/float64(n), "prune-ns/pass")
	b.ReportMetric(float64(validate.Nanoseconds())/float64(n), "validate-ns/pass")
	b.ReportMetric(float64(validate)/float64(prune), "validate/prune")
	// what validation adds, in time: a build whose ratio falls because its
	// prune-only pass got slower (code or data layout) shows it here
	b.ReportMetric(float64((validate-prune).Nanoseconds())/float64(n), "overhead-ns/pass")
}

// BenchmarkValidationCostByGroup breaks BenchmarkValidationCost's
// overhead down by API group (with " [scale]" for versions with a scale
// subresource): each iteration is a prune-only and a validating pass over
// the corpus documents that validate (the order alternating), each
// document timed alone inside its pass, so that the caches hold what a
// whole pass leaves in them. It logs, per group, the sums of the
// documents' median times, the ratio, and the group's share of the
// overhead, largest first; the metrics are the whole pass's. Times of a
// single document are short beside the clock's reads (about 25 ns each),
// which both passes pay alike: compare ratios, not times, with
// BenchmarkValidationCost's.
func BenchmarkValidationCostByGroup(b *testing.B) {
	c := needCorpus(b)
	dp, dv := must(New(c.set)), must(New(c.set, Validation(true)))
	var docs [][]byte
	var groups []string
	for _, doc := range c.docs {
		if _, err := dv.AppendPrune(nil, doc); err != nil {
			continue
		}
		g, _, _ := strings.Cut(dv.Result().APIVersion(), "/")
		if e := dv.Result().Entry; e != nil && e.Scale() != nil {
			g += " [scale]"
		}
		docs, groups = append(docs, doc), append(groups, g)
	}
	tp, tv := make([][]time.Duration, len(docs)), make([][]time.Duration, len(docs))
	buf := make([]byte, 0, 1<<20)
	run := func(d *Decoder, acc [][]time.Duration) {
		for i, doc := range docs {
			t := time.Now()
			buf, _ = d.AppendPrune(buf[:0], doc)
			acc[i] = append(acc[i], time.Since(t))
		}
	}
	n := 0
	for b.Loop() {
		if n%2 == 0 {
			run(dp, tp)
			run(dv, tv)
		} else {
			run(dv, tv)
			run(dp, tp)
		}
		n++
	}
	median := func(x []time.Duration) time.Duration {
		y := slices.Clone(x)
		slices.Sort(y)
		return y[len(y)/2]
	}
	type sums struct {
		prune, validate time.Duration
		docs            int
	}
	by := map[string]*sums{}
	var all sums
	for i := range docs {
		p, v := median(tp[i]), median(tv[i])
		s := by[groups[i]]
		if s == nil {
			s = &sums{}
			by[groups[i]] = s
		}
		s.prune, s.validate, s.docs = s.prune+p, s.validate+v, s.docs+1
		all.prune, all.validate = all.prune+p, all.validate+v
	}
	names := slices.Collect(maps.Keys(by))
	slices.SortFunc(names, func(x, y string) int {
		return cmp.Compare(by[y].validate-by[y].prune, by[x].validate-by[x].prune)
	})
	over := all.validate - all.prune
	var t strings.Builder
	fmt.Fprintf(&t, "%d documents, %d passes each way: sums of medians %v prune-only, %v validating, ratio %.4f\n", len(docs), n, all.prune, all.validate, float64(all.validate)/float64(all.prune))
	fmt.Fprintf(&t, "%-40s %5s %10s %10s %6s %9s %6s\n", "group", "docs", "prune", "validate", "ratio", "overhead", "share")
	for _, g := range names {
		s := by[g]
		fmt.Fprintf(&t, "%-40s %5d %10v %10v %6.3f %9v %5.1f%%\n", g, s.docs, s.prune, s.validate, float64(s.validate)/float64(s.prune), s.validate-s.prune, 100*float64(s.validate-s.prune)/float64(over))
	}
	b.Log("\n" + t.String())
	b.ReportMetric(float64(all.validate)/float64(all.prune), "validate/prune")
}

// BenchmarkCorpus decodes every corpus CR per iteration: prune to bytes,
// decode to a map, validate only; and, as floors on the same input, a
// jsontext token copy (ReadToken/WriteToken) and a jsontext validation
// scan.
func BenchmarkCorpus(b *testing.B) {
	c := needCorpus(b)
	perDoc := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(c.docs)), "ns/doc")
	}
	b.Run("prune-bytes", func(b *testing.B) {
		d := must(New(c.set))
		buf := make([]byte, 0, 1<<20)
		b.SetBytes(c.size)
		b.ReportAllocs()
		for b.Loop() {
			buf = pass(d, c.docs, buf)
		}
		perDoc(b)
	})
	b.Run("prune-validate-bytes", func(b *testing.B) {
		// value validation on (Validation): the same pass, checking values
		d := must(New(c.set, Validation(true)))
		buf := make([]byte, 0, 1<<20)
		b.SetBytes(c.size)
		b.ReportAllocs()
		for b.Loop() {
			buf = pass(d, c.docs, buf)
		}
		perDoc(b)
	})
	b.Run("prune-validate-valid-bytes", func(b *testing.B) {
		// the same on the documents that validate: no error to render
		d := must(New(c.set, Validation(true)))
		var docs [][]byte
		var size int64
		for _, doc := range c.docs {
			if _, err := d.AppendPrune(nil, doc); err == nil {
				docs, size = append(docs, doc), size+int64(len(doc))
			}
		}
		buf := make([]byte, 0, 1<<20)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			buf = pass(d, docs, buf)
		}
		b.ReportMetric(float64(len(docs)), "docs")
	})
	b.Run("prune-valid-bytes", func(b *testing.B) {
		// prune only, on the documents that validate
		dv := must(New(c.set, Validation(true)))
		d := must(New(c.set))
		var docs [][]byte
		var size int64
		for _, doc := range c.docs {
			if _, err := dv.AppendPrune(nil, doc); err == nil {
				docs, size = append(docs, doc), size+int64(len(doc))
			}
		}
		buf := make([]byte, 0, 1<<20)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			buf = pass(d, docs, buf)
		}
	})
	b.Run("decode-map", func(b *testing.B) {
		d := must(New(c.set))
		b.SetBytes(c.size)
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range c.docs {
				d.DecodeMap(doc)
			}
		}
		perDoc(b)
	})
	b.Run("validate", func(b *testing.B) {
		d := must(New(c.set))
		b.SetBytes(c.size)
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range c.docs {
				d.Validate(doc)
			}
		}
		perDoc(b)
	})
	b.Run("floor-jsontext-token-copy", func(b *testing.B) {
		b.SetBytes(c.size)
		b.ReportAllocs()
		benchTokenCopy(b, c.docs)
	})
	b.Run("floor-jsontext-validate", func(b *testing.B) {
		b.SetBytes(c.size)
		b.ReportAllocs()
		for b.Loop() {
			for _, doc := range c.docs {
				jsontext.Value(doc).IsValid()
			}
		}
	})
}

// benchTokenCopy copies every token of docs with a reused jsontext decoder
// and encoder: the floor a token-level pruner competes with.
func benchTokenCopy(b *testing.B, docs [][]byte) {
	var rd bytes.Buffer
	var out bytes.Buffer
	dec := jsontext.NewDecoder(&rd)
	enc := jsontext.NewEncoder(&out)
	for b.Loop() {
		for _, doc := range docs {
			rd = *bytes.NewBuffer(doc)
			dec.Reset(&rd)
			out.Reset()
			enc.Reset(&out)
			for {
				tok, err := dec.ReadToken()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				if err := enc.WriteToken(tok); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// synthetic builds a Widget of about size bytes whose spec members are
// unknown in the proportion unknownPct (by count).
func synthetic(size, unknownPct int) []byte {
	var b strings.Builder
	b.WriteString(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default","labels":{"app":"demo"}},"spec":{"list":[`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if i%100 < unknownPct {
			b.WriteString(`{"x":"value-` + itoa(i) + `","unknownField":{"nested":[1,2,3],"s":"some text here"}}`)
		} else {
			b.WriteString(`{"x":"value-` + itoa(i) + `"}`)
		}
	}
	b.WriteString(`],"replicas":3,"name":"n"}}`)
	return []byte(b.String())
}

// BenchmarkUnknownShare measures prune-to-bytes on a 100 KB Widget with 0%,
// 10% and 50% of list items carrying an unknown member, against a jsontext
// token copy of the same input.
func BenchmarkUnknownShare(b *testing.B) {
	set := widgetSet(b)
	for _, pct := range []int{0, 10, 50} {
		doc := synthetic(100<<10, pct)
		name := "unknown=" + itoa(pct) + "%"
		b.Run(name+"/prune-bytes", func(b *testing.B) {
			d := must(New(set))
			buf := make([]byte, 0, len(doc))
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				buf, _ = d.AppendPrune(buf[:0], doc)
			}
		})
		b.Run(name+"/floor-token-copy", func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			benchTokenCopy(b, [][]byte{doc})
		})
	}
}

func TestSteadyStateAllocations(t *testing.T) {
	set := widgetSet(t)
	doc := synthetic(20<<10, 50)
	d := must(New(set))
	buf := make([]byte, 0, len(doc))
	buf, _ = d.AppendPrune(buf[:0], doc)
	if n := testing.AllocsPerRun(20, func() { buf, _ = d.AppendPrune(buf[:0], doc) }); n != 0 {
		t.Errorf("AppendPrune allocates %v times per document in steady state", n)
	}
	if n := testing.AllocsPerRun(20, func() { d.Validate(doc) }); n != 0 {
		t.Errorf("Validate allocates %v times per document in steady state", n)
	}
}

// BenchmarkOptions measures what each option that changes how a document is
// read costs on prune-to-bytes, on the 100 KB Widget with 10% unknown
// members: the default, a MaxDepth other than the default, and
// AllowInvalidUTF8 (on a document of valid UTF-8, the usual case).
func BenchmarkOptions(b *testing.B) {
	set := widgetSet(b)
	doc := synthetic(100<<10, 10)
	for _, c := range []struct {
		name string
		opts []Option
	}{
		{"default", nil},
		{"MaxDepth=9999", []Option{MaxDepth(9999)}},
		{"MaxDepth=64", []Option{MaxDepth(64)}},
		{"AllowInvalidUTF8", []Option{AllowInvalidUTF8(true)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			d := must(New(set, c.opts...))
			buf := make([]byte, 0, len(doc))
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				buf, _ = d.AppendPrune(buf[:0], doc)
			}
		})
	}
}

// BenchmarkPaths measures the outputs and paths other than prune-to-bytes
// on the 100 KB Widget with 10% unknown members: findings only, a map, the
// slow path (the walk finding duplicates itself) and PruneReader.
func BenchmarkPaths(b *testing.B) {
	set := widgetSet(b)
	doc := synthetic(100<<10, 10)
	d := must(New(set))
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
		})
	}
	run("validate", func() { d.Validate(doc) })
	run("decode-map", func() { d.DecodeMap(doc) })
	run("slow-path", func() { d.forceSlow = true; d.Validate(doc); d.forceSlow = false })
	var rd bytes.Reader
	run("prune-reader", func() { rd.Reset(doc); d.PruneReader(io.Discard, &rd) })
}

// dumpKinds are the group and kind of the 8 CRDs of the command line's
// NDJSON dump (bench/cmd/dump: the corpus resources of the 8 CRDs with the
// most resources).
var dumpKinds = map[[2]string]bool{
	{"serving.knative.dev", "Service"}: true, {"argoproj.io", "Application"}: true,
	{"argoproj.io", "Workflow"}: true, {"opentelemetry.io", "OpenTelemetryCollector"}: true,
	{"keda.sh", "ScaledObject"}: true, {"keda.sh", "TriggerAuthentication"}: true,
	{"cert-manager.io", "Issuer"}: true, {"cert-manager.io", "Certificate"}: true,
}

// BenchmarkDump decodes the corpus CRs of the NDJSON dump's 8 CRDs (one
// line each, as the dump holds them) as `jsonprune --no-validate -o none`
// does: Validate, value validation off, Strict. ns/doc is the decoder's
// cost per line of the dump.
func BenchmarkDump(b *testing.B) {
	c := needCorpus(b)
	var docs [][]byte
	var size int64
	for _, doc := range c.docs {
		var tm struct{ APIVersion, Kind string }
		if json.Unmarshal(doc, &tm) != nil {
			continue
		}
		group, _, _ := strings.Cut(tm.APIVersion, "/")
		if dumpKinds[[2]string{group, tm.Kind}] {
			docs, size = append(docs, doc), size+int64(len(doc))
		}
	}
	if len(docs) == 0 {
		b.Skip("SKIP: no corpus CR of the dump's CRDs")
	}
	d := must(New(c.set, FieldValidation(Strict), Validation(false)))
	for _, doc := range docs {
		d.Validate(doc) // the set compiles each CRD on first use: not timed
	}
	b.SetBytes(size)
	b.ReportAllocs()
	cpu0 := processCPU()
	for b.Loop() {
		for _, doc := range docs {
			d.Validate(doc)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(docs)), "ns/doc")
	// the process's CPU time (user+sys, every thread, the collector's too)
	// per document: steadier than the elapsed time on a shared machine
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N*len(docs)), "cpu-ns/doc")
	b.ReportMetric(float64(len(docs)), "docs")
}
