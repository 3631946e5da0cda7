package main

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestCheckBounds(t *testing.T) {
	for _, c := range []struct {
		b    bound
		want string // "" when accepted
	}{
		{bound{flag: "-x", value: 0, lo: 0, hi: 1}, ""},
		{bound{flag: "-x", value: 1, lo: 0, hi: 1}, ""},
		{bound{flag: "-x", value: 0, lo: 0, hi: 1, loOpen: true}, "-x 0 is out of range: want a number in (0, 1]"},
		{bound{flag: "-x", value: 1.5, lo: 0, hi: 1}, "-x 1.5 is out of range: want a number in [0, 1]"},
		{bound{flag: "-x", value: math.NaN(), lo: 0, hi: 1}, "-x NaN is out of range"},
		{bound{flag: "-x", value: math.Inf(1), lo: 0, hi: math.Inf(1)}, "-x +Inf is out of range"},
		{bound{flag: "-x", value: math.Inf(-1), lo: math.Inf(-1), hi: 1}, "-x -Inf is out of range"},
	} {
		err := checkBounds(c.b)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.b, err)
		case c.want != "" && (!errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: got %v, want %q", c.b, err, c.want)
		}
	}
}
