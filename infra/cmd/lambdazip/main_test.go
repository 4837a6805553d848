package main

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestPackIsReproducibleAndExecutable(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bootstrap")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(dir, "a.zip"), filepath.Join(dir, "b.zip")
	if err := pack(a, bin); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	os.Chtimes(bin, later, later)
	if err := pack(b, bin); err != nil {
		t.Fatal(err)
	}
	za, _ := os.ReadFile(a)
	zb, _ := os.ReadFile(b)
	if !bytes.Equal(za, zb) {
		t.Error("zips of the same binary differ")
	}
	r, err := zip.OpenReader(a)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if len(r.File) != 1 || r.File[0].Name != "bootstrap" {
		t.Fatalf("entries = %v, want bootstrap only", r.File)
	}
	if mode := r.File[0].Mode(); mode.Perm() != 0o755 {
		t.Errorf("mode = %v, want 0755", mode)
	}
	rc, _ := r.File[0].Open()
	got, _ := io.ReadAll(rc)
	rc.Close()
	if string(got) != "#!/bin/sh\necho hi\n" {
		t.Errorf("content = %q", got)
	}
}
