/* libFuzzer target: the reader of an exec credential plugin's stdout
 * (src/sources/exec_credential.c exec_credential_parse).  Any bytes as what the plugin
 * printed, for a v1 plugin.  Invariants: no crash; on success there is a token or a
 * certificate and key (both or neither), and a token can go out as an HTTP header (no CR, LF,
 * NUL or other control byte: issue 28); on failure the error is set and never holds the
 * token the output carried (status.token, 6 bytes or more, unless the messages hold that
 * text anyway: the vocabulary below is every message given for canned outputs). */
#include <stdio.h>
#include "fuzz_util.h"
#include "internal.h"
#include "sources/kubeconfig.h"
#include "util/error.h"
#include <cjson/cJSON.h>

static void setup(RestConfig *rc)
{
    memset(rc, 0, sizeof *rc);
    rc->has_exec = true;
    rc->exec.command = "fuzz-plugin";
    rc->exec.api_version = "client.authentication.k8s.io/v1";
    rc->user_name = "fuzz";
    rc->user_origin = "/fuzz/kubeconfig";
}

/* the text every error path gives by itself: the messages for outputs without a token */
static char vocabulary[16384];
static void learn_vocabulary(void)
{
    static const char *const outputs[] = {
        "", "x", "{}", "{\"kind\":\"Other\"}", "{\"kind\":\"ExecCredential\"}",
        "{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1beta1\"}",
        "{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1\"}",
        "{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1\",\"status\":{}}",
        "{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1\",\"status\":{\"clientCertificateData\":\"c\"}}",
        "{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1\",\"status\":{\"token\":\"#\",\"expirationTimestamp\":\"x\"}}",
        "{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1\",\"status\":{\"token\":\"#\\n\"}}",
        "{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1\",\"status\":{\"token\":\"#\\u0001\"}}",
        "{\"kind\":1,\"apiVersion\":2}", "{\"kind\":\"ExecCredential\",\"apiVersion\":2}",
        "{\"kind\":\"a b\"}", "{\"kind\":\"ExecCredential\",\"apiVersion\":\"a b\"}",
    };
    RestConfig rc;
    setup(&rc);
    for (size_t i = 0; i < sizeof outputs / sizeof *outputs; i++) {
        ExecCredential c;
        Error e = { 0 };
        if (exec_credential_parse(&rc, "fuzz-plugin", outputs[i], strlen(outputs[i]), &c, &e) == 0)
            exec_credential_clear(&c);
        size_t have = strlen(vocabulary);
        snprintf(vocabulary + have, sizeof vocabulary - have, "%s\n", e.msg);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;
    if (!vocabulary[0]) learn_vocabulary();
    RestConfig rc;
    setup(&rc);
    ExecCredential cred;
    Error err = { 0 };
    int rc_ = exec_credential_parse(&rc, "fuzz-plugin", (const char *)data, size, &cred, &err);
    if (rc_ == 0) {
        FUZZ_ASSERT(!err.set);
        FUZZ_ASSERT(cred.token || (cred.client_cert_pem && cred.client_key_pem));
        FUZZ_ASSERT(!cred.client_cert_pem == !cred.client_key_pem);
        if (cred.token) FUZZ_ASSERT(*cred.token && !http_header_value_problem(cred.token, strlen(cred.token)));
    } else {
        FUZZ_ASSERT(rc_ == -1 && err.set && err.msg[0]);
        FUZZ_ASSERT(!cred.token && !cred.client_cert_pem && !cred.client_key_pem);
        cJSON *j = cJSON_ParseWithLength((const char *)data, size);
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "status"), "token");
        if (cJSON_IsString(t) && strlen(t->valuestring) >= 6 && !strstr(vocabulary, t->valuestring))
            FUZZ_ASSERT(!strstr(err.msg, t->valuestring));
        cJSON_Delete(j);
    }
    exec_credential_clear(&cred);
    return 0;
}
