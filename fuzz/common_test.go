package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/internal/yaml11"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// This file holds what every target shares: the schema set, the seed
// sources, an ordered JSON tree, and checkDocument, the invariants every
// successful or failed decoding must satisfy.

// sharedDir is ../shared beside the checkout, seen from this package.
const sharedDir = "../../shared"

// exampleDir holds the Widget CRD and custom resource.
const exampleDir = "../examples"

// corpusCRDs are the corpus CRDs compiled, with the Widget, into the set
// FuzzDecode runs against: common shapes (knative, cert-manager, keda,
// argo-cd, cnpg) and embedded resources (crossplane compositions). Missing
// files are skipped.
var corpusCRDs = []string{
	"corpus/crds/knative-serving/serving.knative.dev_services.yaml",
	"corpus/crds/cert-manager/cert-manager.io_certificates.yaml",
	"corpus/crds/keda/keda.sh_scaledobjects.yaml",
	"corpus/crds/crossplane/apiextensions.crossplane.io_compositions.yaml",
	"corpus/crds/argo-cd/argoproj.io_appprojects.yaml",
	"corpus/crds/cloudnative-pg/postgresql.cnpg.io_backups.yaml",
}

// fixture is the schema set of FuzzDecode and FuzzJSONAndYAML.
type fixture struct {
	set *schemaauto.Set
	// crdFiles are the corpus CRD files compiled into set (paths relative
	// to sharedDir), for choosing seed CRs.
	crdFiles map[string]bool
}

var loadFixture = sync.OnceValues(func() (*fixture, error) {
	data, err := os.ReadFile(filepath.Join(exampleDir, "widget-crd.yaml"))
	if err != nil {
		return nil, err
	}
	crds, err := schemaauto.ParseCRDs(data)
	if err != nil {
		return nil, fmt.Errorf("widget CRD: %w", err)
	}
	fx := &fixture{crdFiles: map[string]bool{}}
	for _, f := range corpusCRDs {
		data, err := os.ReadFile(filepath.Join(sharedDir, f))
		if err != nil {
			continue // the corpus is optional
		}
		more, err := schemaauto.ParseCRDs(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		crds = append(crds, more...)
		fx.crdFiles[strings.TrimPrefix(f, "corpus/")] = true
	}
	fx.set, err = schemaauto.CompileCRDs(crds)
	if err != nil {
		return nil, err
	}
	return fx, nil
})

func mustFixture(tb testing.TB) *fixture {
	tb.Helper()
	fx, err := loadFixture()
	if err != nil {
		tb.Fatal(err)
	}
	return fx
}

// widgetAutomaton is the automaton of example.com/v1 Widget.
func widgetAutomaton(tb testing.TB) *schemaauto.Automaton {
	tb.Helper()
	e, ok := mustFixture(tb).set.Lookup("example.com/v1", "Widget")
	if !ok {
		tb.Fatal("no Widget in the set")
	}
	return e.Automaton
}

// yamlToJSON converts the first document of a YAML text to JSON the way the
// Kubernetes YAML path does (internal/yaml11), keys sorted.
func yamlToJSON(data []byte) ([]byte, error) {
	vs, err := yaml11.Decode(data, yaml11.Options{})
	var dup *yaml11.DuplicateKeysError
	if err != nil && !errors.As(err, &dup) {
		return nil, err
	}
	if len(vs) == 0 {
		return nil, errors.New("no document")
	}
	return json.Marshal(vs[0])
}

// ---------------------------------------------------------------------------
// An ordered JSON tree: members in document order, duplicates kept, scalars
// raw. It is what the invariants walk.

type jvalue struct {
	kind   jsontext.Kind // '{', '[', '"', '0', 't', 'f', 'n'
	raw    []byte        // scalars: the token as written
	str    string        // strings: the decoded value
	names  []string      // objects: member names, in order
	values []*jvalue     // objects: member values; arrays: elements
}

// parseTree parses exactly one JSON value (duplicate names allowed, so
// that the caller can detect them).
func parseTree(b []byte) (*jvalue, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true))
	v, err := readTree(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, fmt.Errorf("data after the value: %v", err)
	}
	return v, nil
}

