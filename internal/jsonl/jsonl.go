// Package jsonl reads JSON-lines files that a writer appends to line by
// line (arena results, an evolution's generations): one value per line,
// blank lines ignored, and a last line without its newline that does not
// decode taken for what a writer killed mid-line leaves behind.
//
// The package splits and numbers lines and keeps track of the valid part of
// the file; what a line must hold is the caller's decode function.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrStop, returned by a decode function, ends Decode without an error; the
// line it was given is not counted.
var ErrStop = errors.New("jsonl: stop")

// Result describes what Decode read.
type Result struct {
	// Lines counts the lines the decode function accepted.
	Lines int
	// Size is the length of the valid part of the data: up to and
	// including the newline of the last accepted line (blank lines
	// before the next one included). A half-written last line, or the
	// line at which decoding stopped, lies beyond it.
	Size int64
	// Partial is the number (1-based) of a half-written last line that was
	// skipped, 0 when there was none; PartialBytes is its length.
	Partial, PartialBytes int
}

// Warning describes the skipped half-written last line, "" when there was
// none. name is the file's name as messages show it.
func (r Result) Warning(name string) string {
	if r.Partial == 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d: skipping a half-written last line (%d bytes) left by an interrupted run", name, r.Partial, r.PartialBytes)
}

// Decode calls decode for every non-blank line of data in order, with the
// line's 1-based number and its text without the newline (decode must not
// keep the slice). A line that decode refuses is an error prefixed with
// "name:number: ", unless it is the last line and has no newline: then it
// is a half-written line, skipped and reported in Result.Partial. A last
// line without newline that decodes is accepted. When decode returns ErrStop,
// Decode returns at once with the lines accepted before it.
func Decode(data []byte, name string, decode func(n int, line []byte) error) (Result, error) {
	return DecodeReader(bytes.NewReader(data), name, decode)
}

// DecodeReader is Decode reading the lines from r as they come, so a file
// of any length is read in a buffer's memory; an error reading r is
// returned as it is.
func DecodeReader(r io.Reader, name string, decode func(n int, line []byte) error) (Result, error) {
	var res Result
	br := bufio.NewReaderSize(r, 1<<16)
	var long []byte // a line longer than the buffer, assembled
	var size int64
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return Result{}, fmt.Errorf("%s: %w", name, err)
		}
		if len(line) == 0 {
			return res, nil // end of the data
		}
		next := size + int64(len(line))
		complete := line[len(line)-1] == '\n'
		if complete {
			line = line[:len(line)-1]
		}
		if len(bytes.TrimSpace(line)) == 0 {
			size = next
			res.Size = size
			continue
		}
		if err := decode(n, line); err != nil {
			if errors.Is(err, ErrStop) {
				return res, nil
			}
			if !complete {
				res.Partial, res.PartialBytes = n, len(line)
				return res, nil
			}
			return Result{}, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		res.Lines++
		size = next
		res.Size = size
	}
}
