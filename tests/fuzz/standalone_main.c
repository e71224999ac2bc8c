/* standalone_main.c — a main() for the libFuzzer targets of tests/fuzz without libFuzzer (as
 * LLVM's StandaloneFuzzTargetMain.c does): every file named, and every file of every directory
 * named, is read and passed once to LLVMFuzzerTestOneInput.  Built with the ordinary compiler
 * (gcc) by tests/fuzz/replay.sh, so the corpora are replayed as a regression test by the normal
 * test run, without clang.  A failed invariant or a sanitizer report aborts, as under
 * libFuzzer.  Prints "replayed N inputs" at the end. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static long replayed;

static void run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "replay: cannot read %s\n", path); exit(2); }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) { cap *= 2; buf = realloc(buf, cap); }
    }
    fclose(f);
    if (!buf) { fprintf(stderr, "replay: out of memory\n"); exit(2); }
    /* an exact-size copy: ASan then sees a read past the input as libFuzzer would */
    unsigned char *in = malloc(n ? n : 1);
    if (!in) exit(2);
    memcpy(in, buf, n);
    free(buf);
    fprintf(stderr, "replay: %s\n", path);
    LLVMFuzzerTestOneInput(in, n);
    free(in);
    replayed++;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return;               /* a corpus not made: nothing to replay */
    if (!S_ISDIR(st.st_mode)) { run_file(path); return; }
    DIR *d = opendir(path);
    if (!d) return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) { cap = cap ? cap * 2 : 64; names = realloc(names, cap * sizeof *names); if (!names) exit(2); }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n]) exit(2);
        snprintf(names[n], len, "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) run_file(names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') continue;            /* libFuzzer flags: ignored */
        run_path(argv[i]);
    }
    printf("replayed %ld inputs\n", replayed);
    return 0;
}
