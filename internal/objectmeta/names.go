package objectmeta

import "strings"

// The name rules of Kubernetes metadata validation and their messages, as
// k8s.io/apimachinery v0.37.2 words them (pkg/util/validation,
// pkg/api/validate/content, pkg/api/validation). Each rule is written
// without regular expressions; the regexes quoted in the messages are the
// reference's and describe exactly what is accepted.
//
// Two generations of the helpers coexist in the reference and differ in
// one word: the older pkg/util/validation says "must be no more than 253
// characters" (object names, namespaces, embedded kinds) where the newer
// pkg/api/validate/content says "must be no more than 63 bytes" (label keys
// and values, the prefix part of a qualified name). The functions here keep
// that split: [IsDNS1123Subdomain], [IsDNS1123Label] and [IsDNS1035Label]
// are the "characters" ones; [IsQualifiedName] and [IsValidLabelValue] use
// "bytes" throughout, their prefix part included. All lengths are byte
// lengths, whatever the word.
//
// The append* functions append to dst and append nothing for a valid
// value, so they do not allocate on valid input.

// The message parts.
const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1035LabelFmt     = "[a-z]([-a-z0-9]*[a-z0-9])?"
	labelKeyFmt         = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueFmt       = "(" + labelKeyFmt + ")?"

	msgDNS1123Label = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '" + dns1123LabelFmt + "')"
	msgDNS1123Sub   = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '" + dns1123SubdomainFmt + "')"
	msgDNS1035Label = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '" + dns1035LabelFmt + "')"
	msgLabelKeyBody = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '" + labelKeyFmt + "')"
	msgLabelValue   = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '" + labelValueFmt + "')"
	msgNoDots       = "must not contain dots"

	msgQualifiedManySlashes = "a valid label key " + msgLabelKeyBody + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
	msgPrefixEmpty          = "prefix part must be non-empty"
	msgPrefixTooLong        = "prefix part must be no more than 253 bytes"
	msgPrefixSubdomain      = "prefix part " + msgDNS1123Sub
	msgNameEmpty            = "name part must be non-empty"
	msgNameTooLong          = "name part must be no more than 63 bytes"
	msgNameRegex            = "name part " + msgLabelKeyBody

	msg253Chars    = "must be no more than 253 characters"
	msg63Chars     = "must be no more than 63 characters"
	msg63Bytes     = "must be no more than 63 bytes"
	msgMayNotBe1   = "may not be '.'"
	msgMayNotBe2   = "may not be '..'"
	msgNoSlash     = "may not contain '/'"
	msgNoPercent   = "may not contain '%'"
	maxSubdomain   = 253
	maxLabel       = 63
	maxGenerated   = 58 // the apiserver's MaxGeneratedNameLength: 63 - 5 random characters
	generatedTail  = "xxxxx"
	maxAnnotations = 256 << 10
)

type text interface{ ~string | ~[]byte }

func isLowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
func isAlnum(c byte) bool      { return isLowerAlnum(c) || 'A' <= c && c <= 'Z' }

// isDNS1123Label reports whether s matches ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$.
func isDNS1123Label[T text](s T) bool {
	if len(s) == 0 || !isLowerAlnum(s[0]) || !isLowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isLowerAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}

// isDNS1123Subdomain reports whether s is dot-separated DNS-1123 labels.
// It reads s once: a label may not start with '-' (nor be empty), and a '.'
// or the end may not follow '-' or '.'.
func isDNS1123Subdomain[T text](s T) bool {
	prev := byte('.') // the byte before s[i]; the start counts as a '.'
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isLowerAlnum(c):
		case c == '-':
			if prev == '.' {
				return false
			}
		case c == '.':
			if prev == '.' || prev == '-' {
				return false
			}
		default:
			return false
		}
		prev = c
	}
	return prev != '.' && prev != '-'
}

// isDNS1035Label reports whether s matches ^[a-z]([-a-z0-9]*[a-z0-9])?$.
func isDNS1035Label[T text](s T) bool {
	return len(s) > 0 && 'a' <= s[0] && s[0] <= 'z' && isDNS1123Label(s)
}

// isLabelKeyName reports whether s matches
// ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$.
func isLabelKeyName[T text](s T) bool {
	if len(s) == 0 || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func appendDNS1123Subdomain[T text](dst []string, s T) []string {
	if len(s) > maxSubdomain {
		dst = append(dst, msg253Chars)
	}
	if !isDNS1123Subdomain(s) {
		dst = append(dst, msgDNS1123Sub)
	}
	return dst
}

func appendDNS1123Label[T text](dst []string, s T) []string {
	if len(s) > maxLabel {
		dst = append(dst, msg63Chars)
	}
	if !isDNS1123Label(s) {
		if isDNS1123Subdomain(s) {
			dst = append(dst, msgNoDots)
		} else {
			dst = append(dst, msgDNS1123Label)
		}
	}
	return dst
}

func appendDNS1035Label[T text](dst []string, s T) []string {
	if len(s) > maxLabel {
		dst = append(dst, msg63Chars)
	}
	if !isDNS1035Label(s) {
		dst = append(dst, msgDNS1035Label)
	}
	return dst
}

func appendQualifiedName[T text](dst []string, s T) []string {
	slash, slashes := -1, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			if slashes == 0 {
				slash = i
			}
			slashes++
		}
	}
	name := s
	switch slashes {
	case 0:
	case 1:
		prefix := s[:slash]
		name = s[slash+1:]
		if len(prefix) == 0 {
			dst = append(dst, msgPrefixEmpty)
		} else {
			if len(prefix) > maxSubdomain {
				dst = append(dst, msgPrefixTooLong)
			}
			if !isDNS1123Subdomain(prefix) {
				dst = append(dst, msgPrefixSubdomain)
			}
		}
	default:
		return append(dst, msgQualifiedManySlashes)
	}
	if len(name) == 0 {
		dst = append(dst, msgNameEmpty)
	} else if len(name) > maxLabel {
		dst = append(dst, msgNameTooLong)
	}
	if !isLabelKeyName(name) {
		dst = append(dst, msgNameRegex)
	}
	return dst
}

