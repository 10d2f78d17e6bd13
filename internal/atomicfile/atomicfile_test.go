package atomicfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"crucible/internal/atomicfile"
)

// TestWriteFileReplaces checks that a write replaces the file's content
// and leaves it readable by everyone (0644) whatever the umask and the
// mode of the file it replaces, and that no temporary file is left.
func TestWriteFileReplaces(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.WriteFile(path, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "new\n" {
		t.Fatalf("content %q (%v), want %q", data, err, "new\n")
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, want 0644", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want only out.json", len(entries))
	}
}

// TestWriteFileRefusesADirectory checks the message for a path that names
// a directory (it used to be "rename .out.tmp123 dir: file exists") and
// that nothing is left beside it.
func TestWriteFileRefusesADirectory(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "reports")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	err := atomicfile.WriteFile(target, []byte("x"))
	if err == nil || err.Error() != target+" is a directory" || !errors.Is(err, atomicfile.ErrIsDir) {
		t.Fatalf("error %v, want %q wrapping ErrIsDir", err, target+" is a directory")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("directory holds %d entries after the refusal, want 1", len(entries))
	}
}

// TestWriteFileMissingDirectory checks that a write into a directory that
// does not exist fails and creates nothing.
func TestWriteFileMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none", "out.json")
	if err := atomicfile.WriteFile(path, []byte("x")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("error %v, want a missing directory", err)
	}
}
