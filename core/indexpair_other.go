//go:build !amd64 || purego

package core

// Without AVX2 assembly (another architecture, or the purego tag) the
// callers of the scans below do all the work in Go; these are never called.
const simdChunk = 32

// Variables, not constants, so that the tests can switch scans off on any
// build alike.
var hasSIMD = false

func indexPairSIMD(s string, c1, c2 byte, d int) int { panic("unreachable") }

func indexPairAVX512(s string, c1, c2 byte, d int) int { panic("unreachable") }

func indexEitherSIMD(s string, a, b byte) int { panic("unreachable") }

func placesAVX512(s string, c byte, out []int32, base int) (n, done int) { panic("unreachable") }

func placesSIMD(s string, c byte, out []int32, base int) (n, done int) { panic("unreachable") }
