package objectmeta

// The quick pass of ValidateIndexed (validatefast.go) for a caller that
// holds the root metadata's fields as it read them, raw, rather than as
// written: the same predicates on the same strings, one field or entry at
// a time, so that nothing is located or read again. Each reports only
// "surely valid"; on false the caller runs ValidateIndexed, which gives
// the server's messages. Quoted values are JSON strings as written
// (escapes left in place: a string with one is not surely valid here).

// QuickName reports whether the quoted root metadata name q surely
// passes: a DNS-1123 subdomain (an empty or absent name is an error).
func QuickName(q []byte) bool {
	return len(q) > 2 && q[0] == '"' && quickSubdomain(q[1:len(q)-1], cLower)
}

// QuickNames is QuickName for root metadata with a generateName: it
// reports whether the quoted generateName gn and the quoted name (nil
// when absent) surely pass, the name the server generates from gn checked
// when the name is empty.
func QuickNames(gn, name []byte) bool {
	if len(gn) < 2 || gn[0] != '"' || name != nil && (len(name) < 2 || name[0] != '"') {
		return false
	}
	var nm []byte
	if name != nil {
		nm = name[1 : len(name)-1]
	}
	return quickNames(gn[1:len(gn)-1], nm)
}

// QuickNamespace reports whether the quoted root namespace q surely
// passes with ScopeAsFilled: empty, or a DNS-1123 label.
func QuickNamespace(q []byte) bool {
	return len(q) >= 2 && q[0] == '"' && (len(q) == 2 || quickLabel(q[1:len(q)-1]))
}

// QuickLabel reports whether a label, its quoted key and value, surely
// passes: a qualified name, and an empty value or a label value.
func QuickLabel(key, value []byte) bool {
	if len(key) < 2 || len(value) < 2 || key[0] != '"' || value[0] != '"' {
		return false
	}
	return quickQualified(key[1:len(key)-1], false) && quickLabelValue(value[1:len(value)-1])
}

// QuickAnnotationKey reports whether an annotation's quoted key surely
// passes (a qualified name once lower-cased); its value is counted in
// the annotations' total size (MaxAnnotationsText).
func QuickAnnotationKey(key []byte) bool {
	return len(key) >= 2 && key[0] == '"' && quickQualified(key[1:len(key)-1], true)
}

// QuickFinalizer reports whether a quoted finalizer surely passes: a
// qualified name, neither orphan nor foregroundDeletion.
func QuickFinalizer(q []byte) bool {
	if len(q) < 2 || q[0] != '"' {
		return false
	}
	return quickFinalizer(q[1 : len(q)-1])
}

// MaxAnnotationsText is the longest compact JSON text of the annotations
// object ({"k":"v",...}) that the quick pass lets through; the total the
// server counts is never longer than the text.
const MaxAnnotationsText = maxAnnotations
