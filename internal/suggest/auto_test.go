package suggest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/jsonprune/jsonprune/schemaauto"
)

// TestFieldOfCorpus checks FieldOf against Field on every CRD version of
// the shared corpus: for every declared path (properties, array items,
// map values) and, at each, a set of misspelled, misplaced or unknown
// names, the automaton gives the suggestion the schema gives.
func TestFieldOfCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "crds")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("SKIP: %s not found (the shared corpus must sit beside the checkout as ../shared): %v", dir, err)
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".json")) {
			files = append(files, p)
		}
		return err
	})
	sort.Strings(files)
	var checked, suggested, versions int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		crds, err := schemaauto.ParseCRDs(data)
		if err != nil {
			continue
		}
		for _, c := range crds {
			set, err := schemaauto.CompileCRDs([]*schemaauto.CRD{c})
			if err != nil {
				continue // not structural: no automaton to suggest from
			}
			for _, e := range set.Entries() {
				root := e.Schema()
				if root == nil {
					continue
				}
				versions++
				for _, p := range pointersOf(root) {
					want, got := Field(root, p), FieldOf(e.Automaton, p)
					checked++
					if want != "" {
						suggested++
					}
					if got != want {
						t.Errorf("%s %s: %s: FieldOf %q, Field %q", filepath.Base(f), e.GVK, p, got, want)
					}
				}
			}
		}
	}
	t.Logf("%d CRD versions, %d pointers, %d with a suggestion", versions, checked, suggested)
	if checked == 0 || suggested == 0 {
		t.Fatal("nothing compared")
	}
}

// pointersOf lists, for every declared path of root up to a bound, JSON
// Pointers of unknown names under it: each declared name misspelled (a
// letter dropped, two swapped, another case), moved (a grandchild's or a
// sibling's child's name), the YAML 1.1 booleans and a name of nothing.
func pointersOf(root *schemaauto.Schema) []string {
	var out []string
	var visit func(s *schemaauto.Schema, ptr string, depth int)
	visit = func(s *schemaauto.Schema, ptr string, depth int) {
		if s == nil || depth > 12 || len(out) > 4000 {
			return
		}
		var names []string
		for k := range s.Properties {
			names = append(names, k)
		}
		sort.Strings(names)
		add := func(name string) {
			out = append(out, ptr+"/"+strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1"))
		}
		for _, k := range names {
			if len(k) > 1 {
				add(k[1:])
				add(strings.ToUpper(k[:1]) + k[1:])
				b := []byte(k)
				b[0], b[1] = b[1], b[0]
				add(string(b))
			}
			if c := s.Properties[k]; c != nil {
				for g := range c.Properties {
					add(g) // a grandchild's name one level up
				}
			}
		}
		add("true")
		add("false")
		add("zzNothingLikeIt")
		for _, k := range names {
			visit(s.Properties[k], ptr+"/"+k, depth+1)
		}
		if s.Items != nil {
			visit(s.Items, ptr+"/0", depth+1)
		}
		if ap := s.AdditionalProperties; ap != nil && ap.Schema != nil {
			visit(ap.Schema, ptr+"/someKey", depth+1)
		}
	}
	visit(root, "", 0)
	out = append(out, "/metadata/nmae", "/metadata/Labels", "/apiversion", "/knd", "/metadata")
	return out
}
