package conformance

import (
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/jsonprune/jsonprune/bench/gen"
	"github.com/jsonprune/jsonprune/schemaauto"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestPruneValueSubtreeDifferential runs Automaton.PruneValue from states
// that are not a resource root (each property of every corpus CRD
// version's root, e.g. spec and status) against the reference's
// pruning.PruneWithOptions on the same sub-schema (isResourceRoot false),
// on generated instances with apiVersion, kind, metadata and an unknown
// field added at the top of the value: the pruned values and the recorded
// paths must be the same (the reference removes the meta fields at the top
// of a non-resource value without recording them).
func TestPruneValueSubtreeDifferential(t *testing.T) {
	_, sides := loadPairs(t)
	names := make([]string, 0, len(sides))
	for n := range sides {
		names = append(names, n)
	}
	sort.Strings(names)
	g := gen.New(13)
	compared, changed := 0, 0
	for _, name := range names {
		s := sides[name]
		for _, v := range s.oracle.Served {
			ss := s.oracle.Schema(v)
			sch := schemaFor(t, s.oracle, v)
			e, ok := s.set.Lookup(s.oracle.Group+"/"+v, s.oracle.Kind)
			if ss == nil || sch == nil || !ok || !e.Automaton.Prunes() {
				continue
			}
			a := e.Automaton
			var obj map[string]any
			if err := json.Unmarshal(g.Instance(sch, s.oracle.Group+"/"+v, s.oracle.Kind), &obj); err != nil {
				t.Fatal(err)
			}
			for _, p := range a.Props(a.Root()) {
				prop, ok := ss.Properties[p.Name]
				if p.Role != schemaauto.RoleProperty || !ok {
					continue
				}
				val, ok := obj[p.Name].(map[string]any)
				if !ok {
					val = map[string]any{}
				}
				val = runtime.DeepCopyJSONValue(val).(map[string]any)
				val["apiVersion"], val["kind"] = "v1", "Junk"
				val["metadata"] = map[string]any{"name": "x", "junk": 1.0}
				val["zz-unknown"] = map[string]any{"a": 1.0}
				ours := runtime.DeepCopyJSONValue(val)
				theirs := runtime.DeepCopyJSONValue(val)
				gotPaths := a.PruneValue(ours, p.Target)
				wantPaths := pruning.PruneWithOptions(theirs, &prop, false, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
				compared++
				if slices.Contains(wantPaths, "metadata") || !reflect.DeepEqual(theirs, val) {
					changed++
				}
				if !reflect.DeepEqual(ours, theirs) || !slices.Equal(gotPaths, wantPaths) {
					t.Errorf("%s %s: PruneValue from %s:\n got %v %q\nwant %v %q", name, v, p.Name, ours, gotPaths, theirs, wantPaths)
				}
			}
		}
	}
	if compared == 0 {
		t.Fatal("nothing compared")
	}
	t.Logf("%d sub-schema prunings compared (%d changed the value)", compared, changed)
}
