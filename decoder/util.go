package decoder

// offset is the input offset of the main decoder, in the document (the
// metadata fallback reads a sub-slice of the document with base set).
func (d *Decoder) offset() int64 {
	if d.scanning {
		return int64(d.sc.pos)
	}
	if d.src != nil {
		return d.src.InputOffset()
	}
	return d.base + d.jd.InputOffset()
}
