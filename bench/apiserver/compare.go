package apiserver

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/jsonprune/jsonprune"
	"github.com/jsonprune/jsonprune/decoder"
	jperrors "github.com/jsonprune/jsonprune/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apiserver/pkg/endpoints/filters"
	"k8s.io/apiserver/pkg/warning"
	sigsyaml "sigs.k8s.io/yaml"
)

// Verdicts.
const (
	Identical = "identical"
	Different = "different"
	// ServerInvalid: the server answered 422 Invalid (value validation:
	// OpenAPI value checks, CEL rules, metadata.name rules), which jsonprune
	// does not do yet; the object cannot be compared, the Warning headers
	// still are (a difference in them makes the verdict Different).
	ServerInvalid = "server-422"
	// Intended: the answers differ exactly as one of jsonprune's documented
	// intended differences says (README, "Intended differences"), checked
	// in detail: YAML duplicate keys (jsonprune reports each as a
	// duplicate field with its path, the server lumps them into one
	// go-yaml error with lines; the keys and lines must agree); a body
	// whose apiVersion and kind no CRD of jsonprune's serves (the server
	// chooses the schema by the URL, the library by the body); the text of
	// a JSON syntax error (both refuse the body).
	Intended = "intended"
	// NotComparable: the CRD could not be installed on the server, or the
	// body cannot be posted as it is (a namespace that is not a name).
	NotComparable = "not-comparable"
)

// Outcome is the comparison of one case.
type Outcome struct {
	Case     *Case
	Verdict  string
	Category string // for Different: what differs (status, message, object, warnings)
	// Server and JSONPrune are one-line summaries of both sides (for the
	// report of differences); Detail is the first difference.
	Server, JSONPrune, Detail string
	// OtherWarnings are the server's Warning texts that are not decoder
	// findings (deprecated versions, finalizer names...): listed, not
	// compared.
	OtherWarnings []string
	// NumberSpelling: the objects were equal only with numbers compared by
	// value (1.0 and 1).
	NumberSpelling bool
	Resp           *Response
	// Norm is the server's object after the normalisation (201 answers).
	Norm any
	// Validation is the verdict of value validation (decoder.Validation):
	// the server's 422 causes against jsonprune's errors, or both
	// accepting (see compareValidation); ValidationDetail the difference.
	Validation, ValidationDetail string
}

// Validation verdicts.
const (
	ValIdentical = "identical" // both accept, or both refuse with the same causes (as multisets)
	ValDifferent = "different"
	ValCEL       = "cel"          // the server's causes beyond jsonprune's come from CEL rules, not checked
	ValNA        = "not-compared" // the request did not reach validation on one side (4xx other than 422, no schema)
)

// Oracle holds what the comparison needs: the corpus root, the jsonprune
// Schemas of each CRD file and which CRDs the server has.
type Oracle struct {
	Root   string
	Server *Server
	CRDs   map[string]CRDOutcome

	mu    sync.Mutex
	facts map[string]*crdFacts // by CRD file
}

// crdFacts is what the comparison needs of one CRD file.
type crdFacts struct {
	schemas *jsonprune.Schemas
	kind    string
	status  map[string]bool // version -> has the status subresource
	storage string          // the storage version
}

func (o *Oracle) factsOf(file string) (*crdFacts, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if f, ok := o.facts[file]; ok {
		return f, nil
	}
	if o.facts == nil {
		o.facts = map[string]*crdFacts{}
	}
	data, err := os.ReadFile(filepath.Join(o.Root, file))
	if err != nil {
		return nil, err
	}
	s, err := jsonprune.LoadCRDs(data)
	if err != nil {
		return nil, err
	}
	f, err := readCRDFacts(data)
	if err != nil {
		return nil, err
	}
	f.schemas = s
	o.facts[file] = f
	return f, nil
}

