//go:build race

package validate

// raceEnabled: under the race detector sync.Pool drops items at random, so
// regexp matching allocates and the allocation tests do not apply.
const raceEnabled = true
