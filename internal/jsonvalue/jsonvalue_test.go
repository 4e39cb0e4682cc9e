package jsonvalue

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestParseNumber(t *testing.T) {
	for lit, want := range map[string]any{
		"1": int64(1), "-0": int64(0), "1.0": 1.0, "1e3": 1000.0, "-0.0": 0.0,
		"9223372036854775807": int64(9223372036854775807), "9223372036854775808": 9.223372036854776e18,
		"1e-400": 0.0,
	} {
		got, err := ParseNumber([]byte(lit))
		if err != nil || got != want {
			t.Errorf("ParseNumber(%s) = %#v, %v; want %#v", lit, got, err, want)
		}
	}
	if _, err := ParseNumber([]byte("1e400")); err == nil || err.Error() != "json: cannot unmarshal number 1e400 into Go value of type float64" {
		t.Errorf("1e400: %v", err)
	}
}

// TestAppendCanonical compares with encoding/json on the same trees.
func TestAppendCanonical(t *testing.T) {
	v := map[string]any{"b": []any{int64(1), 1.5, 1e21, 1e-7, 100.0, nil, true, "x\u2028<>&\"é"}, "a": map[string]any{}, "": "e"}
	want, _ := json.Marshal(v)
	if got := AppendCanonical(nil, v); string(got) != string(want) {
		// encoding/json escapes <>& and U+2028 for HTML; jsontext does not
		var g, w any
		json.Unmarshal(got, &g)
		json.Unmarshal(want, &w)
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(w)
		if string(gj) != string(wj) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
	c := DeepCopy(v).(map[string]any)
	c["a"].(map[string]any)["x"] = 1
	if len(v["a"].(map[string]any)) != 0 {
		t.Error("DeepCopy shares maps")
	}
}

// TestAppendFloat: encoding/json's ES6 formatting, exponents without a
// leading zero, as the YAML bridge and the decoder render floats.
func TestAppendFloat(t *testing.T) {
	for f, want := range map[float64]string{1e21: "1e+21", 1e-7: "1e-7", 1.5: "1.5", 0: "0", 123456789: "123456789"} {
		if got := string(AppendFloat(nil, f)); got != want {
			t.Errorf("AppendFloat(%v) = %s, want %s", f, got, want)
		}
		if b, _ := json.Marshal(f); string(b) != want {
			t.Errorf("encoding/json gives %s for %v, the table %s", b, f, want)
		}
	}
}

func TestOverflows(t *testing.T) {
	big := "1" + strings.Repeat("0", 309) // 1e309: 310 digits, no exponent
	for lit, want := range map[string]bool{
		"1e400": true, "-1e400": true, "1E400": true, big: true, "-" + big: true,
		"1e308": false, "1e-400": false, "-1e-400": false, "123": false, "1.5": false,
		"9223372036854775808": false, strings.Repeat("9", 308): false,
	} {
		if got := Overflows([]byte(lit)); got != want {
			t.Errorf("Overflows(%.20s) = %v, want %v", lit, got, want)
		}
		if want && !MayOverflow([]byte(lit)) {
			t.Errorf("MayOverflow(%.20s) is false for an overflow", lit)
		}
		if _, err := ParseNumber([]byte(lit)); (err != nil) != want {
			t.Errorf("ParseNumber(%.20s): %v, want overflow %v", lit, err, want)
		}
	}
	for lit, want := range map[string]bool{"1": false, "1.5": false, "1e3": true, "2E-1": true, strings.Repeat("9", 308): false, strings.Repeat("9", 309): true} {
		if got := MayOverflow([]byte(lit)); got != want {
			t.Errorf("MayOverflow(%.20s) = %v, want %v", lit, got, want)
		}
	}
}

func TestRoundTripFloat(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want any
	}{
		{1, int64(1)}, {1e3, int64(1000)}, {math.Copysign(0, -1), int64(0)}, {1.5, 1.5},
		{4611686018427387904, int64(4611686018427388000)}, {9223372036854775807, 9.223372036854775807e18},
		{1e20, 1e20}, {1e21, 1e21}, {-1e21, -1e21}, {0.1, 0.1},
	} {
		if got := RoundTripFloat(c.f); got != c.want {
			t.Errorf("RoundTripFloat(%v) = %#v, want %#v", c.f, got, c.want)
		}
		// the rule stated in terms of encoding/json's rendering and PreserveInts
		if math.Abs(c.f) < 1e21 {
			if v, _ := ParseNumber(AppendFloat(nil, c.f)); v != c.want {
				t.Errorf("RoundTripFloat(%v) = %#v, ParseNumber(AppendFloat) = %#v", c.f, c.want, v)
			}
		}
	}
}
