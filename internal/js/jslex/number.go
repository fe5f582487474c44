package jslex

import (
	"math"
	"strconv"
	"strings"
)

// NumberString is JavaScript's String(n): how a number literal reads as
// a property key or in a string (1e3 → "1000", 1e21 → "1e+21", 1e-7 →
// "1e-7", -0 → "0"). The page and module readers both use it, so that
// { 1e3: … } and x["1000"] name the same key everywhere.
func NumberString(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // 1e+21, 1e-07
	mant, exp, _ := strings.Cut(s, "e")
	sign := exp[0]
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + string(sign) + exp
}
