//go:build !amd64 || purego

package core

// Without the assembly no line index is built: counts read the text.
var hasAVX512 = false

func scanLinesAVX512(s string, lines []uint32, shift uint) bool { panic("unreachable") }
