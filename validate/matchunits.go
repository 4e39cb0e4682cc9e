package validate

// Duration patterns: the spellings of durations the corpus's schemas use
// most, recognised by their exact text (NewMatcher) and matched without
// regexp. Their units are letters and their numbers digits, so a number's
// unit is the whole run of non-digits that follows it: there is never a
// choice to make.

// unitPatterns are the recognised duration patterns.
var unitPatterns = map[string]unitShape{
	// Go-like durations: one or more of digits, an optional fraction, a unit
	`^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$`: {units: []string{"ms", "s", "m", "h"}, fraction: true, repeat: true},
	`^([0-9]+(\.[0-9]+)?(ms|s|m))+$`:   {units: []string{"ms", "s", "m"}, fraction: true, repeat: true},
	`^([0-9]+(\.[0-9]+)?(s|m|h))+$`:    {units: []string{"s", "m", "h"}, fraction: true, repeat: true},
	// Prometheus durations: "0", or integers with units in this order,
	// each at most once (the empty string too)
	`^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$`: {
		units: []string{"y", "w", "d", "h", "m", "s", "ms"}, zero: true, ordered: true},
}

// unitShape is a duration pattern: numbers each followed by a unit.
type unitShape struct {
	units    []string
	fraction bool // a number may have a fraction: digits '.' digits
	repeat   bool // any units in any order, at least one (else: ordered)
	ordered  bool // each unit at most once, in the order of units; none matches ""
	zero     bool // "0" matches
}

// match reports whether s matches the shape.
func (u *unitShape) match(s []byte) bool {
	if u.zero && string(s) == "0" {
		return true
	}
	if len(s) == 0 {
		return u.ordered
	}
	next := 0 // ordered: the first unit still allowed
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i {
			return false
		}
		if u.fraction && j < len(s) && s[j] == '.' {
			k := j + 1
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			if k == j+1 {
				return false
			}
			j = k
		}
		k := j
		for k < len(s) && !isDigit(s[k]) {
			k++
		}
		unit, found := string(s[j:k]), false
		for n := next; n < len(u.units); n++ {
			if u.units[n] == unit {
				found = true
				if u.ordered {
					next = n + 1
				}
				break
			}
		}
		if !found {
			return false
		}
		i = k
	}
	return true
}
