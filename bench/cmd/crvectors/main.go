// Command crvectors writes regression vectors for custom-resource decoding: for every custom
// resource of the shared corpus (index.json pairs crs[].file with its CRD crs[].crd), the
// original body (as YAML and as JSON) and seeded mutations of it (package gen), each decoded by
// the Kubernetes oracle (oracle.CRDecoder.Decode), one JSON record per line. The root module can
// replay them without Kubernetes.
//
//	go run ./cmd/crvectors -n 4 -syntax 1 -out vectors.jsonl
//	go run ./cmd/crvectors -every 25 -out testdata/crvectors.jsonl          # the checked-in sample
//	go run ./cmd/crvectors -crd crd.yaml -body cr.json [-yaml] [-mode Warn]   # one body, pretty
//
// bench/testdata/crvectors.jsonl is the sample made with -every 25 and the other flags at
// their defaults (-n 4 -syntax 1 -seed 1 -modes Strict -repeat 3; every 25th custom resource,
// about 700 records, 2 MB); go test ./cmd/crvectors checks that it is up to date (skipped with
// -short or without the corpus).
//
// Record fields (empty ones omitted):
//
//	crd, cr        corpus-relative paths of the CRD and of the CR the body was made from
//	version        the endpoint version (the CR's apiVersion version)
//	mutation       "original-yaml", "original" (the YAML converted with sigs.k8s.io/yaml), or a gen family
//	detail         what the mutation did
//	seed           the gen seed used for this CR's mutations (gen.New(seed))
//	yaml           true: decoded with the application/yaml serializer
//	mode           fieldValidation: Strict, Warn or Ignore
//	body           the body; bodyBase64 instead when it is not valid UTF-8
//	result.object        encoding/json.Marshal of the decoded object (a JSON text in a string, so
//	                     that 10000-level objects do not break line readers)
//	result.floatPaths    JSON Pointers of the float64 values in the object (the rest are int64)
//	result.strict        the strict errors' texts, in order
//	result.fatalRaw      the fatal decode error; result.fatal is the handler's 400 message
//	result.warnings, result.warningHeaders   Warn mode only
//	result.handlerMessage, result.groupVersionMismatch   see oracle.CRResult
//	nondeterministic     repeated decodes disagreed (Go map order); result is the first
//
// Any result text that is not valid UTF-8 (a handler message can quote raw body bytes) is
// written base64-encoded in a sibling field with the suffix "Base64" (strict lists: the whole
// list as strictBase64).
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jsonprune/jsonprune/bench/gen"
	"github.com/jsonprune/jsonprune/bench/oracle"
	sigsyaml "sigs.k8s.io/yaml"
)

type indexFile struct {
	CRs []struct {
		File    string `json:"file"`
		CRD     string `json:"crd"`
		Version string `json:"version"`
	} `json:"crs"`
}

type result struct {
	Object               string   `json:"object,omitempty"`
	FloatPaths           []string `json:"floatPaths,omitempty"`
	Strict               []string `json:"strict,omitempty"`
	StrictBase64         []string `json:"strictBase64,omitempty"`
	Fatal                string   `json:"fatal,omitempty"`
	FatalBase64          string   `json:"fatalBase64,omitempty"`
	FatalRaw             string   `json:"fatalRaw,omitempty"`
	FatalRawBase64       string   `json:"fatalRawBase64,omitempty"`
	Warnings             []string `json:"warnings,omitempty"`
	WarningHeaders       []string `json:"warningHeaders,omitempty"`
	HandlerMessage       string   `json:"handlerMessage,omitempty"`
	HandlerMessageBase64 string   `json:"handlerMessageBase64,omitempty"`
	GroupVersionMismatch string   `json:"groupVersionMismatch,omitempty"`
}

