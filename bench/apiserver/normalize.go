package apiserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jsonprune/jsonprune/decoder"
)

func sleep(ms int) <-chan time.Time { return time.After(time.Duration(ms) * time.Millisecond) }

// serverSetMetadata are the metadata members the create path sets itself,
// whatever the body says, and that therefore say nothing about decoding:
//
//   - uid and creationTimestamp: rest.FillObjectMetaSystemFields (a new
//     UUID, the time of the request);
//   - generation: the custom-resource strategy's PrepareForCreate sets 1;
//   - managedFields: the field manager records the request (manager,
//     operation, time, the fields set);
//   - resourceVersion: a dry run never reaches etcd, its answer carries
//     none or the store's placeholder. (A body that sets one is refused
//     by the server before this point: that shows as a status difference,
//     it is not hidden here.)
//   - deletionTimestamp, deletionGracePeriodSeconds and selfLink:
//     BeforeCreate clears them (rest.WipeObjectMetaSystemFields).
var serverSetMetadata = []string{"uid", "creationTimestamp", "generation", "managedFields", "resourceVersion",
	"deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"}

// NormalizeServer removes the server-set metadata (serverSetMetadata) from
// the server's answer object, in place.
func NormalizeServer(v any) {
	md := metadataOf(v)
	for _, k := range serverSetMetadata {
		delete(md, k)
	}
}

// NormalizeJSONPrune applies to jsonprune's object what the server's create
// path does after decoding, in place, each of which is not decoding:
//
//   - the server-set metadata (serverSetMetadata) are removed, as on the
//     server's side;
//   - metadata.namespace: a namespaced resource gets the URL's namespace
//     when the body has none (the harness posts to the body's namespace
//     when it names a valid one, so a body's own namespace is never
//     replaced); a cluster-scoped one loses it (BeforeCreate clears it);
//   - metadata.name: when the body has only generateName, the server
//     makes the name (generateName + 5 random characters); the name is
//     then removed from both sides;
//   - status: with the status subresource, PrepareForCreate drops the
//     body's status (what a create stores and returns has none); without
//     the subresource status is kept and compared like any field.
func NormalizeJSONPrune(v any, c *Case, statusSubresource bool) {
	md := metadataOf(v)
	if md == nil {
		return
	}
	for _, k := range serverSetMetadata {
		delete(md, k)
	}
	if c.Namespace != "" {
		if _, ok := md["namespace"]; !ok {
			md["namespace"] = c.Namespace
		}
	} else {
		delete(md, "namespace")
	}
	if statusSubresource {
		delete(v.(map[string]any), "status")
	}
	dedupOwnerReferences(md)
}

// dedupOwnerReferences does what the create handler does before admission
// (handlers/rest.go dedupOwnerReferencesAndAddWarning): ownerReferences
// entries with a uid seen before are dropped, the first of each uid kept,
// and a Warning says so (not a decoder finding: listed, not compared).
// It is the create path's, not the decoder's.
func dedupOwnerReferences(md map[string]any) {
	refs, ok := md["ownerReferences"].([]any)
	if !ok || len(refs) < 2 {
		return
	}
	seen := map[string]bool{}
	var out []any
	for _, r := range refs {
		m, _ := r.(map[string]any)
		uid, _ := m["uid"].(string)
		if seen[uid] {
			continue
		}
		seen[uid] = true
		out = append(out, r)
	}
	md["ownerReferences"] = out
}

// NormalizeGeneratedName removes metadata.name from the server's object
// when jsonprune's has none but a generateName (see NormalizeJSONPrune).
func NormalizeGeneratedName(srv, jp any) {
	sm, jm := metadataOf(srv), metadataOf(jp)
	if sm == nil || jm == nil {
		return
	}
	if _, ok := jm["name"]; !ok {
		if _, ok := jm["generateName"]; ok {
			delete(sm, "name")
		}
	}
}

func metadataOf(v any) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	md, _ := m["metadata"].(map[string]any)
	return md
}

// storageRoundTrip applies to jsonprune's object (already normalised by
// NormalizeJSONPrune) what the dry-run create does between decoding and
// answering. The dry-run store (registry.DryRunnableStorage.copyInto)
// encodes the object with the storage codec and decodes it back, as a
// real create reads what it wrote: the encoder converts to the storage
// version (the harness's CRDs convert with strategy None, crdForServer:
// apiVersion only) and prunes with that version's schema
// (schemaCoercingConverter); the decoder prunes and defaults with it
// (schemaCoercingDecoder, unstructuredDefaulter); the conversion back to
// the request's version prunes with the request version's schema, without
// defaulting. Visible effects:
//
//   - with the status subresource, the status the create dropped gets its
//     schema default back (flux's status: {default: {observedGeneration:
//     -1}}, gateway-api's conditions);
//   - a request in a version other than the storage version loses the
//     fields the storage version's schema does not have, and gains the
//     storage version's defaults only where the request version's schema
//     has the field.
//
// Both are modelled with jsonprune itself: the object, its apiVersion set
// to the storage version, is decoded again (Warn mode), then, with its
// apiVersion set back, decoded in the request version with defaulting off.
// Pruning and defaulting are idempotent, so for an object in the storage
// version without a dropped status this changes nothing; a defect of
// jsonprune's pruning or defaulting would show in the first decode as
// well.
func storageRoundTrip(v any, c *Case, f *crdFacts) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return v, nil
	}
	reqAV, _ := m["apiVersion"].(string)
	i := strings.LastIndexByte(reqAV, '/')
	if i < 0 || f.storage == "" {
		return v, nil
	}
	storageAV := reqAV[:i+1] + f.storage
	pass := func(v any, av string, opts ...decoder.Option) (any, error) {
		m := v.(map[string]any)
		m["apiVersion"] = av
		b, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		obj, err := f.schemas.Decode(b, append([]decoder.Option{decoder.FieldValidation(decoder.Warn), decoder.AllowInvalidUTF8(true)}, opts...)...)
		if err != nil {
			return nil, err
		}
		out, ok := reparse(obj.JSON).(map[string]any)
		if !ok {
			return nil, fmt.Errorf("not an object: %s", obj.JSON)
		}
		return out, nil
	}
	out, err := pass(m, storageAV)
	if err != nil {
		return nil, err
	}
	if storageAV == reqAV {
		return out, nil
	}
	return pass(out, reqAV, decoder.Defaulting(false))
}
