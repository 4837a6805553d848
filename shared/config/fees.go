package config

import (
	"fmt"
	"strconv"
)

// DefaultPlatformFeePercent is PLATFORM_FEE_PERCENT's default: the platform
// keeps 20 % of a creator's sale, the creator 80 %.
const DefaultPlatformFeePercent = 20

// PlatformFeePercent reads PLATFORM_FEE_PERCENT, the share of a creator's
// sale the platform keeps: a whole number from 0 to 100.
func PlatformFeePercent() (int, error) {
	raw := Env("PLATFORM_FEE_PERCENT", "")
	if raw == "" {
		return DefaultPlatformFeePercent, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 0 || n > 100 {
		return 0, fmt.Errorf("PLATFORM_FEE_PERCENT must be a whole number from 0 to 100, got %q", raw)
	}
	return n, nil
}
