package schemaauto

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
)

// WriteTo writes a readable dump of the automaton: one block per state
// with its number, types, flags and source, then its transitions (property
// → state, * → additionalProperties state, [] → items state) and its
// default. The built-in ObjectMeta states are summarised in one line. It
// implements io.WriterTo.
func (a *Automaton) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	cw := &countWriter{w: bw}
	mode := "prunes"
	if !a.prunes {
		mode = "preserves unknown fields (spec.preserveUnknownFields)"
	}
	fmt.Fprintf(cw, "automaton: %d states, root s%d, ObjectMeta s%d, %s\n", len(a.states), a.root, a.meta, mode)
	// the schema's states; the built-in ObjectMeta states (the same in
	// every automaton, see objectmeta.go) are summarised in one line
	for i := range a.states {
		if !a.builtIn(StateID(i)) {
			a.dumpState(cw, StateID(i))
		}
	}
	fmt.Fprintf(cw, "s%d-s%d built-in metav1.ObjectMeta (root s%d)\n", Keep+1, a.meta, a.meta)
	if err := bw.Flush(); err != nil {
		return cw.n, err
	}
	return cw.n, cw.err
}

// String returns the dump of WriteTo.
func (a *Automaton) String() string {
	var b strings.Builder
	_, _ = a.WriteTo(&b)
	return b.String()
}

func (a *Automaton) dumpState(w io.Writer, id StateID) {
	st := &a.states[id]
	fmt.Fprintf(w, "s%d %s%s  %s\n", id, st.Types, st.Flags.describe(), a.path(id))
	props := append([]Prop(nil), a.props[st.propStart:st.propEnd]...)
	sort.Slice(props, func(i, j int) bool { return props[i].Name < props[j].Name })
	for _, p := range props {
		fmt.Fprintf(w, "    %q → s%d", p.Name, p.Target)
		if p.Role != RoleProperty {
			fmt.Fprintf(w, " (%s", p.Role)
			if p.Declared != NoState {
				fmt.Fprintf(w, ", declared s%d", p.Declared)
			}
			fmt.Fprint(w, ")")
		}
		fmt.Fprintln(w)
	}
	if st.Additional != NoState {
		fmt.Fprintf(w, "    * → s%d\n", st.Additional)
	}
	if st.Items != NoState && (st.Types&TypeArray != 0) && id > Keep {
		fmt.Fprintf(w, "    [] → s%d\n", st.Items)
	}
	if st.Default >= 0 {
		fmt.Fprintf(w, "    default %s\n", a.defaults[st.Default].json)
	}
}

var flagNames = []struct {
	f    Flags
	name string
}{
	{Embedded, "embedded"}, {Preserve, "preserve"}, {Nullable, "nullable"},
	{HasDefault, "default"}, {DefaultsProps, "defaults-props"},
	{DefaultsBelow, "defaults-below"}, {Opaque, "opaque"},
}

func (f Flags) describe() string {
	var b strings.Builder
	for _, n := range flagNames {
		if f&n.f != 0 {
			b.WriteByte(' ')
			b.WriteString(n.name)
		}
	}
	return b.String()
}

// String names a property role.
func (r PropRole) String() string {
	switch r {
	case RoleAPIVersion:
		return "apiVersion"
	case RoleKind:
		return "kind"
	case RoleMetadata:
		return "metadata"
	}
	return "property"
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}
