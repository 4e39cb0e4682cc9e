package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/jsonprune/jsonprune/decoder"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// Exit statuses.
const (
	exitOK       = 0
	exitFindings = 1 // documents rejected under Strict, or a non-structural CRD under --lint-crd
	exitUsage    = 2 // usage error, unreadable schema or input
)

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `Usage:
  jsonprune --crd FILE|DIR [--crd ...] [flags] [INPUT ...]   prune documents (stdin when no INPUT or -)
  jsonprune --schema FILE [flags] [INPUT ...]                 the same with a bare OpenAPI v3 schema
  jsonprune --lint-crd FILE                                   check that a CRD's schemas are structural
  jsonprune --crd FILE --dump                                 show the compiled automata

Flags:
`

// options are the parsed command line.
type options struct {
	crds, lint []string
	schema     string
	dump       bool
	skeleton   bool
	mode       decoder.Mode
	output     string
	noDefaults bool
	noNulls    bool
	inputs     []string
}

func parseArgs(args []string, stderr io.Writer) (*options, int) {
	fs := flag.NewFlagSet("jsonprune", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &options{}
	fs.Var((*stringList)(&o.crds), "crd", "CustomResourceDefinition manifest: a file (one or several documents) or a directory (repeatable)")
	fs.Var((*stringList)(&o.lint), "lint-crd", "check that a CRD's schemas are structural and print the API server's violations (repeatable)")
	fs.StringVar(&o.schema, "schema", "", "a bare OpenAPI v3 schema instead of --crd")
	fs.BoolVar(&o.dump, "dump", false, "print the compiled automaton of every loaded schema")
	fs.BoolVar(&o.skeleton, "skeleton", false, "prune non-structural schemas by their skeleton instead of refusing them")
	validation := fs.String("field-validation", "Warn", "Strict, Warn or Ignore, as the API server's fieldValidation")
	fs.StringVar(&o.output, "o", "json", "output: json or ndjson (one compact document per line), none")
	fs.BoolVar(&o.noDefaults, "no-defaults", false, "do not apply the schema's default values")
	fs.BoolVar(&o.noNulls, "no-null-pruning", false, "keep nulls of non-nullable fields")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, exitOK
		}
		return nil, exitUsage
	}
	var ok bool
	if o.mode, ok = decoder.ParseMode(*validation); !ok {
		fmt.Fprintf(stderr, "error: --field-validation must be Strict, Warn or Ignore, not %q\n", *validation)
		return nil, exitUsage
	}
	switch o.output {
	case "json", "ndjson", "none":
	default:
		fmt.Fprintf(stderr, "error: -o must be json, ndjson or none, not %q\n", o.output)
		return nil, exitUsage
	}
	o.inputs = fs.Args()
	if len(o.lint) == 0 && len(o.crds) == 0 && o.schema == "" {
		fs.Usage()
		return nil, exitUsage
	}
	return o, -1
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, code := parseArgs(args, stderr)
	if o == nil {
		return code
	}
	if len(o.lint) > 0 {
		return lintCRDs(o.lint, stdout, stderr)
	}
	opts := schemaauto.Options{Skeleton: o.skeleton}
	var set *schemaauto.Set
	var fixed *schemaauto.Automaton
	if o.schema != "" {
		a, err := loadSchema(o.schema, opts)
		if err != nil {
			fmt.Fprintf(stderr, "error: %s: %v\n", o.schema, err)
			return exitUsage
		}
		fixed = a
	} else {
		var err error
		if set, err = loadCRDs(o.crds, opts); err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return exitUsage
		}
	}
	if o.dump {
		return dump(set, fixed, o.schema, stdout, stderr)
	}

	dopts := []decoder.Option{decoder.FieldValidation(o.mode), decoder.Defaulting(!o.noDefaults), decoder.NullPruning(!o.noNulls)}
	var d *decoder.Decoder
	if fixed != nil {
		d = decoder.NewForAutomaton(fixed, dopts...)
	} else {
		d = decoder.New(set, dopts...)
	}
	out := bufio.NewWriterSize(stdout, 1<<16)
	defer out.Flush()
	p := &pruner{d: d, o: o, out: out, stderr: stderr, passThrough: fixed == nil}
	inputs := o.inputs
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	for _, in := range inputs {
		if err := p.input(in, stdin); err != nil {
			out.Flush()
			fmt.Fprintf(stderr, "error: %s: %v\n", in, err)
			return exitUsage
		}
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	if p.rejected > 0 {
		return exitFindings
	}
	return exitOK
}

func dump(set *schemaauto.Set, fixed *schemaauto.Automaton, name string, stdout, stderr io.Writer) int {
	if fixed != nil {
		fmt.Fprintf(stdout, "# %s\n", name)
		if _, err := fixed.WriteTo(stdout); err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	for _, e := range set.Entries() {
		note := ""
		if e.Skeleton {
			note = " (skeleton of a non-structural schema)"
		}
		fmt.Fprintf(stdout, "# %s%s\n", e.GVK, note)
		if _, err := e.Automaton.WriteTo(stdout); err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return exitUsage
		}
	}
	return exitOK
}

// lintCRDs prints every violation of every CRD in files, as the API server
// reports them on create, and returns exitFindings if there was any.
func lintCRDs(files []string, stdout, stderr io.Writer) int {
	status := exitOK
	for _, f := range files {
		crds, err := readCRDs(f)
		if err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return exitUsage
		}
		for _, c := range crds {
			v := c.Validate()
			if len(v) == 0 {
				fmt.Fprintf(stdout, "%s: CustomResourceDefinition %q: structural\n", f, c.Name)
				continue
			}
			status = exitFindings
			fmt.Fprintf(stdout, "%s: CustomResourceDefinition %q is invalid:\n", f, c.Name)
			for _, e := range v {
				fmt.Fprintf(stdout, "  %s\n", e.Error())
			}
		}
	}
	return status
}
