// Package objectmeta reproduces, on decoded JSON value trees, what the
// Kubernetes reference chain does to a custom resource's `metadata`:
//
//   - apiextensions objectmeta.GetObjectMetaWithOptions: the metadata value is
//     re-marshalled (keys sorted) and decoded into metav1.ObjectMeta with
//     sigs.k8s.io/json (case-sensitive, strict when unknown fields are
//     wanted), or, in the storage "drop malformed" mode, key by key;
//   - objectmeta.SetObjectMeta: the decoded ObjectMeta is rendered back with
//     runtime.DefaultUnstructuredConverter.ToUnstructured;
//   - the per-embedded-resource step of objectmeta.CoerceWithOptions.
//
// Values are the trees a JSON decoder produces under the sigs.k8s.io/json
// PreserveInts convention: map[string]any, []any, string, bool, int64,
// float64 and nil (a nil map or slice counts as null). Any other Go type is
// rejected with an error. Inputs are never modified by [Normalize]; outputs
// are freshly allocated.
//
// The behaviour is that of GetObjectMetaWithOptions and SetObjectMeta
// (coerce.go) and CoerceWithOptions (algorithm.go) in
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta, with
// sigs.k8s.io/json decoding into metav1.ObjectMeta
// (k8s.io/apimachinery/pkg/apis/meta/v1/types.go), and was checked against the real
// k8s.io/apiextensions-apiserver v0.37.2 / apimachinery v0.37.2 /
// sigs.k8s.io/json code; no Kubernetes code is used or copied here.
//
// # Normalised output
//
// [Normalize] returns metadata exactly as ToUnstructured renders the decoded
// ObjectMeta:
//
//   - unknown keys are gone;
//   - string fields and generation are omitted when empty/zero;
//   - labels, annotations, finalizers, ownerReferences and managedFields are
//     omitted when null or empty; a null label/annotation value or a null
//     finalizer becomes "";
//   - creationTimestamp is omitted when null or the zero instant;
//     deletionTimestamp and managedFields[i].time are omitted when null and,
//     being pointers, rendered as null when they hold the zero instant
//     ("0001-01-01T00:00:00Z");
//   - timestamps are rendered with time.RFC3339 in UTC (whole seconds,
//     truncated);
//   - deletionGracePeriodSeconds is omitted only when null (0 is kept);
//   - every ownerReferences entry carries apiVersion, kind, name and uid ("" if
//     absent), plus controller/blockOwnerDeletion when not null; a null entry
//     becomes an all-empty entry;
//   - managedFields entries keep their non-empty strings, time and fieldsV1;
//     a null entry becomes {};
//   - fieldsV1 is opaque: it is never inspected for unknown fields and null
//     means unset. Its content is rendered as the converter's JSON round trip
//     does: float64 numbers whose JSON rendering is an integer literal that
//     fits int64 (2.0, 1e3) become int64, everything else is kept;
//   - int64 fields (generation, deletionGracePeriodSeconds) are int64 in the
//     output; integral float64 inputs (2.0, 1e1) are accepted.
//
// Strings are re-encoded as encoding/json does: each invalid UTF-8 byte
// becomes U+FFFD. Keys that collide only after that replacement are merged
// (last in sorted order wins) without the duplicate-field report the
// reference would add; JSON decoders never produce such strings.
//
// # Idempotence
//
// Normalising a normalised value gives it back, except where Kubernetes
// itself is not idempotent: a pointer timestamp holding the zero instant is
// rendered as null (a second pass omits it), a timestamp with a fraction of
// a second after the zero instant renders as the zero instant, and a
// timestamp whose UTC rendering falls outside the years 0000-9999 cannot be
// parsed again.
//
// # The exported API
//
//   - [Normalize] (with [Options]): a metadata value decoded and normalised,
//     its unknown fields; [CoerceEmbedded]: an embedded resource's.
//   - [UnmarshalTypeError], [InvalidValueError]: the reference's errors.
//   - The one table of the fields: [ObjectMeta], [OwnerReference] and
//     [ManagedFieldsEntry] ([Struct], [Struct.Index], [Field], [Type]), the
//     Field* indexes of ObjectMeta's fields and [NumOwnerReferenceFields];
//     the decoder's fast path and schemaauto's built-in states derive from
//     it.
package objectmeta
