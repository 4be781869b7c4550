package core

import (
	"math/rand"
	"strings"
)

// randText is n bytes drawn from alphabet: the texts of the randomised
// tests that hold a fast path to a reference (few letters, so that places
// repeat and overlap).
func randText(rnd *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rnd.Intn(len(alphabet))]
	}
	return string(b)
}

// randLines is n lines, each one of words, drawn with intn (math/rand's
// or math/rand/v2's).
func randLines(intn func(int) int, words []string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(words[intn(len(words))] + "\n")
	}
	return b.String()
}

// randDoc is a file's raw bytes for trial of a randomised doc test: n of
// words' lines, with CRLF endings every third trial and no final newline
// every fifth.
func randDoc(intn func(int) int, words []string, n, trial int) string {
	raw := randLines(intn, words, n)
	if trial%3 == 1 {
		raw = strings.ReplaceAll(raw, "\n", "\r\n")
	}
	if trial%5 == 2 {
		raw = strings.TrimSuffix(raw, "\n")
	}
	return raw
}
