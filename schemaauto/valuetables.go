package schemaauto

// ValueTables is what a validating walker reads of an automaton's
// ValueChecks on its hot path, taken once per automaton: the per-state
// records, every property's PropFlags entry (indexed as the automaton's
// properties: PropFlags(s) is Props[State(s).PropRange()]), and whether the
// schema declares the root metadata's name or generateName (DeclaredName).
type ValueTables struct {
	Checks   []ValueCheck
	Props    []uint32
	DeclName bool
}

// ValueTables returns the automaton's ValueTables (derived once, as
// ValueChecks, and shared: they must not be modified).
func (a *Automaton) ValueTables() *ValueTables {
	return &a.valueChecks().tables
}

// PropRange returns the range of the state's properties among the
// automaton's: Props(s) are the properties [start, end) of the automaton,
// in the order of ValueTables.Props.
func (st *State) PropRange() (start, end int) {
	return int(st.propStart), int(st.propEnd)
}
