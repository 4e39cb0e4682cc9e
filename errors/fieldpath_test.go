package errors

import "testing"

// TestFieldPath pins the renderings of Path.String in
// k8s.io/apimachinery/pkg/util/validation/field/path.go.
func TestFieldPath(t *testing.T) {
	var nilPath *FieldPath
	for _, tc := range []struct {
		p    *FieldPath
		want string
	}{
		{nilPath, "<nil>"},
		{nilPath.Child("metadata"), "metadata"},
		{NewFieldPath("spec", "embedded").Child("metadata", "foo"), "spec.embedded.metadata.foo"},
		{NewFieldPath("spec").Child("embeddedMap").Key("k.1").Child("metadata"), "spec.embeddedMap[k.1].metadata"},
		{NewFieldPath("spec").Child(""), "spec[]"},
		{NewFieldPath("spec").Key(""), "spec[]"},
		{NewFieldPath("a").Key("a]b"), "a[a]b]"},
		{NewFieldPath("a").Key(`q"`), `a[q"]`},
		{NewFieldPath("a").Index(0).Index(1), "a[0][1]"},
		{nilPath.Index(3), "[3]"},
		{NewFieldPath("openAPIV3Schema").Child("properties").Key("spec").Child("type"), "openAPIV3Schema.properties[spec].type"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
	p := NewFieldPath("a", "b")
	if p.Parent().String() != "a" || p.Root().String() != "a" || nilPath.Parent() != nil {
		t.Error("Parent/Root")
	}
}

// TestFieldError pins field.Error's rendering, value formatting included.
func TestFieldError(t *testing.T) {
	p := NewFieldPath("spec", "x")
	for _, tc := range []struct {
		e    *FieldError
		want string
	}{
		{Required(p, "must be specified"), "spec.x: Required value: must be specified"},
		{Required(p, ""), "spec.x: Required value"},
		{Forbidden(p, "no"), "spec.x: Forbidden: no"},
		{Invalid(p, "s", "bad"), `spec.x: Invalid value: "s": bad`},
		{Invalid(p, true, "bad"), "spec.x: Invalid value: true: bad"},
		{Invalid(p, int64(5), "must be a string"), "spec.x: Invalid value: 5: must be a string"},
		{Invalid(p, 1.5, "d"), "spec.x: Invalid value: 1.5: d"},
		{Invalid(p, nil, "d"), "spec.x: Invalid value: null: d"},
		{Invalid(p, map[string]any{"unk": int64(1), "a": "x"}, "must not have unknown fields"), `spec.x: Invalid value: {"a":"x","unk":1}: must not have unknown fields`},
		{NotSupported(p, "foo", []string{"a", "b"}), `spec.x: Unsupported value: "foo": supported values: "a", "b"`},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
	one := FieldErrors{Forbidden(p, "a")}
	two := FieldErrors{Forbidden(p, "a"), Forbidden(p, "b"), Forbidden(p, "a")}
	if one.Error() != "spec.x: Forbidden: a" || two.Error() != "[spec.x: Forbidden: a, spec.x: Forbidden: b]" {
		t.Errorf("aggregate: %q, %q", one.Error(), two.Error())
	}
}