// Options are the jsonprune decoder options the comparison uses: the mode,
// and AllowInvalidUTF8(true), the reference's UTF-8 policy (jsonprune's
// default refuses invalid UTF-8, an intended difference of the library).
func Options(mode string) []decoder.Option {
	m, _ := decoder.ParseMode(mode)
	return []decoder.Option{decoder.FieldValidation(m), decoder.AllowInvalidUTF8(true)}
}

// Run posts c to the server and compares the answer with jsonprune's.
func (o *Oracle) Run(ctx context.Context, c *Case) (*Outcome, error) {
	out := &Outcome{Case: c}
	if co, ok := o.CRDs[c.CRD]; !ok || co.Error != "" {
		out.Verdict, out.Category = NotComparable, "crd-not-installed"
		if ok {
			out.Detail = co.Error
		}
		return out, nil
	}
	ct := "application/json"
	if c.YAML {
		ct = "application/yaml"
	}
	var r *Response
	var err error
	for try := 0; ; try++ {
		r, err = o.Server.Do(ctx, "POST", c.Path(), ct, c.Body)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		// A CRD's endpoint can answer 404 for a moment after Established
		// while the handler's informer catches up.
		if r.Code != 404 || try >= 20 {
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-sleep(250):
		}
	}
	out.Resp = r
	f, err := o.factsOf(c.CRD)
	if err != nil {
		return nil, err
	}
	obj, jerr := f.schemas.Decode(c.Body, Options(c.Mode)...)
	if obj == nil {
		obj = &jsonprune.Object{Err: jerr}
	}
	o.compare(out, c, obj, f)
	objV, _ := f.schemas.Decode(c.Body, append(Options(c.Mode), decoder.Validation(true))...)
	compareValidation(out, objV)
	formatMismatch(out, c)
	return out, nil
}

// formatMismatch marks a difference not comparable when jsonprune read the
// body in the other format: the library tells JSON from YAML by the first
// non-blank byte ('{' or '[': JSON), the server by the Content-Type, so a
// JSON body that starts otherwise (a byte order mark, an empty body, a
// scalar) is YAML to jsonprune. Documented library behaviour; the harness
// reports how many.
func formatMismatch(out *Outcome, c *Case) {
	if out.Verdict != Different {
		return
	}
	b := bytes.TrimLeft(c.Body, " \t\r\n")
	sniffedJSON := len(b) > 0 && (b[0] == '{' || b[0] == '[')
	if sniffedJSON == !c.YAML {
		return
	}
	out.Verdict, out.Category = NotComparable, "format-by-first-byte"
}