type record struct {
	CRD        string `json:"crd"`
	CR         string `json:"cr"`
	Version    string `json:"version"`
	Mutation   string `json:"mutation"`
	Detail     string `json:"detail,omitempty"`
	Seed       int64  `json:"seed"`
	YAML       bool   `json:"yaml,omitempty"`
	Mode       string `json:"mode"`
	Body       string `json:"body,omitempty"`
	BodyBase64 string `json:"bodyBase64,omitempty"`
	Result     result `json:"result"`
	// Nondeterministic is set when repeated decodes of the body gave different results (Go map
	// iteration order, e.g. which of several bad embedded resources is reported); Result is
	// then the first one.
	Nondeterministic bool `json:"nondeterministic,omitempty"`
}

func main() {
	corpus := flag.String("corpus", "../../shared/corpus", "corpus directory (with index.json)")
	out := flag.String("out", "-", "output JSONL file (- for stdout)")
	n := flag.Int("n", 4, "mutations per custom resource (gen.Families)")
	nSyntax := flag.Int("syntax", 1, "syntax mutations per custom resource (gen.SyntaxFamilies)")
	seed := flag.Int64("seed", 1, "base seed; custom resource i uses seed*1000003+i")
	every := flag.Int("every", 1, "use every k-th custom resource of the index")
	modes := flag.String("modes", "Strict", "comma-separated fieldValidation modes to record for each body")
	repeat := flag.Int("repeat", 3, "decode each body this many times to flag nondeterministic results")
	crdFile := flag.String("crd", "", "single mode: a CRD file")
	bodyFile := flag.String("body", "", "single mode: a body file")
	isYAML := flag.Bool("yaml", false, "single mode: use the YAML serializer")
	mode := flag.String("mode", "Strict", "single mode: fieldValidation")
	flag.Parse()

	if *crdFile != "" {
		if err := single(*crdFile, *bodyFile, *isYAML, *mode); err != nil {
			fmt.Fprintln(os.Stderr, "crvectors:", err)
			os.Exit(1)
		}
		return
	}
	w := os.Stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "crvectors:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	if err := run(w, *corpus, *n, *nSyntax, *seed, *every, *repeat, strings.Split(*modes, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "crvectors:", err)
		os.Exit(1)
	}
}

func single(crdFile, bodyFile string, isYAML bool, mode string) error {
	crd, err := os.ReadFile(crdFile)
	if err != nil {
		return err
	}
	body, err := os.ReadFile(bodyFile)
	if err != nil {
		return err
	}
	res, err := oracle.DecodeCR(crd, body, oracle.CROptions{YAML: isYAML, FieldValidation: mode})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(toResult(res))
}

