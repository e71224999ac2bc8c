/* quantity.c — Kubernetes resource.Quantity strings to milli-units.
 *
 * Grammar (k8s.io/apimachinery/pkg/api/resource/quantity.go):
 *   quantity  ::= [+-] number suffix
 *   number    ::= digits | digits "." [digits] | "." digits
 *   suffix    ::= "" | binarySI (Ki Mi Gi Ti Pi Ei) | decimalSI (n u m k M G T P E)
 *               | ("e" | "E") [+-] digits
 * The value is exact: the mantissa's digits are kept as a decimal digit string, multiplied by
 * 2^k for binary suffixes, then shifted by the decimal exponent (+3 for milli).  Digits that fall
 * below one milli-unit round the magnitude up (away from zero), as Kubernetes rounds requests
 * up.  Anything whose magnitude exceeds INT64_MAX milli-units is an overflow (false).
 * Strings longer than QTY_MAX_LEN are rejected: no real quantity is that long.
 */
#include "model/quantity.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define QTY_MAX_LEN 128
#define QTY_MAX_DIGITS (QTY_MAX_LEN + 20)   /* mantissa digits after multiplying by 2^60 */
#define QTY_EXP_CLAMP 10000                 /* exponents beyond this are all the same to us */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* suffix -> decimal exponent and binary exponent; false if not a valid suffix */
static bool parse_suffix(const char *p, long *dec, int *bin)
{
    /* the SI suffixes by their first two bytes (one switch, no string compares: a pod's
     * requests are parsed for every pod of a list) */
    *bin = 0;
    if (!p[0]) { *dec = 0; return true; }
    if (p[1] == 'i' && !p[2]) {
        *dec = 0;
        switch (p[0]) {
        case 'K': *bin = 10; return true;
        case 'M': *bin = 20; return true;
        case 'G': *bin = 30; return true;
        case 'T': *bin = 40; return true;
        case 'P': *bin = 50; return true;
        case 'E': *bin = 60; return true;
        default: return false;
        }
    }
    if (!p[1]) {
        switch (p[0]) {
        case 'n': *dec = -9; return true;
        case 'u': *dec = -6; return true;
        case 'm': *dec = -3; return true;
        case 'k': *dec = 3; return true;
        case 'M': *dec = 6; return true;
        case 'G': *dec = 9; return true;
        case 'T': *dec = 12; return true;
        case 'P': *dec = 15; return true;
        case 'E': *dec = 18; return true;
        default: break;                    /* "e"/"E" alone: an exponent without digits */
        }
    }
    if (*p != 'e' && *p != 'E') return false;
    p++;                                   /* decimal exponent: [+-]digits, nothing after */
    bool neg = false;
    if (*p == '+' || *p == '-') neg = *p++ == '-';
    if (!is_digit(*p)) return false;
    long e = 0;
    for (; is_digit(*p); p++)
        if (e < QTY_EXP_CLAMP) e = e * 10 + (*p - '0');
    if (*p) return false;
    if (e > QTY_EXP_CLAMP) e = QTY_EXP_CLAMP;
    *dec = neg ? -e : e;
    *bin = 0;
    return true;
}

/* the common case in integer arithmetic: at most 18 mantissa digits (so they fit in 64 bits),
 * times 2^bin, times 10^shift; false when it does not fit in 128 bits or in the result, and
 * the exact digit-string way below decides (the same value either way: ceil of the magnitude) */
static bool quantity_fast(const char *dig, size_t n, long shift, int bin, bool neg, int64_t *milli)
{
    typedef unsigned __int128 u128;
    uint64_t m = 0;
    for (size_t i = 0; i < n; i++) m = m * 10 + (uint64_t)dig[i];
    if (bin > 60) return false;
    u128 v = (u128)m << bin;                          /* < 10^18 * 2^60 < 2^120 */
    if (shift >= 0) {
        if (shift > 19) return false;                 /* m >= 1: over 10^19 > INT64_MAX */
        for (long i = 0; i < shift; i++) {
            v *= 10;
            if (v > (u128)INT64_MAX) return false;
        }
    } else {
        if (shift < -36) return false;
        u128 p10 = 1;
        for (long i = 0; i < -shift; i++) p10 *= 10;
        u128 q = v / p10;
        v = q + (q * p10 != v);                       /* below a milli-unit: rounded up */
    }
    if (v > (u128)INT64_MAX) return false;
    *milli = neg ? -(int64_t)v : (int64_t)v;
    return true;
}

bool quantity_parse(const char *s, int64_t *milli)
{
    if (!s) return false;
    size_t len = strlen(s);
    if (len == 0 || len > QTY_MAX_LEN) return false;
    const char *p = s;
    bool neg = false;
    if (*p == '+' || *p == '-') neg = *p++ == '-';

    /* mantissa digits, most significant first, leading zeros dropped */
    char dig[QTY_MAX_DIGITS];
    size_t n = 0, ndigits_seen = 0;
    long frac = 0;
    for (; is_digit(*p); p++, ndigits_seen++)
        if (n || *p != '0') dig[n++] = (char)(*p - '0');
    if (*p == '.') {
        p++;
        for (; is_digit(*p); p++, ndigits_seen++) {
            if (n || *p != '0') dig[n++] = (char)(*p - '0');
            frac++;
        }
    }
    if (ndigits_seen == 0) return false;
    long dec; int bin;
    if (!parse_suffix(p, &dec, &bin)) return false;
    if (n == 0) { *milli = 0; return true; }
    if (n <= 18 && quantity_fast(dig, n, dec + 3 - frac, bin, neg, milli)) return true;

    /* multiply the digit string by 2^bin */
    for (int k = 0; k < bin; k++) {
        int carry = 0;
        for (size_t i = n; i-- > 0;) {
            int v = dig[i] * 2 + carry;
            dig[i] = (char)(v % 10);
            carry = v / 10;
        }
        if (carry) { memmove(dig + 1, dig, n); dig[0] = (char)carry; n++; }
    }

    /* value in milli = digits * 10^shift */
    long shift = dec + 3 - frac;
    long nint = (long)n + shift;          /* digits left of the decimal point */
    if (nint > 19) return false;          /* >= 10^19 > INT64_MAX */
    uint64_t v = 0;
    for (long i = 0; i < nint; i++) {
        int d = i < (long)n ? dig[i] : 0;
        if (v > (UINT64_MAX - (uint64_t)d) / 10) return false;
        v = v * 10 + (uint64_t)d;
    }
    bool rest = false;                    /* non-zero digits below a milli-unit */
    for (long i = nint < 0 ? 0 : nint; i < (long)n; i++)
        if (dig[i]) { rest = true; break; }
    if (rest) v++;
    if (v > (uint64_t)INT64_MAX) return false;
    *milli = neg ? -(int64_t)v : (int64_t)v;
    return true;
}

int64_t quantity_units_ceil(int64_t milli)
{
    if (milli <= 0) return milli / 1000;  /* C division truncates toward zero = ceil here */
    return milli / 1000 + (milli % 1000 != 0);
}

void quantity_format(int64_t milli, char *out, size_t outlen)
{
    if (milli % 1000 == 0) snprintf(out, outlen, "%" PRId64, milli / 1000);
    else snprintf(out, outlen, "%" PRId64 "m", milli);
}

int64_t quantity_to_mib(int64_t milli)
{
    const int64_t per_mib = 1000LL * 1024 * 1024;
    int64_t q = milli / per_mib;
    if (milli % per_mib != 0 && milli < 0) q--;   /* floor */
    return q;
}
