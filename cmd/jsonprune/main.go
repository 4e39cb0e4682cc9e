package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/jsonprune/jsonprune/schemaauto"
)

// Exit statuses.
const (
	exitOK       = 0
	exitFindings = 1 // non-structural CRD under --lint-crd
	exitUsage    = 2 // usage error, unreadable schema or input
)

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("jsonprune", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var crds, lint stringList
	fs.Var(&crds, "crd", "CustomResourceDefinition manifest (file or directory; repeatable)")
	fs.Var(&lint, "lint-crd", "check that a CRD's schemas are structural, print the API server's violations (repeatable)")
	schema := fs.String("schema", "", "bare OpenAPI v3 schema instead of --crd")
	dump := fs.Bool("dump", false, "print the compiled automaton of every loaded schema")
	skeleton := fs.Bool("skeleton", false, "compile non-structural schemas by their skeleton instead of rejecting them")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage:\n  jsonprune --lint-crd FILE\n  jsonprune --crd FILE [--skeleton] --dump\n  jsonprune --schema FILE [--skeleton] --dump\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	opts := schemaauto.Options{Skeleton: *skeleton}

	if len(lint) > 0 {
		return lintCRDs(lint, stdout, stderr)
	}
	if len(crds) == 0 && *schema == "" {
		fs.Usage()
		return exitUsage
	}
	if !*dump {
		fmt.Fprintln(stderr, "jsonprune: nothing to do: pass --dump (pruning documents comes with the decoder)")
		return exitUsage
	}
	if *schema != "" {
		data, err := os.ReadFile(*schema)
		if err != nil {
			fmt.Fprintf(stderr, "error: %v\n", err)
			return exitUsage
		}
		s, err := schemaauto.ParseSchema(data)
		if err == nil {
			var a *schemaauto.Automaton
			if a, err = schemaauto.Compile(s, opts); err == nil {
				fmt.Fprintf(stdout, "# %s\n", *schema)
				_, err = a.WriteTo(stdout)
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "error: %s: %v\n", *schema, err)
			return exitUsage
		}
		return exitOK
	}
	set, err := loadCRDs(crds, opts)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
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
