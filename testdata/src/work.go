// work.go - allocates in a small call tree for Go's heap profile.
package main

import (
	"os"
	"runtime"
	"runtime/pprof"
)

var keep [][]byte

func leaf(n int) { keep = append(keep, make([]byte, n)) }

func branch(k int) {
	for i := 0; i < 64; i++ {
		leaf(4096 * (k + 1))
	}
}

func main() {
	runtime.MemProfileRate = 1
	for k := 0; k < 8; k++ {
		branch(k)
	}
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	pprof.Lookup("allocs").WriteTo(f, 0)
	f.Close()
}
