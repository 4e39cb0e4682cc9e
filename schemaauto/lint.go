package schemaauto

import jperrors "github.com/jsonprune/jsonprune/errors"

// LintValues runs the CRD-time checks that concern values (LintValues of
// each schema): patterns that do not compile, defaults that do not
// validate against their own schema, uniqueItems, nullable items of set
// and map lists; with the warnings a create returns (unrecognized
// formats, set lists of objects). Paths are the API server's: under
// spec.validation when the versions share one schema, under
// spec.versions[i].schema otherwise, as Validate names them.
func (c *CRD) LintValues() (errs jperrors.FieldErrors, warnings []string) {
	lint := func(s *Schema, p *jperrors.FieldPath) {
		if s == nil {
			return
		}
		e, w := LintValues(s, p)
		errs = append(errs, e...)
		warnings = append(warnings, w...)
	}
	if c.topLevelSchema() {
		lint(c.Versions[0].Schema, jperrors.NewFieldPath("spec", "validation", "openAPIV3Schema"))
		return errs, warnings
	}
	for i, v := range c.Versions {
		lint(v.Schema, jperrors.NewFieldPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema"))
	}
	return errs, warnings
}
