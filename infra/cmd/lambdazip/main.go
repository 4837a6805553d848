// Command lambdazip packs a Lambda `bootstrap` binary into a zip the same
// way every time: one entry named bootstrap, mode 0755, a fixed timestamp.
// Equal binaries give equal zips, so CDK's asset hash (and the deployed
// function) changes only when the code does, and no `zip` tool is needed.
//
//	lambdazip OUT.zip BOOTSTRAP
package main

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: lambdazip OUT.zip BOOTSTRAP")
		os.Exit(2)
	}
	if err := pack(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "lambdazip:", err)
		os.Exit(1)
	}
}

// epoch is the earliest time a zip header can hold.
var epoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

func pack(out, bootstrap string) error {
	in, err := os.Open(bootstrap)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Dir(out), ".lambdazip-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	zw := zip.NewWriter(tmp)
	h := &zip.FileHeader{Name: "bootstrap", Method: zip.Deflate, Modified: epoch}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err == nil {
		_, err = io.Copy(w, in)
	}
	if err == nil {
		err = zw.Close()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return os.Rename(tmp.Name(), out)
}
