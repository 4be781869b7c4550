//go:build !purego

package core

import "golang.org/x/sys/cpu"

// simdChunk is how many places a step of the AVX2 scans tests (one
// 32-byte register); their callers take the rest of s in Go.
const simdChunk = 32

// hasSIMD: the scans of indexpair_amd64.s run only where the CPU has
// AVX2; elsewhere their callers' Go loops do all the work.
var hasSIMD = cpu.X86.HasAVX2

// indexPairSIMD is indexPair over the places [0, m&^31), m = len(s)-d >=
// 32: the first match, or -1 when none of those places is one.
//
//go:noescape
func indexPairSIMD(s string, c1, c2 byte, d int) int

// indexEitherSIMD is indexEither over s[:len(s)&^31], len(s) >= 32.
//
//go:noescape
func indexEitherSIMD(s string, a, b byte) int

// placesSIMD is appendPlaces' step: see core/indexpair_amd64.s.
//
//go:noescape
func placesSIMD(s string, c byte, out []int32, base int) (n, done int)

// indexPairAVX512 is indexPair over the places [0, m&^63), m = len(s)-d
// >= 64, where the CPU has AVX-512: the first match, or -1.
//
//go:noescape
func indexPairAVX512(s string, c1, c2 byte, d int) int

// placesAVX512 is appendPlaces' step where the CPU has AVX-512: see
// core/indexpair_amd64.s.
//
//go:noescape
func placesAVX512(s string, c byte, out []int32, base int) (n, done int)
