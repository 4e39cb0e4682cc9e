package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/jsonprune/jsonprune/schemaauto"
)

// readCRDs reads the CRDs of a file, or of every .yaml, .yml and .json file
// of a directory (recursively, in name order).
func readCRDs(path string) ([]*schemaauto.CRD, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	files := []string{path}
	if info.IsDir() {
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
		crds, err := schemaauto.ParseCRDs(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		all = append(all, crds...)
	}
	return all, nil
}

// loadCRDs reads and compiles the CRDs of every path.
func loadCRDs(paths []string, opts ...schemaauto.Option) (*schemaauto.Set, error) {
	var all []*schemaauto.CRD
	for _, p := range paths {
		crds, err := readCRDs(p)
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
