package objectmeta

import (
	"slices"
	"strings"
	"testing"

	jperrors "github.com/jsonprune/jsonprune/errors"
)

// The reference's texts, written out here independently of names.go.
const (
	tSub      = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
	tLabel    = `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`
	tName     = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`
	tValue    = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`
	tSlashes  = `a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`
	tDNS1035  = `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`
	tMixed    = `may have mixed case, but should otherwise match: `
	tOnlyOne  = `Only one reference can have Controller set to true. Found "true" in references for `
	tFinBoth  = `finalizer orphan and foregroundDeletion cannot be both set`
	tPrefer   = `prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`
	tPreferIn = `prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`
)

func strs(l jperrors.FieldErrors) []string {
	if len(l) == 0 {
		return nil
	}
	return l.Strings()
}

func TestValidate(t *testing.T) {
	long := func(c string, n int) string { return strings.Repeat(c, n) }
	for _, tc := range []struct {
		name string
		meta string
		o    ValidateOptions
		want []string
	}{
		{"valid", `{"name":"w","namespace":"default","labels":{"app":"x","example.com/k":""},"annotations":{"A.b/C":"any thing"},"finalizers":["example.com/f"],"ownerReferences":[{"apiVersion":"example.com/v1","kind":"A","name":"a","uid":"u","controller":true}],"generation":1}`, ValidateOptions{}, nil},
		{"null", `null`, ValidateOptions{}, []string{`metadata.name: Required value: name or generateName is required`}},
		{"META01 name not a subdomain", `{"name":"Foo"}`, ValidateOptions{}, []string{`metadata.name: Invalid value: "Foo": ` + tSub}},
		{"META02 name 254 bytes", `{"name":"` + long("a", 254) + `"}`, ValidateOptions{}, []string{`metadata.name: Invalid value: "` + long("a", 254) + `": must be no more than 253 characters`}},
		{"META02 name 253 bytes", `{"name":"` + long("a", 253) + `"}`, ValidateOptions{}, nil},
		{"META02 name too long and bad", `{"name":"` + long("A", 254) + `"}`, ValidateOptions{}, []string{`metadata.name: Invalid value: "` + long("A", 254) + `": must be no more than 253 characters`, `metadata.name: Invalid value: "` + long("A", 254) + `": ` + tSub}},
		{"META04 no name", `{}`, ValidateOptions{}, []string{`metadata.name: Required value: name or generateName is required`}},
		{"META05 empty name", `{"name":"","labels":{"a":"b"}}`, ValidateOptions{}, []string{`metadata.name: Required value: name or generateName is required`}},
		{"META06 generateName", `{"generateName":"w-"}`, ValidateOptions{}, nil},
		{"META07 generateName Foo-", `{"generateName":"Foo-"}`, ValidateOptions{}, []string{`metadata.generateName: Invalid value: "Foo-": ` + tSub, `metadata.name: Invalid value: "Foo-xxxxx": ` + tSub}},
		{"META08 generateName with name", `{"generateName":"Foo-","name":"w"}`, ValidateOptions{}, []string{`metadata.generateName: Invalid value: "Foo-": ` + tSub}},
		{"generateName mask drops two bytes", `{"generateName":"a.-"}`, ValidateOptions{}, []string{`metadata.name: Invalid value: "a.-xxxxx": ` + tSub}},
		{"generateName single dash", `{"generateName":"-"}`, ValidateOptions{}, []string{`metadata.generateName: Invalid value: "-": ` + tSub, `metadata.name: Invalid value: "-xxxxx": ` + tSub}},
		{"generateName cut to 58", `{"generateName":"` + long("a", 70) + `"}`, ValidateOptions{}, nil},
		{"generateName 254", `{"generateName":"` + long("a", 254) + `"}`, ValidateOptions{}, []string{`metadata.generateName: Invalid value: "` + long("a", 254) + `": must be no more than 253 characters`}},
		{"generateName 255 trailing dash", `{"generateName":"` + long("a", 254) + `-"}`, ValidateOptions{}, []string{`metadata.generateName: Invalid value: "` + long("a", 254) + `-": must be no more than 253 characters`}},
		{"META09 label key", `{"name":"w","labels":{"-bad":"v"}}`, ValidateOptions{}, []string{`metadata.labels: Invalid value: "-bad": ` + tName}},
		{"META10 label value 64 bytes", `{"name":"w","labels":{"k":"` + long("v", 64) + `"}}`, ValidateOptions{}, []string{`metadata.labels: Invalid value: "` + long("v", 64) + `": must be no more than 63 bytes`}},
		{"duplicates dropped", `{"name":"w","labels":{"a":"-","b":"-","c":"-"},"finalizers":["-x","-x","ok"],"ownerReferences":[{"apiVersion":"v1","controller":true,"kind":"A","name":"a","uid":"1"},{"apiVersion":"v1","controller":true,"kind":"B","name":"b","uid":"2"},{"apiVersion":"v1","controller":true,"kind":"B","name":"b","uid":"2"}]}`, ValidateOptions{}, []string{
			`metadata.labels: Invalid value: "-": ` + tValue,
			`metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"A","name":"a","uid":"1","controller":true},{"apiVersion":"v1","kind":"B","name":"b","uid":"2","controller":true},{"apiVersion":"v1","kind":"B","name":"b","uid":"2","controller":true}]: ` + tOnlyOne + `A/a and B/b`,
			`metadata.finalizers: Invalid value: "-x": ` + tName,
		}},
		{"label value bad", `{"name":"w","labels":{"k":"-x-","k2":"a b"}}`, ValidateOptions{}, []string{`metadata.labels: Invalid value: "-x-": ` + tValue, `metadata.labels: Invalid value: "a b": ` + tValue}},
		{"META11 label prefix 254", `{"name":"w","labels":{"` + long("p", 254) + `/n":""}}`, ValidateOptions{}, []string{`metadata.labels: Invalid value: "` + long("p", 254) + `/n": prefix part must be no more than 253 bytes`}},
		{"label key and value", `{"name":"w","labels":{"a/b/c":"-"}}`, ValidateOptions{}, []string{`metadata.labels: Invalid value: "a/b/c": ` + tSlashes, `metadata.labels: Invalid value: "-": ` + tValue}},
		{"label key parts", `{"name":"w","labels":{"/":"","P_/` + long("n", 64) + `":"","x/":""}}`, ValidateOptions{}, []string{
			`metadata.labels: Invalid value: "/": prefix part must be non-empty`,
			`metadata.labels: Invalid value: "/": name part must be non-empty`,
			`metadata.labels: Invalid value: "/": ` + tName,
			`metadata.labels: Invalid value: "P_/` + long("n", 64) + `": prefix part ` + tSub,
			`metadata.labels: Invalid value: "P_/` + long("n", 64) + `": name part must be no more than 63 bytes`,
			`metadata.labels: Invalid value: "x/": name part must be non-empty`,
			`metadata.labels: Invalid value: "x/": ` + tName,
		}},
		{"META12 annotation key", `{"name":"w","annotations":{"a b":"v","Upper.Case/OK":"v"}}`, ValidateOptions{}, []string{`metadata.annotations: Invalid value: "a b": ` + tName}},
		{"annotation key lower-cased by Unicode rules", `{"name":"w","annotations":{"\u212a":"v","\u00c4":"v"}}`, ValidateOptions{}, []string{`metadata.annotations: Invalid value: "Ä": ` + tName}},
		{"META13 annotations 262145 bytes", `{"name":"w","annotations":{"a":"` + long("v", 262144) + `"}}`, ValidateOptions{}, []string{`metadata.annotations: Too long: may not be more than 262144 bytes`}},
		{"annotations 262144 bytes", `{"name":"w","annotations":{"a":"` + long("v", 262143) + `"}}`, ValidateOptions{}, nil},
		{"META14 finalizer", `{"name":"w","finalizers":["a/b/c","ok"]}`, ValidateOptions{}, []string{`metadata.finalizers: Invalid value: "a/b/c": ` + tSlashes}},
		{"META16 orphan and foregroundDeletion", `{"name":"w","finalizers":["orphan","foregroundDeletion"]}`, ValidateOptions{}, []string{`metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: ` + tFinBoth}},
		{"META17 ownerReference empty", `{"name":"w","ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":""}]}`, ValidateOptions{}, []string{
			`metadata.ownerReferences[0].apiVersion: Required value: must not be empty`,
			`metadata.ownerReferences[0].kind: Required value: must not be empty`,
			`metadata.ownerReferences[0].name: Required value: must not be empty`,
			`metadata.ownerReferences[0].uid: Required value: must not be empty`,
		}},
		{"META19 ownerReference apiVersion", `{"name":"w","ownerReferences":[{"apiVersion":"a/b/c","kind":"K","name":"n","uid":"u"},{"apiVersion":"g/","kind":"K","name":"n","uid":"u"},{"apiVersion":"/","kind":"K","name":"n","uid":"u"},{"apiVersion":"/v1","kind":"K","name":"n","uid":"u"}]}`, ValidateOptions{}, []string{
			`metadata.ownerReferences[0].apiVersion: Invalid value: "a/b/c": must be <group>/<version> or <version>`,
			`metadata.ownerReferences[1].apiVersion: Invalid value: "g/": must be <group>/<version> or <version>`,
			`metadata.ownerReferences[2].apiVersion: Invalid value: "/": must be <group>/<version> or <version>`,
		}},
		{"ownerReference v1 Event", `{"name":"w","ownerReferences":[{"apiVersion":"v1","kind":"A","name":"n","uid":"u1"},{"apiVersion":"v1","kind":"Event","name":"n","uid":"u2"},{"apiVersion":"/v1","blockOwnerDeletion":false,"controller":true,"kind":"Event","name":"<n>","uid":"u3"}]}`, ValidateOptions{}, []string{
			`metadata.ownerReferences[1]: Invalid value: {"apiVersion":"v1","kind":"Event","name":"n","uid":"u2"}: /v1, Kind=Event is disallowed from being an owner`,
			`metadata.ownerReferences[2]: Invalid value: {"apiVersion":"/v1","kind":"Event","name":"\u003cn\u003e","uid":"u3","controller":true,"blockOwnerDeletion":false}: /v1, Kind=Event is disallowed from being an owner`,
		}},
		{"META18 two controllers", `{"name":"w","ownerReferences":[{"apiVersion":"v1","controller":true,"kind":"A","name":"a","uid":"1"},{"apiVersion":"v1","controller":false,"kind":"C","name":"c","uid":"3"},{"apiVersion":"v1","controller":true,"kind":"B","name":"b","uid":"2"},{"apiVersion":"v1","controller":true,"kind":"D","name":"","uid":"4"}]}`, ValidateOptions{}, []string{
			`metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"A","name":"a","uid":"1","controller":true},{"apiVersion":"v1","kind":"C","name":"c","uid":"3","controller":false},{"apiVersion":"v1","kind":"B","name":"b","uid":"2","controller":true},{"apiVersion":"v1","kind":"D","name":"","uid":"4","controller":true}]: ` + tOnlyOne + `A/a and B/b`,
			`metadata.ownerReferences[3].name: Required value: must not be empty`,
			`metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"A","name":"a","uid":"1","controller":true},{"apiVersion":"v1","kind":"C","name":"c","uid":"3","controller":false},{"apiVersion":"v1","kind":"B","name":"b","uid":"2","controller":true},{"apiVersion":"v1","kind":"D","name":"","uid":"4","controller":true}]: ` + tOnlyOne + `A/a and D/`,
		}},
		{"generation negative", `{"name":"w","generation":-1}`, ValidateOptions{}, []string{`metadata.generation: Invalid value: -1: must be greater than or equal to 0`}},
		{"namespace label", `{"name":"w","namespace":"a.b"}`, ValidateOptions{}, []string{`metadata.namespace: Invalid value: "a.b": must not contain dots`}},
		{"namespace 64", `{"name":"w","namespace":"` + long("n", 64) + `"}`, ValidateOptions{}, []string{`metadata.namespace: Invalid value: "` + long("n", 64) + `": must be no more than 63 characters`}},
		{"namespace required", `{"name":"w"}`, ValidateOptions{Scope: ScopeNamespaced}, []string{`metadata.namespace: Required value`}},
		{"namespace forbidden", `{"name":"w","namespace":"NS"}`, ValidateOptions{Scope: ScopeCluster}, []string{`metadata.namespace: Forbidden: not allowed on this type`}},
		{"managedFields", `{"name":"w","managedFields":[{},{"operation":"Apply","fieldsType":"FieldsV2","manager":"m\u0001\u00e9\u0007"},{"operation":"<x>","manager":"` + long("m", 129) + `","subresource":"` + long("s", 257) + `"}]}`, ValidateOptions{}, []string{
			`metadata.managedFields[0].operation: Required value: must not be empty`,
			`metadata.managedFields[1].fieldsType: Invalid value: "FieldsV2": must be ` + "`FieldsV1`",
			`metadata.managedFields[1].manager: Invalid value: "m\x01é\a": invalid character U+0001 (at position 1)`,
			`metadata.managedFields[1].manager: Invalid value: "m\x01é\a": invalid character U+0007 (at position 4)`,
			`metadata.managedFields[2].operation: Unsupported value: "\u003cx\u003e": supported values: "Apply", "Update"`,
			`metadata.managedFields[2].manager: Too long: may not be more than 128 bytes`,
			`metadata.managedFields[2].subresource: Too long: may not be more than 256 bytes`,
		}},
		{"order of the checks", `{"annotations":{"a b":""},"finalizers":["a//"],"generateName":"X","generation":-2,"labels":{"k":"-"},"managedFields":[{"operation":"Update"},{}],"namespace":"N","ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":""}]}`, ValidateOptions{}, []string{
			`metadata.generateName: Invalid value: "X": ` + tSub,
			`metadata.name: Invalid value: "Xxxxxx": ` + tSub,
			`metadata.namespace: Invalid value: "N": ` + tLabel,
			`metadata.generation: Invalid value: -2: must be greater than or equal to 0`,
			`metadata.labels: Invalid value: "-": ` + tValue,
			`metadata.annotations: Invalid value: "a b": ` + tName,
			`metadata.ownerReferences[0].uid: Required value: must not be empty`,
			`metadata.finalizers: Invalid value: "a//": ` + tSlashes,
			`metadata.managedFields[1].operation: Required value: must not be empty`,
		}},
		{"escaped strings", `{"name":"a\u002fb\"","labels":{"k\u0020":"v"}}`, ValidateOptions{}, []string{`metadata.name: Invalid value: "a/b\"": ` + tSub, `metadata.labels: Invalid value: "k ": ` + tName}},

		// embedded (5.2)
		{"EMB09 embedded Foo", `{"name":"Foo","generateName":"Foo-"}`, ValidateOptions{Embedded: true, Path: "spec.e.metadata"}, nil},
		{"EMB10 embedded slash", `{"name":"a/b"}`, ValidateOptions{Embedded: true, Path: "spec.e.metadata"}, []string{`spec.e.metadata.name: Invalid value: "a/b": may not contain '/'`}},
		{"EMB11 embedded dot", `{"name":"."}`, ValidateOptions{Embedded: true, Path: "spec.e.metadata"}, []string{`spec.e.metadata.name: Invalid value: ".": may not be '.'`}},
		{"EMB11 embedded dotdot", `{"name":".."}`, ValidateOptions{Embedded: true, Path: "spec.e.metadata"}, []string{`spec.e.metadata.name: Invalid value: "..": may not be '..'`}},
		{"EMB12 embedded no name", `{"labels":{"a":"b"}}`, ValidateOptions{Embedded: true, Path: "spec.e.metadata"}, nil},
		{"EMB13 embedded namespace", `{"name":"n","namespace":"NS_"}`, ValidateOptions{Embedded: true, Path: "spec.e.metadata", Scope: ScopeCluster}, []string{`spec.e.metadata.namespace: Invalid value: "NS_": ` + tLabel}},
		{"EMB15 embedded generation", `{"generation":-1}`, ValidateOptions{Embedded: true, Path: "spec.e.metadata"}, []string{`spec.e.metadata.generation: Invalid value: -1: must be greater than or equal to 0`}},
		{"EMB16 embedded generateName", `{"generateName":"a/%/"}`, ValidateOptions{Embedded: true, Path: "spec.emap[k.1].metadata"}, []string{`spec.emap[k.1].metadata.generateName: Invalid value: "a/%/": may not contain '/'`, `spec.emap[k.1].metadata.generateName: Invalid value: "a/%/": may not contain '%'`}},
		{"EMB17 embedded percent", `{"name":"a%"}`, ValidateOptions{Embedded: true, Path: "spec.e.metadata"}, []string{`spec.e.metadata.name: Invalid value: "a%": may not contain '%'`}},
		{"embedded labels", `{"labels":{"-":"x"}}`, ValidateOptions{Embedded: true, Path: "spec.l[1].metadata"}, []string{`spec.l[1].metadata.labels: Invalid value: "-": ` + tName}},

		// malformed input
		{"malformed", `[1]`, ValidateOptions{}, []string{`metadata: Invalid value: malformed metadata: not a JSON object`}},
		{"malformed name", `{"name":5}`, ValidateOptions{}, []string{`metadata: Invalid value: malformed metadata: name has the wrong type`}},
		{"malformed empty", ` `, ValidateOptions{}, []string{`metadata: Invalid value: malformed metadata: not one JSON value`}},
		{"malformed nul", `nul`, ValidateOptions{}, []string{`metadata: Invalid value: malformed metadata: not a JSON object`}},
		{"malformed string", `{"name":"a\"}`, ValidateOptions{}, []string{`metadata: Invalid value: malformed metadata: not a JSON object`}},
		{"escaped backslash before quote", `{"name":"a\\"}`, ValidateOptions{}, []string{`metadata.name: Invalid value: "a\\": ` + tSub}},
		{"malformed trailing", `{} x`, ValidateOptions{}, []string{`metadata: Invalid value: malformed metadata: not one JSON value`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v Validator
			got := strs(v.Validate([]byte(tc.meta), tc.o, nil))
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			// reusing the validator gives the same
			again := strs(v.Validate([]byte(tc.meta), tc.o, nil))
			if !slices.Equal(got, again) {
				t.Errorf("second run differs: %q", again)
			}
			// with the fields located by the caller: the same, for
			// metadata that is an object
			var ix Validator
			if ix.index([]byte(tc.meta)) == "" {
				var fs FieldSpans
				for i, sp := range ix.fields {
					fs[i] = [2]int{sp.start, sp.end}
				}
				if indexed := strs(v.ValidateIndexed([]byte(tc.meta), &fs, tc.o, nil)); !slices.Equal(got, indexed) {
					t.Errorf("ValidateIndexed differs: %q", indexed)
				}
			}
		})
	}
}

