package main

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// A record is one line of --report: a finding, or an error.
type record struct {
	input                             string
	doc, item                         int
	apiVersion, kind, namespace, name string
	typ, path, pointer, message       string
	offset                            int64
	line, column                      int
	omitted                           int // type "omitted": how many findings
	severity, suggestion, hint        string
}

// append writes the record as one line of JSON.
func (r *record) append(dst []byte) []byte {
	str := func(name, v string) {
		dst = append(dst, `,"`...)
		dst = append(dst, name...)
		dst = append(dst, `":`...)
		dst, _ = jsontext.AppendQuote(dst, v)
	}
	num := func(name string, v int64) {
		dst = append(dst, `,"`...)
		dst = append(dst, name...)
		dst = append(dst, `":`...)
		dst = strconv.AppendInt(dst, v, 10)
	}
	dst = append(dst, `{"input":`...)
	dst, _ = jsontext.AppendQuote(dst, r.input)
	if r.doc >= 0 {
		num("doc", int64(r.doc))
	}
	if r.item >= 0 {
		num("item", int64(r.item))
	}
	str("apiVersion", r.apiVersion)
	str("kind", r.kind)
	if r.namespace != "" {
		str("namespace", r.namespace)
	}
	if r.name != "" {
		str("name", r.name)
	}
	str("type", r.typ)
	if r.severity != "" {
		str("severity", r.severity)
	}
	str("path", r.path)
	str("pointer", r.pointer)
	str("message", r.message)
	if r.suggestion != "" {
		str("suggestion", r.suggestion)
	}
	if r.hint != "" {
		str("hint", r.hint)
	}
	num("line", int64(r.line))
	num("column", int64(r.column))
	num("offset", r.offset)
	if r.omitted > 0 {
		num("count", int64(r.omitted))
	}
	return append(dst, "}\n"...)
}

// A tally counts what happened to the documents.
type tally struct {
	docs         int // top-level documents; a list counts once
	lists        int
	objects      int // objects decoded: documents but lists, and list items
	pruned       int // objects a schema serves, written
	passed       int // objects of kinds no CRD serves, written untouched
	withFindings int // objects with findings (written or not)
	unknown      int // unknown-field findings
	duplicate    int // duplicate-field findings
	omitted      int // findings in no message (duplicates past the API server's 100)
	noCRD        int // objects of a kind no loaded CRD serves (not built-in)
	unserved     int // objects in a version their CRD does not serve
	builtIn      int // objects of built-in kinds, passed through
	rejected     int // objects Strict mode did not write
	invalid      int // objects the API server would refuse for their values (422), not written
	// the validation errors of invalid objects, by reason (FieldValueInvalid, ...)
	byReason   map[string]int
	failed     int // objects the API server would not decode (not written)
	unreadable int // syntax errors, read errors, documents too large
	empty      int // null documents, skipped as kubectl skips them
}

func (t *tally) add(o tally) {
	t.docs += o.docs
	t.lists += o.lists
	t.objects += o.objects
	t.pruned += o.pruned
	t.passed += o.passed
	t.withFindings += o.withFindings
	t.unknown += o.unknown
	t.duplicate += o.duplicate
	t.omitted += o.omitted
	t.noCRD += o.noCRD
	t.unserved += o.unserved
	t.builtIn += o.builtIn
	t.rejected += o.rejected
	t.invalid += o.invalid
	for k, n := range o.byReason {
		if t.byReason == nil {
			t.byReason = map[string]int{}
		}
		t.byReason[k] += n
	}
	t.failed += o.failed
	t.unreadable += o.unreadable
	t.empty += o.empty
}

// status is the exit status the tally calls for.
func (t *tally) status() int {
	switch {
	case t.unreadable > 0:
		return exitUsage
	case t.rejected > 0 || t.failed > 0 || t.invalid > 0:
		return exitFindings
	}
	return exitOK
}

// objSummary is what --summary keeps of an object.
type objSummary struct {
	gvk      string // "apiVersion kind"
	passed   bool
	findings bool // findings, or a kind or version no loaded CRD serves
	unserved bool
	paths    []string // unknown fields, indices as [*], each once
}

var indexRE = regexp.MustCompile(`\[\d+\]`)

// normalizePath turns the indices of a path into [*], so that a field
// counts once however many list entries have it.
func normalizePath(p string) string {
	if strings.IndexByte(p, '[') < 0 {
		return p
	}
	return indexRE.ReplaceAllString(p, "[*]")
}

// maxCleanKinds bounds the kinds without findings --summary lists.
const maxCleanKinds = 10

// maxSummaryPaths bounds the distinct paths --summary counts; more are
// counted together.
const maxSummaryPaths = 100_000

// summary gathers the totals --summary prints.
type summary struct {
	kinds map[string]*kindCount
	paths map[string]int // "gvk\x00path"
	other int            // paths beyond maxSummaryPaths
}

type kindCount struct{ objects, findings, passed, unserved int }

func newSummary() *summary {
	return &summary{kinds: map[string]*kindCount{}, paths: map[string]int{}}
}

