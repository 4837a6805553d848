//go:build !linux

package main

func dieWithParent() {}