func readTree(dec *jsontext.Decoder) (*jvalue, error) {
	switch k := dec.PeekKind(); k {
	case '{', '[':
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		v := &jvalue{kind: k}
		end := jsontext.Kind('}')
		if k == '[' {
			end = ']'
		}
		for dec.PeekKind() != end {
			if k == '{' {
				tok, err := dec.ReadToken()
				if err != nil {
					return nil, err
				}
				v.names = append(v.names, tok.String())
			}
			e, err := readTree(dec)
			if err != nil {
				return nil, err
			}
			v.values = append(v.values, e)
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		return v, nil
	default:
		raw, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		v := &jvalue{kind: raw.Kind(), raw: bytes.Clone(raw)}
		if v.kind == '"' {
			s, err := jsontext.AppendUnquote(nil, raw)
			if err != nil {
				return nil, err
			}
			v.str = string(s)
		}
		return v, nil
	}
}

// member returns the value of the last member called name, or nil.
func (v *jvalue) member(name string) *jvalue {
	if v == nil || v.kind != '{' {
		return nil
	}
	for i := len(v.names) - 1; i >= 0; i-- {
		if v.names[i] == name {
			return v.values[i]
		}
	}
	return nil
}

// duplicate returns the path of the first object holding a name twice.
func (v *jvalue) duplicate(path string) (string, bool) {
	if v.kind == '{' {
		seen := map[string]bool{}
		for _, n := range v.names {
			if seen[n] {
				return path + "/" + n, true
			}
			seen[n] = true
		}
	}
	for i, e := range v.values {
		p := path + "/" + strconv.Itoa(i)
		if v.kind == '{' {
			p = path + "/" + v.names[i]
		}
		if d, ok := e.duplicate(p); ok {
			return d, true
		}
	}
	return "", false
}

// toAny converts the tree to the reference's Go values (sigs.k8s.io/json
// PreserveInts: int64 when the literal has no '.' and fits, else float64),
// the last duplicate winning.
func (v *jvalue) toAny() any {
	switch v.kind {
	case '{':
		m := make(map[string]any, len(v.names))
		for i, n := range v.names {
			m[n] = v.values[i].toAny()
		}
		return m
	case '[':
		a := make([]any, len(v.values))
		for i, e := range v.values {
			a[i] = e.toAny()
		}
		return a
	case '"':
		return v.str
	case 't':
		return true
	case 'f':
		return false
	case 'n':
		return nil
	}
	return number(v.raw)
}

func number(raw []byte) any {
	if bytes.IndexByte(raw, '.') < 0 {
		if i, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			return i
		}
	}
	f, _ := strconv.ParseFloat(string(raw), 64)
	return f
}

// integralFloats reports whether v holds a number written as a float
// whose value is an integer (1.0, 1e3, -0.0): the reference's YAML path
// makes it an int64, its JSON path a float64 (rendered differently in
// error texts: -0 against 0).
func (v *jvalue) integralFloats() bool {
	if v.kind == '0' && bytes.ContainsAny(v.raw, ".eE") {
		f, err := strconv.ParseFloat(string(v.raw), 64)
		return err == nil && f == math.Trunc(f)
	}
	for _, e := range v.values {
		if e.integralFloats() {
			return true
		}
	}
	return false
}

// finiteNumbers reports whether every number of v fits a float64 (the
// reference rejects the others).
func (v *jvalue) finiteNumbers() bool {
	if v.kind == '0' {
		f, err := strconv.ParseFloat(string(v.raw), 64)
		return err == nil || !math.IsInf(f, 0)
	}
	for _, e := range v.values {
		if !e.finiteNumbers() {
			return false
		}
	}
	return true
}

// textDepth is the deepest nesting of brackets in a JSON text, outside
// strings (for texts that may not parse).
func textDepth(b []byte) int {
	d, m, in, esc := 0, 0, false, false
	for _, c := range b {
		switch {
		case in && esc:
			esc = false
		case in && c == '\\':
			esc = true
		case in && c == '"':
			in = false
		case in:
		case c == '"':
			in = true
		case c == '{' || c == '[':
			d++
			m = max(m, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return m
}

// equalValues compares two value trees; with loose numbers an int64 equals
// a float64 of the same value (YAML turns 1.0 into 1).
func equalValues(a, b any, loose bool) bool {
	if !loose {
		return reflect.DeepEqual(a, b)
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalValues(v, w, loose) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i], loose) {
				return false
			}
		}
		return true
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case float64:
			return float64(x) == y
		}
		return false
	case float64:
		switch y := b.(type) {
		case int64:
			return x == float64(y)
		case float64:
			return x == y
		}
		return false
	}
	return reflect.DeepEqual(a, b)
}

// ---------------------------------------------------------------------------
// Paths the schema admits.