// compare fills out's verdict.
func (o *Oracle) compare(out *Outcome, c *Case, obj *jsonprune.Object, f *crdFacts) {
	r := out.Resp
	if r.Code/100 == 2 {
		if srv := reparse(r.Body); srv != nil {
			NormalizeServer(srv)
			out.Norm = srv
		}
	}
	srvDecoderWarnings, other := splitWarnings(r.Warnings)
	out.OtherWarnings = other
	out.Server = fmt.Sprintf("%d %s", r.Code, oneLine(statusMessage(r.Body)))
	if r.Code == 201 || r.Code == 200 {
		out.Server = fmt.Sprintf("%d object", r.Code)
	}
	if len(srvDecoderWarnings) > 0 {
		out.Server += fmt.Sprintf("; Warning: %s", strings.Join(warningTexts(srvDecoderWarnings), " | "))
	}

	// What the server would answer if it did what jsonprune does.
	var wantWarnings []string
	if c.Mode == "Warn" && obj.Err == nil {
		var texts []string
		for _, f := range obj.Findings {
			texts = append(texts, f.Message())
		}
		wantWarnings = recorderHeaders(texts)
	}
	var strictErr *jperrors.StrictError
	var decErr *jperrors.DecodeError
	handled := handledAs(obj, f.kind)
	switch {
	case obj.Err == nil:
		out.JSONPrune = "object"
		if len(wantWarnings) > 0 {
			out.JSONPrune += "; Warning: " + strings.Join(warningTexts(wantWarnings), " | ")
		}
	case errors.As(obj.Err, &strictErr):
		out.JSONPrune = "400 " + oneLine(handled+obj.Err.Error())
	case errors.As(obj.Err, &decErr):
		out.JSONPrune = "400 " + oneLine(handled+decErr.Msg)
	default:
		out.JSONPrune = "error " + oneLine(obj.Err.Error())
	}

	// YAML duplicate keys: the lumped rendering of jsonprune's findings
	// (see lumped), used when it alone agrees with the server.
	var lumpedWarnings []string
	lumpedMsg := ""
	if c.YAML && hasDuplicates(obj.Findings) {
		texts := lumped(obj.Findings)
		if c.Mode == "Warn" && obj.Err == nil {
			lumpedWarnings = recorderHeaders(texts)
		}
		if strictErr != nil && strictErr.Dropped == 0 {
			lumpedMsg = handled + "strict decoding error: " + lumpedStrict(obj.Findings)
		}
	}
	intended := false
	if !sameHeaders(srvDecoderWarnings, wantWarnings) {
		if lumpedWarnings != nil && sameHeaders(srvDecoderWarnings, lumpedWarnings) {
			intended = true
		} else {
			out.Verdict, out.Category = Different, "warnings"
			out.Detail = fmt.Sprintf("server Warning %q, jsonprune's findings through the recorder %q", srvDecoderWarnings, wantWarnings)
			return
		}
	}
	defer func() {
		if intended && out.Verdict == Identical {
			out.Verdict, out.Category = Intended, "yaml-duplicates-lumped"
		}
	}()

	srvMsg := statusMessage(r.Body)
	switch {
	case r.Code == 400 && srvMsg == namespaceMismatch:
		// The body names a namespace that is not a valid name (a
		// template's placeholder): the harness posts it to "default" and
		// the server refuses the mismatch before decoding matters.
		out.Verdict, out.Category, out.Detail = NotComparable, "namespace-not-a-name", srvMsg
	case errors.Is(obj.Err, jsonprune.ErrNoSchema) || obj.Err == nil && obj.Entry == nil:
		// No CRD of jsonprune's Schemas serves the body's apiVersion and
		// kind: jsonprune chooses the schema by the body, the server by the
		// URL (it decodes with the URL's CRD, then refuses a foreign
		// apiVersion with 400 or a foreign kind with 422). An intended
		// difference: the library has no URL. Both refusing is counted
		// identical, the texts are not compared.
		if obj.Err != nil && (r.Code == 400 || r.Code == 422) {
			out.Verdict, out.Category = Identical, "both-refuse-no-schema"
			return
		}
		out.Verdict, out.Category = Intended, "no-schema"
		out.Detail = fmt.Sprintf("server %s, jsonprune %s (no CRD of jsonprune's serves the body's apiVersion and kind)", out.Server, out.JSONPrune)
	case obj.Err != nil && r.Code == 400:
		var want string
		switch {
		case strictErr != nil:
			want = handled + obj.Err.Error()
		case decErr != nil && typeMetaError(decErr.Msg):
			want = unrecognized(f.kind, decErr.Msg, c.Body)
		case decErr != nil:
			want = handled + decErr.Msg
		default:
			want = obj.Err.Error()
		}
		if srvMsg == want {
			out.Verdict = Identical
			return
		}
		if lumpedMsg != "" && srvMsg == lumpedMsg {
			out.Verdict, out.Category = Intended, "yaml-duplicates-lumped"
			return
		}
		if decErr != nil && (strings.HasPrefix(decErr.Msg, "invalid JSON") || decErr.Msg == "invalid data after the top-level value") && strings.Contains(srvMsg, "json parse error: ") {
			// Both refuse a body that is not JSON: jsonprune says where
			// with jsontext's text, the server has encoding/json's text
			// without a position (README, intended differences).
			out.Verdict, out.Category = Intended, "syntax-error-text"
			out.Detail = fmt.Sprintf("server %q, jsonprune %q", srvMsg, want)
			return
		}
		out.Verdict, out.Category = Different, "message"
		out.Detail = fmt.Sprintf("server %q, jsonprune %q", srvMsg, want)
	case obj.Err != nil:
		out.Verdict, out.Category = Different, "status"
		out.Detail = fmt.Sprintf("server %s, jsonprune refuses: %s", out.Server, out.JSONPrune)
	case r.Code == 422:
		out.Verdict = ServerInvalid
		out.Detail = oneLine(statusMessage(r.Body))
	case r.Code == 400 && obj.Entry != nil && obj.Entry.GVK.Version != c.Version:
		// the handler's check after decoding: the body's group/version is
		// not the endpoint's
		want := fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s/%s)", obj.APIVersion, c.Group, c.Version)
		if statusMessage(r.Body) == want {
			out.Verdict = Identical
			return
		}
		out.Verdict, out.Category = Different, "message"
		out.Detail = fmt.Sprintf("server %q, expected %q", statusMessage(r.Body), want)
	case r.Code != 201:
		out.Verdict, out.Category = Different, "status"
		out.Detail = fmt.Sprintf("server %s, jsonprune accepts", out.Server)
	default:
		var jp any
		srv := out.Norm
		if srv == nil {
			out.Verdict, out.Category, out.Detail = Different, "object", "server body is not JSON"
			return
		}
		dec := json.NewDecoder(bytes.NewReader(obj.JSON))
		dec.UseNumber()
		if err := dec.Decode(&jp); err != nil {
			out.Verdict, out.Category, out.Detail = Different, "object", "jsonprune output: "+err.Error()
			return
		}
		NormalizeJSONPrune(jp, c, f.status[versionOf(obj)])
		var err error
		if jp, err = storageRoundTrip(jp, c, f); err != nil {
			out.Verdict, out.Category, out.Detail = Different, "object", "storage round trip of jsonprune's object: "+err.Error()
			return
		}
		NormalizeServer(jp)
		NormalizeGeneratedName(srv, jp)
		if d := diff("", srv, jp); d != "" {
			out.Verdict, out.Category, out.Detail = Different, "object", d
			return
		}
		out.NumberSpelling = !reflect.DeepEqual(srv, jp)
		out.Verdict = Identical
	}
}

