#include <stdlib.h>
#include <string.h>

struct server {
    int port;
//      ^ chain: struct server
};

enum state { ON, OFF };
//           ^ chain: enum state

static char *dup(const char *s) {
    return strcpy(malloc(strlen(s) + 1), s);
//         ^ chain: function dup
//         ^ describe: static char *dup
}

int main(int argc, char **argv) {
    return 0;
//         ^ chain: function main
//         ^ sig: int main(int argc, char **argv) {
}
