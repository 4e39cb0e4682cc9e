package objectmeta

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// FuzzValidate: any bytes never panic Validate (root and embedded) or
// Warnings; metadata that Normalize accepts, rendered as JSON, is never
// reported malformed.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		`{"name":"w"}`, `null`, `{}`, `[1]`, `{"name":5}`, `{"labels":{"a":"b"},"annotations":{"K":"v"}}`,
		`{"ownerReferences":[{"apiVersion":"v1","kind":"Event","name":"n","uid":"u","controller":true},{"controller":true}]}`,
		`{"finalizers":["orphan","foregroundDeletion","a/b/c"],"generateName":"Foo-","generation":-1}`,
		`{"managedFields":[{"operation":"x","manager":"\u0001"}],"name":"a\ud800b\"\\"}`,
		`{"name":"\u212a","namespace":"NS","labels":{"/":""}}`, `{"name":"a"`, `{"name":"\`, `{"labels":[1]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v Validator
		v.Validate(data, ValidateOptions{}, nil)
		v.Validate(data, ValidateOptions{Embedded: true, Path: "spec.e.metadata"}, nil)
		v.Validate(data, ValidateOptions{Scope: ScopeNamespaced}, nil)
		v.Warnings(data, nil)

		val, err := parseJSON(data)
		if err != nil {
			return
		}
		meta, _, err := Normalize(val, quiet)
		if err != nil {
			return
		}
		norm, err := json.Marshal(meta)
		if err != nil {
			return
		}
		for _, o := range []ValidateOptions{{}, {Embedded: true}} {
			for _, e := range v.Validate(norm, o, nil) {
				if strings.Contains(e.Detail, "malformed") {
					t.Fatalf("normalised metadata %s reported malformed: %v", norm, e)
				}
			}
		}
	})
}

// FuzzValidateValid: metadata built to satisfy every rule from the fuzz
// input gives no error, root or embedded, and its finalizers no
// qualified-name warning.
func FuzzValidateValid(f *testing.F) {
	f.Add([]byte("hello world"), uint8(3))
	f.Add([]byte{0, 1, 2, 255, 254, '-', '.', '/'}, uint8(200))
	f.Add([]byte(strings.Repeat("x.-_/", 100)), uint8(17))
	f.Fuzz(func(t *testing.T, data []byte, n uint8) {
		b := builder{data: data}
		meta := map[string]any{}
		if n&1 == 0 {
			meta["name"] = b.subdomain(253)
		} else {
			meta["generateName"] = b.subdomain(200) + "-"
		}
		if n&2 != 0 {
			meta["namespace"] = b.label(63)
		}
		labels, annotations := map[string]any{}, map[string]any{}
		for range int(n % 5) {
			labels[b.qualified()] = b.labelValue()
			annotations[strings.ToUpper(b.qualified())] = string(b.take(40))
		}
		meta["labels"], meta["annotations"] = labels, annotations
		var refs []any
		for i := range int(n % 3) {
			refs = append(refs, map[string]any{"apiVersion": "example.com/v1", "kind": "Event", "name": b.label(10) + "x", "uid": "u", "controller": i == 0})
		}
		if refs != nil {
			meta["ownerReferences"] = refs
		}
		meta["finalizers"] = []any{b.subdomain(20) + "x/" + b.name(), "orphan"}
		meta["managedFields"] = []any{map[string]any{"operation": "Update", "manager": "m" + b.label(100), "fieldsType": "FieldsV1"}}
		raw, err := json.Marshal(meta)
		if err != nil {
			t.Fatal(err)
		}
		var v Validator
		for _, o := range []ValidateOptions{{}, {Scope: ScopeCluster, Path: "x"}, {Embedded: true, Path: "spec.e.metadata"}} {
			if o.Scope == ScopeCluster {
				delete(meta, "namespace")
				raw, _ = json.Marshal(meta)
			}
			if errs := v.Validate(raw, o, nil); len(errs) > 0 {
				t.Fatalf("%s %+v: %q", raw, o, errs.Strings())
			}
		}
		if w := v.Warnings(raw, nil); len(w) > 0 {
			t.Fatalf("%s: warnings %q", raw, w)
		}
	})
}

// builder makes valid names from fuzz bytes.
type builder struct{ data []byte }

func (b *builder) take(n int) []byte {
	n = min(n, len(b.data))
	out := b.data[:n]
	b.data = b.data[n:]
	return out
}

const lowerAlnum = "abcdefghijklmnopqrstuvwxyz0123456789"

func (b *builder) label(max int) string {
	raw := b.take(max)
	if len(raw) == 0 {
		return "a"
	}
	out := make([]byte, len(raw))
	for i, c := range raw {
		out[i] = lowerAlnum[int(c)%len(lowerAlnum)]
		if c%7 == 0 && i > 0 && i < len(raw)-1 {
			out[i] = '-'
		}
	}
	return string(out)
}

