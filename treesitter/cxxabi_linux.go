package treesitter

// A grammar's external scanner written in C++ (a std::vector of its
// indentation stack) makes the link pull in libstdc++, libgcc_s and libm
// as shared libraries, for five symbols: operator new and delete, the
// vector's length error, and the exception personality and resume
// routines. Loading and relocating those libraries, and libgcc_s's CPU
// probe, was a large part of starting fsrb, a process an agent starts on
// every edit (make bench; docs/PERFORMANCE.md "Processes"). The scanners
// throw no exception of their own: the five are defined here, on malloc
// and abort (an allocation that fails aborts, as an uncaught bad_alloc
// would), and --as-needed drops the libraries nothing then needs. They
// are weak: a static link (make install) that brings the real ones for
// libc's own sake takes those.

/*
#cgo LDFLAGS: -Wl,--as-needed
#include <stdlib.h>

#define WEAK __attribute__((weak))

WEAK void *_Znwm(size_t n) {
	void *p = malloc(n ? n : 1);
	if (p == NULL) abort();
	return p;
}
WEAK void _ZdlPvm(void *p, size_t n) { (void)n; free(p); }
WEAK void _ZSt20__throw_length_errorPKc(const char *what) { (void)what; abort(); }
WEAK int __gxx_personality_v0(void) { abort(); }
WEAK void _Unwind_Resume(void *e) { (void)e; abort(); }
*/
import "C"
