//go:build !amd64 || purego

package core

const (
	pairChunk   = 32
	hasPairSIMD = false
)

func indexPairSIMD(s string, c1, c2 byte, d int) int { panic("unreachable") }

func indexEitherSIMD(s string, a, b byte) int { panic("unreachable") }

func placesSIMD(s string, c byte, out []int32, base int) (n, done int) { panic("unreachable") }