func (b *builder) subdomain(max int) string {
	s := b.label(min(max, 63))
	for len(b.data) > 0 && len(b.data)%3 != 0 {
		next := b.label(20)
		if len(s)+1+len(next) > max {
			break
		}
		s += "." + next
	}
	return s
}

func (b *builder) name() string {
	const chars = "ABCXYZabcxyz0189-_."
	raw := b.take(63)
	if len(raw) == 0 {
		return "N"
	}
	out := make([]byte, len(raw))
	for i, c := range raw {
		out[i] = chars[int(c)%len(chars)]
	}
	out[0], out[len(out)-1] = 'A', 'z'
	return string(out)
}

func (b *builder) qualified() string {
	if len(b.data)%2 == 0 {
		return b.subdomain(253) + "/" + b.name()
	}
	return b.name()
}

func (b *builder) labelValue() string {
	if len(b.data)%4 == 0 {
		return ""
	}
	return b.name()
}

// FuzzNames: the hand-written name predicates accept exactly what the
// regular expressions quoted in the reference's messages accept.
func FuzzNames(f *testing.F) {
	for _, s := range []string{"", "a", "a.b", "a..b", "a.-b", "a-.b", "A.b-c.D", "-a", "a-", "A", "a_b", "a.b/c", "é", "a\x00", "1", strings.Repeat("a", 70), "\u212a"} {
		f.Add(s)
	}
	label := regexp.MustCompile(`^` + dns1123LabelFmt + `$`)
	sub := regexp.MustCompile(`^` + dns1123SubdomainFmt + `$`)
	l1035 := regexp.MustCompile(`^` + dns1035LabelFmt + `$`)
	key := regexp.MustCompile(`^` + labelKeyFmt + `$`)
	value := regexp.MustCompile(`^` + labelValueFmt + `$`)
	f.Fuzz(func(t *testing.T, s string) {
		check := func(name string, got, want bool) {
			if got != want {
				t.Fatalf("%s(%q) = %v, the regex says %v", name, s, got, want)
			}
		}
		check("isDNS1123Label", isDNS1123Label(s), label.MatchString(s))
		check("isDNS1123Subdomain", isDNS1123Subdomain(s), sub.MatchString(s))
		check("isDNS1035Label", isDNS1035Label(s), l1035.MatchString(s))
		check("isLabelKeyName", isLabelKeyName(s), key.MatchString(s))
		check("label value", len(IsValidLabelValue(s)) == 0, len(s) <= 63 && value.MatchString(s))
		lower := strings.ToLower(s)
		check("lowerIsDNS1035Label", lowerIsDNS1035Label(s), len(lower) <= 63 && l1035.MatchString(lower))
		check("IsDNS1123Subdomain", len(IsDNS1123Subdomain(s)) == 0, len(s) <= 253 && sub.MatchString(s))
		check("IsDNS1123Label", len(IsDNS1123Label(s)) == 0, len(s) <= 63 && label.MatchString(s))
		// the quick pass's own checks: exact on what they are given,
		// and for a name lower-cased before its check, never valid where
		// the lower-cased name is not
		check("quickSubdomain", quickSubdomain([]byte(s), cLower), len(s) <= 253 && sub.MatchString(s))
		check("quickLabel", quickLabel([]byte(s)), len(s) <= 63 && label.MatchString(s))
		check("quickKeyName", quickKeyName([]byte(s)), len(s) <= 63 && key.MatchString(s))
		if quickSubdomain([]byte(s), cLower|cUpper) {
			check("quickSubdomain, upper case allowed", len(lower) <= 253 && sub.MatchString(lower), true)
		}
		var buf []byte
		check("toLower", string(toLower(&buf, []byte(s))) == lower, true)
		// a qualified name: the reference's own split
		parts := strings.Split(s, "/")
		ok := false
		switch len(parts) {
		case 1:
			ok = len(s) <= 63 && key.MatchString(s)
		case 2:
			ok = len(parts[0]) > 0 && len(parts[0]) <= 253 && sub.MatchString(parts[0]) && len(parts[1]) <= 63 && key.MatchString(parts[1])
		}
		check("IsQualifiedName", len(IsQualifiedName(s)) == 0, ok)
		check("quickQualified", quickQualified([]byte(s), false), ok)
		if quickQualified([]byte(s), true) {
			check("quickQualified, lower-cased", len(IsQualifiedName(lower)) == 0, true)
		}
		if isASCII(s) {
			check("quickQualified, lower-cased (ASCII)", quickQualified([]byte(s), true), len(IsQualifiedName(lower)) == 0)
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
