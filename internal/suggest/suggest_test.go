package suggest

import (
	"testing"

	"github.com/jsonprune/jsonprune/schemaauto"
)

// A Deployment-like schema: the mistakes people make in real manifests.
const deploymentLike = `
type: object
properties:
  spec:
    type: object
    properties:
      replicas: {type: integer}
      paused: {type: boolean}
      selector:
        type: object
        properties:
          matchLabels: {type: object, additionalProperties: {type: string}}
      template:
        type: object
        properties:
          metadata: {type: object, properties: {labels: {type: object, additionalProperties: {type: string}}}}
          spec:
            type: object
            properties:
              nodeSelector: {type: object, additionalProperties: {type: string}}
              serviceAccountName: {type: string}
              containers:
                type: array
                items:
                  type: object
                  properties:
                    name: {type: string}
                    image: {type: string}
                    imagePullPolicy: {type: string}
                    env:
                      type: array
                      items: {type: object, properties: {name: {type: string}, value: {type: string}}}
      ports:
        type: array
        items: {type: object, properties: {port: {type: integer}, targetPort: {type: integer}}}
      toggles:
        type: object
        properties: {"y": {type: string}, "off": {type: string}, "n": {type: string}}
      map:
        type: object
        additionalProperties:
          type: object
          properties: {enabled: {type: boolean}}
`

func TestField(t *testing.T) {
	root, err := schemaauto.ParseSchema([]byte(deploymentLike))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ why, pointer, want string }{
		{"a missing letter", "/spec/replcas", "spec.replicas"},
		{"a transposition", "/spec/repilcas", "spec.replicas"},
		{"case only", "/spec/Replicas", "spec.replicas"},
		{"camel case lost", "/spec/template/spec/serviceaccountname", "spec.template.spec.serviceAccountName"},
		{"in a list item", "/spec/template/spec/containers/0/imagePullPolicey", "spec.template.spec.containers[0].imagePullPolicy"},
		{"in a nested list item", "/spec/template/spec/containers/1/env/0/vaule", "spec.template.spec.containers[1].env[0].value"},
		{"indented too deep", "/spec/template/replicas", "spec.replicas"},
		{"indented too deep in a list", "/spec/ports/0/replicas", "spec.replicas"},
		{"indented too little", "/spec/template/nodeSelector", "spec.template.spec.nodeSelector"},
		{"under the wrong parent", "/spec/template/matchLabels", "spec.selector.matchLabels"},
		{"a map's value", "/spec/map/k/enabeld", "spec.map.k.enabled"},
		{"a YAML 1.1 boolean key", "/spec/toggles/true", "spec.toggles.y"},
		{"two YAML 1.1 boolean keys: no guess", "/spec/toggles/false", ""},
		{"metadata", "/metadata/lables", "metadata.labels"},
		{"metadata case", "/metadata/Namespace", "metadata.namespace"},
		{"root: spec misspelled", "/sepc", "spec"},
		{"root: apiVersion's case", "/apiversion", "apiVersion"},
		{"root: kind transposed", "/knid", "kind"},
		{"root: 4 letters, 2 edits: too far", "/kdni", ""},
		{"nothing near", "/spec/completelyDifferent", ""},
		{"short names are not guessed", "/spec/rep", ""},
		{"not under a declared node", "/status/x", ""},
		{"an escaped pointer", "/spec/a~1b", ""},
	} {
		if got := Field(root, c.pointer); got != c.want {
			t.Errorf("%s: Field(%q) = %q, want %q", c.why, c.pointer, got, c.want)
		}
	}
	if got := Field(nil, "/spec/x"); got != "" {
		t.Errorf("nil schema: %q", got)
	}
}

func TestWord(t *testing.T) {
	kinds := []string{"Certificate", "CertificateRequest", "Issuer", "ClusterIssuer", "Widget", "Gadget"}
	for _, c := range []struct{ in, want string }{
		{"widget", "Widget"},
		{"Widgte", "Widget"},
		{"Certficate", "Certificate"},
		{"Issuer", ""}, // itself is no suggestion
		{"Isuer", "Issuer"},
		{"Fidget", "Widget"}, // one edit; Gadget is two
		{"Zzz", ""},
	} {
		if got := Word(c.in, kinds); got != c.want {
			t.Errorf("Word(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// two candidates equally near: no guess
	if got := Word("abcde", []string{"abcdx", "abcdy"}); got != "" {
		t.Errorf("a tie: %q", got)
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "abc", 0}, {"abc", "acb", 1}, {"kitten", "sitting", 3}, {"ключ", "клюх", 1}} {
		if got := distance(c.a, c.b, 5); got != c.d {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
