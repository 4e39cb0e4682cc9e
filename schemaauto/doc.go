// Package schemaauto turns Kubernetes structural schemas into pruning automata.
//
// It loads CustomResourceDefinitions (apiextensions.k8s.io/v1 and v1beta1,
// JSON or YAML, one or several documents) and bare OpenAPI v3 schemas, checks
// that each schema is structural with the exact messages the Kubernetes API
// server prints, optionally derives the skeleton of a non-structural schema,
// and compiles every version's schema into an immutable [Automaton]: a flat
// table of states that the decoder drives with JSON tokens.
//
// The data flow of the project is schema → automaton (this package) →
// token stream (package decoder) → pruned output and findings (package errors).
// This package knows nothing about tokens.
//
// # The exported API
//
// Loading schemas:
//   - [ParseCRDs]: every CustomResourceDefinition of a JSON or YAML text, as [CRD] values.
//   - [CRD]: a CRD's names, versions and preserveUnknownFields; [CRD.Validate] gives the
//     API server's schema messages, [CRD.Version] finds a version.
//   - [Version]: one entry of spec.versions, with its [Schema].
//   - [ParseSchema]: a bare OpenAPI v3 schema.
//   - [Schema], [SchemaOrBool]: an OpenAPI v3 schema node and its additionalProperties.
//   - [ParseGroupVersion]: splits an apiVersion into group and version.
//
// Checking schemas:
//   - [ValidateStructural]: the structural rules, with the reference's messages and order.
//   - [Skeleton]: the skeleton of a non-structural schema.
//   - [NonStructuralError], [CRDError]: a schema or CRD that does not compile, with its violations.
//
// Compiling:
//   - [Compile]: one schema to an [Automaton]; [Option] ([AllowSkeleton]) controls compilation.
//   - [CompileCRDs]: every served version of a set of CRDs to a [Set].
//   - [Set]: the compiled CRDs; [Set.Lookup], [Set.LookupGVK] and [Set.Resolve] find an
//     [Entry] (one version) by apiVersion and kind or by [GroupVersionKind]; [Set.Entries] lists them.
//   - [PassThrough]: the automaton for objects no CRD serves.
//
// The automaton, read by the decoder:
//   - [Automaton]: the state table; [Automaton.Root], [Automaton.ObjectMeta], [Automaton.Prunes],
//     [Automaton.NumStates], [Automaton.State], [Automaton.Props], [Automaton.Lookup],
//     [Automaton.Node] and [Automaton.Default] read it.
//   - [Automaton.PruneValue] and [Automaton.DefaultValue]: pruning and defaulting on value trees.
//   - [Automaton.WriteTo] and [Automaton.String]: a readable dump.
//   - [StateID] with [NoState], [Drop] and [Keep]: state numbers.
//   - [State]: one state: its [TypeSet] (TypeNull ... TypeObject, TypeAny), its [Flags]
//     ([Preserve], [Embedded], [Nullable], [HasDefault], [DefaultsProps], [Opaque],
//     [DefaultsBelow]) and its transitions.
//   - [Prop] and [PropRole] ([RoleProperty], [RoleAPIVersion], [RoleKind], [RoleMetadata]): a
//     property and what it is.
//   - [NodeInfo]: where a state comes from, for reports.
package schemaauto
