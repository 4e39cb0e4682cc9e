package objectmeta

// The one table of the fields of metav1.ObjectMeta, OwnerReference and
// ManagedFieldsEntry (k8s.io/apimachinery/pkg/apis/meta/v1/types.go): their
// JSON names, Go types and rendering rules. The decoding here (decode.go),
// the decoder's fast path (decoder/metafast.go) and the automaton's built-in
// ObjectMeta states (schemaauto/objectmeta.go) are all derived from it.

// Type is the kind of Go type a field has; it decides how the field is
// decoded and rendered.
type Type uint8

const (
	String      Type = iota // string or a named string type (types.UID, ...)
	Int64                   // int64, omitted when 0
	Int64Ptr                // *int64, omitted when null
	Time                    // metav1.Time: an RFC 3339 string, omitted when the zero instant
	TimePtr                 // *metav1.Time: omitted when null, null when the zero instant
	BoolPtr                 // *bool, omitted when null
	StringMap               // map[string]string, omitted when empty
	StringSlice             // []string, omitted when empty
	StructSlice             // []Elem, omitted when empty
	RawJSON                 // *FieldsV1: any JSON, opaque, omitted when null
)

// Field is one field of a struct.
type Field struct {
	Name   string // the JSON name (matched case-sensitively)
	Type   Type
	GoType string  // the type a type error on the field names, as encoding/json does
	Always bool    // rendered even when empty (no omitempty): the String fields of OwnerReference
	Elem   *Struct // the element of a StructSlice
}

// Struct is one of the three structs.
type Struct struct {
	Name   string  // the Go name, as a type error names it
	Fields []Field // sorted by JSON name: the order encoding/json renders them in

	// the indexes of Fields by name length: those of names of length n
	// are byLen[lenStart[n]:lenStart[n+1]]
	lenStart []uint8
	byLen    []uint8
}

// The indexes of the fields of ObjectMeta in ObjectMeta.Fields.
const (
	FieldAnnotations = iota
	FieldCreationTimestamp
	FieldDeletionGracePeriodSeconds
	FieldDeletionTimestamp
	FieldFinalizers
	FieldGenerateName
	FieldGeneration
	FieldLabels
	FieldManagedFields
	FieldName
	FieldNamespace
	FieldOwnerReferences
	FieldResourceVersion
	FieldSelfLink
	FieldUID
	NumObjectMetaFields
)

// ObjectMeta is metav1.ObjectMeta.
var ObjectMeta = newStruct("ObjectMeta", []Field{
	FieldAnnotations:                {Name: "annotations", Type: StringMap, GoType: "map[string]string"},
	FieldCreationTimestamp:          {Name: "creationTimestamp", Type: Time, GoType: "string"},
	FieldDeletionGracePeriodSeconds: {Name: "deletionGracePeriodSeconds", Type: Int64Ptr, GoType: "int64"},
	FieldDeletionTimestamp:          {Name: "deletionTimestamp", Type: TimePtr, GoType: "string"},
	FieldFinalizers:                 {Name: "finalizers", Type: StringSlice, GoType: "[]string"},
	FieldGenerateName:               {Name: "generateName", Type: String, GoType: "string"},
	FieldGeneration:                 {Name: "generation", Type: Int64, GoType: "int64"},
	FieldLabels:                     {Name: "labels", Type: StringMap, GoType: "map[string]string"},
	FieldManagedFields:              {Name: "managedFields", Type: StructSlice, GoType: "[]v1.ManagedFieldsEntry", Elem: ManagedFieldsEntry},
	FieldName:                       {Name: "name", Type: String, GoType: "string"},
	FieldNamespace:                  {Name: "namespace", Type: String, GoType: "string"},
	FieldOwnerReferences:            {Name: "ownerReferences", Type: StructSlice, GoType: "[]v1.OwnerReference", Elem: OwnerReference},
	FieldResourceVersion:            {Name: "resourceVersion", Type: String, GoType: "string"},
	FieldSelfLink:                   {Name: "selfLink", Type: String, GoType: "string"},
	FieldUID:                        {Name: "uid", Type: String, GoType: "types.UID"},
})

// OwnerReference is metav1.OwnerReference.
var OwnerReference = newStruct("OwnerReference", ownerReferenceFields[:])

var ownerReferenceFields = [...]Field{
	{Name: "apiVersion", Type: String, GoType: "string", Always: true},
	{Name: "blockOwnerDeletion", Type: BoolPtr, GoType: "bool"},
	{Name: "controller", Type: BoolPtr, GoType: "bool"},
	{Name: "kind", Type: String, GoType: "string", Always: true},
	{Name: "name", Type: String, GoType: "string", Always: true},
	{Name: "uid", Type: String, GoType: "types.UID", Always: true},
}

// NumOwnerReferenceFields is len(OwnerReference.Fields).
const NumOwnerReferenceFields = len(ownerReferenceFields)

// ManagedFieldsEntry is metav1.ManagedFieldsEntry.
var ManagedFieldsEntry = newStruct("ManagedFieldsEntry", []Field{
	{Name: "apiVersion", Type: String, GoType: "string"},
	{Name: "fieldsType", Type: String, GoType: "string"},
	{Name: "fieldsV1", Type: RawJSON},
	{Name: "manager", Type: String, GoType: "string"},
	{Name: "operation", Type: String, GoType: "v1.ManagedFieldsOperationType"},
	{Name: "subresource", Type: String, GoType: "string"},
	{Name: "time", Type: TimePtr, GoType: "string"},
})

func newStruct(name string, fields []Field) *Struct {
	s := &Struct{Name: name, Fields: fields}
	maxLen := 0
	for _, f := range fields {
		maxLen = max(maxLen, len(f.Name))
	}
	s.lenStart = make([]uint8, maxLen+2)
	for n := range maxLen + 1 {
		s.lenStart[n] = uint8(len(s.byLen))
		for i, f := range fields {
			if len(f.Name) == n {
				s.byLen = append(s.byLen, uint8(i))
			}
		}
	}
	s.lenStart[maxLen+1] = uint8(len(s.byLen))
	return s
}

// Index returns the index in s.Fields of the field named name, or -1. It
// does not allocate.
func (s *Struct) Index(name []byte) int { return index(s, name) }

func index[T string | []byte](s *Struct, name T) int {
	n := len(name)
	if n+1 >= len(s.lenStart) {
		return -1
	}
	for _, i := range s.byLen[s.lenStart[n]:s.lenStart[n+1]] {
		if s.Fields[i].Name == string(name) {
			return int(i)
		}
	}
	return -1
}
