package store

import "testing"

// numberFits agrees with DynamoDB's own bounds: 38 significant digits, a
// magnitude of 0 or from 1E-130 to 9.99…E+125.
func TestNumberFits(t *testing.T) {
	t.Parallel()
	for n, want := range map[string]bool{
		"0": true, "-0": true, "0.000": true, "0e999999999999999999999": true,
		"1": true, "-42.5": true, "0.001": true, "12345678901234567890": true,
		"9.9999999999999999999999999999999999999E+125": true,
		"99999999999999999999999999999999999999" + "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000": true,
		"1E-130": true, "-1e-130": true, "0.1e-129": true, "100e-132": true,
		"1e126": false, "-1e126": false, "10e125": false, "1e300": false,
		"1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000": false, // 1e126 written out
		"1e-131": false, "1e-200": false, "0.01e-129": false, "1e-99999999999999999999": false, "1e99999999999999999999": false,
		"123456789012345678901234567890123456789":        false, // 39 digits
		"1234567890123456789012345678901234567800":       true,  // 38 significant, then zeros
		"0.00000123456789012345678901234567890123456789": false,
	} {
		if got := numberFits(n); got != want {
			t.Errorf("numberFits(%s) = %v, want %v", n, got, want)
		}
	}
}
