package schemaauto

import (
	"sort"

	"github.com/jsonprune/jsonprune/internal/objectmeta"
)

// This file builds the automaton's built-in states for metav1.ObjectMeta
// (k8s.io/apimachinery/pkg/apis/meta/v1), the implicit schema of metadata at
// a resource root and in every embedded resource, from the table of the
// fields of ObjectMeta, OwnerReference and ManagedFieldsEntry in
// internal/objectmeta (fields.go).
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
	return metaBuilder{a}.structState(objectmeta.ObjectMeta, "ObjectMeta.")
}

// structState appends the states of the fields of st (their paths prefix
// and the field name, those of the elements of a struct slice included),
// then that of st, and returns the latter.
func (b metaBuilder) structState(st *objectmeta.Struct, prefix string) StateID {
	fields := make(map[string]StateID, len(st.Fields))
	for _, f := range st.Fields {
		path := prefix + f.Name
		var id StateID
		switch f.Type {
		case objectmeta.String, objectmeta.Time, objectmeta.TimePtr: // a metav1.Time: an RFC 3339 string or null
			id = b.scalar(path, TypeString)
		case objectmeta.Int64, objectmeta.Int64Ptr:
			id = b.scalar(path, TypeInteger|TypeNumber)
		case objectmeta.BoolPtr:
			id = b.scalar(path, TypeBoolean)
		case objectmeta.StringMap:
			id = b.stringMap(path)
		case objectmeta.StringSlice:
			id = b.array(path, b.scalar(path, TypeString))
		case objectmeta.StructSlice:
			id = b.array(path, b.structState(f.Elem, path+"."))
		case objectmeta.RawJSON:
			id = b.state(path, TypeAny, Opaque)
		default:
			panic("schemaauto: ObjectMeta field " + path + " of unknown type")
		}
		fields[f.Name] = id
	}
	return b.object(st.Name, fields)
}
