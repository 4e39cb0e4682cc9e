package apiserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/go-logr/logr"
	"github.com/jsonprune/jsonprune"
	"github.com/jsonprune/jsonprune/decoder"
	"k8s.io/klog/v2"
)

// Setup starts nothing: it installs what cases need on a started server
// (their CRDs, Established, and their namespaces) and returns the Oracle.
func Setup(ctx context.Context, s *Server, root string, cases []Case) (*Oracle, error) {
	nsSet := map[string]bool{}
	for _, c := range cases {
		if c.Namespace != "" {
			nsSet[c.Namespace] = true
		}
	}
	var nss []string
	for n := range nsSet {
		nss = append(nss, n)
	}
	sort.Strings(nss)
	if err := CreateNamespaces(ctx, s, nss); err != nil {
		return nil, err
	}
	crds, err := InstallCRDs(ctx, s, root, crdFiles(cases), 5*time.Minute)
	if err != nil {
		return nil, err
	}
	return &Oracle{Root: root, Server: s, CRDs: crds}, nil
}

// RunAll runs the cases with workers requests in flight and returns their
// outcomes in the cases' order.
func (o *Oracle) RunAll(ctx context.Context, cases []Case, workers int) ([]*Outcome, error) {
	out := make([]*Outcome, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r, err := o.Run(ctx, &cases[i])
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					continue
				}
				out[i] = r
			}
		}()
	}
	for i := range cases {
		if ctx.Err() != nil {
			break
		}
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return out, ctx.Err()
}

// Tally counts the verdicts of one row.
type Tally struct {
	Cases, Identical, Intended, Different, Invalid, NotComparable, NumberSpelling int
	ByCategory, IntendedBy                                                        map[string]int
}

func (t *Tally) add(o *Outcome) {
	t.Cases++
	switch o.Verdict {
	case Identical:
		t.Identical++
	case Different:
		t.Different++
		if t.ByCategory == nil {
			t.ByCategory = map[string]int{}
		}
		t.ByCategory[o.Category]++
	case Intended:
		t.Intended++
		if t.IntendedBy == nil {
			t.IntendedBy = map[string]int{}
		}
		t.IntendedBy[o.Category]++
	case ServerInvalid:
		t.Invalid++
	default:
		t.NotComparable++
	}
	if o.NumberSpelling {
		t.NumberSpelling++
	}
}

// WriteTable writes the verdict table: one row per family, format and
// mode, then the totals.
func WriteTable(w io.Writer, outs []*Outcome) Tally {
	rows := map[string]*Tally{}
	var total Tally
	for _, o := range outs {
		k := o.Case.Family + "\t" + o.Case.Format() + "\t" + o.Case.Mode
		if rows[k] == nil {
			rows[k] = &Tally{}
		}
		rows[k].add(o)
		total.add(o)
	}
	keys := make([]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(tw, "family\tformat\tmode\tcases\tidentical\tintended\tdifferent\tserver-422\tnot-comparable\tdifferent by category\t")
	line := func(k string, t *Tally) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t\n", k, t.Cases, t.Identical, t.Intended, t.Different, t.Invalid, t.NotComparable, cats(t.ByCategory))
	}
	for _, k := range keys {
		line(k, rows[k])
	}
	line("total\t\t", &total)
	tw.Flush()
	if len(total.IntendedBy) > 0 {
		fmt.Fprintf(w, "intended differences by category: %s\n", cats(total.IntendedBy))
	}
	return total
}

func cats(m map[string]int) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// ValTally counts the validation verdicts of one row.
type ValTally struct{ Compared, Identical, Different, CEL, Server422, JSONPrune422 int }

// WriteValidationTable writes the value-validation verdicts (Outcome.Validation)
// per family, format and mode, then the totals, and the differences (at
// most max a family; 0: all).
func WriteValidationTable(w io.Writer, outs []*Outcome, max int) ValTally {
	rows := map[string]*ValTally{}
	var total ValTally
	add := func(t *ValTally, o *Outcome) {
		if o.Validation == "" || o.Validation == ValNA {
			return
		}
		t.Compared++
		switch o.Validation {
		case ValIdentical:
			t.Identical++
		case ValDifferent:
			t.Different++
		case ValCEL:
			t.CEL++
		}
		if o.Resp != nil && o.Resp.Code == 422 {
			t.Server422++
		}
	}
	for _, o := range outs {
		k := o.Case.Family + "\t" + o.Case.Format() + "\t" + o.Case.Mode
		if rows[k] == nil {
			rows[k] = &ValTally{}
		}
		add(rows[k], o)
		add(&total, o)
	}
	keys := make([]string, 0, len(rows))
	for k := range rows {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintln(w, "\nvalue validation (decoder.Validation) against the server's 422 causes:")
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(tw, "family\tformat\tmode\tcompared\tserver 422\tidentical\tCEL (not checked)\tdifferent\t")
	line := func(k string, t *ValTally) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t\n", k, t.Compared, t.Server422, t.Identical, t.CEL, t.Different)
	}
	for _, k := range keys {
		line(k, rows[k])
	}
	line("total\t\t", &total)
	tw.Flush()
	n := map[string]int{}
	for _, o := range outs {
		if o.Validation != ValDifferent {
			continue
		}
		if n[o.Case.Family]++; max > 0 && n[o.Case.Family] > max {
			continue
		}
		fmt.Fprintf(w, "-- validation %s [%s %s] %s\n   %s\n", o.Case.Name, o.Case.Format(), o.Case.Mode, o.Case.Path(), o.ValidationDetail)
	}
	return total
}

