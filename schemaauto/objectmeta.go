package schemaauto

import "sort"

// This file builds the automaton's built-in states for metav1.ObjectMeta
// (k8s.io/apimachinery/pkg/apis/meta/v1), the implicit schema of metadata at
// a resource root and in every embedded resource (the fields and JSON names
// of ObjectMeta, OwnerReference and ManagedFieldsEntry in
// k8s.io/apimachinery/pkg/apis/meta/v1/types.go).
// These states are Typed: a value of the wrong JSON type is a fatal decoding
// error, as Go's typed decoding makes it in the reference, and unknown keys
// are reported as unknown metadata fields. Field matching is case-sensitive.

type metaBuilder struct{ a *Automaton }

func (b metaBuilder) state(path, goType string, types TypeSet, flags Flags) StateID {
	b.a.nodes = append(b.a.nodes, NodeInfo{Path: path, GoType: goType})
	b.a.states = append(b.a.states, State{
		Types: types | TypeNull, Flags: Typed | flags, Additional: NoState, Items: NoState,
		Default: -1, Node: int32(len(b.a.nodes) - 1),
	})
	return StateID(len(b.a.states) - 1)
}

func (b metaBuilder) scalar(path, goType string, types TypeSet) StateID {
	return b.state(path, goType, types, 0)
}

func (b metaBuilder) object(path, goType string, fields map[string]StateID) StateID {
	id := b.state(path, goType, TypeObject, 0)
	names := sortedKeys(fields)
	sort.Slice(names, func(i, j int) bool { return propLess(names[i], []byte(names[j])) })
	st := &b.a.states[id]
	st.PropStart = uint32(len(b.a.props))
	for _, n := range names {
		b.a.appendProps(Prop{Name: n, Target: fields[n], Declared: NoState})
	}
	st.PropEnd = uint32(len(b.a.props))
	if len(names) > linearLookupMax {
		st.LenIndex = b.a.indexLengths(b.a.props[st.PropStart:st.PropEnd])
	}
	return id
}

func (b metaBuilder) array(path, goType string, items StateID) StateID {
	id := b.state(path, goType, TypeArray, 0)
	b.a.states[id].Items = items
	return id
}

func (b metaBuilder) stringMap(path string) StateID {
	id := b.state(path, "map[string]string", TypeObject, 0)
	b.a.states[id].Additional = b.scalar(path, "string", TypeString)
	return id
}

// buildObjectMeta appends the ObjectMeta states and returns the root one.
func buildObjectMeta(a *Automaton) StateID {
	b := metaBuilder{a}
	const int64s = TypeInteger | TypeNumber
	str := func(p string) StateID { return b.scalar(p, "string", TypeString) }
	tm := func(p string) StateID { return b.state(p, "v1.Time", TypeString, Time) }

	owner := b.object("OwnerReference", "v1.OwnerReference", map[string]StateID{
		"apiVersion":         str("ObjectMeta.ownerReferences.apiVersion"),
		"kind":               str("ObjectMeta.ownerReferences.kind"),
		"name":               str("ObjectMeta.ownerReferences.name"),
		"uid":                b.scalar("ObjectMeta.ownerReferences.uid", "types.UID", TypeString),
		"controller":         b.scalar("ObjectMeta.ownerReferences.controller", "bool", TypeBoolean),
		"blockOwnerDeletion": b.scalar("ObjectMeta.ownerReferences.blockOwnerDeletion", "bool", TypeBoolean),
	})
	managed := b.object("ManagedFieldsEntry", "v1.ManagedFieldsEntry", map[string]StateID{
		"manager":     str("ObjectMeta.managedFields.manager"),
		"operation":   b.scalar("ObjectMeta.managedFields.operation", "v1.ManagedFieldsOperationType", TypeString),
		"apiVersion":  str("ObjectMeta.managedFields.apiVersion"),
		"time":        tm("ObjectMeta.managedFields.time"),
		"fieldsType":  str("ObjectMeta.managedFields.fieldsType"),
		"fieldsV1":    b.state("ObjectMeta.managedFields.fieldsV1", "v1.FieldsV1", TypeAny, Opaque),
		"subresource": str("ObjectMeta.managedFields.subresource"),
	})
	return b.object("ObjectMeta", "v1.ObjectMeta", map[string]StateID{
		"name":                       str("ObjectMeta.name"),
		"generateName":               str("ObjectMeta.generateName"),
		"namespace":                  str("ObjectMeta.namespace"),
		"selfLink":                   str("ObjectMeta.selfLink"),
		"uid":                        b.scalar("ObjectMeta.uid", "types.UID", TypeString),
		"resourceVersion":            str("ObjectMeta.resourceVersion"),
		"generation":                 b.scalar("ObjectMeta.generation", "int64", int64s),
		"creationTimestamp":          tm("ObjectMeta.creationTimestamp"),
		"deletionTimestamp":          tm("ObjectMeta.deletionTimestamp"),
		"deletionGracePeriodSeconds": b.scalar("ObjectMeta.deletionGracePeriodSeconds", "int64", int64s),
		"labels":                     b.stringMap("ObjectMeta.labels"),
		"annotations":                b.stringMap("ObjectMeta.annotations"),
		"ownerReferences":            b.array("ObjectMeta.ownerReferences", "[]v1.OwnerReference", owner),
		"finalizers":                 b.array("ObjectMeta.finalizers", "[]string", str("ObjectMeta.finalizers")),
		"managedFields":              b.array("ObjectMeta.managedFields", "[]v1.ManagedFieldsEntry", managed),
	})
}
