#!/usr/bin/env bash
# tests/fakeapi/gen-certs.sh DIR — test PKI for the fake API server, made with openssl at test
# time (nothing secret is committed).  Writes into DIR:
#   ca.crt ca.key                 test CA ("kgpu-test-ca")
#   server.crt server.key         server cert, SAN IP:127.0.0.1, IP:::1, DNS:localhost
#   wronghost.crt wronghost.key   server cert signed by the CA for kgpu-wronghost.test only
#   client.crt client.key         client cert CN=gpu-admin, O=system:masters (signed by the CA)
#   viewer.crt viewer.key         client cert CN=gpu-viewer (signed by the CA)
#   other-ca.crt other-ca.key     a second, unrelated CA
#   rogue-client.crt/.key         client cert CN=gpu-admin signed by the unrelated CA
# Idempotent: does nothing when DIR/.complete exists.
set -euo pipefail
dir=${1:?usage: gen-certs.sh DIR}
mkdir -p "$dir"
[ -f "$dir/.complete" ] && exit 0
cd "$dir"
days=30
q() { openssl "$@" >/dev/null 2>&1 || { echo "gen-certs.sh: openssl $1 failed" >&2; openssl "$@" >&2; exit 1; }; }

mkca() {   # mkca NAME CN
  q req -x509 -newkey rsa:2048 -nodes -keyout "$1.key" -out "$1.crt" -days "$days" -sha256 \
    -subj "/CN=$2" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature"
}
mkleaf() {  # mkleaf NAME CA SUBJECT EXTFILE-CONTENT
  local name=$1 ca=$2 subj=$3 ext=$4
  printf '%s\n' "$ext" >"$name.ext"
  q req -newkey rsa:2048 -nodes -keyout "$name.key" -out "$name.csr" -subj "$subj"
  q x509 -req -in "$name.csr" -CA "$ca.crt" -CAkey "$ca.key" -CAcreateserial -out "$name.crt" \
    -days "$days" -sha256 -extfile "$name.ext"
  rm -f "$name.csr" "$name.ext"
}

mkca ca kgpu-test-ca
mkca other-ca kgpu-unrelated-ca
server_ext='basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth'
client_ext='basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth'
mkleaf server ca "/CN=kube-apiserver" "$server_ext
subjectAltName=IP:127.0.0.1,IP:0:0:0:0:0:0:0:1,DNS:localhost,DNS:kubernetes.default.svc"
mkleaf wronghost ca "/CN=kgpu-wronghost.test" "$server_ext
subjectAltName=DNS:kgpu-wronghost.test"
mkleaf client ca "/O=system:masters/CN=gpu-admin" "$client_ext"
mkleaf viewer ca "/CN=gpu-viewer" "$client_ext"
mkleaf rogue-client other-ca "/O=system:masters/CN=gpu-admin" "$client_ext"
chmod 600 ./*.key
touch .complete
