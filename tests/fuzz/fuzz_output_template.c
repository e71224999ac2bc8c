/* libFuzzer target: -o jsonpath= / go-template= templates (src/render/output_template.c).
 * Input: an -o value ("jsonpath=..." or "go-template=..."), optionally followed by "\n" and a
 * JSON document to run it on.  Any input: no crash, no leak, no hang; a refused template is
 * one error line; a compiled one runs on the document (or on an empty object) without error
 * other than an index error. */
#include <stdio.h>
#include <cjson/cJSON.h>
#include "util/error.h"
#include "fuzz_util.h"
#include "render/output_template.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_cstr(data, size);
    char *nl = strchr(s, '\n');
    if (nl) *nl = '\0';
    cJSON *doc = nl ? cJSON_Parse(nl + 1) : NULL;
    if (!doc) doc = cJSON_CreateObject();
    Error err = { .set = false };
    if (strncmp(s, "jsonpath-file", 13) != 0 && strncmp(s, "go-template-file", 16) != 0) {   /* no file reads */
        OutputTemplate *t = output_template_new(s, &err);
        if (!t) {
            FUZZ_ASSERT(err.set && !strchr(err.msg, '\n'));
        } else {
            FILE *devnull = fopen("/dev/null", "w");
            Error e2 = { .set = false };
            if (devnull) {
                if (output_template_execute(t, doc, devnull, &e2) < 0) FUZZ_ASSERT(e2.set);
                fclose(devnull);
            }
            output_template_free(t);
        }
    }
    cJSON_Delete(doc);
    free(s);
    return 0;
}
