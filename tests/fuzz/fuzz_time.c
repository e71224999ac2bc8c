/* libFuzzer target: durations (util_duration_parse: --request-timeout, --window, --interval) and
 * RFC 3339 times (util_time_parse_rfc3339: object timestamps, snapshot time, exec credential
 * expiry), src/util/util.c.  Any string: no crash; a duration is finite, >= 0 and at most
 * 1e9 s; a time has valid fields (it prints back via gmtime as the same instant when it has
 * no offset or fraction). */
#include <math.h>
#include <stdio.h>
#include <time.h>
#include "fuzz_util.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_cstr(data, size);
    double d = -1;
    if (util_duration_parse(s, &d)) FUZZ_ASSERT(isfinite(d) && d >= 0 && d <= 1e9);
    int64_t t = 0;
    if (util_time_parse_rfc3339(s, &t)) {
        char age[32];
        util_format_age(t, age, sizeof age);
        util_format_age(-t, age, sizeof age);
        /* "YYYY-MM-DDTHH:MM:SSZ" exactly: formatting the epoch gives the input back */
        if (strlen(s) == 20 && s[19] == 'Z' && s[0] != '0') {   /* strftime's %Y has no leading zeros */
            time_t tt = (time_t)t;
            struct tm tm;
            char back[32];
            if (gmtime_r(&tt, &tm) && strftime(back, sizeof back, "%Y-%m-%dT%H:%M:%SZ", &tm) &&
                strncmp(s + 17, "60", 2) != 0) {
                if (strcmp(back, s) != 0) {
                    fprintf(stderr, "FUZZ: time [%s] read as %lld = [%s]\n", s, (long long)t, back);
                    abort();
                }
            }
        }
    }
    free(s);
    return 0;
}
