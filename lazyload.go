package jsonprune

import (
	"errors"
	"fmt"
	"os"

	"github.com/jsonprune/jsonprune/schemaauto"
)

// IndexCRDFiles is LoadCRDFiles that compiles each CRD when an object first
// needs it: it reads the names and versions of the CRDs of the files
// (schemaauto.IndexCRDs: a scan of their lines, without parsing their
// schemas, where it can) and parses and compiles a CRD on the first object
// of its group and kind, once (schemaauto.NewLazySet). Loading hundreds of
// CRDs to decode a few objects costs what those objects' CRDs cost. A file
// that does not parse, a file named without any CRD and two CRDs serving
// one version are errors now; a CRD that does not compile is the error of
// the objects that need it (Schemas.Set().CompileAll checks them all).
func IndexCRDFiles(paths ...string) (*Schemas, error) {
	if len(paths) == 0 {
		return nil, errors.New("IndexCRDFiles: no path given")
	}
	var all []schemaauto.CRDSource
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
			if ix, _, ok := schemaauto.IndexCRDs(data); ok {
				for _, e := range ix {
					all = append(all, schemaauto.CRDSource{CRD: e.CRD, Where: f, Size: e.End - e.Start, Load: schemaauto.DocumentLoader(nil, func() ([]byte, error) { return os.ReadFile(f) }, e.Start, e.End)})
				}
				continue
			}
			crds, err := readCRDs(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			for i, c := range crds {
				all = append(all, schemaauto.CRDSource{CRD: c.Names(), Where: f, Size: len(data) / len(crds), Load: loadNthCRD(f, i)})
			}
		}
		if len(all) == n {
			return nil, fmt.Errorf("%s: no CustomResourceDefinition", p)
		}
	}
	set, err := schemaauto.NewLazySet(all, nil)
	if err != nil {
		return nil, err
	}
	return &Schemas{set: set}, nil
}

// loadNthCRD parses the CRDs of a file again and returns the i-th.
func loadNthCRD(f string, i int) func() (*schemaauto.CRD, error) {
	return func() (*schemaauto.CRD, error) {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		crds, err := readCRDs(data)
		if err != nil {
			return nil, err
		}
		if i >= len(crds) {
			return nil, errors.New("changed since it was indexed")
		}
		return crds[i], nil
	}
}
