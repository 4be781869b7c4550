// Package scan holds the byte scans exact matching runs over whole files,
// each a native routine beside the Go loop it must equal, on the model of
// Go's internal/bytealg. The standard library scans for one byte at SIMD
// speed (strings.IndexByte) but for nothing else these need: two bytes at
// a distance, either of two bytes, every place of a byte.
//
// The native routines are AVX2, for amd64 without the purego tag; they
// cover the whole 32-byte steps of a text and the Go loops the rest.
// Which routines run is decided once, here, from the CPU.
package scan

// A Level is one set of routines the scans can run: the native routines
// of one CPU feature, or the Go loops alone.
type Level struct {
	Name string
	// Missing says why this build on this CPU cannot run the level; it
	// is empty when it can.
	Missing string
}

// useAVX2 says whether the scans run their AVX2 routines: wherever the
// build has them and the CPU can run them.
var useAVX2 = avx2Missing() == ""

// Levels lists every level, fastest first, each with why it cannot run
// here when it cannot, so that a test can say which it skipped.
func Levels() []Level {
	return []Level{{Name: "avx2", Missing: avx2Missing()}, {Name: "go"}}
}

// Use makes the scans run at the level named until restore is called, so
// that tests can hold every level to the same answers. It is not safe
// while scans run on other goroutines, and it panics on a level that
// cannot run here.
func Use(name string) (restore func()) {
	old := useAVX2
	switch name {
	case "avx2":
		if m := avx2Missing(); m != "" {
			panic("scan: " + m)
		}
		useAVX2 = true
	case "go":
		useAVX2 = false
	default:
		panic("scan: no level " + name)
	}
	return func() { useAVX2 = old }
}
