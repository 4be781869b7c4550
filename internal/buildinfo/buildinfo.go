// Package buildinfo names the version every fsrb binary prints: the one
// the Makefile writes in with -ldflags, else the module version `go
// install ...@version` records, else "devel". The three binaries (fsrb,
// fsrb-lsp, fsrb-mcp) share it so that they never disagree.
package buildinfo

import "runtime/debug"

// Version returns linked (the -X main.version value, "" when none) or the
// module version the build recorded.
func Version(linked string) string {
	if linked != "" {
		return linked
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
