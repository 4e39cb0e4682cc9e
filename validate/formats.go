package validate

import (
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/jsonprune/jsonprune/internal/mailaddr"
)

// bstr views b as a string without copying, for standard-library parsers
// whose results are dropped at once (nothing may keep the string).
func bstr(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// The string formats the API server checks (reference 3.1, 3.2), by their
// name with every '-' removed.
const (
	fmtNone = iota
	fmtBSONObjectID
	fmtURI
	fmtEmail
	fmtHostname
	fmtIPv4
	fmtIPv6
	fmtCIDR
	fmtMAC
	fmtUUID
	fmtUUID3
	fmtUUID4
	fmtUUID5
	fmtISBN
	fmtISBN10
	fmtISBN13
	fmtCreditCard
	fmtSSN
	fmtHexColor
	fmtRGBColor
	fmtByte
	fmtPassword
	fmtDate
	fmtDuration
	fmtDateTime
	fmtK8sShortName
	fmtK8sLongName
)

var stringFormats = map[string]int{
	"bsonobjectid": fmtBSONObjectID,
	"uri":          fmtURI,
	"email":        fmtEmail,
	"hostname":     fmtHostname,
	"ipv4":         fmtIPv4,
	"ipv6":         fmtIPv6,
	"cidr":         fmtCIDR,
	"mac":          fmtMAC,
	"uuid":         fmtUUID,
	"uuid3":        fmtUUID3,
	"uuid4":        fmtUUID4,
	"uuid5":        fmtUUID5,
	"isbn":         fmtISBN,
	"isbn10":       fmtISBN10,
	"isbn13":       fmtISBN13,
	"creditcard":   fmtCreditCard,
	"ssn":          fmtSSN,
	"hexcolor":     fmtHexColor,
	"rgbcolor":     fmtRGBColor,
	"byte":         fmtByte,
	"password":     fmtPassword,
	"date":         fmtDate,
	"duration":     fmtDuration,
	"datetime":     fmtDateTime,
	"k8sshortname": fmtK8sShortName,
	"k8slongname":  fmtK8sLongName,
}

// Regular expressions of the format rules (reference 3.2). They are facts of
// the rules, written out here; the checks around them are this package's own.
// Each is compiled on first use: compiled with the package, rgb's took a
// tenth of a millisecond of every start of the command line.
var (
	rxRGBColor = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$`)
	})
)

// checkFormat reports whether a string passes a string format.
func checkFormat(f int, b []byte) bool {
	switch f {
	case fmtBSONObjectID:
		return len(b) == 24 && allHex(b)
	case fmtURI:
		_, err := url.ParseRequestURI(string(b))
		return err == nil
	case fmtEmail:
		return mailaddr.Valid(string(b)) // net/mail.ParseAddress's rules
	case fmtHostname:
		return isHostname(b)
	case fmtIPv4:
		return sloppyIP(b) && containsByte(b, '.')
	case fmtIPv6:
		return isIPv6(b)
	case fmtCIDR:
		return sloppyCIDR(b)
	case fmtMAC:
		return isMAC(b)
	case fmtUUID:
		return isUUID(b, 0)
	case fmtUUID3:
		return isUUID(b, '3')
	case fmtUUID4:
		return isUUID(b, '4')
	case fmtUUID5:
		return isUUID(b, '5')
	case fmtISBN:
		return isISBN10(b) || isISBN13(b)
	case fmtISBN10:
		return isISBN10(b)
	case fmtISBN13:
		return isISBN13(b)
	case fmtCreditCard:
		return isCreditCard(b)
	case fmtSSN:
		return isSSN(b)
	case fmtHexColor:
		return isHexColor(b)
	case fmtRGBColor:
		return rxRGBColor().Match(b)
	case fmtByte:
		return isBase64(b)
	case fmtPassword:
		return true
	case fmtDate:
		return isDate(b)
	case fmtDuration:
		return isDuration(b)
	case fmtDateTime:
		return isDateTime(b)
	case fmtK8sShortName:
		return len(b) <= 63 && isShortName(b)
	case fmtK8sLongName:
		if len(b) > 253 {
			return false
		}
		for {
			i := 0
			for i < len(b) && b[i] != '.' {
				i++
			}
			if !isShortName(b[:i]) {
				return false
			}
			if i == len(b) {
				return true
			}
			b = b[i+1:]
		}
	}
	return true
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func allHex(b []byte) bool {
	for _, c := range b {
		if !isHexDigit(c) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func containsByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// isHostname: at most 255 bytes, no dot-separated part over 63 bytes, and
// either one label (a letter, digit or symbol, then an optional '-', then at
// most 62 more of them) or labels of 1 to 63 characters (letters, digits,
// symbols, and '-' inside), each followed by '.', then a last label of 2 to 63
// letters. Letters and symbols are the Unicode categories L and S; lengths
// of labels count characters.
func isHostname(b []byte) bool {
	if len(b) > 255 || len(b) == 0 {
		return false
	}
	n := 0
	for _, c := range b {
		if c == '.' {
			n = 0
			continue
		}
		if n++; n > 63 {
			return false
		}
	}
	last := -1
	for i, c := range b {
		if c == '.' {
			last = i
		}
	}
	if last < 0 {
		return singleLabel(b)
	}
	for rest := b[:last+1]; len(rest) > 0; {
		i := 0
		for rest[i] != '.' {
			i++
		}
		if !hostLabel(rest[:i]) {
			return false
		}
		rest = rest[i+1:]
	}
	k := 0
	for tld := b[last+1:]; len(tld) > 0; k++ {
		r, w := utf8.DecodeRune(tld)
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r >= utf8.RuneSelf && unicode.IsLetter(r)) {
			return false
		}
		tld = tld[w:]
	}
	return k >= 2 && k <= 63
}

// hostChar is [a-zA-Z0-9\p{S}\p{L}].
func hostChar(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || unicode.IsSymbol(r)
	}
	return unicode.IsLetter(r) || unicode.IsSymbol(r)
}

// singleLabel: a host character, an optional '-', at most 62 host characters.
func singleLabel(b []byte) bool {
	r, w := utf8.DecodeRune(b)
	if !hostChar(r) {
		return false
	}
	b = b[w:]
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	k := 0
	for ; len(b) > 0; k++ {
		r, w := utf8.DecodeRune(b)
		if !hostChar(r) {
			return false
		}
		b = b[w:]
	}
	return k <= 62
}

// hostLabel: 1 to 63 characters, host characters and '-', not starting or
// ending with '-'.
func hostLabel(b []byte) bool {
	if len(b) == 0 || b[0] == '-' || b[len(b)-1] == '-' {
		return false
	}
	k := 0
	for ; len(b) > 0; k++ {
		r, w := utf8.DecodeRune(b)
		if r != '-' && !hostChar(r) {
			return false
		}
		b = b[w:]
	}
	return k <= 63
}

// sloppyDec reads decimal digits as the sloppy (pre-Go 1.17) IP parser does:
// at least one digit, stopping with failure once the value reaches 0xFFFFFF.
func sloppyDec(s []byte) (n, i int, ok bool) {
	for i = 0; i < len(s) && isDigit(s[i]); i++ {
		n = n*10 + int(s[i]-'0')
		if n >= 0xFFFFFF {
			return 0, i, false
		}
	}
	return n, i, i > 0
}

// sloppyHex reads hexadecimal digits likewise.
func sloppyHex(s []byte) (n, i int, ok bool) {
	for i = 0; i < len(s) && isHexDigit(s[i]); i++ {
		c := s[i]
		switch {
		case c <= '9':
			n = n*16 + int(c-'0')
		case c >= 'a':
			n = n*16 + int(c-'a') + 10
		default:
			n = n*16 + int(c-'A') + 10
		}
		if n >= 0xFFFFFF {
			return 0, i, false
		}
	}
	return n, i, i > 0
}

// sloppyIPv4 reports whether s is four dot-separated decimal numbers up to
// 255, leading zeros allowed.
func sloppyIPv4(s []byte) bool {
	for i := 0; i < 4; i++ {
		if len(s) == 0 {
			return false
		}
		if i > 0 {
			if s[0] != '.' {
				return false
			}
			s = s[1:]
		}
		n, c, ok := sloppyDec(s)
		if !ok || n > 0xFF {
			return false
		}
		s = s[c:]
	}
	return len(s) == 0
}

// sloppyIPv6 reports whether s is an IPv6 address as the sloppy parser reads
// it: groups of any number of hex digits up to 0xFFFF, one "::", an optional
// trailing sloppy IPv4 part, no zone.
func sloppyIPv6(s []byte) bool {
	const full = 16
	ellipsis := -1
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		ellipsis = 0
		s = s[2:]
		if len(s) == 0 {
			return true
		}
	}
	i := 0
	for i < full {
		n, c, ok := sloppyHex(s)
		if !ok || n > 0xFFFF {
			return false
		}
		if c < len(s) && s[c] == '.' {
			if ellipsis < 0 && i != full-4 || i+4 > full || !sloppyIPv4(s) {
				return false
			}
			s = nil
			i += 4
			break
		}
		i += 2
		s = s[c:]
		if len(s) == 0 {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return false
		}
		s = s[1:]
		if s[0] == ':' {
			if ellipsis >= 0 {
				return false
			}
			ellipsis = i
			s = s[1:]
			if len(s) == 0 {
				break
			}
		}
	}
	if len(s) != 0 {
		return false
	}
	if i < full {
		return ellipsis >= 0
	}
	return ellipsis < 0
}

// sloppyIP is k8s.io/utils/net.ParseIPSloppy's acceptance: the first '.' or
// ':' decides between IPv4 and IPv6.
func sloppyIP(s []byte) bool {
	for _, c := range s {
		switch c {
		case '.':
			return sloppyIPv4(s)
		case ':':
			return sloppyIPv6(s)
		}
	}
	return false
}

// sloppyCIDR is ParseCIDRSloppy's acceptance: address "/" prefix length, the
// length within the address family's bits.
func sloppyCIDR(s []byte) bool {
	i := -1
	for j, c := range s {
		if c == '/' {
			i = j
			break
		}
	}
	if i < 0 {
		return false
	}
	addr, mask := s[:i], s[i+1:]
	bits := 32
	if !sloppyIPv4(addr) {
		if !sloppyIPv6(addr) {
			return false
		}
		bits = 128
	}
	n, c, ok := sloppyDec(mask)
	return ok && c == len(mask) && n <= bits
}

// isIPv6 is net.ParseIP (no zone) plus a ':' in the text.
func isIPv6(b []byte) bool {
	if !containsByte(b, ':') {
		return false
	}
	a, err := netip.ParseAddr(bstr(b))
	return err == nil && a.Zone() == ""
}

// isMAC is net.ParseMAC's acceptance: 6, 8 or 20 bytes as hex pairs separated
// by ':' or '-', groups of four separated by '.', or bare hex.
func isMAC(s []byte) bool {
	if len(s) < 12 {
		return false
	}
	pair := func(s []byte, sep byte) bool {
		if len(s) > 2 && s[2] != sep {
			return false
		}
		return isHexDigit(s[0]) && isHexDigit(s[1])
	}
	okLen := func(n int) bool { return n == 6 || n == 8 || n == 20 }
	switch {
	case s[2] == ':' || s[2] == '-':
		if (len(s)+1)%3 != 0 || !okLen((len(s)+1)/3) {
			return false
		}
		for x := 0; x < len(s); x += 3 {
			if !pair(s[x:], s[2]) {
				return false
			}
		}
	case s[4] == '.':
		if (len(s)+1)%5 != 0 || !okLen(2*(len(s)+1)/5) {
			return false
		}
		for x := 0; x < len(s); x += 5 {
			if !pair(s[x:x+2], 0) || !pair(s[x+2:], s[4]) {
				return false
			}
		}
	default:
		if len(s)%2 != 0 || !okLen(len(s)/2) {
			return false
		}
		for x := 0; x < len(s); x += 2 {
			if !pair(s[x:x+2], 0) {
				return false
			}
		}
	}
	return true
}

// isUUID: 8-4-4-4-12 hex digits, each dash optional, any case; version v
// ('3', '4', '5', or 0 for any) as the first digit of the third group, and for
// versions 4 and 5 a variant digit 8, 9, a or b starting the fourth.
func isUUID(b []byte, version byte) bool {
	groups := [5]int{8, 4, 4, 4, 12}
	for g, n := range groups {
		if g > 0 && len(b) > 0 && b[0] == '-' {
			b = b[1:]
		}
		if len(b) < n {
			return false
		}
		for i := 0; i < n; i++ {
			if !isHexDigit(b[i]) {
				return false
			}
		}
		if g == 2 && version != 0 && b[0] != version {
			return false
		}
		if g == 3 && (version == '4' || version == '5') {
			switch b[0] {
			case '8', '9', 'a', 'b', 'A', 'B':
			default:
				return false
			}
		}
		b = b[n:]
	}
	return len(b) == 0
}

// isSpaceOrMinus is the set removed before the ISBN checks: '-' and the RE2
// \s class.
func isSpaceOrMinus(c byte) bool {
	return c == '-' || c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// isbnDigits copies the characters of b other than spaces and '-' into buf
// (n characters); too many gives false.
func isbnDigits(b []byte, buf *[13]byte) (int, bool) {
	n := 0
	for _, c := range b {
		if isSpaceOrMinus(c) {
			continue
		}
		if n == len(buf) {
			return 0, false
		}
		buf[n] = c
		n++
	}
	return n, true
}

// isISBN10: nine digits and a digit or 'X', weighted sum 1..10 divisible by 11.
func isISBN10(b []byte) bool {
	var buf [13]byte
	n, ok := isbnDigits(b, &buf)
	if !ok || n != 10 {
		return false
	}
	sum := 0
	for i := 0; i < 9; i++ {
		if !isDigit(buf[i]) {
			return false
		}
		sum += (i + 1) * int(buf[i]-'0')
	}
	switch {
	case buf[9] == 'X':
		sum += 100
	case isDigit(buf[9]):
		sum += 10 * int(buf[9]-'0')
	default:
		return false
	}
	return sum%11 == 0
}

// isISBN13: thirteen digits, weights 1 and 3, the check digit completing 10.
func isISBN13(b []byte) bool {
	var buf [13]byte
	n, ok := isbnDigits(b, &buf)
	if !ok || n != 13 {
		return false
	}
	sum := 0
	for i := 0; i < 13; i++ {
		if !isDigit(buf[i]) {
			return false
		}
		if i < 12 {
			w := 1
			if i%2 == 1 {
				w = 3
			}
			sum += w * int(buf[i]-'0')
		}
	}
	return int(buf[12]-'0') == (10-sum%10)%10
}

// isCreditCard: the digits of the string (everything else dropped) match a
// card number pattern and pass the Luhn check.
func isCreditCard(b []byte) bool {
	var buf [32]byte
	n := 0
	for _, c := range b {
		if isDigit(c) {
			if n == len(buf) {
				return false // longer than any card pattern
			}
			buf[n] = c
			n++
		}
	}
	d := buf[:n]
	if !cardNumber(d) {
		return false
	}
	sum, double := 0, false
	for i := n - 1; i >= 0; i-- {
		v := int(d[i] - '0')
		if double {
			v *= 2
			if v >= 10 {
				v = v%10 + 1
			}
		}
		sum += v
		double = !double
	}
	return sum%10 == 0
}

// isShortName: lower-case letters, digits and '-', starting and ending with a
// letter or digit (^[a-z0-9]([-a-z0-9]*[a-z0-9])?$).
func isShortName(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !(isDigit(c) || 'a' <= c && c <= 'z' || c == '-') {
			return false
		}
	}
	return b[0] != '-' && b[len(b)-1] != '-'
}

// cardNumber reports whether a run of digits has a card number's prefix and
// length: 4 (13 or 16 digits), 51-55 (16), 6011 or 65 (16), 34 or 37 (15),
// 300-305, 36 or 38 (14), 2131 or 1800 (15), 35 (16).
func cardNumber(d []byte) bool {
	n := len(d)
	has := func(p string) bool { return n >= len(p) && string(d[:len(p)]) == p }
	switch {
	case has("4"):
		return n == 13 || n == 16
	case has("5"):
		return n == 16 && d[1] >= '1' && d[1] <= '5'
	case has("6011"), has("65"):
		return n == 16
	case has("34"), has("37"), has("2131"), has("1800"):
		return n == 15
	case has("30"):
		return n == 14 && d[2] <= '5'
	case has("36"), has("38"):
		return n == 14
	case has("35"):
		return n == 16
	}
	return false
}

// isSSN: exactly 11 bytes of ddd?dd?dddd with '-' or ' ' separators.
func isSSN(b []byte) bool {
	if len(b) != 11 {
		return false
	}
	// 11 bytes only fit with both separators present.
	for i, c := range b {
		switch i {
		case 3, 6:
			if c != '-' && c != ' ' {
				return false
			}
		default:
			if !isDigit(c) {
				return false
			}
		}
	}
	return true
}

// isHexColor: an optional '#' then 3 or 6 hex digits.
func isHexColor(b []byte) bool {
	if len(b) > 0 && b[0] == '#' {
		b = b[1:]
	}
	return (len(b) == 3 || len(b) == 6) && allHex(b)
}

// isBase64: standard alphabet, padded, at least one quantum.
func isBase64(b []byte) bool {
	if len(b) == 0 || len(b)%4 != 0 {
		return false
	}
	is := func(c byte) bool {
		return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || isDigit(c) || c == '+' || c == '/'
	}
	last := b[len(b)-4:]
	for _, c := range b[:len(b)-4] {
		if !is(c) {
			return false
		}
	}
	switch {
	case last[2] == '=' && last[3] == '=':
		return is(last[0]) && is(last[1])
	case last[3] == '=':
		return is(last[0]) && is(last[1]) && is(last[2])
	}
	return is(last[0]) && is(last[1]) && is(last[2]) && is(last[3])
}

// isDate: time.Parse with layout 2006-01-02.
func isDate(b []byte) bool {
	// time.Parse accepts only this exact shape for the layout; checking the
	// shape first keeps the common failures cheap.
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return false
	}
	for i, c := range b {
		if i != 4 && i != 7 && !isDigit(c) {
			return false
		}
	}
	_, err := time.Parse("2006-01-02", bstr(b))
	return err == nil
}

// isDateTime: at least 4 bytes; the lower-cased text split on 't'; part 0 a
// date; part 1 hh:mm:ss, an optional fraction after any one character, and a
// zone (z or ±hh:mm), with hh ≤ 23, mm ≤ 59, ss ≤ 59 compared as text.
func isDateTime(b []byte) bool {
	if len(b) < 4 {
		return false
	}
	// Only 'T' lower-cases to 't', and no other character lower-cases into
	// the digits, ':', '+', '-', '.', or 'z' the parts need, except 'Z'; so
	// the split and the checks can run on the original text with 'T' and 'Z'
	// taken as their lower-case forms.
	i := indexT(b)
	if i < 0 {
		return false
	}
	rest := b[i+1:]
	if j := indexT(rest); j >= 0 {
		rest = rest[:j]
	}
	if !isDate(b[:i]) {
		return false
	}
	return isTimeZ(rest)
}

func indexT(b []byte) int {
	for i, c := range b {
		if c == 't' || c == 'T' {
			return i
		}
	}
	return -1
}

// isTimeZ checks part 1 of a date-time.
func isTimeZ(s []byte) bool {
	if len(s) < 9 || !isDigit(s[0]) || !isDigit(s[1]) || s[2] != ':' || !isDigit(s[3]) || !isDigit(s[4]) ||
		s[5] != ':' || !isDigit(s[6]) || !isDigit(s[7]) {
		return false
	}
	if s[0] > '2' || s[0] == '2' && s[1] > '3' || s[3] > '5' || s[6] > '5' {
		return false
	}
	t := s[8:]
	// The zone: "z" or ±hh:mm at the end.
	zone := func(z []byte) bool {
		if len(z) == 1 {
			return z[0] == 'z' || z[0] == 'Z'
		}
		return len(z) == 6 && (z[0] == '+' || z[0] == '-') && isDigit(z[1]) && isDigit(z[2]) && z[3] == ':' &&
			isDigit(z[4]) && isDigit(z[5])
	}
	if zone(t) {
		return true
	}
	// (.[0-9]+)? : any one character (one rune), then digits, then the zone.
	// The zone starts with z, '+' or '-', never a digit, so the digits are
	// the maximal run after the first rune.
	if len(t) == 0 {
		return false
	}
	if t[0] == '\n' {
		return false // RE2's '.' does not match a newline
	}
	_, w := utf8.DecodeRune(t)
	t = t[w:]
	k := 0
	for k < len(t) && isDigit(t[k]) {
		k++
	}
	return k > 0 && zone(t[k:])
}

// isDuration: time.ParseDuration, or at least one "<digits><spaces><letters>"
// match whose unit (lower-cased) is one of the units or, for the last (long)
// form of a unit, starts with it. A digit run beyond int makes it fail.
func isDuration(b []byte) bool {
	// time.ParseDuration accepts only signs, digits, '.', lower-case letters
	// and µ/μ; other text would only make it build an error.
	if goDurationChars(b) {
		if _, err := time.ParseDuration(bstr(b)); err == nil {
			return true
		}
	}
	ok := false
	for i := 0; i < len(b); {
		if !isDigit(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && isDigit(b[j]) {
			j++
		}
		k := j
		for k < len(b) && (b[k] == ' ' || b[k] == '\t' || b[k] == '\n' || b[k] == '\f' || b[k] == '\r') {
			k++
		}
		l := k
		for l < len(b) {
			c := b[l]
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
				l++
			} else if c == 0xC2 && l+1 < len(b) && b[l+1] == 0xB5 { // µ
				l += 2
			} else {
				break
			}
		}
		if l == k {
			i++
			continue
		}
		if !fitsInt(b[i:j]) {
			return false
		}
		if durationUnit(b[k:l]) {
			ok = true
		}
		i = l
	}
	return ok
}

// goDurationChars reports whether b is non-empty and holds only the
// characters time.ParseDuration can accept.
func goDurationChars(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case isDigit(c), 'a' <= c && c <= 'z', c == '.', c == '+', c == '-':
		case c == 0xC2 && i+1 < len(b) && b[i+1] == 0xB5, c == 0xCE && i+1 < len(b) && b[i+1] == 0xBC:
			i++
		default:
			return false
		}
	}
	return true
}

// fitsInt reports whether a run of digits is within int (strconv.Atoi).
func fitsInt(d []byte) bool {
	for len(d) > 1 && d[0] == '0' {
		d = d[1:]
	}
	const max = "9223372036854775807"
	if len(d) != len(max) {
		return len(d) < len(max)
	}
	return string(d) <= max
}

var durationUnits = [][]string{
	{"ns", "nano"},
	{"us", "µs", "micro"},
	{"ms", "milli"},
	{"s", "sec"},
	{"m", "min"},
	{"h", "hr", "hour"},
	{"d", "day"},
	{"w", "wk", "week"},
}

// durationUnit compares a unit (ASCII letters and µ) case-insensitively with
// the unit names, the last name of each unit as a prefix.
func durationUnit(u []byte) bool {
	var buf [64]byte
	if len(u) > len(buf) {
		// Only a prefix match on the long forms can succeed.
		u = u[:len(buf)]
	}
	n := copy(buf[:], u)
	for i := 0; i < n; i++ {
		if 'A' <= buf[i] && buf[i] <= 'Z' {
			buf[i] += 'a' - 'A'
		}
	}
	lu := buf[:n]
	for _, variants := range durationUnits {
		for i, v := range variants {
			if string(lu) == v || i == len(variants)-1 && strings.HasPrefix(string(lu), v) {
				return true
			}
		}
	}
	return false
}
