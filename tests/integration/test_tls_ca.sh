#!/usr/bin/env bash
# The system CA bundle, for a cluster whose kubeconfig names no certificate-authority (and for
# Prometheus): SSL_CERT_FILE and SSL_CERT_DIR override it as they do for kubectl (Go's
# crypto/x509); without them the host's bundle is used, which does not hold the test CA.
# (The probe of the distributions' usual places is tested in a chroot by test_dist.sh.)
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"
fakeapi_start "$KGPU_ROOT/tests/fixtures/api/small.json" || { fail "fake API server did not start"; exit 1; }
export KUBECTL_GPU_SA_DIR=/nonexistent/sa
unset KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT SSL_CERT_FILE SSL_CERT_DIR
# the token kubeconfig without its certificate-authority line
grep -v 'certificate-authority' "$T/kubeconfig-token" >"$T/kubeconfig-noca"
export KUBECONFIG=$T/kubeconfig-noca
C=$FAKEAPI_CERTS

kgpu status -o json
check_rc 1 "no CA in the kubeconfig, host bundle without the test CA: verification fails"
check_contains "$ERR" "system CA bundle" "the error names the system CA bundle"
check_one_line_err "system bundle"

SSL_CERT_FILE=$C/ca.crt kgpu status -o json
check_rc 0 "SSL_CERT_FILE=the test CA verifies the server"
check_eq "$(json_get "$OUT" "d['kind']")" "GPUStatus" "SSL_CERT_FILE: the status answers"

SSL_CERT_FILE=$C/other-ca.crt kgpu status -o json
check_rc 1 "SSL_CERT_FILE=an unrelated CA: verification fails"

SSL_CERT_FILE=$T/missing.pem kgpu status -o json
check_rc 1 "SSL_CERT_FILE names a missing file"
check_one_line_err "missing SSL_CERT_FILE"

# SSL_CERT_DIR: a hashed directory (openssl rehash) holding the test CA, beside a file that
# does not
mkdir -p "$T/certdir"; cp "$C/ca.crt" "$T/certdir/kgpu-test-ca.pem"
if openssl rehash "$T/certdir" 2>/dev/null; then
  SSL_CERT_FILE=$C/other-ca.crt SSL_CERT_DIR=$T/certdir kgpu status -o json
  check_rc 0 "SSL_CERT_DIR with the test CA verifies the server"
  SSL_CERT_FILE=$C/other-ca.crt SSL_CERT_DIR=$T/nonexistent kgpu status -o json
  check_rc 1 "SSL_CERT_DIR without it: verification fails"
else
  fail "openssl rehash failed"
fi

# a CA named in the kubeconfig wins over SSL_CERT_FILE (it is the cluster's own)
KUBECONFIG=$T/kubeconfig-token SSL_CERT_FILE=$C/other-ca.crt kgpu status -o json
check_rc 0 "the kubeconfig's certificate-authority is used whatever SSL_CERT_FILE says"
