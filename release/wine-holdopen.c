/*
 * Holds a file open as a Windows program that does not share its deletion
 * does (an editor saving, a virus scanner), until standard input closes:
 * release/check.sh runs fsrb.exe over such a file under Wine.
 *   usage: holdopen FILE   (prints "open" once the file is open)
 */
#include <windows.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	char buf[64];
	HANDLE h;

	if (argc != 2) {
		fprintf(stderr, "usage: holdopen FILE\n");
		return 2;
	}
	h = CreateFileA(argv[1], GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
			OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		fprintf(stderr, "holdopen: cannot open %s (error %lu)\n", argv[1], GetLastError());
		return 1;
	}
	printf("open\n");
	fflush(stdout);
	while (fread(buf, 1, sizeof buf, stdin) > 0)
		;
	CloseHandle(h);
	return 0;
}
