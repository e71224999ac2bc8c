/* libFuzzer target: the quoting rule of `plan -o script` (src/util/shquote.c), through which
 * every value from a cluster or kubeconfig reaches the script.  Any C string (the input up to
 * its first NUL, as the model hands strings over):
 *   word     the word is one line of printable ASCII, and a small reader of POSIX/bash
 *            quoting ('...', \X, $'\xHH') gives the original bytes back;
 *   heredoc  the chosen terminator is no line of the body, and reading the heredoc as bash does
 *            (line by line up to the first line equal to the terminator) gives the body back;
 *   comment  the text holds no control byte (no CR or LF that would end or hide the line), no
 *            DEL and no C1 control. */
#include <stdbool.h>
#include <stdio.h>
#include "fuzz_util.h"
#include "util/shquote.h"

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* reads one shell word: returns the bytes it stands for (length *n), or NULL when the text
 * holds anything but quoted parts (an unquoted character would be shell syntax) */
static char *read_word(const char *w, size_t *n)
{
    size_t len = strlen(w), o = 0;
    char *out = malloc(len + 1);
    if (!out) abort();
    for (size_t i = 0; i < len; ) {
        if (w[i] == '\'') {
            size_t j = i + 1;
            while (j < len && w[j] != '\'') out[o++] = w[j++];
            if (j >= len) { free(out); return NULL; }
            i = j + 1;
        } else if (w[i] == '\\' && i + 1 < len) {
            out[o++] = w[i + 1];
            i += 2;
        } else if (w[i] == '$' && i + 1 < len && w[i + 1] == '\'') {
            size_t j = i + 2;
            while (j < len && w[j] != '\'') {
                if (j + 3 >= len || w[j] != '\\' || w[j + 1] != 'x' || hexval(w[j + 2]) < 0 || hexval(w[j + 3]) < 0) {
                    free(out);
                    return NULL;
                }
                out[o++] = (char)(hexval(w[j + 2]) * 16 + hexval(w[j + 3]));
                j += 4;
            }
            if (j >= len) { free(out); return NULL; }
            i = j + 1;
        } else {
            free(out);
            return NULL;
        }
    }
    *n = o;
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_cstr(data, size);
    size_t slen = strlen(s);

    Strbuf w = STRBUF_INIT;
    shquote_word(&w, s);
    const char *word = strbuf_str(&w);
    for (const char *p = word; *p; p++) FUZZ_ASSERT(*p >= 0x20 && *p <= 0x7e);
    size_t n = 0;
    char *back = read_word(word, &n);
    FUZZ_ASSERT(back != NULL);
    FUZZ_ASSERT(n == slen && memcmp(back, s, n) == 0);
    free(back);
    strbuf_clear(&w);

    char *delim = shquote_heredoc_delim(s, "KGPU_MANIFESTS");
    Strbuf doc = STRBUF_INIT;          /* as the script writes it: body, newline, terminator */
    strbuf_adds(&doc, s);
    if (slen && s[slen - 1] != '\n') strbuf_addch(&doc, '\n');
    strbuf_adds(&doc, delim);
    strbuf_addch(&doc, '\n');
    Strbuf got = STRBUF_INIT;
    bool ended = false;
    for (const char *p = strbuf_str(&doc); *p && !ended; ) {
        const char *nl = strchr(p, '\n');
        size_t len = (size_t)(nl - p);
        if (len == strlen(delim) && memcmp(p, delim, len) == 0) ended = true;
        else strbuf_add(&got, p, len + 1);
        p = nl + 1;
    }
    FUZZ_ASSERT(ended);
    size_t want = slen && s[slen - 1] != '\n' ? slen + 1 : slen;
    FUZZ_ASSERT(got.len == want && memcmp(strbuf_str(&got), s, slen) == 0);
    strbuf_clear(&got);
    strbuf_clear(&doc);
    free(delim);

    Strbuf c = STRBUF_INIT;
    shquote_comment(&c, s);
    const unsigned char *q = (const unsigned char *)strbuf_str(&c);
    for (size_t i = 0; q[i]; i++) {
        FUZZ_ASSERT(q[i] >= 0x20 && q[i] != 0x7f);
        FUZZ_ASSERT(!(q[i] == 0xc2 && q[i + 1] >= 0x80 && q[i + 1] <= 0x9f));
    }
    strbuf_clear(&c);
    free(s);
    return 0;
}
