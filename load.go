package jsonprune

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	jperrors "github.com/jsonprune/jsonprune/errors"
	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/yamlbridge"
)

// Schemas is a compiled set of CRDs, ready to decode the custom resources
// they serve. It is immutable and safe for concurrent use.
type Schemas struct {
	set *schemaauto.Set
}

// NewSchemas wraps a set compiled with schemaauto (for instance with
// schemaauto.AllowSkeleton(true)).
func NewSchemas(set *schemaauto.Set) *Schemas { return &Schemas{set: set} }

// Set returns the compiled set the Schemas wrap.
func (s *Schemas) Set() *schemaauto.Set {
	if s == nil {
		return nil
	}
	return s.set
}

// LoadCRDs reads and compiles the CustomResourceDefinitions in data: JSON or
// YAML, one or several documents (YAML "---", concatenated JSON), v1 or
// v1beta1; a List of CRDs is unpacked. Documents of other kinds are skipped;
// data without any CRD is an error. A CRD that does not compile is an error
// naming it.
func LoadCRDs(data []byte) (*Schemas, error) {
	crds, err := readCRDs(data)
	if err != nil {
		return nil, err
	}
	if len(crds) == 0 {
		return nil, errors.New("no CustomResourceDefinition in the input")
	}
	set, err := schemaauto.CompileCRDs(crds)
	if err != nil {
		return nil, err
	}
	return &Schemas{set: set}, nil
}

// LoadCRDFiles reads and compiles the CustomResourceDefinitions of files
// and directories. A directory gives every .yaml, .yml and .json file
// below it, recursively, in lexical order. In every file, documents that are
// not CRDs are skipped (a directory of manifests may hold a
// kustomization.yaml or sample objects); a file named in paths without any
// CRD, or a directory without any, is an error. Errors name the file and,
// for a CRD that fails to compile, the CRD.
func LoadCRDFiles(paths ...string) (*Schemas, error) {
	if len(paths) == 0 {
		return nil, errors.New("LoadCRDFiles: no path given")
	}
	var all []*schemaauto.CRD
	from := map[*schemaauto.CRD]string{}
	for _, p := range paths {
		files, err := crdFiles(p)
		if err != nil {
			return nil, err
		}
		n := len(all)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			crds, err := readCRDs(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			for _, c := range crds {
				from[c] = f
			}
			all = append(all, crds...)
		}
		if len(all) == n {
			return nil, fmt.Errorf("%s: no CustomResourceDefinition", p)
		}
	}
	set, err := schemaauto.CompileCRDs(all)
	if err != nil {
		var ce *schemaauto.CRDError
		if errors.As(err, &ce) {
			for _, c := range all { // the first CRD of that name: the one CompileCRDs stopped at
				if c.Name == ce.CRD {
					return nil, fmt.Errorf("%s: %w", from[c], err)
				}
			}
		}
		return nil, err
	}
	return &Schemas{set: set}, nil
}

// crdFiles lists the files of path: itself, or the .yaml, .yml and .json
// files below a directory, recursively, in lexical order.
func crdFiles(path string) ([]string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".yaml", ".yml", ".json":
			if !d.IsDir() {
				files = append(files, p)
			}
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// readCRDs parses the CRDs of data, skipping documents of other kinds.
func readCRDs(data []byte) ([]*schemaauto.CRD, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	crds, err := schemaauto.ParseCRDs(data)
	if err == nil {
		return crds, nil
	}
	// Something is not a CRD (or is broken): read the documents one by one,
	// skipping those of other kinds, so that errors say which one failed.
	crds = nil
	add := func(kind string, text []byte, line int) error {
		switch kind {
		case "CustomResourceDefinition", "CustomResourceDefinitionList", "List":
		default:
			return nil
		}
		cs, err := schemaauto.ParseCRDs(text)
		if err != nil {
			// ParseCRDs says "document 0: ..." of a text with one document.
			if u := errors.Unwrap(err); u != nil && strings.HasPrefix(err.Error(), "document 0: ") {
				err = u
			}
			return fmt.Errorf("line %d: %w", line, err)
		}
		crds = append(crds, cs...)
		return nil
	}
	if isJSON(data) {
		jd := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
		for {
			v, jerr := jd.ReadValue()
			if jerr == io.EOF {
				return crds, nil
			}
			if jerr != nil {
				return nil, err // ParseCRDs's error says what is wrong
			}
			off := jd.InputOffset() - int64(len(v))
			line, _ := jperrors.LineColumn(data, off)
			if err := add(jsonKind(v), v, line); err != nil {
				return nil, err
			}
		}
	}
	r := yamlbridge.NewReader(data)
	for {
		doc, yerr := r.Next()
		if yerr == io.EOF {
			return crds, nil
		}
		if yerr != nil {
			return nil, yerr
		}
		tm := doc.Source().TypeMeta()
		line, _ := doc.Position(rootOffset(doc))
		if err := add(string(tm.Kind), doc.Text(), line); err != nil {
			return nil, err
		}
	}
}

// jsonKind reads the root's kind from JSON text (the last string; empty
// when absent), to tell CRDs from the other documents of an input.
func jsonKind(js []byte) string {
	var kind string
	jd := jsontext.NewDecoder(bytes.NewReader(js), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if t, err := jd.ReadToken(); err != nil || t.Kind() != '{' {
		return kind
	}
	for jd.PeekKind() == '"' {
		name, err := jd.ReadToken()
		if err != nil {
			return kind
		}
		if name.String() != "kind" {
			if jd.SkipValue() != nil {
				return kind
			}
			continue
		}
		v, err := jd.ReadToken()
		if err != nil || v.Kind() == '{' || v.Kind() == '[' {
			return kind
		}
		if v.Kind() == '"' {
			kind = v.String()
		}
	}
	return kind
}
