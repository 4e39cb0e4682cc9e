package main

import (
	"sort"
	"strings"

	"github.com/jsonprune/jsonprune/decoder"
	"github.com/jsonprune/jsonprune/internal/suggest"
	"github.com/jsonprune/jsonprune/schemaauto"
)

// Nothing passes in silence: an object whose kind no loaded CRD serves, or
// in a version its CRD does not serve, is reported (--missing-crd): by
// default a warning in Warn mode (the object is written as before: passed
// through untouched, or pruned as the API server prunes a version without
// a schema) and an error in Strict mode (not written, exit 1), as
// kubeconform and kubectl-validate fail on a kind they have no schema for.
// Kinds of the built-in API groups (no dot: apps, batch...; *.k8s.io) are
// not CRDs: they pass through, counted, unless a loaded CRD serves their
// group.

// missingPolicy is --missing-crd.
type missingPolicy uint8

const (
	missingAuto   missingPolicy = iota // the mode's: an error in Strict mode, else a warning
	missingIgnore                      // pass through in silence (counted)
	missingWarn
	missingError
)

func parseMissing(s string) (missingPolicy, bool) {
	switch strings.ToLower(s) {
	case "", "auto":
		return missingAuto, true
	case "ignore":
		return missingIgnore, true
	case "warn":
		return missingWarn, true
	case "error":
		return missingError, true
	}
	return 0, false
}

// catalog is what the loaded CRDs serve, for the messages about what they
// do not serve. It is read-only, shared by the workers.
type catalog struct {
	crds   map[groupKind]*schemaauto.CRD
	groups map[string]bool
	kinds  []string // every served kind, sorted, for suggestions
}

type groupKind struct{ group, kind string }

func newCatalog(set *schemaauto.Set) *catalog {
	c := &catalog{crds: map[groupKind]*schemaauto.CRD{}, groups: map[string]bool{}}
	if set == nil {
		return c
	}
	seen := map[string]bool{}
	for _, crd := range set.CRDs() { // the index's: nothing compiled
		c.crds[groupKind{crd.Group, crd.Kind}] = crd
		c.groups[crd.Group] = true
		if !seen[crd.Kind] {
			seen[crd.Kind] = true
			c.kinds = append(c.kinds, crd.Kind)
		}
	}
	sort.Strings(c.kinds)
	return c
}

// builtIn reports whether a group is one of Kubernetes' own (the core
// group, a group without a dot, or *.k8s.io) that no loaded CRD serves.
func (c *catalog) builtIn(group string) bool {
	if c.groups[group] {
		return false
	}
	return group == "" || !strings.Contains(group, ".") || strings.HasSuffix(group, ".k8s.io")
}

// served lists the versions a CRD serves: "v1, v2".
func served(crd *schemaauto.CRD) string {
	var vs []string
	for _, v := range crd.Versions {
		if v.Served {
			vs = append(vs, v.Name)
		}
	}
	if len(vs) == 0 {
		return "none"
	}
	return strings.Join(vs, ", ")
}

// checkServed reports an object that no loaded CRD serves, or that its CRD
// serves in another version; decoded tells whether the decoder pruned it
// (a group and kind a CRD serves). It returns true when the object is
// rejected (not to be written).
func (w *worker) checkServed(a *origin, obj []byte, res *decoder.Result, passing bool) bool {
	if w.fixed || w.cat == nil || res.Entry != nil && res.Entry.Version.Served || !res.Pruned && !passing {
		return false // the common cases first: no cost on clean documents
	}
	tm := a.gvk()
	group, version, err := schemaauto.ParseGroupVersion(tm.apiVersion)
	if err != nil || tm.kind == "" {
		return false // the decoder's error says why
	}
	var n note
	switch {
	case res.Pruned && (res.Entry == nil || !res.Entry.Version.Served):
		crd := w.cat.crds[groupKind{group, tm.kind}]
		if crd == nil {
			return false
		}
		a.u.tally.unserved++
		n = note{kind: "unserved-version", text: "version " + version + " is not served by " + crd.Name + "; served: " + served(crd)}
	case !res.Pruned && passing:
		if w.cat.builtIn(group) {
			a.u.tally.builtIn++
			return false
		}
		a.u.tally.noCRD++
		n = note{kind: "no-crd", text: "no loaded CustomResourceDefinition serves kind " + tm.kind + " of " + tm.apiVersion}
		if crd := w.nearKind(group, tm.kind); crd != nil {
			if crd.Kind != tm.kind && strings.EqualFold(crd.Kind, tm.kind) {
				n.text += " (kinds are case-sensitive)"
			}
			n.suggestion = "kind: " + crd.Kind
			if crd.Group != group {
				n.suggestion = "apiVersion: " + crd.Group + "/" + preferredVersion(crd) + ", kind: " + crd.Kind
			}
		} else if g := suggest.Word(group, w.cat.groupList()); g != "" {
			if crd := w.cat.crds[groupKind{g, tm.kind}]; crd != nil {
				n.suggestion = "apiVersion: " + g + "/" + preferredVersion(crd)
			}
		}
	default:
		return false
	}
	policy := w.o.missing
	if policy == missingAuto {
		policy = missingWarn
		if w.o.mode == decoder.Strict {
			policy = missingError
		}
	}
	switch policy {
	case missingIgnore:
		return false
	case missingWarn:
		n.sev = sevWarning
	default:
		n.sev = sevError
	}
	a.unserved = true
	n.off, n.line, n.col = a.at(a.start, 1, 1)
	w.say(a, obj, n)
	if w.o.report != "" {
		r := w.record(a, obj)
		r.typ, r.severity, r.message, r.suggestion = n.kind, n.sev.String(), n.text, n.suggestion
		r.offset, r.line, r.column = n.off, n.line, w.editorColumn(a, n.off, n.line, n.col)
		a.b.rep = r.append(a.b.rep)
	}
	if n.sev == sevError {
		a.u.tally.rejected++
		return true
	}
	return false
}

// nearKind is the CRD whose kind is the one meant: the same kind in
// another case or within a small edit distance, in the same group first.
func (w *worker) nearKind(group, kind string) *schemaauto.CRD {
	var inGroup []string
	for gk := range w.cat.crds {
		if gk.group == group {
			inGroup = append(inGroup, gk.kind)
		}
	}
	sort.Strings(inGroup)
	if k := suggest.Word(kind, inGroup); k != "" {
		return w.cat.crds[groupKind{group, k}]
	}
	// the same kind (in any case) in another group
	var found *schemaauto.CRD
	for gk, crd := range w.cat.crds {
		if strings.EqualFold(gk.kind, kind) && (found == nil || crd.Name < found.Name) {
			found = crd
		}
	}
	return found
}

func (c *catalog) groupList() []string {
	gs := make([]string, 0, len(c.groups))
	for g := range c.groups {
		gs = append(gs, g)
	}
	sort.Strings(gs)
	return gs
}

// preferredVersion is the version to suggest: the storage version if
// served, else the first served one.
func preferredVersion(crd *schemaauto.CRD) string {
	first := ""
	for _, v := range crd.Versions {
		if v.Served && v.Storage {
			return v.Name
		}
		if v.Served && first == "" {
			first = v.Name
		}
	}
	return first
}
