package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/jsonprune/jsonprune/decoder"
)

// options are the parsed command line.
type options struct {
	crds, lint   []string
	schema       string
	dump         bool
	skeleton     bool
	mode         decoder.Mode
	output       outFormat
	noDefaults   bool
	noCache      bool
	noNulls      bool
	noValidate   bool
	invalidUTF8  bool
	report       string
	summary      bool
	top          int
	compress     string
	jobs         int
	recursive    bool
	quiet        bool
	kubectl      bool // messages in kubectl's plain form, without places
	verbose      bool
	version      bool
	reportFormat string
	missing      missingPolicy
	progress     string
	maxDoc       int
	inputs       []string
}

const usage = `Usage:
  jsonprune --crd FILE|DIR [--crd ...] [flags] [INPUT ...]   prune and check objects against their CRDs
  jsonprune --schema FILE [flags] [INPUT ...]                 the same against one bare OpenAPI v3 schema
  jsonprune --lint-crd FILE                                   is a CRD's schema structural? (exit 1 if not)
  jsonprune --crd FILE|DIR [--skeleton] --dump                show the compiled automata

INPUT is a file, a directory (its .json, .yaml and .yml files; -R: recursively) or - for stdin
(the default). JSON (one value, concatenated values, one per line) and YAML (multi-document,
with the same findings as JSON, at their YAML lines); gzip and zstd are detected. Lists
(objects with "items") are pruned item by item.

Schemas:
  --crd FILE|DIR            CustomResourceDefinition manifests: files of one or many documents, or
                            directories of them (repeatable); objects of other kinds pass through
  --missing-crd POLICY      an object whose kind no loaded CRD serves, or in a version its CRD
                            does not serve: error, warn or ignore (default: error in Strict mode,
                            else warn); kinds of built-in API groups always pass through
  --schema FILE             a bare OpenAPI v3 schema for every object instead
  --skeleton                prune by the skeleton of non-structural schemas instead of refusing them
  --no-cache                parse and compile the CRDs from their YAML only (by default a CRD is kept
                            compiled, and parsed, under the user cache directory, and later runs read that)

Pruning:
  --field-validation MODE   Strict, Warn (default) or Ignore, as the API server's fieldValidation:
                            Warn writes pruned objects and a "Warning:" line per finding;
                            Strict does not write objects with findings, exits 1;
                            Ignore writes pruned objects only
  --no-defaults             do not apply the schemas' default values
  --no-null-pruning         keep the nulls of non-nullable fields without a default
  --no-validate             do not check values; by default each object is also checked as the API
                            server's create path checks it (types, formats, enums, patterns, bounds,
                            lengths, counts, required, metadata names, embedded resources), and one
                            it would refuse (422) is an error and is not written (--validate: the
                            default, said explicitly; it wins over --no-validate)
  --allow-invalid-utf8      replace invalid UTF-8 with U+FFFD as the API server does (default: error)
  --max-doc-size SIZE       largest document or list item read, e.g. 64Mi (default 256Mi)

Inputs:
  -f, --filename INPUT      an input, as kubectl takes it (repeatable; same as a positional INPUT)
  -R, --recursive           read directories recursively
  -v, --verbose             say what --crd skipped (documents that are not CRDs, files that do not parse)

Output:
  -o, --output FORMAT       json: one compact document per line, a list stays one list (default);
                            ndjson: one compact object per line, list items each on their own line;
                            yaml: YAML documents separated by "---", a list stays one list (YAML
                            input keeps its comments, key order and styles);
                            none: nothing (check only)
  --compress gzip|zstd      compress stdout
  --report FILE             every finding and error as one JSON object per line (- for stdout,
                            with -o none)
  --report-format FORMAT    json: JSON Lines (default); junit: JUnit XML; tap: TAP 14; sarif:
                            SARIF 2.1.0 (code scanning); github: GitHub Actions workflow commands
                            (::warning file=...,line=...,col=...::...)
  --summary                 totals and the most frequent unknown fields on stderr at the end
                            (the migration preview)
  --top N                   unknown fields listed by --summary (default 20)
  -q, --quiet               no warnings (errors are still printed)
  --kubectl                 kubectl's message lines (Warning: unknown field "spec.x") instead of
                            FILE:LINE:COLUMN: SEVERITY: Kind name: MESSAGE
  --progress WHEN           progress bar on stderr: auto (when a terminal, default), always, never
  -j, --jobs N              parallel workers, on at most N cores unless $GOMAXPROCS is set
                            (default: the CPUs it may use); output order is kept

  --version                 the module version and the Kubernetes version reproduced

Exit status: 0 ok; 1 objects rejected (Strict findings, or errors the API server would raise in
any mode) or --lint-crd violations; 2 usage error, unreadable schema or input.
`

