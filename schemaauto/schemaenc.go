package schemaauto

// This file is the binary encoding of a CRD's version schemas, which the
// Cache keeps beside a compiled CRD (compiled.go) for Entry.Schema: a run
// that needs the schema of a CRD it read compiled (the suggestions of an
// unknown field) reads it from there instead of parsing the CRD. Every
// field of Schema is kept, so that the schema read is the schema parsed
// (TestSchemaEncodingCorpus).

// encodeSchemas encodes the schemas of the versions of c; ok is false when
// one cannot be encoded faithfully (a node reached twice, a value of
// another type than a JSON value tree's).
func encodeSchemas(c *CRD) (body []byte, ok bool) {
	e := &encoder{ok: true}
	seen := map[*Schema]bool{}
	e.uint(uint64(len(c.Versions)))
	for _, v := range c.Versions {
		e.schema(v.Schema, seen, 0)
	}
	return e.b, e.ok
}

func (e *encoder) optString(p *string) {
	e.bool(p != nil)
	if p != nil {
		e.str(*p)
	}
}

func (e *encoder) schemas(l []*Schema, seen map[*Schema]bool, depth int) {
	e.bool(l != nil)
	if l != nil {
		e.uint(uint64(len(l)))
		for _, c := range l {
			e.schema(c, seen, depth+1)
		}
	}
}

func (e *encoder) schema(s *Schema, seen map[*Schema]bool, depth int) {
	if s == nil {
		e.bool(false)
		return
	}
	if seen[s] || depth > maxValueDepth {
		e.ok = false
		return
	}
	seen[s] = true
	e.bool(true)
	e.str(s.Type)
	e.str(s.Format)
	e.str(s.Title)
	e.str(s.Description)
	e.bool(s.Nullable)
	e.bool(s.HasDefault)
	e.value(s.Default, 0)
	e.bool(s.HasExample)
	e.bool(s.HasExternalDocs)
	e.schema(s.Items, seen, depth+1)
	e.schemas(s.ItemsArray, seen, depth)
	e.bool(s.Properties != nil)
	if s.Properties != nil {
		e.uint(uint64(len(s.Properties)))
		for _, k := range sortedKeys(s.Properties) {
			e.str(k)
			e.schema(s.Properties[k], seen, depth+1)
		}
	}
	e.bool(s.AdditionalProperties != nil)
	if ap := s.AdditionalProperties; ap != nil {
		e.bool(ap.Allows)
		e.schema(ap.Schema, seen, depth+1)
	}
	e.schemas(s.AllOf, seen, depth)
	e.schemas(s.AnyOf, seen, depth)
	e.schemas(s.OneOf, seen, depth)
	e.schema(s.Not, seen, depth+1)
	e.str(s.Pattern)
	e.bool(s.UniqueItems)
	e.object(s.Validations)
	e.bool(s.Unsupported != nil)
	if s.Unsupported != nil {
		e.uint(uint64(len(s.Unsupported)))
		for _, k := range sortedKeys(s.Unsupported) {
			e.str(k)
			e.bool(s.Unsupported[k])
		}
	}
	switch {
	case s.PreserveUnknownFields == nil:
		e.b = append(e.b, 0)
	case !*s.PreserveUnknownFields:
		e.b = append(e.b, 1)
	default:
		e.b = append(e.b, 2)
	}
	e.bool(s.EmbeddedResource)
	e.bool(s.IntOrString)
	e.optString(s.ListType)
	e.bool(s.ListMapKeys != nil)
	if s.ListMapKeys != nil {
		e.uint(uint64(len(s.ListMapKeys)))
		for _, k := range s.ListMapKeys {
			e.str(k)
		}
	}
	e.optString(s.MapType)
	e.int(int64(s.XValidations))
}

// decodeSchemas reads what encodeSchemas wrote: the schema of each
// version; ok is false for a body it does not read whole.
func decodeSchemas(body string) ([]*Schema, bool) {
	d := &decoder{s: body}
	out := make([]*Schema, d.count())
	for i := range out {
		out[i] = d.schema(0)
	}
	if d.bad || d.off != len(d.s) {
		return nil, false
	}
	return out, true
}

func (d *decoder) optString() *string {
	if !d.bool() {
		return nil
	}
	s := d.str()
	return &s
}

func (d *decoder) schemas(depth int) []*Schema {
	if !d.bool() {
		return nil
	}
	l := make([]*Schema, d.count())
	for i := range l {
		l[i] = d.schema(depth + 1)
	}
	return l
}

func (d *decoder) schema(depth int) *Schema {
	if !d.bool() || d.bad {
		return nil
	}
	if depth > maxValueDepth {
		d.bad = true
		return nil
	}
	s := &Schema{}
	s.Type = d.str()
	s.Format = d.str()
	s.Title = d.str()
	s.Description = d.str()
	s.Nullable = d.bool()
	s.HasDefault = d.bool()
	s.Default = d.value(0)
	s.HasExample = d.bool()
	s.HasExternalDocs = d.bool()
	s.Items = d.schema(depth + 1)
	s.ItemsArray = d.schemas(depth)
	if d.bool() {
		n := d.count()
		s.Properties = make(map[string]*Schema, n)
		for range n {
			k := d.str()
			s.Properties[k] = d.schema(depth + 1)
		}
	}
	if d.bool() {
		s.AdditionalProperties = &SchemaOrBool{Allows: d.bool()}
		s.AdditionalProperties.Schema = d.schema(depth + 1)
	}
	s.AllOf = d.schemas(depth)
	s.AnyOf = d.schemas(depth)
	s.OneOf = d.schemas(depth)
	s.Not = d.schema(depth + 1)
	s.Pattern = d.str()
	s.UniqueItems = d.bool()
	s.Validations = d.object()
	if d.bool() {
		n := d.count()
		s.Unsupported = make(map[string]bool, n)
		for range n {
			k := d.str()
			s.Unsupported[k] = d.bool()
		}
	}
	switch d.byte() {
	case 0:
	case 1:
		f := false
		s.PreserveUnknownFields = &f
	case 2:
		t := true
		s.PreserveUnknownFields = &t
	default:
		d.bad = true
	}
	s.EmbeddedResource = d.bool()
	s.IntOrString = d.bool()
	s.ListType = d.optString()
	if d.bool() {
		s.ListMapKeys = make([]string, d.count())
		for i := range s.ListMapKeys {
			s.ListMapKeys[i] = d.str()
		}
	}
	s.MapType = d.optString()
	x := d.int()
	if x < 0 || x > 1<<31 {
		d.bad = true
	}
	s.XValidations = int(x)
	return s
}
