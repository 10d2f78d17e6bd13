package reports

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Fact is one labelled value of a report's facts, e.g. {"game", "kindling"}.
type Fact struct {
	Name, Value string
}

// render executes the named page template into a buffer first, so a
// failing template writes nothing.
func render(w io.Writer, name string, data any) error {
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, data); err != nil {
		return fmt.Errorf("rendering the %s report: %w", name, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return orNone(strings.Join(s, ", "))
}
