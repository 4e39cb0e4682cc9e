package objectmeta

import "bytes"

// The quick pass of [Validator.ValidateIndexed]: the usual root metadata
// (a name, a namespace, labels, annotations, finalizers, as the decoder
// writes them: compact, strings without escapes in names and keys) is
// checked in place, each byte looked up once in a class table, without
// unescaping, building messages or calling back. It only says "surely
// valid"; anything else (an error, an unusual form or field) goes to the
// full checks, which give the server's messages.

// byte classes
const (
	cLower      = 1 << iota // a-z, 0-9
	cUpper                  // A-Z
	cDash                   // '-'
	cDot                    // '.'
	cUnderscore             // '_'
)

var class = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = cLower
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = cLower
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = cUpper
	}
	t['-'], t['.'], t['_'] = cDash, cDot, cUnderscore
	return t
}()

// quickSubdomain reports whether s is a DNS-1123 subdomain of at most 253
// bytes, alnum being the classes of its alphanumerics (cLower, or
// cLower|cUpper for a name that is lower-cased before it is checked).
func quickSubdomain(s []byte, alnum uint8) bool {
	n := len(s)
	if n == 0 || n > maxSubdomain || class[s[0]]&alnum == 0 || class[s[n-1]]&alnum == 0 {
		return false
	}
	inner := alnum | cDash // hoisted: the compiler recomputed it every byte
	for i := 1; i < n-1; i++ {
		c := class[s[i]]
		if c&inner != 0 {
			continue
		}
		// a dot between two alphanumerics: no empty label, none that
		// starts or ends with '-'
		if c != cDot || class[s[i-1]]&alnum == 0 || class[s[i+1]]&alnum == 0 {
			return false
		}
	}
	return true
}

// quickNames reports whether a root generateName g and name (both
// unquoted; either may be empty) surely pass: g, when not empty, with a
// trailing '-' masked as the server masks it (maskTrailingDash) is a
// DNS-1123 subdomain, and so is the name, or, when the name is empty and
// g is not, the name the server generates from g (g cut to maxGenerated
// bytes and generatedTail: what Validate checks in its place).
func quickNames(g, name []byte) bool {
	if len(g) == 0 {
		return quickSubdomain(name, cLower) // an empty name is an error
	}
	var buf [maxSubdomain]byte
	masked := g
	if n := len(g); n > 1 && g[n-1] == '-' {
		if n-1 > len(buf) {
			return false
		}
		masked = append(append(buf[:0], g[:n-2]...), 'a')
	}
	if !quickSubdomain(masked, cLower) {
		return false
	}
	if len(name) > 0 {
		return quickSubdomain(name, cLower)
	}
	return quickSubdomain(append(append(buf[:0], g[:min(len(g), maxGenerated)]...), generatedTail...), cLower)
}

// quickLabel reports whether s is a DNS-1123 label of at most 63 bytes.
func quickLabel(s []byte) bool {
	n := len(s)
	if n == 0 || n > maxLabel || class[s[0]]&cLower == 0 || class[s[n-1]]&cLower == 0 {
		return false
	}
	for i := 1; i < n-1; i++ {
		if class[s[i]]&(cLower|cDash) == 0 {
			return false
		}
	}
	return true
}

// quickKeyName reports whether s is a label key's name part (or a
// non-empty label value): 1 to 63 bytes of ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9].
func quickKeyName(s []byte) bool {
	n := len(s)
	if n == 0 || n > maxLabel || class[s[0]]&(cLower|cUpper) == 0 || class[s[n-1]]&(cLower|cUpper) == 0 {
		return false
	}
	for i := 1; i < n-1; i++ {
		if class[s[i]] == 0 {
			return false
		}
	}
	return true
}

// quickQualified reports whether s is a qualified name (an optional
// subdomain prefix and '/', then a key name); lower: s is lower-cased
// before it is checked (annotation keys; only ASCII letters pass here).
// The usual key is read once: its subdomain run (subdomainRun) ends at
// the slash, or at its end when it has none.
func quickQualified(s []byte, lower bool) bool {
	alnum := uint8(cLower)
	if lower {
		alnum |= cUpper
	}
	n := subdomainRun(s, alnum)
	switch {
	case n < len(s) && s[n] == '/':
		return n > 0 && n <= maxSubdomain && class[s[n-1]]&alnum != 0 && quickKeyName(s[n+1:])
	case n == len(s):
		// no slash, and every byte a subdomain's: a key name when short
		// enough and ending in an alphanumeric
		return n > 0 && n <= maxLabel && class[s[n-1]]&(cLower|cUpper) != 0
	}
	// a byte no subdomain has: before a slash the prefix fails; without
	// one the key name decides
	return bytes.IndexByte(s[n:], '/') < 0 && quickKeyName(s)
}

