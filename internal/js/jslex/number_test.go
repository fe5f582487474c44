package jslex

import "testing"

func TestNumberString(t *testing.T) {
	for in, want := range map[float64]string{
		1000: "1000", 0.5: "0.5", 1e21: "1e+21", 1.5e21: "1.5e+21", 1e-7: "1e-7", 1e-6: "0.000001",
		-2: "-2", 123456789012345680000: "123456789012345680000", 0x10: "16", 1e300: "1e+300",
	} {
		if got := NumberString(in); got != want {
			t.Errorf("NumberString(%v) = %q, want %q", in, got, want)
		}
	}
}