// admitted checks that every member of the output v, decoded in state s of
// a, is one the automaton keeps: a property (apiVersion, kind and metadata of
// a resource included), an additionalProperties entry, or any member of a
// state under x-kubernetes-preserve-unknown-fields. Metadata values are
// collected in metas.
func admitted(a *schemaauto.Automaton, s schemaauto.StateID, v *jvalue, path string, metas *[]*jvalue) error {
	if s == schemaauto.NoState {
		s = schemaauto.Keep
	}
	st := a.State(s)
	if st.Flags&schemaauto.Opaque != 0 {
		return nil
	}
	switch v.kind {
	case '{':
		props := a.Props(s)
		for i, name := range v.names {
			p := path + "/" + name
			idx := a.Lookup(s, []byte(name))
			switch {
			case idx >= 0:
				prop := props[idx]
				if prop.Role == schemaauto.RoleMetadata {
					if prop.Target != a.ObjectMeta() {
						return fmt.Errorf("%s: metadata property does not lead to ObjectMeta", p)
					}
					if v.values[i].kind != '{' {
						return fmt.Errorf("%s: metadata is not an object in the output: %s", p, v.values[i].raw)
					}
					*metas = append(*metas, v.values[i])
				}
				if err := admitted(a, prop.Target, v.values[i], p, metas); err != nil {
					return err
				}
			case st.Additional != schemaauto.NoState:
				if err := admitted(a, st.Additional, v.values[i], p, metas); err != nil {
					return err
				}
			case st.Flags&schemaauto.Preserve != 0:
				// kept verbatim
			default:
				return fmt.Errorf("the output holds %s, which state %d (%s) does not admit", p, s, a.Node(s).Path)
			}
		}
	case '[':
		for i, e := range v.values {
			if err := admitted(a, st.Items, e, path+"/"+strconv.Itoa(i), metas); err != nil {
				return err
			}
		}
	}
	return nil
}

