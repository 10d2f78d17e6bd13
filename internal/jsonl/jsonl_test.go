package jsonl_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"crucible/internal/jsonl"
)

// number decodes a line holding one JSON number.
func number(got *[]int) func(int, []byte) error {
	return func(_ int, line []byte) error {
		var v int
		if err := json.Unmarshal(line, &v); err != nil {
			return err
		}
		*got = append(*got, v)
		return nil
	}
}

// TestDecode checks the rules of a JSON-lines file: complete lines decode,
// blank lines are ignored, a last line without newline counts when it
// decodes and is skipped as half-written when it does not, and a bad line
// anywhere else is an error naming the file and the line.
func TestDecode(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		want    []int
		size    int // -1: the whole data
		partial int
		err     string
	}{
		{"empty", "", nil, -1, 0, ""},
		{"complete lines", "1\n2\n", []int{1, 2}, -1, 0, ""},
		{"blank lines are ignored", "1\n\n  \n2\n", []int{1, 2}, -1, 0, ""},
		{"a valid last line without newline counts", "1\n2", []int{1, 2}, -1, 0, ""},
		{"a half-written last line is skipped", "1\n2\n{\"x", []int{1, 2}, 4, 3, ""},
		{"a half-written line after blank lines keeps them in the size", "1\n\n{", []int{1}, 3, 3, ""},
		{"a bad middle line is an error", "1\nx\n2\n", nil, 0, 0, "f.jsonl:2: invalid character 'x'"},
		{"a bad last line with its newline is an error", "1\nx\n", nil, 0, 0, "f.jsonl:2: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			res, err := jsonl.Decode([]byte(tt.data), "f.jsonl", number(&got))
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("error %v, want prefix %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) || res.Lines != len(tt.want) {
				t.Fatalf("decoded %v (%d lines), want %v", got, res.Lines, tt.want)
			}
			size := tt.size
			if size < 0 {
				size = len(tt.data)
			}
			if res.Size != int64(size) {
				t.Fatalf("size %d, want %d", res.Size, size)
			}
			if res.Partial != tt.partial {
				t.Fatalf("partial line %d, want %d", res.Partial, tt.partial)
			}
			if w := res.Warning("f.jsonl"); (w != "") != (tt.partial != 0) {
				t.Fatalf("warning %q for partial line %d", w, tt.partial)
			}
		})
	}
}

// TestDecodeStop checks that ErrStop ends decoding without an error, with the
// size just past the last line accepted: how a reader keeps the first n
// lines of a file.
func TestDecodeStop(t *testing.T) {
	data := []byte("10\n20\n30\n")
	kept := 0
	res, err := jsonl.Decode(data, "f", func(n int, line []byte) error {
		if kept == 2 {
			return jsonl.ErrStop
		}
		kept++
		return nil
	})
	if err != nil || res.Lines != 2 || string(data[:res.Size]) != "10\n20\n" {
		t.Fatalf("stopped after %d lines at %d (%v), want 2 lines, %q", res.Lines, res.Size, err, "10\n20\n")
	}
	wrapped := fmt.Errorf("enough: %w", jsonl.ErrStop)
	if res, err := jsonl.Decode(data, "f", func(int, []byte) error { return wrapped }); err != nil || res.Lines != 0 || res.Size != 0 {
		t.Fatalf("a wrapped ErrStop: %+v, %v", res, err)
	}
}

// FuzzDecode checks that whatever the data, the valid part Decode reports
// is a prefix that decodes again to the same lines with no partial line.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("1\n2\n{"))
	f.Add([]byte("\n\n3"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var got []int
		res, err := jsonl.Decode(data, "fuzz", number(&got))
		if err != nil {
			return
		}
		if res.Size < 0 || res.Size > int64(len(data)) {
			t.Fatalf("size %d outside [0, %d]", res.Size, len(data))
		}
		var again []int
		res2, err := jsonl.Decode(data[:res.Size], "fuzz", number(&again))
		if err != nil || res2.Partial != 0 || fmt.Sprint(again) != fmt.Sprint(got) {
			t.Fatalf("the valid prefix decodes to %v (%+v, %v), the whole to %v", again, res2, err, got)
		}
	})
}

// Example reads a file of generations that a killed writer left with a
// half-written last line.
func Example() {
	data := []byte("{\"generation\":0,\"best\":0.5}\n{\"generation\":1,\"best\":0.61}\n{\"generation\":2,\"be")
	res, err := jsonl.Decode(data, "generations.jsonl", func(n int, line []byte) error {
		var g struct {
			Generation int     `json:"generation"`
			Best       float64 `json:"best"`
		}
		if err := json.Unmarshal(line, &g); err != nil {
			return err
		}
		fmt.Printf("line %d: generation %d, best %.2f\n", n, g.Generation, g.Best)
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Lines, "lines in the first", res.Size, "bytes")
	fmt.Println(res.Warning("generations.jsonl"))
	// Output:
	// line 1: generation 0, best 0.50
	// line 2: generation 1, best 0.61
	// 2 lines in the first 57 bytes
	// generations.jsonl:3: skipping a half-written last line (19 bytes) left by an interrupted run
}

// TestDecodeReaderLongLines checks that lines longer than the reader's
// buffer come whole, numbered, with the size of the valid part, and that a
// long half-written last line is skipped as a short one is.
func TestDecodeReaderLongLines(t *testing.T) {
	long := `"` + strings.Repeat("x", 200_000) + `"`
	data := "1\n" + long + "\n\n2\n" + long[:150_000]
	var got []int
	res, err := jsonl.DecodeReader(strings.NewReader(data), "f", func(n int, line []byte) error {
		if len(line) > 0 && line[0] == '"' && line[len(line)-1] != '"' {
			return errors.New("half a string")
		}
		if line[0] == '"' && len(line) != len(long) {
			t.Fatalf("line %d has %d bytes, want %d", n, len(line), len(long))
		}
		got = append(got, n)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[1 2 4]" || res.Lines != 3 || res.Partial != 5 || res.PartialBytes != 150_000 || res.Size != int64(len(data)-150_000) {
		t.Fatalf("lines %v, result %+v", got, res)
	}
}
