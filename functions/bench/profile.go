package main

import (
	"os"
	"runtime/pprof"
)

// startCPUProfile profiles this process (the relay, tools and connect parts
// run our handlers in it) into path; the answer stops and writes it.
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
