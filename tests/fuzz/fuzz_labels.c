/* libFuzzer target: label selectors (label_selector_parse, src/model/labels.c).
 * Input: a selector, optionally followed by "\n" and label lines "key=value".
 * Any input: no crash, no leak; an error is one line; a parsed selector printed requirement by
 * requirement (selreq_format) parses back to the same requirements with the same verdict. */
#include <stdio.h>
#include "util/error.h"
#include "fuzz_util.h"
#include "model/labels.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_cstr(data, size);
    char *nl = strchr(s, '\n');
    KVList labels = KVLIST_INIT;
    if (nl) {
        *nl = '\0';
        for (char *line = nl + 1; line && *line;) {
            char *next = strchr(line, '\n');
            if (next) *next++ = '\0';
            char *eq = strchr(line, '=');
            if (eq) { *eq = '\0'; kv_set(&labels, line, eq + 1); }
            else kv_set(&labels, line, "");
            line = next;
        }
    }
    LabelSelector sel = LABEL_SELECTOR_INIT;
    Error err = { .set = false };
    if (label_selector_parse(&sel, s, &err) == 0) {
        bool m = label_selector_matches(&sel, &labels);
        Strbuf sb = STRBUF_INIT;
        for (size_t i = 0; i < sel.n; i++) {
            char *f = selreq_format(&sel.reqs[i]);
            strbuf_addf(&sb, "%s%s", i ? "," : "", f);
            free(f);
        }
        LabelSelector again = LABEL_SELECTOR_INIT;
        Error err2 = { .set = false };
        if (label_selector_parse(&again, strbuf_str(&sb), &err2) != 0) {
            fprintf(stderr, "FUZZ: reparse of [%s] failed: %s\n", strbuf_str(&sb), err2.msg);
            abort();
        }
        FUZZ_ASSERT(again.n == sel.n);
        for (size_t i = 0; i < sel.n; i++) {
            FUZZ_ASSERT(again.reqs[i].op == sel.reqs[i].op);
            FUZZ_ASSERT(strcmp(again.reqs[i].key, sel.reqs[i].key) == 0);
            FUZZ_ASSERT(again.reqs[i].nvalues == sel.reqs[i].nvalues);
        }
        FUZZ_ASSERT(label_selector_matches(&again, &labels) == m);
        label_selector_clear(&again);
        strbuf_clear(&sb);
    } else {
        FUZZ_ASSERT(err.set && sel.n == 0 && sel.reqs == NULL);
    }
    label_selector_clear(&sel);
    kv_clear(&labels);
    free(s);
    return 0;
}
