package validate

import "strings"

// CompileAsWritten compiles n like [Compile] but keeps the format as
// written, for the validator the API server builds to check default values
// when a CRD is created (defaulting.ValidateDefaults runs
// Structural.ToKubeOpenAPI, which strips no format): the type check sees
// every format (an integer default on {type: string, format: quantity}
// fails with "must be of type quantity: "int64""), and the format check runs
// for every name of the server's format registry whatever the node's type.
// Numeric range checks still use only int32/int64 (integer) and
// float/double (number), as the server's number validator does.
func CompileAsWritten(n Node) (*Rules, error) {
	r, err := Compile(n)
	if err != nil || n.Format == "" {
		return r, err
	}
	if r == nil {
		r = &Rules{nullable: n.Nullable}
	}
	r.format = n.Format
	r.strFormat = stringFormats[strings.ReplaceAll(n.Format, "-", "")]
	if r.strFormat != fmtNone {
		r.scalarChecks = true
	}
	r.typeOK = 0 // the type table depends on the format: table it again
	for k := Null; k <= Array; k++ {
		if r.checkType(k) {
			r.typeOK |= 1 << k
		}
	}
	return r, nil
}
