package decoder

import (
	"math"
	"sort"
	"strconv"
)

func sortStrings(s []string) { sort.Strings(s) }

func appendInt(b []byte, i int64) []byte { return strconv.AppendInt(b, i, 10) }

// appendFloat formats like encoding/json (ES6 number formatting).
func appendFloat(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(b, "null"...)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// offset is the input offset of the main decoder, in the document (the
// metadata fallback reads a sub-slice of the document with base set).
func (d *Decoder) offset() int64 {
	if d.src != nil {
		return d.src.InputOffset()
	}
	return d.base + d.jd.InputOffset()
}