// subdomainRun is the length of the longest start of s that can begin a
// DNS-1123 subdomain whose alphanumerics are of the classes alnum: an
// alphanumeric first (0 if there is none), then alphanumerics, '-', and
// dots each between two alphanumerics.
func subdomainRun(s []byte, alnum uint8) int {
	if len(s) == 0 || class[s[0]]&alnum == 0 {
		return 0
	}
	inner := alnum | cDash
	i := 1
	for ; i < len(s); i++ {
		c := class[s[i]]
		if c&inner != 0 {
			continue
		}
		if c != cDot || class[s[i-1]]&alnum == 0 || i+1 == len(s) || class[s[i+1]]&alnum == 0 {
			break
		}
	}
	return i
}

// quickString returns the content of the string that starts at b[i] (its
// quote) and the index after its closing quote; ok is false if b[i] is no
// quote. Escapes are left as they are.
func quickString(b []byte, i int) (s []byte, end int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	for j := i + 1; ; {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return nil, 0, false
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return b[i+1 : q], q + 1, true
		}
		j = q + 1
	}
}

// quickMap reports whether the compact map of strings at sp (absent, null
// or {"k":"v",...}) passes: keys qualified names (lower-cased first for
// annotations), values label values (labels) or anything (annotations).
func (v *Validator) quickMap(sp span, annotations bool) bool {
	b := v.meta[sp.start:sp.end]
	if len(b) == 0 || string(b) == "null" {
		return true
	}
	if len(b) < 2 || b[0] != '{' {
		return false
	}
	if b[1] == '}' {
		return len(b) == 2
	}
	for i := 1; ; {
		key, end, ok := quickString(b, i)
		if !ok || !quickQualified(key, annotations) || end+1 >= len(b) || b[end] != ':' {
			return false // a key with an escape fails quickQualified
		}
		val, end, ok := quickString(b, end+1)
		if !ok || !annotations && !quickLabelValue(val) {
			return false
		}
		switch {
		case end < len(b) && b[end] == ',':
			i = end + 1
		case end == len(b)-1 && b[end] == '}':
			return true
		default:
			return false
		}
	}
}

// quickLabelValue reports whether a label's value (unquoted) surely
// passes: empty, or a label value.
func quickLabelValue(v []byte) bool { return len(v) == 0 || quickKeyName(v) }

// quickFinalizer reports whether a finalizer (unquoted) surely passes: a
// qualified name, neither orphan nor foregroundDeletion (the full checks
// look at those two).
func quickFinalizer(f []byte) bool {
	return quickQualified(f, false) && string(f) != "orphan" && string(f) != "foregroundDeletion"
}

// quickFinalizers reports whether the compact list of strings at sp
// passes: qualified names, neither orphan nor foregroundDeletion (the
// full checks look at those two).
func (v *Validator) quickFinalizers(sp span) bool {
	b := v.meta[sp.start:sp.end]
	if len(b) == 0 || string(b) == "null" {
		return true
	}
	if len(b) < 2 || b[0] != '[' {
		return false
	}
	if b[1] == ']' {
		return len(b) == 2
	}
	for i := 1; ; {
		f, end, ok := quickString(b, i)
		if !ok || !quickFinalizer(f) {
			return false
		}
		switch {
		case end < len(b) && b[end] == ',':
			i = end + 1
		case end == len(b)-1 && b[end] == ']':
			return true
		default:
			return false
		}
	}
}

// quickValid reports whether the indexed root metadata (v.meta, v.fields,
// their types checked) surely gives no error with ScopeAsFilled.
func (v *Validator) quickValid() bool {
	meta, f := v.meta, &v.fields
	absent := func(i int) bool { return isNullSpan(meta, f[i]) }
	if !absent(FieldOwnerReferences) || !absent(FieldManagedFields) {
		return false
	}
	var names [2][]byte // generateName, name: nil when absent
	for i, field := range [2]int{FieldGenerateName, FieldName} {
		if sp := f[field]; !absent(field) {
			if !isString(meta, sp) {
				return false
			}
			names[i] = meta[sp.start+1 : sp.end-1]
		}
	}
	if !quickNames(names[0], names[1]) {
		return false // an empty name without a generateName is an error
	}
	if ns := f[FieldNamespace]; !absent(FieldNamespace) && (!isString(meta, ns) || ns.end-ns.start > 2 && !quickLabel(meta[ns.start+1:ns.end-1])) {
		return false
	}
	if g := f[FieldGeneration]; g.end > g.start && meta[g.start] == '-' {
		return false
	}
	if a := f[FieldAnnotations]; a.end-a.start > maxAnnotations {
		return false // the total is counted by the full checks
	}
	return v.quickMap(f[FieldLabels], false) && v.quickMap(f[FieldAnnotations], true) && v.quickFinalizers(f[FieldFinalizers])
}
