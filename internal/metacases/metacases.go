// Package metacases holds the root metadata cases that both quick
// passes over it are held to: objectmeta's (Validator.quickValid, on the
// metadata as written) and the decoder's (quickRootMeta, on the metadata
// as its fast path read it). Each case says whether the quick pass
// decides it valid; where it does not, objectmeta's full checks decide.
// Only tests import it.
package metacases

import "strings"

// A Case is root metadata (JSON text) and whether the quick passes call
// it valid.
type Case struct {
	Meta  string
	Quick bool
}

// Quick is the cases both quick passes share.
var Quick = []Case{
	{`{"name":"x","namespace":"y"}`, true},
	{`{"name":"a.b-c.d9","namespace":"ns-1"}`, true},
	{`{"labels":{"app":"web","example.com/Tier":"Front_end.1","k":""},"name":"w"}`, true},
	{`{"annotations":{"Example.COM/Key":"any \"value\" \\ at all","x":""},"name":"w"}`, true},
	{`{"finalizers":["example.com/f","kubernetes"],"name":"w"}`, true},
	// errors, or what the quick pass leaves to the full checks
	{`{}`, false},
	{`{"name":""}`, false},
	{`{"name":"W"}`, false},
	{`{"name":"a..b"}`, false},
	{`{"name":"a.-b"}`, false},
	{`{"name":"-a"}`, false},
	{`{"name":"a-"}`, false},
	{`{"name":"a\u0062"}`, false},
	{`{"name":"` + strings.Repeat("a", 254) + `"}`, false},
	{`{"name":"w","namespace":"a.b"}`, false},
	{`{"name":"w","namespace":"` + strings.Repeat("a", 64) + `"}`, false},
	{`{"name":"w","namespace":""}`, true},
	// generateName: checked masked, and the name generated from it
	// when the name is empty (maskTrailingDash, generatedTail)
	{`{"generateName":"w-"}`, true},
	{`{"generateName":"large-workflow-","namespace":"argo"}`, true},
	{`{"generateName":"w"}`, true},
	{`{"generateName":"a-","name":"b"}`, true},
	{`{"generateName":"a-","name":""}`, true},
	{`{"generateName":"","name":"w"}`, true},
	{`{"generateName":"` + strings.Repeat("a", 60) + `-"}`, true},
	{`{"generateName":"` + strings.Repeat("a", 253) + `-"}`, true},
	{`{"generateName":""}`, false},
	{`{"generateName":"W-"}`, false},
	{`{"generateName":"a.-"}`, false},
	{`{"generateName":"-"}`, false},
	{`{"generateName":"a..b-"}`, false},
	{`{"generateName":"a-","name":"B"}`, false},
	{`{"generateName":"a\u002d"}`, false},
	{`{"generateName":"` + strings.Repeat("a", 254) + `"}`, false},
	{`{"generateName":"` + strings.Repeat("a", 254) + `-"}`, false},
	{`{"generateName":"w-","ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u"}]}`, false},
	{`{"generation":-1,"name":"w"}`, false},
	{`{"labels":{"a/b/c":"v"},"name":"w"}`, false},
	{`{"labels":{"/a":"v"},"name":"w"}`, false},
	{`{"labels":{"a/":"v"},"name":"w"}`, false},
	{`{"labels":{"A.com/a":"v"},"name":"w"}`, false},
	{`{"labels":{"a":"-v"},"name":"w"}`, false},
	{`{"labels":{"a":"` + strings.Repeat("v", 64) + `"},"name":"w"}`, false},
	{`{"labels":{"a":"v\u0041"},"name":"w"}`, false},
	{`{"annotations":{"a b":"v"},"name":"w"}`, false},
	{`{"annotations":{"A.COM/b":"v"},"name":"w"}`, true},
	{`{"annotations":{"a":"` + strings.Repeat("v", 262144) + `"},"name":"w"}`, false},
	{`{"finalizers":["orphan"],"name":"w"}`, false},
	{`{"finalizers":["a/b/c"],"name":"w"}`, false},
}
