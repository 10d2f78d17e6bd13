package atomicfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/renameio/v2"

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

// TempOf recognises the temporary file a write in progress leaves beside
// its destination (here one left open, as by a killed process), and
// nothing else.
func TestTempOf(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "r0-0v1.json")
	f, err := renameio.NewPendingFile(dest, renameio.WithTempDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Cleanup()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("%d files in the directory, want the temporary one", len(entries))
	}
	if got, ok := atomicfile.TempOf(entries[0].Name()); !ok || got != "r0-0v1.json" {
		t.Fatalf("TempOf(%q) = %q, %v; want r0-0v1.json", entries[0].Name(), got, ok)
	}
	for _, name := range []string{"r0-0v1.json", ".hidden", ".123", "r0.json123"} {
		if got, ok := atomicfile.TempOf(name); ok {
			t.Errorf("TempOf(%q) = %q, want no temporary file", name, got)
		}
	}
}
