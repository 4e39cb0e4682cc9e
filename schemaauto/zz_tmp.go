package schemaauto
func coerceValue(a *Automaton, v any, s StateID) {}
