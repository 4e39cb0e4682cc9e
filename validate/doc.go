// Package validate checks values against the value keywords of one CRD schema
// node as the Kubernetes API server does on create (kube-openapi's schema
// validator as k8s.io/apiextensions-apiserver runs and converts it), with the
// server's exact error texts. It depends on the standard library and
// jsonprune's errors package only.
//
// # Model
//
// [Compile] turns one [Node] (the keywords as the CRD writes them) into
// immutable [Rules]: the type list, the format the server keeps (below), the
// pattern compiled once (a [Matcher]: the usual shapes by hand, any other
// pattern with only ^ and $ by an automaton on ASCII text, the rest by
// regexp, each with regexp's answer), the bounds with their int64 truncation and range
// checks decided, the enum members and their rendering. Rules know nothing
// about children: the caller walks the value (token by token, or a value tree)
// and knows, at each value, the node that describes it and the validator's
// path string (keys joined with ".", indices "[i]", the root ""; additional
// property keys are appended with "." even at the root, giving ".key"). Errors
// are [github.com/jsonprune/jsonprune/errors.FieldError] values as field.Error prints them.
//
// Every check has a boolean form that does not allocate (Check, CheckType,
// CheckArray, CheckObject, CheckEnum for scalars) and an Append form that
// renders the errors only once a check has failed. An Append form appends
// nothing when its Check form returns true (FuzzCheck holds Check and
// AppendErrors to that). The one value-dependent part of the type check, a
// float64 on an integer node, is Check's: CheckType(Float) passes every float
// there, AppendTypeErrors only the integral ones.
//
// # Which checks run where, and in which order
//
// The server validates one value against one node in this order (reference
// 4.1): type, junctors, string, format, number, array, enum, object. Junctors
// (allOf, anyOf, oneOf, not) are not this package's.
//
// A scalar (null, boolean, number, string) is complete when it is read, so
// [Rules.Check] and [Rules.AppendErrors] run all of its checks in one call:
//
//  1. type: the value's JSON type against the type list, with the format rules
//     of reference 3.4 (a string format lets strings and arrays skip the type
//     check; other values get the format in the message). A float64 passes an
//     integer type when it is within 1e-9 (relative) of an integer in ±(2^53-1).
//  2. string, for strings: maxLength, minLength (both in runes), pattern (a
//     search); the first failure ends this step.
//  3. format, for strings, when the node keeps a string format.
//  4. number, for int64 and float64 values whatever the declared type: the
//     range check of a single-typed integer or number node (int32, int64 or
//     float32 as printed; a pathless error), then multipleOf, minimum, maximum.
//     With an int64 value the bounds and factor are truncated to int64 and
//     compared as integers, unless the bound fails the node's own range check
//     (a fractional bound on an integer node): then a pathless "... boundary
//     value must be of type integer ..." error comes first and the comparison
//     is done in float64.
//  5. enum: with Go conversion semantics; null never matches.
//
// A null value runs only the type check (nullable lets it pass) and enum.
//
// An object or array is checked in pieces, because its children come between
// them in the server's order and a streaming walk sees its size only at the
// end:
//
//   - Array: [Rules.CheckType] / [Rules.AppendTypeErrors] when it opens; the
//     items' errors; then at its end [Rules.CheckArray] /
//     [Rules.AppendArrayErrors] (minItems, maxItems), [Rules.AppendUniqueErrors]
//     (uniqueItems, which the server refuses in CRDs), and last
//     [Rules.CheckEnum] / [Rules.AppendEnumErrors] on the value tree.
//   - Object: type; enum (before the object's own checks); then
//     [Rules.CheckObject] / [Rules.AppendObjectErrors] (minProperties,
//     maxProperties); then, with [Rules.AdditionalPropertiesFalse], one
//     [ForbiddenProperty] per key; then the properties' errors (the server
//     visits keys in Go map order); then [RequiredError] for each key of
//     [Rules.Required] that is absent, in list order.
//
// The server merges the errors of a node and of its subtree de-duplicated by
// their kube-openapi message text (the detail of most errors here; Required,
// TooLong, TooMany and NotSupported have texts of their own). The checks of one
// scalar never repeat a message, so Rules need none; a walker only meets
// repeats when two values of one object print the same path (a key "a.b" of
// additionalProperties beside a property a with a property b), and then the
// server keeps the first.
//
// # Formats
//
// A format is kept only where the server keeps it (reference 3.1): on string,
// untyped and int-or-string nodes the name with every "-" removed must be one of
// bsonobjectid, uri, email, hostname, ipv4, ipv6, cidr, mac, uuid, uuid3,
// uuid4, uuid5, isbn, isbn10, isbn13, creditcard, ssn, hexcolor, rgbcolor,
// byte, password, date, duration, datetime, k8sshortname, k8slongname
// (case-sensitive); integer nodes keep int32 and int64, number nodes float and
// double; other formats are ignored. Messages name the format as written.
// The acceptance rules are this package's own implementations of the rules
// the server's checkers apply (reference 3.2). The uri check calls net/url as the
// server does, and the email check a port of net/mail's address parser
// (internal/mailaddr: net/mail would link package net, and with it cgo);
// both allocate, every other check does not.
//
// # Paths
//
// An error's field is the path with a leading "." removed; the root path ""
// (and ".") gives the field "<nil>", as do the range-check errors, which quote
// no path but name it in their text.
package validate