func parseArgs(args []string, stdout, stderr io.Writer) (*options, int) {
	fs := flag.NewFlagSet("jsonprune", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := &options{}
	var files []string
	var validation, output, maxDoc, missing string
	list := func(dst *[]string, names ...string) {
		for _, n := range names {
			fs.Func(n, "", func(s string) error { *dst = append(*dst, s); return nil })
		}
	}
	str := func(dst *string, def string, names ...string) {
		for _, n := range names {
			fs.StringVar(dst, n, def, "")
		}
	}
	boolean := func(dst *bool, names ...string) {
		for _, n := range names {
			fs.BoolVar(dst, n, false, "")
		}
	}
	list(&o.crds, "crd")
	list(&o.lint, "lint-crd")
	list(&files, "f", "filename")
	str(&o.schema, "", "schema")
	str(&validation, "Warn", "field-validation")
	str(&output, "json", "o", "output")
	str(&o.report, "", "report")
	str(&o.compress, "", "compress")
	str(&o.progress, "auto", "progress")
	str(&maxDoc, "256Mi", "max-doc-size")
	str(&missing, "auto", "missing-crd")
	str(&o.reportFormat, "json", "report-format")
	boolean(&o.dump, "dump")
	boolean(&o.skeleton, "skeleton")
	boolean(&o.noDefaults, "no-defaults")
	boolean(&o.noCache, "no-cache")
	boolean(&o.noNulls, "no-null-pruning")
	boolean(&o.noValidate, "no-validate")
	validateOn := false
	boolean(&validateOn, "validate")
	boolean(&o.invalidUTF8, "allow-invalid-utf8")
	boolean(&o.summary, "summary")
	boolean(&o.recursive, "R", "recursive")
	boolean(&o.quiet, "q", "quiet")
	boolean(&o.kubectl, "kubectl")
	boolean(&o.verbose, "v", "verbose")
	boolean(&o.version, "version")
	fs.IntVar(&o.top, "top", 20, "")
	fs.IntVar(&o.jobs, "j", runtime.GOMAXPROCS(0), "")
	fs.IntVar(&o.jobs, "jobs", runtime.GOMAXPROCS(0), "")

	bad := func(format string, a ...any) (*options, int) {
		fmt.Fprintf(stderr, "error: "+format+"\n", a...)
		fmt.Fprintln(stderr, "Run jsonprune --help for usage.")
		return nil, exitUsage
	}
	positional, err := parseInterspersed(fs, args)
	if validateOn {
		o.noValidate = false // --validate wins over --no-validate
	}
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return nil, exitOK
	}
	if err != nil {
		return bad("%v", err)
	}
	o.inputs = append(files, positional...)
	if o.version {
		fmt.Fprint(stdout, versionText())
		return nil, exitOK
	}

	var ok bool
	if o.mode, ok = parseMode(validation); !ok {
		return bad("--field-validation must be Strict, Warn or Ignore, not %q", validation)
	}
	if o.missing, ok = parseMissing(missing); !ok {
		return bad("--missing-crd must be ignore, warn or error, not %q", missing)
	}
	if _, err := newReportFormatter(o.reportFormat, nil); err != nil {
		return bad("%v", err)
	}
	if o.output, err = parseOutput(output); err != nil {
		return bad("%v", err)
	}
	if _, _, err := compressor(io.Discard, o.compress); err != nil {
		return bad("%v", err)
	}
	if o.maxDoc, err = parseSize(maxDoc); err != nil {
		return bad("--max-doc-size: %v", err)
	}
	switch {
	case o.progress != "auto" && o.progress != "always" && o.progress != "never":
		return bad("--progress must be auto, always or never, not %q", o.progress)
	case o.jobs < 1:
		return bad("-j must be at least 1")
	case o.top < 0:
		return bad("--top must not be negative")
	case o.report == "-" && o.output != outNone:
		return bad("--report - writes to stdout: use it with -o none")
	case o.reportFormat != "json" && o.report == "":
		return bad("--report-format needs --report FILE (- for stdout, with -o none)")
	case o.schema != "" && len(o.crds) > 0:
		return bad("--crd and --schema exclude each other")
	case len(o.lint) == 0 && len(o.crds) == 0 && o.schema == "":
		return bad("no schema: give the CustomResourceDefinitions with --crd FILE|DIR (or one OpenAPI schema with --schema FILE)")
	}
	return o, -1
}

// parseInterspersed parses flags wherever they are among the positional
// arguments, as kubectl does; "--" ends the flags. As with kubectl, the
// value of -o, -f and -j may be glued to it: -ojson, -j4.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	args = slices.Clone(args)
	for i, a := range args {
		if a == "--" {
			break
		}
		if len(a) > 2 && a[0] == '-' && strings.IndexByte("ofj", a[1]) >= 0 && a[2] != '=' {
			args[i] = a[:2] + "=" + a[2:]
		}
	}
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// parseMode reads a field-validation mode, in any case.
func parseMode(s string) (decoder.Mode, bool) {
	for _, m := range []string{"Strict", "Warn", "Ignore"} {
		if strings.EqualFold(s, m) {
			return decoder.ParseMode(m)
		}
	}
	return decoder.Warn, false
}

// parseSize reads a size in bytes, with an optional Ki, Mi or Gi suffix.
func parseSize(s string) (int, error) {
	mult := 1
	for i, suf := range []string{"Ki", "Mi", "Gi"} {
		if strings.HasSuffix(s, suf) {
			s, mult = strings.TrimSuffix(s, suf), 1<<(10*(i+1))
			break
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("not a size: %q", s)
	}
	return n * mult, nil
}