// WriteDifferences lists every Different outcome, grouped by category and
// family: the case, mode, format, the server's answer and jsonprune's, and
// the first difference. At most max lines per group (0: all).
func WriteDifferences(w io.Writer, outs []*Outcome, max int) {
	groups := map[string][]*Outcome{}
	for _, o := range outs {
		if o.Verdict == Different {
			k := o.Category + " / " + o.Case.Family
			groups[k] = append(groups[k], o)
		}
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g := groups[k]
		fmt.Fprintf(w, "\n== %s: %d\n", k, len(g))
		for i, o := range g {
			if max > 0 && i >= max {
				fmt.Fprintf(w, "   ... %d more\n", len(g)-max)
				break
			}
			fmt.Fprintf(w, "-- %s [%s %s] %s\n   server:    %s\n   jsonprune: %s\n   %s\n", o.Case.Name, o.Case.Format(), o.Case.Mode,
				o.Case.Path(), o.Server, o.JSONPrune, o.Detail)
		}
	}
}

// WriteOtherWarnings summarises the server's Warning texts that are not
// decoder findings (not compared), with counts.
func WriteOtherWarnings(w io.Writer, outs []*Outcome) {
	n := map[string]int{}
	for _, o := range outs {
		for _, t := range o.OtherWarnings {
			n[t]++
		}
	}
	if len(n) == 0 {
		return
	}
	var ks []string
	for k := range n {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return n[ks[i]] > n[ks[j]] || n[ks[i]] == n[ks[j]] && ks[i] < ks[j] })
	fmt.Fprintf(w, "\nServer warnings that are not decoder findings (not compared; %d distinct):\n", len(ks))
	for i, k := range ks {
		if i == 15 {
			fmt.Fprintf(w, "   ... %d more distinct texts\n", len(ks)-15)
			break
		}
		fmt.Fprintf(w, "  %5d  %s\n", n[k], oneLine(k))
	}
}

// VectorRecord is one line of testdata/apiserver-vectors.jsonl: an explicit
// vector and the real server's answer to it, so that tests without a
// server can use it.
type VectorRecord struct {
	Name       string   `json:"name"`
	CRD        string   `json:"crd"`
	Path       string   `json:"path"` // the request's URL path and query
	Group      string   `json:"group"`
	Version    string   `json:"version"`
	Plural     string   `json:"plural"`
	Namespace  string   `json:"namespace,omitempty"`
	Format     string   `json:"format"`
	Mode       string   `json:"mode"`
	Body       string   `json:"body,omitempty"`
	BodyBase64 string   `json:"bodyBase64,omitempty"` // instead of body when it is not UTF-8
	Code       int      `json:"code"`
	Warnings   []string `json:"warnings,omitempty"` // Warning header values, in order
	Message    string   `json:"message,omitempty"`  // the Status message of a refusal
	// Object is the answer's object after NormalizeServer (server-set
	// metadata removed), for 201 answers.
	Object json.RawMessage `json:"object,omitempty"`
	// Verdict and Detail are the comparison with jsonprune when the file
	// was written (informative: jsonprune may have changed since).
	Verdict string `json:"verdict"`
	Detail  string `json:"detail,omitempty"`
}

