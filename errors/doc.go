// Package errors holds jsonprune's finding and error types and their
// formatting: the three path syntaxes the Kubernetes reference uses
// (pruning paths, sigs.k8s.io/json field paths and field.Path), RFC 6901
// JSON Pointers, and the "strict decoding error: ..." list rendering.
//
// It depends on the standard library only.
//
// # The exported API
//
// Findings of a document:
//   - [Finding] and [FindingType] ([UnknownField], [DuplicateField]): one unknown or duplicate
//     field, with its paths and offset; [Finding.Message] is the reference's text.
//   - [StrictError]: the findings of a document as the "strict decoding error: ..." list.
//   - [DecodeError]: a fatal decoding error with its offset and JSON Pointer.
//
// Schema and value errors, as k8s.io/apimachinery's field package prints them:
//   - [FieldPath] and [NewFieldPath]: a field.Path ([FieldPath.Child], [FieldPath.Key],
//     [FieldPath.Index], [FieldPath.Parent], [FieldPath.Root], [FieldPath.String]).
//   - [FieldError] ([FieldError.Body]), [FieldErrorType] ([FieldRequired], [FieldForbidden],
//     [FieldInvalid], [FieldNotSupported], [FieldDuplicate]) and [FieldErrors]
//     ([FieldErrors.Strings]): a field.Error and a list of them.
//   - [Required], [Forbidden], [Invalid], [NotSupported]: the field.Error constructors.
//   - [RenderValue]: a bad value as field.Error renders it.
//
// Positions:
//   - [LineColumn]: the line and column of a byte offset.
package errors
