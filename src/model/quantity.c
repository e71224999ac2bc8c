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
    static const struct { const char *s; int dec, bin; } table[] = {
        { "", 0, 0 }, { "n", -9, 0 }, { "u", -6, 0 }, { "m", -3, 0 }, { "k", 3, 0 },
        { "M", 6, 0 }, { "G", 9, 0 }, { "T", 12, 0 }, { "P", 15, 0 }, { "E", 18, 0 },
        { "Ki", 0, 10 }, { "Mi", 0, 20 }, { "Gi", 0, 30 }, { "Ti", 0, 40 }, { "Pi", 0, 50 },
        { "Ei", 0, 60 },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(p, table[i].s) == 0) { *dec = table[i].dec; *bin = table[i].bin; return true; }
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