func (s *summary) add(o objSummary) {
	k := s.kinds[o.gvk]
	if k == nil {
		k = &kindCount{}
		s.kinds[o.gvk] = k
	}
	k.objects++
	if o.passed {
		k.passed++
	}
	if o.findings {
		k.findings++
	}
	if o.unserved {
		k.unserved++
	}
	for _, p := range o.paths {
		key := o.gvk + "\x00" + p
		if _, ok := s.paths[key]; ok || len(s.paths) < maxSummaryPaths {
			s.paths[key]++
		} else {
			s.other++
		}
	}
}

// print writes the summary: totals, objects by kind, and the most frequent
// unknown fields, which the API server would drop.
func (s *summary) print(w io.Writer, t tally, inputs int, bytesIn int64, top int, mode, crds string) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("Summary: %s in %s (%s)\n", plural(t.docs, "document"), plural(inputs, "input"), formatBytes(bytesIn))
	if crds != "" {
		p("  CRDs:                     %s\n", crds)
	}
	if t.lists > 0 {
		p("  lists:                    %d\n", t.lists)
	}
	p("  objects:                  %d\n", t.objects)
	p("  pruned by a schema:       %d\n", t.pruned)
	if mode == "Strict" {
		p("  rejected (Strict):        %d\n", t.rejected)
	}
	if t.invalid > 0 {
		p("  invalid (values):         %d (%s)\n", t.invalid, reasons(t.byReason))
	}
	p("  passed through (no CRD):  %d\n", t.passed)
	if t.builtIn > 0 {
		p("    of built-in kinds:      %d\n", t.builtIn)
	}
	if t.noCRD > 0 {
		p("  kind not served:          %d (no loaded CRD serves it)\n", t.noCRD)
	}
	if t.unserved > 0 {
		p("  version not served:       %d\n", t.unserved)
	}
	p("  not decodable:            %d\n", t.failed)
	p("  unreadable:               %d\n", t.unreadable)
	if t.empty > 0 {
		p("  empty (skipped):          %d\n", t.empty)
	}
	p("  with findings:            %d (%s, %s)\n", t.withFindings, plural(t.unknown, "unknown field"), plural(t.duplicate, "duplicate field"))
	if t.omitted > 0 {
		p("  not listed:               %d (duplicate fields past the API server's 100 a document)\n", t.omitted)
	}

	kinds := make([]string, 0, len(s.kinds))
	for k := range s.kinds {
		kinds = append(kinds, k)
	}
	// the kinds with findings first (most objects with findings first),
	// then the others by number of objects, capped
	sort.Slice(kinds, func(i, j int) bool {
		a, b := s.kinds[kinds[i]], s.kinds[kinds[j]]
		if a.findings != b.findings {
			return a.findings > b.findings
		}
		if a.objects != b.objects {
			return a.objects > b.objects
		}
		return kinds[i] < kinds[j]
	})
	if len(kinds) > 0 {
		p("Objects by kind:\n")
	}
	clean := 0
	for i, k := range kinds {
		c := s.kinds[k]
		if c.findings == 0 {
			if clean == maxCleanKinds {
				rest, objs := len(kinds)-i, 0
				for _, k := range kinds[i:] {
					objs += s.kinds[k].objects
				}
				p("  %10d  (%s more without findings)\n", objs, plural(rest, "kind"))
				break
			}
			clean++
		}
		name := k
		if name == "" {
			name = "(no apiVersion, kind)"
		}
		switch {
		case c.passed == c.objects && c.unserved > 0:
			p("  %10d  %s  (no loaded CRD serves it)\n", c.objects, name)
		case c.passed == c.objects:
			p("  %10d  %s  (passed through: no CRD)\n", c.objects, name)
		case c.unserved > 0:
			p("  %10d  %s  (version not served; %d would lose fields)\n", c.objects, name, c.findings)
		default:
			p("  %10d  %s  (%d would lose fields)\n", c.objects, name, c.findings)
		}
	}

	type pathCount struct {
		key string
		n   int
	}
	paths := make([]pathCount, 0, len(s.paths))
	for k, n := range s.paths {
		paths = append(paths, pathCount{k, n})
	}
	sort.Slice(paths, func(i, j int) bool {
		if paths[i].n != paths[j].n {
			return paths[i].n > paths[j].n
		}
		return paths[i].key < paths[j].key
	})
	if len(paths) == 0 {
		if mode == "Ignore" {
			p("Unknown fields: not collected with --field-validation=Ignore\n")
		} else {
			p("Unknown fields: none\n")
		}
		return
	}
	shown := min(top, len(paths))
	p("Most frequent unknown fields (%d of %d), which the API server drops (objects, kind, field):\n", shown, len(paths))
	for _, pc := range paths[:shown] {
		gvk, path, _ := strings.Cut(pc.key, "\x00")
		p("  %10d  %s  %s\n", pc.n, gvk, cleanString(path))
	}
	if s.other > 0 {
		p("  %10d  (other fields, beyond %d distinct paths)\n", s.other, maxSummaryPaths)
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// reasons lists validation errors by reason, most frequent first.
func reasons(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", strings.TrimPrefix(k, "FieldValue"), m[k])
	}
	return b.String()
}
