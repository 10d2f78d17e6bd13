package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"crucible/internal/atomicfile"
)

// checkOutPath refuses an output file flag (flag is its name, "--out")
// that cannot be written, before any work is done: a path that names a
// directory ("--out runs is a directory"), or one in a directory that does
// not exist.
func checkOutPath(flag, path string) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("%s %s is a directory; name the file to write", flag, path)
	}
	dir := filepath.Dir(path)
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: directory %s does not exist", flag, path, dir)
	case err != nil:
		return fmt.Errorf("%s %s: %w", flag, path, err)
	case !info.IsDir():
		return fmt.Errorf("%s %s: %s is not a directory", flag, path, dir)
	}
	return nil
}

// writeOutFile writes an output file flag's file atomically; a path that
// became a directory since checkOutPath says so with the flag's name.
func writeOutFile(flag, path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data); err != nil {
		if errors.Is(err, atomicfile.ErrIsDir) {
			return fmt.Errorf("%s %w; name the file to write", flag, err)
		}
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return nil
}

// checkNotInput refuses an output file that is one of the command's input
// files: writing it would destroy what was read (crucible rate --results
// r.jsonl --out r.jsonl replaced the results by ratings).
func checkNotInput(outFlag, out, inFlag, in string) error {
	if out == "" || in == "" {
		return nil
	}
	a, errA := os.Stat(out)
	b, errB := os.Stat(in)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		return fmt.Errorf("%s %s is the %s file; choose another file to write", outFlag, out, inFlag)
	}
	return nil
}
