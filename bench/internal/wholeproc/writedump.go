package wholeproc

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	"sigs.k8s.io/yaml"
)

// WriteDump writes to dir/dump.ndjson the NDJSON dump of the corpus (the
// shared corpus directory: index.json, crds/, crs/): the JSON form of the
// resources of the n CRDs with the most resources (Dump), one a line,
// repeated to lines lines. It returns the CRD files (absolute paths), the
// dump's path and its size.
func WriteDump(corpus, dir string, lines, n int) (crds []string, path string, size int, err error) {
	var index struct {
		CRS []struct{ File, CRD string }
	}
	data, err := os.ReadFile(filepath.Join(corpus, "index.json"))
	if err != nil {
		return nil, "", 0, err
	}
	if err := json.Unmarshal(data, &index); err != nil {
		return nil, "", 0, err
	}
	docs := map[string][][]byte{}
	for _, cr := range index.CRS {
		b, err := os.ReadFile(filepath.Join(corpus, cr.File))
		if err != nil {
			return nil, "", 0, err
		}
		if js, err := yaml.YAMLToJSON(b); err == nil && bytes.HasPrefix(js, []byte("{")) {
			docs[cr.CRD] = append(docs[cr.CRD], js)
		}
	}
	picked, dump := Dump(docs, n, lines)
	for _, c := range picked {
		p, err := filepath.Abs(filepath.Join(corpus, c))
		if err != nil {
			return nil, "", 0, err
		}
		crds = append(crds, p)
	}
	path = filepath.Join(dir, "dump.ndjson")
	if err := os.WriteFile(path, dump, 0o644); err != nil {
		return nil, "", 0, err
	}
	return crds, path, len(dump), nil
}
