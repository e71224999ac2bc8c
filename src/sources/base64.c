/* base64.c — RFC 4648 base64 for kubeconfig *-data fields and the exec plugin's cluster info.
 * Small enough not to need a library. */
#include "internal.h"
#include "util/util.h"
#include <stdlib.h>
#include <string.h>

static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;     /* '-' and '_': the URL alphabet, accepted too */
    if (c == '/' || c == '_') return 63;
    return -1;
}

char *base64_decode(const char *in, size_t inlen, size_t *outlen)
{
    char *out = xmalloc(inlen / 4 * 3 + 4);
    size_t n = 0;
    unsigned acc = 0;
    int bits = 0, pad = 0;
    for (size_t i = 0; i < inlen; i++) {
        unsigned char c = (unsigned char)in[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        if (c == '=') { pad++; continue; }
        int v = b64_value(c);
        if (v < 0 || pad) { free(out); return NULL; }     /* bad char, or data after padding */
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (char)((acc >> bits) & 0xff);
        }
    }
    /* 6 leftover bits can't come from whole bytes; more than 2 '=' is never valid */
    if (bits >= 6 || pad > 2) { free(out); return NULL; }
    out[n] = '\0';
    if (outlen) *outlen = n;
    return out;
}

char *base64_encode(const void *in, size_t inlen)
{
    const unsigned char *p = in;
    char *out = xmalloc((inlen + 2) / 3 * 4 + 1);
    size_t n = 0, i = 0;
    for (; i + 2 < inlen; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];
        out[n++] = alphabet[v >> 18]; out[n++] = alphabet[(v >> 12) & 63];
        out[n++] = alphabet[(v >> 6) & 63]; out[n++] = alphabet[v & 63];
    }
    if (i < inlen) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < inlen ? (unsigned)p[i + 1] << 8 : 0);
        out[n++] = alphabet[v >> 18]; out[n++] = alphabet[(v >> 12) & 63];
        out[n++] = i + 1 < inlen ? alphabet[(v >> 6) & 63] : '=';
        out[n++] = '=';
    }
    out[n] = '\0';
    return out;
}
