// Package atomicfile writes output files atomically, so that a reader (or a
// crash) never sees half of one: the data goes to a temporary file beside
// the destination, is flushed to disk (fsync) and renamed into place, with
// github.com/google/renameio/v2.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/renameio/v2"
)

// Mode is the permission of every file WriteFile writes: readable by
// everyone, like any output file, whatever the umask or the permissions of
// the file it replaces.
const Mode fs.FileMode = 0o644

// ErrIsDir is wrapped by the error of a write whose path names a directory.
var ErrIsDir = errors.New("is a directory")

// WriteFile replaces the file at path with data, atomically: a failure
// leaves the previous file (or none) and no temporary file behind. A path
// that names an existing directory is an error wrapping ErrIsDir that
// reads "PATH is a directory".
func WriteFile(path string, data []byte) error {
	if err := checkNotDir(path); err != nil {
		return err
	}
	// The temporary file lies beside path (WithTempDir): renameio would
	// otherwise probe the system's temporary directory on every write.
	f, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)), renameio.WithStaticPermissions(Mode))
	if err != nil {
		return err
	}
	defer f.Cleanup()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.CloseAtomicallyReplace()
}

// checkNotDir refuses a path that names a directory.
func checkNotDir(path string) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("%s %w", path, ErrIsDir)
	}
	return nil
}

// TempOf tells whether name (a base name) is the temporary file of a
// WriteFile in progress, and which file it was to become: renameio names
// it "." + the destination's base name + random digits, beside it. A
// process killed in the middle of a write leaves it behind; TempOf is how
// the writer's next run recognises what to remove.
func TempOf(name string) (dest string, ok bool) {
	rest, found := strings.CutPrefix(name, ".")
	if !found {
		return "", false
	}
	base := strings.TrimRight(rest, "0123456789")
	if base == "" || len(base) == len(rest) {
		return "", false
	}
	return base, true
}
