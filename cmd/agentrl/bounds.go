package main

import (
	"fmt"
	"math"
	"strconv"
)

// bound is the accepted range of a numeric flag: lo to hi, lo itself excluded when loOpen.
type bound struct {
	flag   string
	value  float64
	lo, hi float64
	loOpen bool
}

// checkBounds returns a usage error naming the first flag whose value is NaN, infinite or out of
// its range, and the range it accepts. Flag parsing takes "NaN" and "Inf" as numbers, and a
// comparison with NaN is always false, so each bound is checked for what it accepts.
func checkBounds(bs ...bound) error {
	for _, b := range bs {
		v := b.value
		inRange := v <= b.hi && (v > b.lo || (!b.loOpen && v == b.lo))
		if !math.IsNaN(v) && !math.IsInf(v, 0) && inRange {
			continue
		}
		open := "["
		if b.loOpen {
			open = "("
		}
		return fmt.Errorf("%w: %s %s is out of range: want a number in %s%s, %s]", errUsage, b.flag, num(v), open, num(b.lo), num(b.hi))
	}
	return nil
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
