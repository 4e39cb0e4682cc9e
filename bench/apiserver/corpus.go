package apiserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	sigsyaml "sigs.k8s.io/yaml"
)

// CRDInfo is one CRD of shared/corpus/index.json.
type CRDInfo struct {
	File     string `json:"file"`
	Project  string `json:"project"`
	Name     string `json:"name"`
	Group    string `json:"group"`
	Kind     string `json:"kind"`
	Plural   string `json:"plural"`
	Scope    string `json:"scope"`
	Versions []struct {
		Name   string `json:"name"`
		Served bool   `json:"served"`
	} `json:"versions"`
}

// CRInfo is one custom resource of shared/corpus/index.json.
type CRInfo struct {
	File    string `json:"file"`
	Project string `json:"project"`
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
	CRD     string `json:"crd"`
}

// Index is shared/corpus/index.json.
type Index struct {
	CRDs []CRDInfo `json:"crds"`
	CRs  []CRInfo  `json:"crs"`
}

// LoadIndex reads root/index.json (root is shared/corpus).
func LoadIndex(root string) (*Index, error) {
	b, err := os.ReadFile(filepath.Join(root, "index.json"))
	if err != nil {
		return nil, err
	}
	var ix Index
	if err := json.Unmarshal(b, &ix); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(root, "index.json"), err)
	}
	return &ix, nil
}

// Case is one request: a body posted in one format and one mode to the
// endpoint of the CR's group, version and plural, and decoded by jsonprune
// against the same CRD file.
type Case struct {
	// Family is the corpus project (argo-cd, istio...), or "vectors" for
	// the explicit vectors and "mutations" for seeded mutations.
	Family string
	// Name says what the body is: the CR's corpus path, with the vector or
	// mutation name after a '#'.
	Name string
	CRD  string // corpus-relative CRD file
	// Group, Version, Plural and Namespace give the URL; Namespace is empty
	// for a cluster-scoped CRD.
	Group, Version, Plural, Namespace string
	YAML                              bool   // Content-Type application/yaml (else application/json)
	Mode                              string // fieldValidation: Strict or Warn
	Body                              []byte
}

// Format is "yaml" or "json".
func (c *Case) Format() string {
	if c.YAML {
		return "yaml"
	}
	return "json"
}

// Path is the dry-run create URL path of the case.
func (c *Case) Path() string {
	p := "/apis/" + c.Group + "/" + c.Version
	if c.Namespace != "" {
		p += "/namespaces/" + c.Namespace
	}
	return p + "/" + c.Plural + "?dryRun=All&fieldValidation=" + c.Mode
}

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// namespaceOf is the namespace a body is posted to: its metadata.namespace
// when that is a valid namespace name (the server refuses a body whose
// namespace differs from the URL's, so the URL follows the body), else
// "default".
func namespaceOf(jsonBody []byte) string {
	var m struct {
		Metadata struct {
			Namespace any `json:"namespace"`
		} `json:"metadata"`
	}
	if json.Unmarshal(jsonBody, &m) == nil {
		if s, ok := m.Metadata.Namespace.(string); ok && dnsLabel.MatchString(s) {
			return s
		}
	}
	return "default"
}

// CorpusCases returns the cases of the CRs of ix chosen by pick (nil: all),
// each as YAML (the file as it is) and as JSON (the file converted by
// sigs.k8s.io/yaml.YAMLToJSON, the conversion the server's YAML serializer
// makes), in Strict and Warn mode. A CR file that YAMLToJSON refuses is
// posted as YAML only (the JSON cases would not exist).
func CorpusCases(root string, ix *Index, pick func(i int, cr CRInfo) bool) ([]Case, error) {
	crds := map[string]*CRDInfo{}
	for i := range ix.CRDs {
		crds[ix.CRDs[i].File] = &ix.CRDs[i]
	}
	var out []Case
	for i, cr := range ix.CRs {
		if pick != nil && !pick(i, cr) {
			continue
		}
		crd := crds[cr.CRD]
		if crd == nil {
			return nil, fmt.Errorf("index.json: %s names CRD %s, not in crds", cr.File, cr.CRD)
		}
		y, err := os.ReadFile(filepath.Join(root, cr.File))
		if err != nil {
			return nil, err
		}
		j, jerr := sigsyaml.YAMLToJSON(y)
		ns := ""
		if crd.Scope == "Namespaced" {
			ns = namespaceOf(j)
		}
		for _, mode := range []string{"Strict", "Warn"} {
			base := Case{Family: cr.Project, Name: cr.File, CRD: cr.CRD, Group: crd.Group, Version: cr.Version,
				Plural: crd.Plural, Namespace: ns, Mode: mode}
			c := base
			c.YAML, c.Body = true, y
			out = append(out, c)
			if jerr == nil {
				c = base
				c.Body = j
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// SampleCRs picks every n-th CR of each family (at least one a family), so
// that a sample covers every corpus family.
func SampleCRs(ix *Index, n int) func(int, CRInfo) bool {
	seen := map[string]int{}
	keep := map[int]bool{}
	for i, cr := range ix.CRs {
		if seen[cr.Project]%n == 0 {
			keep[i] = true
		}
		seen[cr.Project]++
	}
	return func(i int, _ CRInfo) bool { return keep[i] }
}

// crdFiles returns the distinct CRD files the cases use, sorted.
func crdFiles(cases []Case) []string {
	set := map[string]bool{}
	for _, c := range cases {
		set[c.CRD] = true
	}
	var out []string
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}