// namespaceMismatch is the create handler's refusal of a body whose
// metadata.namespace is not the URL's.
const namespaceMismatch = "the namespace of the provided object does not match the namespace sent on the request"

// typeMetaError reports whether a jsonprune decoding error is one the
// server raises before its decoder has a group/version/kind: the YAML to
// JSON conversion, the type-meta pre-scan (json.Unmarshal of apiVersion and
// kind, case-insensitive), the group/version parse and a missing kind.
// For those transformDecodeError (k8s.io/apiserver handlers/rest.go) says
// "the object provided is unrecognized (must be of type <Kind>): <err>
// (<summary>)"; for the others "<Kind> in version "<v>" cannot be handled
// as a <Kind>: <err>" (handledAs). The library returns the inner text
// only; this rule is the harness's model of the handler, as
// cmd/jsonprune has its own.
func typeMetaError(msg string) bool {
	for _, p := range []string{"yaml: ", "error converting YAML to JSON", "couldn't get version/kind", "unexpected GroupVersion string", "Object 'Kind' is missing"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// unrecognized is transformDecodeError's text for a body without a decoded
// kind; kind is the URL's (the CRD's) kind.
func unrecognized(kind, msg string, body []byte) string {
	return fmt.Sprintf("the object provided is unrecognized (must be of type %s): %s (%s)", kind, msg, summarizeData(body, 30))
}

// summarizeData is handlers/rest.go's summarizeData (unexported there).
func summarizeData(data []byte, maxLength int) string {
	switch {
	case len(data) == 0:
		return "<empty>"
	case data[0] == '{':
		if len(data) > maxLength {
			return string(data[:maxLength]) + " ..."
		}
		return string(data)
	default:
		if len(data) > maxLength {
			return hex.EncodeToString(data[:maxLength]) + " ..."
		}
		return hex.EncodeToString(data)
	}
}

func versionOf(obj *jsonprune.Object) string {
	if obj.Entry != nil {
		return obj.Entry.GVK.Version
	}
	return ""
}

// handledAs is the prefix transformDecodeError (k8s.io/apiserver
// handlers/rest.go) puts before a decoding error of a body whose kind the
// decoder read: `Widget in version "v1" cannot be handled as a Widget: `.
// The first kind and the version are the body's (the CRD version jsonprune
// decoded with, else the document's kind and apiVersion); the second is
// the kind of the object the handler decodes into, the URL's CRD kind
// (urlKind).
func handledAs(obj *jsonprune.Object, urlKind string) string {
	kind, version := obj.Kind, ""
	if obj.Entry != nil {
		kind, version = obj.Entry.GVK.Kind, obj.Entry.GVK.Version
	} else if i := strings.LastIndexByte(obj.APIVersion, '/'); i >= 0 {
		version = obj.APIVersion[i+1:]
	} else {
		version = obj.APIVersion
	}
	if kind == "" {
		return ""
	}
	return kind + ` in version "` + version + `" cannot be handled as a ` + urlKind + ": "
}

// recorderHeaders feeds texts, in order, to the API server's own warning
// recorder (k8s.io/apiserver filters.WithWarningRecorder, as the create
// handler's addStrictDecodingWarnings does through warning.AddWarning with
// an empty agent) and returns the Warning header values it writes. The
// recorder de-duplicates equal texts, escapes them, drops texts it cannot
// put in a header and, past 4096 runes in all, truncates each to 256 runes:
// comparing the server's headers with jsonprune's findings put through the
// same recorder hides nothing of jsonprune's findings but what the server
// itself cannot send (the findings' full list is compared in Strict mode,
// where it is the 400 message).
func recorderHeaders(texts []string) []string {
	if len(texts) == 0 {
		return nil
	}
	rec := httptest.NewRecorder()
	filters.WithWarningRecorder(http.HandlerFunc(func(_ http.ResponseWriter, req *http.Request) {
		for _, t := range texts {
			warning.AddWarning(req.Context(), "", t)
		}
	})).ServeHTTP(rec, (&http.Request{}).WithContext(context.Background()))
	return rec.Header().Values("Warning")
}

// splitWarnings separates the server's Warning header values that carry
// decoder findings (unknown field, duplicate field, and the YAML
// serializer's duplicate-key lines) from the others, which jsonprune does
// not produce (a deprecated version's warning, finalizer-name and
// ownerReferences warnings of the create path).
func splitWarnings(headers []string) (decoderFindings, other []string) {
	for _, h := range headers {
		ws, _ := utilnet.ParseWarningHeaders([]string{h})
		t := ""
		if len(ws) == 1 {
			t = ws[0].Text
		}
		if isFindingText(t) {
			decoderFindings = append(decoderFindings, h)
		} else {
			other = append(other, t)
		}
	}
	return
}

func isFindingText(t string) bool {
	return strings.HasPrefix(t, "unknown field ") || strings.HasPrefix(t, "duplicate field ") ||
		strings.HasPrefix(t, "line ") || strings.HasPrefix(t, "json: ") || strings.HasPrefix(t, "yaml: ")
}

func warningTexts(headers []string) []string {
	var out []string
	for _, h := range headers {
		ws, _ := utilnet.ParseWarningHeaders([]string{h})
		if len(ws) == 1 {
			out = append(out, ws[0].Text)
		} else {
			out = append(out, h)
		}
	}
	return out
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

// reparse decodes JSON with numbers kept as json.Number.
func reparse(b []byte) any {
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	_ = d.Decode(&v)
	return v
}

// diff returns the first difference between a (the server's) and b
// (jsonprune's) as "path: server X, jsonprune Y", or "". Objects are
// compared as maps: the server's unstructured objects are Go maps, which
// keep no member order, so member order is not a difference. Numbers are
// compared by value (big.Float of their text): the server re-encodes
// int64/float64, so 1.0 comes back as 1 and 1e3 as 1000; the spelling of a
// number is not part of the decoded object.
func diff(path string, a, b any) string {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: server %s, jsonprune %s", pathOr(path), short(a), short(b))
		}
		keys := map[string]bool{}
		for k := range av {
			keys[k] = true
		}
		for k := range bv {
			keys[k] = true
		}
		ks := make([]string, 0, len(keys))
		for k := range keys {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			x, inA := av[k]
			y, inB := bv[k]
			p := path + "." + k
			switch {
			case !inA:
				return fmt.Sprintf("%s: server has no member, jsonprune %s", p, short(y))
			case !inB:
				return fmt.Sprintf("%s: server %s, jsonprune has no member", p, short(x))
			}
			if d := diff(p, x, y); d != "" {
				return d
			}
		}
		return ""
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return fmt.Sprintf("%s: server %s, jsonprune %s", pathOr(path), short(a), short(b))
		}
		for i := range av {
			if d := diff(fmt.Sprintf("%s[%d]", path, i), av[i], bv[i]); d != "" {
				return d
			}
		}
		return ""
	case json.Number:
		bn, ok := b.(json.Number)
		if ok && numEqual(av, bn) {
			return ""
		}
	default:
		if reflect.DeepEqual(a, b) {
			return ""
		}
	}
	return fmt.Sprintf("%s: server %s, jsonprune %s", pathOr(path), short(a), short(b))
}

