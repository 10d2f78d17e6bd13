package evolver

import (
	"errors"
	"fmt"
)

// FieldError is a problem with one field of a Config (or of a resumed run's
// identity against its checkpoint). Field is the Go name of the field
// (Population, TournamentSeeds...), so that a command line can name its own
// flag instead; Value is the offending value, nil when the field is missing
// or the problem is in Err.
type FieldError struct {
	// Field is the name of the Config field at fault.
	Field string
	// Value is the value it holds, nil when there is none to show.
	Value any
	// Reason says what is wrong, to be read after the field and its value:
	// "is outside its range [4, 256]".
	Reason string
	// Err is the underlying error, if any.
	Err error
}

// Error reads "Field Value Reason: Err", leaving out the parts not set.
func (e *FieldError) Error() string {
	s := e.Field
	if e.Value != nil {
		s += " " + fmt.Sprint(e.Value)
	}
	if e.Reason != "" {
		s += " " + e.Reason
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error.
func (e *FieldError) Unwrap() error { return e.Err }

// Errors about the run directory, wrapped in a FieldError of Out (or, for
// OpenRun, in an error that names the directory).
var (
	// ErrRunExists: the directory holds a run and Resume is not set.
	ErrRunExists = errors.New("the directory holds a run")
	// ErrNotEmpty: the directory holds files that are not a run's.
	ErrNotEmpty = errors.New("the directory is not empty and holds no run")
	// ErrNoRunDir: the run directory does not exist.
	ErrNoRunDir = errors.New("the run directory does not exist")
)

// rangeError is the FieldError of a value outside [lo, hi].
func rangeError(field string, v, lo, hi any) error {
	return &FieldError{Field: field, Value: v, Reason: fmt.Sprintf("is outside its range [%v, %v]", lo, hi)}
}