// timeUnstable reports whether normalised metadata holds a value that the
// reference itself does not normalise idempotently (internal/objectmeta,
// "Idempotence"): a pointer timestamp rendered as null (it held the zero
// instant), the zero instant itself (from a fraction of a second after it),
// or a timestamp whose year falls outside 0000-9999.
func timeUnstable(meta *jvalue) bool {
	bad := func(t *jvalue) bool {
		if t == nil {
			return false
		}
		if t.kind == 'n' {
			return true
		}
		if t.kind != '"' {
			return false
		}
		s := t.str
		if strings.HasPrefix(s, "0001-01-01T00:00:00") || strings.HasPrefix(s, "-") {
			return true
		}
		i := strings.IndexByte(s, '-')
		return i != 4
	}
	if bad(meta.member("creationTimestamp")) || bad(meta.member("deletionTimestamp")) {
		return true
	}
	if mf := meta.member("managedFields"); mf != nil {
		for _, e := range mf.values {
			if bad(e.member("time")) {
				return true
			}
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// The invariants of one decoding.

// target says which decoder a document is decoded with.
type target struct {
	set   *schemaauto.Set       // must(decoder.New(set)), or
	fixed *schemaauto.Automaton // must(decoder.NewForAutomaton(fixed))
	opts  []decoder.Option      // options common to every decoding
	// nullDefaults is set when a default value of the schemas holds a
	// null: defaulting runs after null pruning, so the reference itself is
	// not idempotent then (a second pass prunes the null the default
	// brought, if the field is not nullable). The API server's CRD
	// validation rejects such defaults; jsonprune does not validate defaults.
	nullDefaults bool
	// reused, when set, decodes the first pass: a Decoder reused across
	// documents, to catch state leaking from one document to the next.
	reused *decoder.Decoder
}

func (tg *target) decoder(extra ...decoder.Option) *decoder.Decoder {
	opts := append(append([]decoder.Option(nil), tg.opts...), extra...)
	if tg.fixed != nil {
		return must(decoder.NewForAutomaton(tg.fixed, opts...))
	}
	return must(decoder.New(tg.set, opts...))
}

// hasNullDefault reports whether a default value of a holds a null.
func hasNullDefault(a *schemaauto.Automaton) bool {
	for s := range a.NumStates() {
		if _, j, ok := a.Default(schemaauto.StateID(s)); ok {
			if tree, err := parseTree(j); err == nil && tree.hasNull() {
				return true
			}
		}
	}
	return false
}

func (v *jvalue) hasNull() bool {
	if v.kind == 'n' {
		return true
	}
	for _, e := range v.values {
		if e.hasNull() {
			return true
		}
	}
	return false
}

// automatonFor returns the automaton a successful decoding of out used.
func (tg *target) automatonFor(out *jvalue) (*schemaauto.Automaton, *schemaauto.Entry, error) {
	if tg.fixed != nil {
		return tg.fixed, nil, nil
	}
	av, kind := out.member("apiVersion"), out.member("kind")
	var avs, ks string
	if av != nil {
		avs = av.str
	}
	if kind != nil {
		ks = kind.str
	}
	a, e, err := tg.set.Resolve(avs, ks)
	if a == nil {
		a = schemaauto.PassThrough()
	}
	return a, e, err
}

// outcome is one decoding's result.
type outcome struct {
	out      []byte
	err      error
	findings []jperrors.Finding
	entry    *schemaauto.Entry
	pruned   bool
}

func prune(d *decoder.Decoder, doc []byte) outcome {
	out, err := d.AppendPrune(nil, doc)
	r := d.Result()
	return outcome{out: out, err: err, findings: r.Findings(), entry: r.Entry, pruned: r.Pruned}
}

// checkError checks that err is a fatal DecodeError (or, when strict, a
// StrictError) that says where, inside doc.
func checkError(t *testing.T, what string, doc []byte, err error, strict bool) {
	t.Helper()
	var de *jperrors.DecodeError
	var se *jperrors.StrictError
	switch {
	case errors.As(err, &de):
		if de.Offset < 0 || de.Offset > int64(len(doc)) {
			t.Fatalf("%s: error offset %d outside the input of %d bytes: %v", what, de.Offset, len(doc), err)
		}
		if de.Line != 0 {
			if l, c := jperrors.LineColumn(doc, de.Offset); l != de.Line || c != de.Column {
				t.Fatalf("%s: error at line %d column %d, but offset %d is line %d column %d: %v", what, de.Line, de.Column, de.Offset, l, c, err)
			}
		}
		if de.Msg == "" {
			t.Fatalf("%s: error without a message: %#v", what, de)
		}
		if n, ok := strings.CutPrefix(de.Msg, numberErrPrefix); ok && strings.HasSuffix(de.Msg, " into Go value of type float64") && !tolerateNumberOffset {
			// a number a float64 cannot hold is located at the number (a
			// malformed metadata field, "cannot unmarshal number into Go
			// struct field ObjectMeta...", is located at the metadata)
			n, _, _ = strings.Cut(n, " ")
			if !bytes.HasPrefix(doc[de.Offset:], []byte(n)) {
				t.Fatalf("%s: the number error is not at the number: %v", what, err)
			}
		}
	case strict && errors.As(err, &se):
		if len(se.Findings) == 0 {
			t.Fatalf("%s: strict error without findings", what)
		}
		checkFindings(t, what, doc, se.Findings)
	default:
		t.Fatalf("%s: error of type %T, not a *errors.DecodeError: %v", what, err, err)
	}
}

func checkFindings(t *testing.T, what string, doc []byte, fs []jperrors.Finding) {
	t.Helper()
	for _, f := range fs {
		if f.Type != jperrors.UnknownField && f.Type != jperrors.DuplicateField {
			t.Fatalf("%s: finding of type %d: %+v", what, f.Type, f)
		}
		if f.Offset < 0 || f.Offset >= int64(len(doc)) {
			t.Fatalf("%s: finding offset %d outside the input of %d bytes: %+v", what, f.Offset, len(doc), f)
		}
		if l, c := jperrors.LineColumn(doc, f.Offset); f.Line != 0 && (l != f.Line || c != f.Column) {
			t.Fatalf("%s: finding at %d:%d, offset %d is %d:%d", what, f.Line, f.Column, f.Offset, l, c)
		}
		if !strings.HasPrefix(f.Pointer, "/") {
			t.Fatalf("%s: finding pointer %q is not a JSON Pointer", what, f.Pointer)
		}
	}
}

func sameFindings(a, b []jperrors.Finding) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// isSyntaxError reports whether err is a DecodeError for invalid JSON: a
// jsontext error ("invalid JSON: ...") or data after the document.
func isSyntaxError(err error) bool {
	var de *jperrors.DecodeError
	return errors.As(err, &de) && (strings.HasPrefix(de.Msg, "invalid JSON: ") || de.Msg == "invalid data after the top-level value")
}

// Known bugs the invariants tolerate, so that fuzzing goes past them. Each
// has its skipped TestRegression test; set the constant to false once the
// bug is fixed. All are fixed: their constants are off, so the invariants
// hold them again.
const (
	// TestRegressionNumberOffsetInRawValue: a number too large for a float64
	// inside a value read whole (kept, skipped, metadata) is reported at the
	// offset of the ':' before its value, not at the number.
	tolerateNumberOffset = false
	// TestRegressionSyntaxErrorDependsOnPath: a syntax error's text and
	// offset differ between a value read whole and one read token by token.
	tolerateSyntaxErrorText = false
	// TestRegressionDuplicateRetractCorruptsOutput: in an object with two
	// different duplicated names, the bytes output may be corrupted, or the
	// decoder may panic.
	tolerateRetract = false
	// TestRegressionPruneValueEmptyLeadingKey: PruneValue drops the empty
	// names at the start of a path.
	tolerateLeadingEmptyKey = false
	// TestRegressionDuplicateDropsLaterFatal: a duplicate drops the fatal
	// errors raised between its two occurrences (or brings back an
	// overridden one).
	tolerateDupFatal = false
	// TestRegressionDuplicateCheckQuadratic: the slow path's duplicate
	// check is quadratic in the width of an object; checkDocument does not
	// take the slow path (AllowInvalidUTF8) on objects wider than this.
	tolerateQuadraticWidth = 0
)

// maxWidth is the largest number of members of one object in a JSON text.
func maxWidth(b []byte) int {
	var counts []int
	m, in, esc := 0, false, false
	for _, c := range b {
		switch {
		case in && esc:
			esc = false
		case in && c == '\\':
			esc = true
		case in && c == '"':
			in = false
		case in:
		case c == '"':
			in = true
		case c == '{' || c == '[':
			counts = append(counts, 0)
		case c == '}' || c == ']':
			if len(counts) > 0 {
				counts = counts[:len(counts)-1]
			}
		case c == ':' && len(counts) > 0:
			counts[len(counts)-1]++
			m = max(m, counts[len(counts)-1])
		}
	}
	return m
}

// retractRisk reports whether doc has an object with two different
// duplicated names: the condition of TestRegressionDuplicateRetractCorruptsOutput.
func retractRisk(doc []byte) bool {
	tree, err := parseTree(doc)
	if err != nil {
		// not one value: look for any duplicate before the error
		tree, err = parseTree(append(bytes.Clone(doc), ' '))
		if err != nil {
			return bytes.Count(doc, []byte(`"`)) >= 8
		}
	}
	var walk func(v *jvalue) bool
	walk = func(v *jvalue) bool {
		if v.kind == '{' {
			seen, dups := map[string]int{}, 0
			for _, n := range v.names {
				seen[n]++
				if seen[n] == 2 {
					dups++
				}
			}
			if dups >= 2 {
				return true
			}
		}
		for _, e := range v.values {
			if walk(e) {
				return true
			}
		}
		return false
	}
	return walk(tree)
}

// dedup returns doc without the earlier occurrences of duplicated names
// (the last value wins), or false when doc has no duplicates or the rule
// does not apply: the document does not parse, holds a number beyond
// float64 (fatal in the reference even in an overridden value), or repeats
// a root name that equals apiVersion or kind ignoring case (the
// reference's pre-scan reads every occurrence).
func dedup(doc []byte) ([]byte, bool) {
	tree, err := parseTree(doc)
	if err != nil || !tree.finiteNumbers() {
		return nil, false
	}
	if _, dup := tree.duplicate(""); !dup {
		return nil, false
	}
	if tree.kind == '{' {
		seen := map[string]bool{}
		for _, n := range tree.names {
			if seen[n] && (strings.EqualFold(n, "apiVersion") || strings.EqualFold(n, "kind")) {
				return nil, false
			}
			seen[n] = true
		}
	}
	return tree.appendDedup(nil), true
}

// appendDedup writes v as JSON text, keeping the last occurrence of each
// name at its place.
func (v *jvalue) appendDedup(b []byte) []byte {
	switch v.kind {
	case '{':
		last := map[string]int{}
		for i, n := range v.names {
			last[n] = i
		}
		b = append(b, '{')
		first := true
		for i, n := range v.names {
			if last[n] != i {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b, _ = jsontext.AppendQuote(b, n)
			b = append(b, ':')
			b = v.values[i].appendDedup(b)
		}
		return append(b, '}')
	case '[':
		b = append(b, '[')
		for i, e := range v.values {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.appendDedup(b)
		}
		return append(b, ']')
	}
	return append(b, v.raw...)
}

// checkDedup compares a document with duplicates with its deduplicated form.
func checkDedup(t *testing.T, dup, dd outcome, ddText []byte) {
	t.Helper()
	if (dup.err == nil) != (dd.err == nil) {
		t.Fatalf("with duplicates: %v; deduplicated: %v\ndeduplicated: %s", dup.err, dd.err, ddText)
	}
	if dup.err != nil {
		if tolerateDupFatal {
			return
		}
		if fatalText(dup.err) != fatalText(dd.err) && !(isSyntaxError(dup.err) && isSyntaxError(dd.err)) {
			t.Fatalf("with duplicates: %v\ndeduplicated: %v", dup.err, dd.err)
		}
		return
	}
	a, err1 := parseTree(dup.out)
	b, err2 := parseTree(dd.out)
	if err1 != nil || err2 != nil {
		return // reported by the output checks
	}
	if !equalValues(a.toAny(), b.toAny(), false) {
		t.Fatalf("duplicates: the last value does not win:\noutput:       %s\ndeduplicated: %s\ndeduplicated input: %s", dup.out, dd.out, ddText)
	}
	var fa, fb []string
	for _, f := range dup.findings {
		if f.Type != jperrors.DuplicateField {
			fa = append(fa, f.Type.String()+" "+f.Path+" "+f.Pointer)
		}
	}
	for _, f := range dd.findings {
		fb = append(fb, f.Type.String()+" "+f.Path+" "+f.Pointer)
	}
	if strings.Join(fa, "\n") != strings.Join(fb, "\n") {
		t.Fatalf("duplicates: other findings than the deduplicated document:\n%q\n%q", fa, fb)
	}
}

// guardedPrune is prune that turns a panic into ok false.
func guardedPrune(d *decoder.Decoder, doc []byte) (o outcome, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			ok = false
		}
	}()
	return prune(d, doc), true
}

const numberErrPrefix = "json: cannot unmarshal number "

// sameError reports whether two decodings of one document failed alike:
// the same message at the same offset (with the tolerances above).
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	if isSyntaxError(a) || isSyntaxError(b) {
		if tolerateSyntaxErrorText {
			return isSyntaxError(a) && isSyntaxError(b)
		}
		return a.Error() == b.Error()
	}
	var da, db *jperrors.DecodeError
	if errors.As(a, &da) && errors.As(b, &db) && tolerateNumberOffset && strings.HasPrefix(da.Msg, numberErrPrefix) {
		return da.Msg == db.Msg
	}
	return a.Error() == b.Error()
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// result is what checkDocument learnt.
type result struct {
	outcome
	tree  *jvalue // the output, parsed
	value any     // DecodeMap's value
}

// checkDocument decodes doc with tg and checks every invariant:
//
//   - an error is a *errors.DecodeError with an offset (and line and column)
//     inside doc, the same from AppendPrune, DecodeMap and Validate and in
//     every field-validation mode;
//   - on success: the output is valid JSON without duplicate names; DecodeMap
//     gives the output's value; Validate, AppendPrune and DecodeMap give the
//     same findings, each located inside doc; Ignore gives the same output
//     and no findings, Strict the same output or a *errors.StrictError with
//     the same findings;
//   - the output holds no member the automaton does not admit;
//   - pruning is idempotent: decoding the output again gives the same bytes
//     and no findings (except where the reference's own ObjectMeta
//     normalisation is not idempotent, see timeUnstable);
//   - the decoder's slow paths (AllowInvalidUTF8(true), which also reports
//     duplicates itself, and a MaxDepth below the default, which disables the
//     raw fast path) give the same value and findings on input they accept.
func checkDocument(t *testing.T, tg *target, doc []byte) result {
	t.Helper()
	d := tg.reused
	if d == nil {
		d = tg.decoder()
	}
	var first outcome
	if tolerateRetract && retractRisk(doc) {
		// the known bug: skip the document if it shows (a panic, an output
		// that is not JSON or not the map's value)
		o, ok := guardedPrune(d, doc)
		if !ok {
			if tg.reused != nil {
				tg.reused = tg.decoder()
			}
			return result{outcome: outcome{err: errors.New("known bug: panic")}}
		}
		if o.err == nil {
			m, err := d.DecodeMap(doc)
			tree, perr := parseTree(o.out)
			if err != nil || perr != nil || !jsontext.Value(o.out).IsValid() || !equalValues(tree.toAny(), any(m), false) {
				return result{outcome: outcome{err: errors.New("known bug: corrupt output")}}
			}
		}
		first = prune(d, doc)
	} else {
		first = prune(d, doc)
	}
	res := result{outcome: first}

	// duplicates: the last value wins, so the document decodes as its
	// deduplicated form does (duplicate findings aside)
	if dd, ok := dedup(doc); ok {
		other := prune(tg.decoder(), dd)
		if tolerateDupFatal && first.err == nil && other.err != nil {
			return result{outcome: outcome{err: errors.New("known bug: fatal error dropped")}}
		}
		checkDedup(t, first, other, dd)
	}

	checkStreamed(t, d, doc, first)

	m, mapErr := d.DecodeMap(doc)
	mapFindings := d.Result().Findings()
	valErr := d.Validate(doc)
	valFindings, valLen := d.Result().Findings(), d.Result().Len()

	if first.err != nil {
		checkError(t, "AppendPrune", doc, first.err, false)
		if mapErr == nil || valErr == nil {
			t.Fatalf("AppendPrune failed (%v), DecodeMap (%v) or Validate (%v) did not", first.err, mapErr, valErr)
		}
		checkError(t, "DecodeMap", doc, mapErr, false)
		checkError(t, "Validate", doc, valErr, false)
		if !sameError(mapErr, first.err) || !sameError(valErr, first.err) {
			t.Fatalf("different errors:\nAppendPrune: %v\nDecodeMap:   %v\nValidate:    %v", first.err, mapErr, valErr)
		}
		for _, mode := range []decoder.Mode{decoder.Ignore, decoder.Strict} {
			_, err := tg.decoder(decoder.FieldValidation(mode)).AppendPrune(nil, doc)
			if !sameError(err, first.err) {
				t.Fatalf("%v mode: error %v, Warn: %v", mode, err, first.err)
			}
		}
		return res
	}
	if mapErr != nil || valErr != nil {
		t.Fatalf("AppendPrune succeeded, DecodeMap: %v, Validate: %v", mapErr, valErr)
	}

	// the output
	if !jsontext.Value(first.out).IsValid() {
		if jsontext.Value(first.out).IsValid(jsontext.AllowDuplicateNames(true)) {
			tree, _ := parseTree(first.out)
			p, _ := tree.duplicate("")
			t.Fatalf("the output has a duplicate name at %s: %s", p, first.out)
		}
		t.Fatalf("the output is not valid JSON: %q", first.out)
	}
	tree, err := parseTree(first.out)
	if err != nil {
		t.Fatalf("the output does not parse: %v", err)
	}
	res.tree, res.value = tree, m

	// the three outputs agree
	checkFindings(t, "AppendPrune", doc, first.findings)
	if !sameFindings(first.findings, mapFindings) {
		t.Fatalf("findings differ:\nAppendPrune: %v\nDecodeMap:   %v", first.findings, mapFindings)
	}
	if !sameFindings(first.findings, valFindings) || valLen != len(first.findings) {
		t.Fatalf("findings differ:\nAppendPrune: %v\nValidate (%d): %v", first.findings, valLen, valFindings)
	}
	var want any = map[string]any(nil)
	if tree.kind == '{' {
		want = tree.toAny()
	}
	if !equalValues(want, any(m), false) {
		t.Fatalf("DecodeMap and AppendPrune disagree:\nbytes: %s\nmap:   %#v", first.out, m)
	}

	// every mode gives the same object
	ig := prune(tg.decoder(decoder.FieldValidation(decoder.Ignore)), doc)
	if ig.err != nil || !bytes.Equal(ig.out, first.out) || len(ig.findings) != 0 {
		t.Fatalf("Ignore mode: %v, %d findings, output\n%s\nWarn:\n%s", ig.err, len(ig.findings), ig.out, first.out)
	}
	st := prune(tg.decoder(decoder.FieldValidation(decoder.Strict)), doc)
	if len(first.findings) == 0 {
		if st.err != nil || !bytes.Equal(st.out, first.out) {
			t.Fatalf("Strict mode without findings: %v, output\n%s\nWarn:\n%s", st.err, st.out, first.out)
		}
	} else {
		var se *jperrors.StrictError
		if !errors.As(st.err, &se) {
			t.Fatalf("Strict mode with %d findings: error %T %v", len(first.findings), st.err, st.err)
		}
		if !sameFindings(se.Findings, first.findings) || len(st.out) != 0 {
			t.Fatalf("Strict mode: findings %v, output %q; Warn: %v", se.Findings, st.out, first.findings)
		}
	}

	// value validation changes the verdict only: the same findings, and the
	// same output or an *errors.InvalidError, on the fast path and on the
	// slow one (MaxDepth below the default: no raw fast path)
	for _, alt := range []struct {
		name string
		opt  decoder.Option
	}{{"Validation(true)", decoder.MaxDepth(decoder.DefaultMaxDepth)}, {"Validation(true), MaxDepth(DefaultMaxDepth-1)", decoder.MaxDepth(decoder.DefaultMaxDepth - 1)}} {
		if alt.name != "Validation(true)" && textDepth(doc) >= decoder.DefaultMaxDepth-1 {
			continue
		}
		vd := tg.decoder(decoder.Validation(true), alt.opt)
		vo := prune(vd, doc)
		if alt.name == "Validation(true)" {
			checkStreamed(t, vd, doc, vo) // the same verdict, though written out as read
		}
		var ie *jperrors.InvalidError
		switch {
		case vo.err == nil:
			if !bytes.Equal(vo.out, first.out) {
				t.Fatalf("%s: output\n%s\nwithout validation:\n%s", alt.name, vo.out, first.out)
			}
		case errors.As(vo.err, &ie):
			if len(ie.Errors) == 0 {
				t.Fatalf("%s: an InvalidError without errors: %v", alt.name, vo.err)
			}
		default:
			t.Fatalf("%s: error %T %v where decoding without validation succeeds", alt.name, vo.err, vo.err)
		}
		if !sameFindings(vo.findings, first.findings) {
			t.Fatalf("%s: findings %v, without validation %v", alt.name, vo.findings, first.findings)
		}
	}

	// paths the schema admits
	a, entry, _ := tg.automatonFor(tree)
	if tg.fixed == nil && first.entry != entry {
		t.Fatalf("decoded with entry %v, Resolve gives %v", first.entry, entry)
	}
	var metas []*jvalue
	if tree.kind == '{' {
		if err := admitted(a, a.Root(), tree, "", &metas); err != nil {
			t.Fatalf("%v\noutput: %s", err, first.out)
		}
	}

	// idempotence
	unstable := false
	for _, meta := range metas {
		unstable = unstable || timeUnstable(meta)
	}
	second := prune(tg.decoder(), first.out)
	if !unstable && !(tg.nullDefaults && second.err == nil && len(second.findings) == 0) {
		if second.err != nil {
			t.Fatalf("decoding the output again fails: %v\noutput: %s", second.err, first.out)
		}
		if !bytes.Equal(second.out, first.out) || len(second.findings) != 0 {
			t.Fatalf("pruning is not idempotent:\nfirst:  %s\nsecond: %s\nfindings of the second: %v", first.out, second.out, second.findings)
		}
	} else if second.err != nil {
		checkError(t, "second pass", first.out, second.err, false)
	}

	// the options that change how the text is read: both keep the fast
	// path for the usual document, and must decode every one as the default
	for _, alt := range []struct {
		name string
		opt  decoder.Option
	}{
		{"AllowInvalidUTF8(true)", decoder.AllowInvalidUTF8(true)},
		{"MaxDepth(DefaultMaxDepth-1)", decoder.MaxDepth(decoder.DefaultMaxDepth - 1)},
	} {
		if alt.name[0] == 'M' && textDepth(doc) >= decoder.DefaultMaxDepth-1 {
			continue
		}
		if alt.name[0] == 'A' && tolerateQuadraticWidth > 0 && maxWidth(doc) > tolerateQuadraticWidth {
			continue
		}
		o := prune(tg.decoder(alt.opt), doc)
		if o.err != nil {
			t.Fatalf("%s fails where the default succeeds: %v", alt.name, o.err)
		}
		ot, err := parseTree(o.out)
		if err != nil {
			t.Fatalf("%s: output does not parse: %v", alt.name, err)
		}
		if !equalValues(ot.toAny(), tree.toAny(), false) {
			t.Fatalf("%s gives another output:\n%s\ndefault:\n%s", alt.name, o.out, first.out)
		}
		if !sameFindings(o.findings, first.findings) {
			t.Fatalf("%s gives other findings:\n%v\ndefault:\n%v", alt.name, o.findings, first.findings)
		}
	}
	return res
}

// checkStreamed checks PruneReader, reading doc one byte at a time,
// against AppendPrune's outcome: the same bytes (a small document's
// duplicates are resolved in the decoder's buffer), the same findings
// without lines, the same error (a syntax error may be worded otherwise).
// A root that repeats apiVersion or kind with another value, and a member
// that repeats one written out already with a last value that is pruned,
// are the documents a stream cannot decode as the reference does (it
// says so: "decode it whole").
func checkStreamed(t *testing.T, d *decoder.Decoder, doc []byte, want outcome) {
	t.Helper()
	var out bytes.Buffer
	err := d.PruneReader(&out, iotest.OneByteReader(bytes.NewReader(doc)))
	if err != nil && strings.Contains(err.Error(), ": decode it whole") {
		// PruneReader's documented differences, both about a name that
		// repeats: it says so (jsontext refuses a repeated name)
		dec := jsontext.NewDecoder(bytes.NewReader(doc))
		if _, jerr := dec.ReadValue(); jerr == nil && dec.PeekKind() == 0 {
			t.Fatalf("PruneReader: %v, but no name repeats", err)
		}
		return
	}
	if (err == nil) != (want.err == nil) {
		t.Fatalf("PruneReader: error %v, AppendPrune: %v", err, want.err)
	}
	if err != nil {
		if !isSyntaxError(want.err) && err.Error() != want.err.Error() && err.Error() != strings.Replace(want.err.Error(), lineCol(want.err), "", 1) {
			t.Fatalf("PruneReader: error\n%v\nAppendPrune:\n%v", err, want.err)
		}
		return
	}
	if !bytes.Equal(out.Bytes(), want.out) && (len(want.out) < 16<<10 || !sameLastWins(out.Bytes(), want.out)) {
		t.Fatalf("PruneReader: output\n%.300s\nAppendPrune:\n%.300s", out.Bytes(), want.out)
	}
	fs := d.Result().Findings()
	for i := range want.findings {
		if i >= len(fs) {
			break
		}
		f, w := fs[i], want.findings[i]
		f.Line, f.Column, w.Line, w.Column = 0, 0, 0, 0
		if f != w {
			t.Fatalf("PruneReader: finding %d\n%+v\nAppendPrune:\n%+v", i, fs[i], want.findings[i])
		}
	}
	if len(fs) != len(want.findings) {
		t.Fatalf("PruneReader: %d findings, AppendPrune: %d", len(fs), len(want.findings))
	}
}

// sameLastWins reports whether a and b are the same JSON value for a reader
// that keeps the last of duplicate names (encoding/json).
func sameLastWins(a, b []byte) bool {
	var va, vb any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	return da.Decode(&va) == nil && db.Decode(&vb) == nil && reflect.DeepEqual(va, vb)
}

// lineCol is the "line L, column C, " part of a DecodeError's text.
func lineCol(err error) string {
	var de *jperrors.DecodeError
	if !errors.As(err, &de) || de.Line == 0 {
		return "\x00"
	}
	return "line " + strconv.Itoa(de.Line) + ", column " + strconv.Itoa(de.Column) + ", "
}

// must returns v, panicking on err: for constructors whose options are
// known to be good.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