func pathOr(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

func numEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, _, err1 := big.ParseFloat(string(a), 10, 200, big.ToNearestEven)
	y, _, err2 := big.ParseFloat(string(b), 10, 200, big.ToNearestEven)
	return err1 == nil && err2 == nil && x.Cmp(y) == 0
}

func short(v any) string {
	b, _ := json.Marshal(v)
	s := string(b)
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// readCRDFacts reads which versions of a CRD have the status subresource
// (spec.versions[].subresources.status, or v1beta1's
// spec.subresources.status for every version) and its storage version.
func readCRDFacts(data []byte) (*crdFacts, error) {
	var crd struct {
		Spec struct {
			Names struct {
				Kind string `json:"kind"`
			} `json:"names"`
			Version      string `json:"version"`
			Subresources *struct {
				Status any `json:"status"`
			} `json:"subresources"`
			Versions []struct {
				Name         string `json:"name"`
				Storage      bool   `json:"storage"`
				Subresources *struct {
					Status any `json:"status"`
				} `json:"subresources"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := sigsyaml.Unmarshal(data, &crd); err != nil {
		return nil, err
	}
	f := &crdFacts{status: map[string]bool{}, kind: crd.Spec.Names.Kind, storage: crd.Spec.Version}
	all := crd.Spec.Subresources != nil && crd.Spec.Subresources.Status != nil
	for _, v := range crd.Spec.Versions {
		f.status[v.Name] = all || (v.Subresources != nil && v.Subresources.Status != nil)
		if v.Storage {
			f.storage = v.Name
		}
	}
	return f, nil
}

func sameHeaders(a, b []string) bool {
	return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b)
}

func hasDuplicates(fs []jperrors.Finding) bool {
	for _, f := range fs {
		if f.Type == jperrors.DuplicateField {
			return true
		}
	}
	return false
}

// yamlDuplicateLine is go-yaml v2's text for a duplicate mapping key
// ("line %d: key %#v already set in map"), from jsonprune's finding: its
// line and the last key of its JSON Pointer.
func yamlDuplicateLine(f jperrors.Finding) string {
	key := f.Pointer[strings.LastIndexByte(f.Pointer, '/')+1:]
	key = strings.ReplaceAll(strings.ReplaceAll(key, "~1", "/"), "~0", "~")
	return fmt.Sprintf("line %d: key %#v already set in map", f.Line, key)
}

// lumped renders jsonprune's findings of a YAML body as the server's
// Warn mode sends them: the YAML serializer's duplicate-key error, split
// into one text per line (handlers/rest.go parseYAMLWarnings), first, then
// the other findings in order.
func lumped(fs []jperrors.Finding) []string {
	var dups, rest []string
	for _, f := range fs {
		if f.Type == jperrors.DuplicateField {
			dups = append(dups, yamlDuplicateLine(f))
		} else {
			rest = append(rest, f.Message())
		}
	}
	return append(dups, rest...)
}

// lumpedStrict is the strict decoding error list the server makes of the
// same findings: "yaml: unmarshal errors:\n  line N: ..." as one error,
// then the others, joined with ", ".
func lumpedStrict(fs []jperrors.Finding) string {
	var dups, parts []string
	for _, f := range fs {
		if f.Type == jperrors.DuplicateField {
			dups = append(dups, "  "+yamlDuplicateLine(f))
		} else {
			parts = append(parts, f.Message())
		}
	}
	return strings.Join(append([]string{"yaml: unmarshal errors:\n" + strings.Join(dups, "\n")}, parts...), ", ")
}

// compareValidation compares the server's verdict on the values of c with
// jsonprune's value validation (objV, decoded with decoder.Validation): a
// 422's details.causes with jsonprune's errors, as multisets of
// "<field>: <body>" (the server orders the errors of sibling keys by Go map
// iteration; one value's errors are in its order), or both accepting. The
// server's status is always compared; where the server's causes hold more
// than jsonprune's and the CRD version has CEL rules (which jsonprune does
// not check), the verdict is ValCEL. Requests the server refused before
// validation (400, or a kind no schema of jsonprune's serves) are not
// compared.
func compareValidation(out *Outcome, objV *jsonprune.Object) {
	r := out.Resp
	if objV == nil || r == nil || (r.Code != 422 && r.Code/100 != 2) || objV.Entry == nil {
		out.Validation = ValNA
		return
	}
	var inv *jperrors.InvalidError
	if objV.Err != nil && !errors.As(objV.Err, &inv) {
		out.Validation = ValNA // a decode error of jsonprune's: the decode comparison covers it
		return
	}
	var srv []string
	if r.Code == 422 {
		var st struct {
			Details struct {
				Causes []struct{ Message, Field string }
			}
		}
		json.Unmarshal(r.Body, &st)
		for _, c := range st.Details.Causes {
			srv = append(srv, c.Field+": "+c.Message)
		}
	}
	var ours []string
	if inv != nil {
		for _, e := range inv.Errors {
			ours = append(ours, e.Field+": "+e.Body())
		}
	}
	sort.Strings(srv)
	sort.Strings(ours)
	if slices.Equal(srv, ours) {
		out.Validation = ValIdentical
		return
	}
	if objV.Entry != nil && len(objV.Entry.Automaton.Unchecked()) > 0 && isSubset(ours, srv) {
		out.Validation = ValCEL
		out.ValidationDetail = fmt.Sprintf("server %q, jsonprune %q", srv, ours)
		return
	}
	out.Validation = ValDifferent
	out.ValidationDetail = fmt.Sprintf("server %d %q, jsonprune %q", r.Code, srv, ours)
}

// isSubset reports whether the sorted multiset a is contained in sorted b.
func isSubset(a, b []string) bool {
	i := 0
	for _, x := range b {
		if i < len(a) && a[i] == x {
			i++
		}
	}
	return i == len(a)
}
