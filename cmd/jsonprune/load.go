package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/jsonprune/jsonprune/schemaauto"
	"github.com/jsonprune/jsonprune/yamlbridge"
)

// crdLoad counts what loading the CRDs skipped: a directory (a GitOps
// repository, say) mixes CRDs with other manifests, Helm templates...
type crdLoad struct {
	files, docs     int      // read, and the CRD documents in them
	skippedDocs     int      // documents that are not CRDs
	skippedFiles    []string // files of a directory that do not parse (a template...)
	filesWithoutCRD int
	verbose         func(format string, a ...any)
}

// readCRDs reads the CRDs of a file, or of every .yaml, .yml and .json file
// of a directory (recursively, in name order). Documents that are not CRDs
// are skipped (counted); so are, in a directory, files that do not parse.
func readCRDs(path string, ld *crdLoad) ([]*schemaauto.CRD, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	files := []string{path}
	dir := info.IsDir()
	if dir {
		files = nil
		err := filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			ext := strings.ToLower(filepath.Ext(p))
			if !d.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
	}
	var all []*schemaauto.CRD
	for _, f := range files {
		data, err := readFile(f)
		if err != nil {
			return nil, err
		}
		ld.files++
		crds, err := schemaauto.ParseCRDs(data)
		if err != nil {
			// a file that mixes CRDs and other documents: its CRDs
			var skipped int
			crds, skipped, err = crdDocuments(data)
			if err != nil {
				if !dir {
					return nil, fmt.Errorf("%s: %w", f, err)
				}
				ld.skippedFiles = append(ld.skippedFiles, f)
				ld.logf("--crd: skipped %s: %v", f, err)
				continue
			}
			ld.skippedDocs += skipped
			if skipped > 0 {
				ld.logf("--crd: %s: skipped %s that %s not a CustomResourceDefinition", f, plural(skipped, "document"), isAre(skipped))
			}
		}
		if len(crds) == 0 {
			ld.filesWithoutCRD++
		}
		ld.docs += len(crds)
		all = append(all, crds...)
	}
	if len(all) == 0 {
		if dir {
			return nil, fmt.Errorf("%s: no CustomResourceDefinition in its %s", path, plural(len(files), ".yaml, .yml or .json file"))
		}
		return nil, fmt.Errorf("%s: no CustomResourceDefinition in it", path)
	}
	return all, nil
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func (ld *crdLoad) logf(format string, a ...any) {
	if ld.verbose != nil {
		ld.verbose(format, a...)
	}
}

// crdDocuments reads the CRDs among the documents of data, skipping the
// others; it returns how many it skipped. A syntax error is an error.
func crdDocuments(data []byte) ([]*schemaauto.CRD, int, error) {
	r := yamlbridge.NewReader(data)
	var crds []*schemaauto.CRD
	skipped := 0
	for {
		doc, err := r.Next()
		if err == io.EOF {
			return crds, skipped, nil
		}
		if err != nil {
			return nil, 0, err
		}
		tm := doc.Source().TypeMeta()
		switch string(tm.Kind) {
		case "CustomResourceDefinition", "CustomResourceDefinitionList", "List":
			cs, err := schemaauto.ParseCRDs(doc.Text())
			if err != nil {
				return nil, 0, fmt.Errorf("document %d: %w", doc.Index, err)
			}
			crds = append(crds, cs...)
		default:
			skipped++
		}
	}
}

// loadCRDs reads and compiles the CRDs of every path.
func loadCRDs(paths []string, ld *crdLoad, opts ...schemaauto.Option) (*schemaauto.Set, error) {
	var all []*schemaauto.CRD
	for _, p := range paths {
		crds, err := readCRDs(p, ld)
		if err != nil {
			return nil, err
		}
		all = append(all, crds...)
	}
	return schemaauto.CompileCRDs(all, opts...)
}

// loadSchema reads and compiles a bare OpenAPI v3 schema.
func loadSchema(path string, opts ...schemaauto.Option) (*schemaauto.Automaton, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	s, err := schemaauto.ParseSchema(data)
	if err != nil {
		return nil, err
	}
	return schemaauto.Compile(s, opts...)
}