func appendLabelValue[T text](dst []string, s T) []string {
	if len(s) > maxLabel {
		dst = append(dst, msg63Bytes)
	}
	if len(s) > 0 && !isLabelKeyName(s) {
		dst = append(dst, msgLabelValue)
	}
	return dst
}

func appendPathSegmentName[T text](dst []string, s T) []string {
	switch string(s) {
	case ".":
		return append(dst, msgMayNotBe1)
	case "..":
		return append(dst, msgMayNotBe2)
	}
	return appendPathSegmentPrefix(dst, s)
}

func appendPathSegmentPrefix[T text](dst []string, s T) []string {
	if contains(s, '/') {
		dst = append(dst, msgNoSlash)
	}
	if contains(s, '%') {
		dst = append(dst, msgNoPercent)
	}
	return dst
}

func contains[T text](s T, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// IsDNS1123Subdomain returns the reasons s is not a lowercase RFC 1123
// subdomain of at most 253 bytes (k8s.io/apimachinery/pkg/util/validation's
// IsDNS1123Subdomain), nil if it is one. The root metadata.name is checked
// with it.
func IsDNS1123Subdomain(s string) []string { return appendDNS1123Subdomain(nil, s) }

// IsDNS1123Label returns the reasons s is not a lowercase RFC 1123 label of
// at most 63 bytes (pkg/util/validation's IsDNS1123Label), nil if it is
// one; a valid subdomain with dots gets "must not contain dots". Namespaces
// are checked with it.
func IsDNS1123Label(s string) []string { return appendDNS1123Label(nil, s) }

// IsDNS1035Label returns the reasons s is not a DNS-1035 label of at most
// 63 bytes (pkg/util/validation's IsDNS1035Label), nil if it is one. An
// embedded resource's lower-cased kind is checked with it.
func IsDNS1035Label(s string) []string { return appendDNS1035Label(nil, s) }

// IsQualifiedName returns the reasons s is not a qualified name (a label
// key: an optional DNS-1123 subdomain prefix and '/', then a name part of
// 1 to 63 bytes), nil if it is one, as pkg/api/validate/content's
// IsLabelKey words them: several reasons can be returned, except that more
// than one '/' gives the single "a valid label key ..." message. Label
// keys, lower-cased annotation keys and finalizers are checked with it.
func IsQualifiedName(s string) []string { return appendQualifiedName(nil, s) }

// IsValidLabelValue returns the reasons s is not a label value (empty, or a
// name part of at most 63 bytes), nil if it is one.
func IsValidLabelValue(s string) []string { return appendLabelValue(nil, s) }

// IsPathSegmentName returns the reasons s cannot be a name used as a URL
// path segment (embedded resources' metadata.name), nil if it can: "." and
// ".." are refused alone, otherwise every '/' and '%' is refused.
func IsPathSegmentName(s string) []string { return appendPathSegmentName(nil, s) }

// IsPathSegmentPrefix is [IsPathSegmentName] for a prefix (embedded
// resources' metadata.generateName): only '/' and '%' are refused.
func IsPathSegmentPrefix(s string) []string { return appendPathSegmentPrefix(nil, s) }

// maskTrailingDash is what the reference does to a generateName before
// checking it as a DNS-1123 subdomain: when it is longer than one byte and
// ends with '-', its last TWO bytes are replaced by "a" (the reference's
// name[:len(name)-2] + "a"; "ab-" is checked as "aa"). A masked name is
// written to *buf.
func maskTrailingDash(buf *[]byte, name []byte) []byte {
	if len(name) > 1 && name[len(name)-1] == '-' {
		*buf = append(append((*buf)[:0], name[:len(name)-2]...), 'a')
		return *buf
	}
	return name
}

// lowerASCII reports whether s has no upper-case ASCII letter and no
// non-ASCII byte, so that strings.ToLower(s) == s.
func lowerASCII[T text](s T) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}

// toLower is strings.ToLower into buf when s needs it: ASCII letters are
// folded in place; a non-ASCII s goes through strings.ToLower, whose
// Unicode rules can change the length or give ASCII (the Kelvin sign K
// becomes 'k'), exactly as the reference lower-cases annotation keys and
// embedded kinds.
func toLower(buf *[]byte, s []byte) []byte {
	if lowerASCII(s) {
		return s
	}
	for _, c := range s {
		if c >= 0x80 {
			*buf = append((*buf)[:0], strings.ToLower(string(s))...)
			return *buf
		}
	}
	b := (*buf)[:0]
	for _, c := range s {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	*buf = b
	return b
}
