package evolver

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The flag values of the algorithms' options (see Options.Flags): each
// checks its value as it is set, so a command line refuses a bad one with
// the flag's name. Their Type methods name the kind for pflag's help, as
// pflag's own values do.

// intFlag is an int confined to [lo, hi].
type intFlag struct {
	p      *int
	lo, hi int
}

func (f intFlag) String() string {
	if f.p == nil {
		return "0"
	}
	return strconv.Itoa(*f.p)
}

func (f intFlag) Set(s string) error {
	v, err := strconv.Atoi(s)
	switch {
	case err != nil:
		return fmt.Errorf("is not a whole number")
	case v < f.lo || v > f.hi:
		return fmt.Errorf("is outside its range [%d, %d]", f.lo, f.hi)
	}
	*f.p = v
	return nil
}

func (f intFlag) Type() string { return "int" }

// durationFlag is a positive duration.
type durationFlag struct{ p *time.Duration }

func (f durationFlag) String() string {
	if f.p == nil {
		return "0s"
	}
	return f.p.String()
}

func (f durationFlag) Set(s string) error {
	v, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return fmt.Errorf("is not a duration (e.g. 30s, 2m)")
	case v <= 0:
		return fmt.Errorf("must be positive")
	}
	*f.p = v
	return nil
}

func (f durationFlag) Type() string { return "duration" }

// listFlag is a comma-separated list of names, blanks left out.
type listFlag struct{ p *[]string }

func (f listFlag) String() string {
	if f.p == nil {
		return ""
	}
	return strings.Join(*f.p, ",")
}

func (f listFlag) Set(s string) error {
	var out []string
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	*f.p = out
	return nil
}

func (f listFlag) Type() string { return "string" }
