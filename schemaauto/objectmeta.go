package schemaauto

import "sort"

// This file builds the automaton's built-in states for metav1.ObjectMeta
// (k8s.io/apimachinery/pkg/apis/meta/v1), the implicit schema of metadata at
// a resource root and in every embedded resource (the fields and JSON names
// of ObjectMeta, OwnerReference and ManagedFieldsEntry in
// k8s.io/apimachinery/pkg/apis/meta/v1/types.go).
// They describe the fields the decoder accepts; the decoder itself reads
// metadata with internal/objectmeta, where a value of the wrong JSON type is
// a fatal decoding error, as Go's typed decoding makes it in the reference,
// and unknown keys are reported as unknown metadata fields. Field matching is
// case-sensitive. init appends these states right after Drop and Keep, the
// ObjectMeta state last (see builtIn).

type metaBuilder struct{ a *Automaton }

func (b metaBuilder) state(path string, types TypeSet, flags Flags) StateID {
	b.a.nodes = append(b.a.nodes, NodeInfo{Path: path})
	b.a.states = append(b.a.states, State{
		Types: types | TypeNull, Flags: flags, Additional: NoState, Items: NoState,
		Default: -1, Node: int32(len(b.a.nodes) - 1),
	})
	return StateID(len(b.a.states) - 1)
}

func (b metaBuilder) scalar(path string, types TypeSet) StateID {
	return b.state(path, types, 0)
}

func (b metaBuilder) object(path string, fields map[string]StateID) StateID {
	id := b.state(path, TypeObject, 0)
	names := sortedKeys(fields)
	sort.Slice(names, func(i, j int) bool { return propLess(names[i], []byte(names[j])) })
	st := &b.a.states[id]
	st.propStart = uint32(len(b.a.props))
	for _, n := range names {
		b.a.appendProps(Prop{Name: n, Target: fields[n], Declared: NoState})
	}
	st.propEnd = uint32(len(b.a.props))
	if len(names) > linearLookupMax {
		st.lenOff = b.a.indexLengths(b.a.props[st.propStart:st.propEnd])
	}
	return id
}

func (b metaBuilder) array(path string, items StateID) StateID {
	id := b.state(path, TypeArray, 0)
	b.a.states[id].Items = items
	return id
}

func (b metaBuilder) stringMap(path string) StateID {
	id := b.state(path, TypeObject, 0)
	b.a.states[id].Additional = b.scalar(path, TypeString)
	return id
}

// buildObjectMeta appends the ObjectMeta states and returns the root one.
func buildObjectMeta(a *Automaton) StateID {
	b := metaBuilder{a}
	const int64s = TypeInteger | TypeNumber
	str := func(p string) StateID { return b.scalar(p, TypeString) }
	tm := str // a metav1.Time: an RFC 3339 string or null

	owner := b.object("OwnerReference", map[string]StateID{
		"apiVersion":         str("ObjectMeta.ownerReferences.apiVersion"),
		"kind":               str("ObjectMeta.ownerReferences.kind"),
		"name":               str("ObjectMeta.ownerReferences.name"),
		"uid":                str("ObjectMeta.ownerReferences.uid"),
		"controller":         b.scalar("ObjectMeta.ownerReferences.controller", TypeBoolean),
		"blockOwnerDeletion": b.scalar("ObjectMeta.ownerReferences.blockOwnerDeletion", TypeBoolean),
	})
	managed := b.object("ManagedFieldsEntry", map[string]StateID{
		"manager":     str("ObjectMeta.managedFields.manager"),
		"operation":   str("ObjectMeta.managedFields.operation"),
		"apiVersion":  str("ObjectMeta.managedFields.apiVersion"),
		"time":        tm("ObjectMeta.managedFields.time"),
		"fieldsType":  str("ObjectMeta.managedFields.fieldsType"),
		"fieldsV1":    b.state("ObjectMeta.managedFields.fieldsV1", TypeAny, Opaque),
		"subresource": str("ObjectMeta.managedFields.subresource"),
	})
	return b.object("ObjectMeta", map[string]StateID{
		"name":                       str("ObjectMeta.name"),
		"generateName":               str("ObjectMeta.generateName"),
		"namespace":                  str("ObjectMeta.namespace"),
		"selfLink":                   str("ObjectMeta.selfLink"),
		"uid":                        str("ObjectMeta.uid"),
		"resourceVersion":            str("ObjectMeta.resourceVersion"),
		"generation":                 b.scalar("ObjectMeta.generation", int64s),
		"creationTimestamp":          tm("ObjectMeta.creationTimestamp"),
		"deletionTimestamp":          tm("ObjectMeta.deletionTimestamp"),
		"deletionGracePeriodSeconds": b.scalar("ObjectMeta.deletionGracePeriodSeconds", int64s),
		"labels":                     b.stringMap("ObjectMeta.labels"),
		"annotations":                b.stringMap("ObjectMeta.annotations"),
		"ownerReferences":            b.array("ObjectMeta.ownerReferences", owner),
		"finalizers":                 b.array("ObjectMeta.finalizers", str("ObjectMeta.finalizers")),
		"managedFields":              b.array("ObjectMeta.managedFields", managed),
	})
}