func run(w io.Writer, corpus string, n, nSyntax int, seed int64, every, repeat int, modes []string) error {
	data, err := os.ReadFile(filepath.Join(corpus, "index.json"))
	if err != nil {
		return err
	}
	var idx indexFile
	if err := json.Unmarshal(data, &idx); err != nil {
		return fmt.Errorf("index.json: %w", err)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	defer bw.Flush()
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	decoders := map[string]*oracle.CRDecoder{}
	schemas := map[string]*gen.Schema{}
	for i, cr := range idx.CRs {
		if every > 1 && i%every != 0 {
			continue
		}
		d, ok := decoders[cr.CRD]
		if !ok {
			crd, err := os.ReadFile(filepath.Join(corpus, cr.CRD))
			if err != nil {
				return err
			}
			if d, err = oracle.NewCRDecoder(crd); err != nil {
				fmt.Fprintf(os.Stderr, "crvectors: skipping %s: %v\n", cr.CRD, err)
			}
			decoders[cr.CRD] = d
		}
		if d == nil {
			continue
		}
		key := cr.CRD + "\x00" + cr.Version
		s, ok := schemas[key]
		if !ok {
			js, err := d.SchemaJSON(cr.Version)
			if err != nil {
				return err
			}
			if s, err = gen.ParseSchema(js); err != nil {
				return fmt.Errorf("%s %s: %w", cr.CRD, cr.Version, err)
			}
			schemas[key] = s
		}
		yamlBody, err := os.ReadFile(filepath.Join(corpus, cr.File))
		if err != nil {
			return err
		}
		crSeed := seed*1000003 + int64(i)
		base := record{CRD: cr.CRD, CR: cr.File, Version: cr.Version, Seed: crSeed}
		emit := func(r record, body []byte) error {
			setBody(&r, body)
			for _, m := range modes {
				r.Mode, r.Nondeterministic = m, false
				var first []byte
				for k := range max(repeat, 1) {
					res, err := d.Decode(body, oracle.CROptions{YAML: r.YAML, FieldValidation: m, Version: cr.Version})
					if err != nil {
						return fmt.Errorf("%s: %w", cr.File, err)
					}
					rr := toResult(res)
					b, err := json.Marshal(rr)
					if err != nil {
						return err
					}
					if k == 0 {
						r.Result, first = rr, b
					} else if string(b) != string(first) {
						r.Nondeterministic = true
					}
				}
				if err := enc.Encode(r); err != nil {
					return err
				}
			}
			return nil
		}
		r := base
		r.Mutation, r.YAML = "original-yaml", true
		if err := emit(r, yamlBody); err != nil {
			return err
		}
		jsonBody, err := sigsyaml.YAMLToJSON(yamlBody)
		if err != nil {
			fmt.Fprintf(os.Stderr, "crvectors: %s: no JSON form: %v\n", cr.File, err)
			continue
		}
		r = base
		r.Mutation = "original"
		if err := emit(r, jsonBody); err != nil {
			return err
		}
		g := gen.New(crSeed)
		ms, err := g.Mutate(jsonBody, s, n)
		if err != nil {
			fmt.Fprintf(os.Stderr, "crvectors: %s: %v\n", cr.File, err)
		}
		syn, err := g.MutateSyntax(jsonBody, nSyntax)
		if err != nil {
			return err
		}
		for _, m := range append(ms, syn...) {
			r = base
			r.Mutation, r.Detail = m.Kind, m.Detail
			if err := emit(r, m.Body); err != nil {
				return err
			}
		}
	}
	return nil
}

func setBody(r *record, body []byte) {
	if utf8.Valid(body) {
		r.Body = string(body)
	} else {
		r.BodyBase64 = base64.StdEncoding.EncodeToString(body)
	}
}

// text splits a string into its plain or base64 form.
func text(s string) (plain, b64 string) {
	if utf8.ValidString(s) {
		return s, ""
	}
	return "", base64.StdEncoding.EncodeToString([]byte(s))
}

func toResult(res oracle.CRResult) result {
	var r result
	if res.Object != nil {
		b, err := json.Marshal(res.Object)
		if err != nil {
			r.Object = "!marshal: " + err.Error()
		} else {
			r.Object = string(b)
		}
		r.FloatPaths = floatPaths(res.Object, "", nil)
	}
	r.Strict = res.Strict
	for _, s := range res.Strict {
		if !utf8.ValidString(s) {
			r.Strict = nil
			for _, s := range res.Strict {
				r.StrictBase64 = append(r.StrictBase64, base64.StdEncoding.EncodeToString([]byte(s)))
			}
			break
		}
	}
	r.Fatal, r.FatalBase64 = text(res.Fatal)
	r.FatalRaw, r.FatalRawBase64 = text(res.FatalRaw)
	r.HandlerMessage, r.HandlerMessageBase64 = text(res.HandlerMessage)
	r.Warnings, r.WarningHeaders = res.Warnings, res.WarningHeaders
	r.GroupVersionMismatch = res.GroupVersionMismatch
	return r
}

// floatPaths lists the JSON Pointers of float64 values, in sorted key order.
func floatPaths(v any, ptr string, out []string) []string {
	switch v := v.(type) {
	case float64:
		out = append(out, ptr)
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = floatPaths(v[k], ptr+"/"+strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"), out)
		}
	case []any:
		for i, e := range v {
			out = floatPaths(e, ptr+"/"+strconv.Itoa(i), out)
		}
	}
	return out
}