func TestValidateErrorTypes(t *testing.T) {
	var v Validator
	l := v.Validate([]byte(`{"annotations":{"a":"`+strings.Repeat("v", 262144)+`"},"managedFields":[{"operation":"x"}],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":""}]}`), ValidateOptions{}, nil)
	var types []jperrors.FieldErrorType
	for _, e := range l {
		types = append(types, e.Type)
	}
	want := []jperrors.FieldErrorType{jperrors.FieldRequired, jperrors.FieldTooLong, jperrors.FieldRequired, jperrors.FieldNotSupported}
	if !slices.Equal(types, want) {
		t.Errorf("types %v, want %v", types, want)
	}
}

func TestWarnings(t *testing.T) {
	var v Validator
	// META15
	got := v.Warnings([]byte(`{"name":"w","finalizers":["cleanup","a.b","orphan","kubernetes","foregroundDeletion","example.com/f","cleanup"]}`), nil)
	want := []string{
		`metadata.finalizers: "a.b": ` + tPreferIn,
		`metadata.finalizers: "cleanup": ` + tPrefer,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	got = v.Warnings([]byte(`{"finalizers":["a/b/c","-x"]}`), nil)
	want = []string{
		`metadata.finalizers: "-x": ` + tName,
		`metadata.finalizers: "-x": ` + tPrefer,
		`metadata.finalizers: "a/b/c": ` + tSlashes,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := v.Warnings([]byte(`{"name":"w"}`), nil); got != nil {
		t.Errorf("no finalizers: %q", got)
	}
}

func TestValidateTypeMeta(t *testing.T) {
	for _, tc := range []struct {
		name             string
		kind, apiVersion string
		want             []string
	}{
		{"ok", "Widget", "example.com/v1", nil},
		{"META23 kind case", "widget", "example.com/v1", []string{`kind: Invalid value: "widget": must be Widget`}},
		{"both", "", "example.com/v2", []string{`kind: Invalid value: "": must be Widget`, `apiVersion: Invalid value: "example.com/v2": must be example.com/v1`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strs(ValidateTypeMeta(tc.kind, tc.apiVersion, "Widget", "example.com/v1", nil))
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestValidateEmbeddedTypeMeta(t *testing.T) {
	for _, tc := range []struct {
		name    string
		path    string
		hasAV   bool
		av      string
		hasKind bool
		kind    string
		want    []string
	}{
		{"ok", "spec.e", true, "v1", true, "ConfigMap", nil},
		{"ok group", "spec.e", true, "a/v1", true, "Foo-Bar", nil},
		{"EMB02 EMB03 both absent", "spec.e", false, "", false, "", []string{`spec.e.apiVersion: Required value`, `spec.e.kind: Required value`}},
		{"EMB03 kind absent", "spec.e", true, "v1", false, "", []string{`spec.e.kind: Required value`}},
		{"empty", "spec.e", true, "", true, "", []string{`spec.e.apiVersion: Invalid value: "": must not be empty`, `spec.e.kind: Invalid value: "": must not be empty`}},
		{"EMB07 apiVersion", "spec.e", true, "a/b/c", true, "K", []string{`spec.e.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`}},
		{"slash apiVersion", "spec.e", true, "/", true, "K", nil},
		{"EMB05 kind", "spec.e", true, "v1", true, "Foo_Bar", []string{`spec.e.kind: Invalid value: "Foo_Bar": ` + tMixed + tDNS1035}},
		{"EMB06 kind digit", "spec.e", true, "v1", true, "1Foo", []string{`spec.e.kind: Invalid value: "1Foo": ` + tMixed + tDNS1035}},
		{"kind long", "spec.e", true, "v1", true, strings.Repeat("K", 64), []string{`spec.e.kind: Invalid value: "` + strings.Repeat("K", 64) + `": ` + tMixed + `must be no more than 63 characters`}},
		{"kind long and bad", "spec.e", true, "v1", true, strings.Repeat("K", 63) + "_", []string{`spec.e.kind: Invalid value: "` + strings.Repeat("K", 63) + `_": ` + tMixed + `must be no more than 63 characters,` + tDNS1035}},
		{"kind Kelvin", "spec.e", true, "v1", true, "\u212a", nil},
		{"EMB20 path", "spec.list[1]", false, "", true, "K", []string{`spec.list[1].apiVersion: Required value`}},
		{"EMB21 path", "spec.emap[k.1]", true, "v1", false, "", []string{`spec.emap[k.1].kind: Required value`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strs(ValidateEmbeddedTypeMeta(tc.path, tc.hasAV, tc.av, tc.hasKind, tc.kind, nil))
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNameHelpers(t *testing.T) {
	check := func(name string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
	check("subdomain ok", IsDNS1123Subdomain("a.b-c.0"), nil)
	check("subdomain empty", IsDNS1123Subdomain(""), []string{tSub})
	check("subdomain a..b", IsDNS1123Subdomain("a..b"), []string{tSub})
	check("subdomain -a", IsDNS1123Subdomain("a.-a"), []string{tSub})
	check("label dots", IsDNS1123Label("a.b"), []string{"must not contain dots"})
	check("label bad", IsDNS1123Label("a_b"), []string{tLabel})
	check("label 64 dots", IsDNS1123Label(strings.Repeat("a.", 32)+"a"), []string{"must be no more than 63 characters", "must not contain dots"})
	check("1035 ok", IsDNS1035Label("a-1"), nil)
	check("1035 digit", IsDNS1035Label("1a"), []string{tDNS1035})
	check("qualified ok", IsQualifiedName("example.com/My_Name.1"), nil)
	check("qualified prefix 254 bad", IsQualifiedName(strings.Repeat("A", 254)+"/n"), []string{"prefix part must be no more than 253 bytes", "prefix part " + tSub})
	check("qualified empty", IsQualifiedName(""), []string{"name part must be non-empty", tName})
	check("qualified 64", IsQualifiedName(strings.Repeat("a", 64)), []string{"name part must be no more than 63 bytes"})
	check("value ok", IsValidLabelValue(""), nil)
	check("value 64 bad", IsValidLabelValue(strings.Repeat("a", 63)+"-"), []string{"must be no more than 63 bytes", tValue})
	check("segment ok", IsPathSegmentName("Foo..bar"), nil)
	check("segment both", IsPathSegmentName("a/%"), []string{"may not contain '/'", "may not contain '%'"})
	check("segment prefix dot", IsPathSegmentPrefix("."), nil)
}

// TestValidateAllocs: validating typical valid metadata allocates nothing
// once the Validator has been used.
func TestValidateAllocs(t *testing.T) {
	meta := []byte(`{"annotations":{"Example.com/Note":"free text","kubectl.kubernetes.io/last-applied-configuration":"{\"a\":\"b\"}"},"finalizers":["example.com/cleanup"],"generateName":"w-","generation":1,"labels":{"app.kubernetes.io/name":"widget","tier":"backend"},"managedFields":[{"apiVersion":"example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}},"manager":"kubectl","operation":"Update","time":"2026-01-01T00:00:00Z"}],"name":"w-1","namespace":"default","ownerReferences":[{"apiVersion":"apps/v1","blockOwnerDeletion":true,"controller":true,"kind":"Deployment","name":"d","uid":"0a1b"},{"apiVersion":"v1","kind":"ConfigMap","name":"c","uid":"2c3d"}],"resourceVersion":"5","uid":"u"}`)
	gen := []byte(`{"generateName":"Widget-gen-","labels":{"a":"b"}}`)
	var v Validator
	var dst jperrors.FieldErrors
	for _, o := range []ValidateOptions{{}, {Embedded: true, Path: "spec.e.metadata"}} {
		if got := v.Validate(meta, o, dst[:0]); len(got) != 0 {
			t.Fatalf("errors on valid metadata: %q", got.Strings())
		}
		n := testing.AllocsPerRun(100, func() { dst = v.Validate(meta, o, dst[:0]) })
		if n != 0 {
			t.Errorf("%+v: %v allocations per Validate", o, n)
		}
	}
	v.Validate(gen, ValidateOptions{Embedded: true}, nil)
	if n := testing.AllocsPerRun(100, func() { dst = v.Validate(gen, ValidateOptions{Embedded: true}, dst[:0]) }); n != 0 {
		t.Errorf("generateName: %v allocations per Validate", n)
	}
	var w []string
	w = v.Warnings(meta, w[:0])
	if n := testing.AllocsPerRun(100, func() { w = v.Warnings(meta, w[:0]) }); n != 0 || len(w) != 0 {
		t.Errorf("Warnings: %v allocations, %q", n, w)
	}
}

func TestValidateEmbeddedTypeMetaAllocs(t *testing.T) {
	var dst jperrors.FieldErrors
	if n := testing.AllocsPerRun(100, func() { dst = ValidateEmbeddedTypeMeta("spec.e", true, "apps/v1", true, "ConfigMap", dst[:0]) }); n != 0 || len(dst) != 0 {
		t.Errorf("%v allocations, %q", n, dst.Strings())
	}
}

func BenchmarkValidate(b *testing.B) {
	meta := []byte(`{"annotations":{"Example.com/Note":"free text","kubectl.kubernetes.io/last-applied-configuration":"{\"a\":\"b\"}"},"finalizers":["example.com/cleanup"],"generation":1,"labels":{"app.kubernetes.io/name":"widget","tier":"backend"},"name":"w-1","namespace":"default","ownerReferences":[{"apiVersion":"apps/v1","blockOwnerDeletion":true,"controller":true,"kind":"Deployment","name":"d","uid":"0a1b"}],"resourceVersion":"5","uid":"u"}`)
	var v Validator
	var dst jperrors.FieldErrors
	b.SetBytes(int64(len(meta)))
	b.ReportAllocs()
	for b.Loop() {
		dst = v.Validate(meta, ValidateOptions{}, dst[:0])
	}
	if len(dst) > 0 {
		b.Fatal(dst.Strings())
	}
}