// WriteVectors writes the records of the outcomes of family "vectors".
func WriteVectors(path string, outs []*Outcome) error {
	var b strings.Builder
	for _, o := range outs {
		if o.Case.Family != "vectors" || o.Resp == nil {
			continue
		}
		r := VectorRecord{Name: strings.SplitN(o.Case.Name, "#", 2)[1], CRD: o.Case.CRD, Path: o.Case.Path(),
			Group: o.Case.Group, Version: o.Case.Version, Plural: o.Case.Plural, Namespace: o.Case.Namespace,
			Format: o.Case.Format(), Mode: o.Case.Mode, Code: o.Resp.Code, Warnings: o.Resp.Warnings,
			Verdict: o.Verdict, Detail: o.Detail}
		if utf8.Valid(o.Case.Body) {
			r.Body = string(o.Case.Body)
		} else {
			r.BodyBase64 = base64.StdEncoding.EncodeToString(o.Case.Body)
		}
		if o.Resp.Code/100 == 2 {
			if o.Norm != nil {
				r.Object, _ = json.Marshal(o.Norm)
			}
		} else {
			r.Message = statusMessage(o.Resp.Body)
		}
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// WriteReport writes every outcome that is not Identical (every outcome
// with JSONPRUNE_APISERVER_REPORT_ALL=1) as one JSON object a line.
func WriteReport(path string, outs []*Outcome) error {
	all := os.Getenv("JSONPRUNE_APISERVER_REPORT_ALL") == "1"
	var b strings.Builder
	for _, o := range outs {
		if o.Verdict == Identical && !all {
			continue
		}
		line, err := json.Marshal(map[string]any{
			"family": o.Case.Family, "name": o.Case.Name, "format": o.Case.Format(), "mode": o.Case.Mode,
			"path": o.Case.Path(), "verdict": o.Verdict, "category": o.Category,
			"server": o.Server, "jsonprune": o.JSONPrune, "detail": o.Detail,
		})
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// ReadVectors reads testdata/apiserver-vectors.jsonl back as cases and the
// server's recorded answers (a refusal's body is rebuilt as a Status with
// its message; an object is the normalised one).
func ReadVectors(path string) ([]Case, []*Response, []VectorRecord, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, nil, err
	}
	var cases []Case
	var resps []*Response
	var recs []VectorRecord
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r VectorRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, nil, nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		body := []byte(r.Body)
		if r.BodyBase64 != "" {
			if body, err = base64.StdEncoding.DecodeString(r.BodyBase64); err != nil {
				return nil, nil, nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
			}
		}
		mode := "Strict"
		if strings.HasSuffix(r.Path, "fieldValidation=Warn") {
			mode = "Warn"
		}
		cases = append(cases, Case{Family: "vectors", Name: vectorName + "#" + r.Name, CRD: r.CRD, Group: r.Group,
			Version: r.Version, Plural: r.Plural, Namespace: r.Namespace, YAML: r.Format == "yaml", Mode: mode, Body: body})
		resp := &Response{Code: r.Code, Warnings: r.Warnings, Body: r.Object}
		if r.Code/100 != 2 {
			resp.Body, _ = json.Marshal(map[string]string{"kind": "Status", "message": r.Message})
		}
		resps = append(resps, resp)
		recs = append(recs, r)
	}
	return cases, resps, recs, nil
}

// Replay compares jsonprune with a recorded answer of the server (no
// server needed).
func (o *Oracle) Replay(c *Case, r *Response) (*Outcome, error) {
	out := &Outcome{Case: c, Resp: r}
	f, err := o.factsOf(c.CRD)
	if err != nil {
		return nil, err
	}
	obj, jerr := f.schemas.Decode(c.Body, Options(c.Mode)...)
	if obj == nil {
		obj = &jsonprune.Object{Err: jerr}
	}
	o.compare(out, c, obj, f)
	formatMismatch(out, c)
	objV, _ := f.schemas.Decode(c.Body, append(Options(c.Mode), decoder.Validation(true))...)
	compareValidation(out, objV)
	return out, nil
}

// LoadKnown reads a known-differences file
// (testdata/apiserver-known-differences.txt): one "name format mode
// category" line per difference that is reported and not yet fixed; blank
// lines and lines starting with # are comments.
func LoadKnown(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		m[strings.Join(strings.Fields(l), " ")] = true
	}
	return m, nil
}

// Key is an outcome's line in a known-differences file.
func Key(o *Outcome) string {
	return o.Case.Name + " " + o.Case.Format() + " " + o.Case.Mode + " " + o.Category
}

// Unexpected returns the outcomes that should fail a run: differences not
// in known, and cases not compared because the server refused their CRD.
func Unexpected(outs []*Outcome, known map[string]bool) []*Outcome {
	var bad []*Outcome
	for _, o := range outs {
		if o.Verdict == Different && !known[Key(o)] || o.Verdict == NotComparable && o.Category == "crd-not-installed" {
			bad = append(bad, o)
		}
	}
	return bad
}

// ValidationDifferences returns the outcomes whose value validation is not
// the server's (ValDifferent): they fail a run, having no list of known
// ones.
func ValidationDifferences(outs []*Outcome) []*Outcome {
	var bad []*Outcome
	for _, o := range outs {
		if o.Validation == ValDifferent {
			bad = append(bad, o)
		}
	}
	return bad
}

// QuietKlog sends klog's output nowhere: the API server's warning recorder
// (recorderHeaders) logs "exceeded max warning header size, truncating"
// through utilruntime.HandleError whenever it truncates, which is expected
// here.
func QuietKlog() {
	klog.SetLogger(logr.Discard())
}
