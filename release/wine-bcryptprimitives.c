/*
 * bcryptprimitives.dll for Wine 8 (Debian 12's), which lacks it: Go's
 * runtime since Go 1.22 takes its random bytes from ProcessPrng there and
 * stops at start-up without it. Windows 10 and later, and newer Wine, have
 * the real one; release/check.sh copies this into its own Wine prefix only.
 * RtlGenRandom is advapi32's SystemFunction036.
 */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!RtlGenRandom(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
