//go:build !amd64 || purego

package scan

import "runtime"

func avx2Missing() string {
	if runtime.GOARCH == "amd64" {
		return "built with the purego tag"
	}
	return "no AVX2 routines on " + runtime.GOARCH
}
