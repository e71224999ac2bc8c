/* libFuzzer target: the watch stream reader (src/sources/watch.c on_data / on_line, through
 * watch_parse_chunks): arbitrary bytes as a watch answer's body, cut into chunks where the
 * input says.  Byte 0 picks the kind; the rest is the stream, and every 0xff byte in it is a
 * chunk boundary (removed), so the fuzzer chooses the boundaries.  Invariants: no crash; the
 * result does not depend on the chunking (the same stream in one chunk and one byte at a time
 * give the same events, end, problem and resourceVersion); upserts + deletes <= events. */
#include <stdio.h>
#include "fuzz_util.h"
#include "watch_plan.h"

static void compare(const WatchParseResult *a, const WatchParseResult *b)
{
    FUZZ_ASSERT(a->events == b->events && a->upserts == b->upserts && a->deletes == b->deletes);
    FUZZ_ASSERT(a->end == b->end);
    FUZZ_ASSERT(strcmp(a->problem, b->problem) == 0);
    FUZZ_ASSERT(strcmp(a->rv, b->rv) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1u << 20)) return 0;
    ObjKind kind = (ObjKind)(data[0] % OBJ__COUNT);
    data++, size--;
    /* the stream without the 0xff markers, and the chunks they cut */
    char *stream = malloc(size + 1);
    const char **chunks = malloc((size + 1) * sizeof *chunks);
    size_t *lens = malloc((size + 1) * sizeof *lens);
    if (!stream || !chunks || !lens) abort();
    size_t n = 0, len = 0, start = 0;
    for (size_t i = 0; i < size; i++) {
        if (data[i] == 0xff) {
            if (len > start) { chunks[n] = stream + start; lens[n] = len - start; n++; }
            start = len;
            continue;
        }
        stream[len++] = (char)data[i];
    }
    if (len > start) { chunks[n] = stream + start; lens[n] = len - start; n++; }

    WatchParseResult cut, whole, bytes;
    watch_parse_chunks(kind, chunks, lens, n, &cut);
    FUZZ_ASSERT(cut.upserts + cut.deletes <= cut.events);
    const char *one = stream;
    watch_parse_chunks(kind, &one, &len, len ? 1 : 0, &whole);
    compare(&cut, &whole);
    if (len <= 4096) {            /* one byte per chunk: the worst case of the line splitting */
        for (size_t i = 0; i < len; i++) { chunks[i] = stream + i; lens[i] = 1; }
        watch_parse_chunks(kind, chunks, lens, len, &bytes);
        compare(&cut, &bytes);
        free(bytes.rv);
    }
    free(cut.rv);
    free(whole.rv);
    free(stream);
    free(chunks);
    free(lens);
    return 0;
}
