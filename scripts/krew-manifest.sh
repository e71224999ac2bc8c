#!/usr/bin/env bash
# scripts/krew-manifest.sh VERSION HOMEPAGE RELEASE_URL OUT ARCHIVE... — writes the krew plugin
# manifest (called by make dist): one platform per archive, selected by the os and arch in its
# name (kubectl-gpu-VERSION-OS-ARCH.tar.gz), with the archive's sha256 and its URL under
# RELEASE_URL.  Rules: shared/reference/kubectl-plugin-conventions.md section 4, krew's
# internal/index/validation/validate.go; tests/tools/krewcheck.py checks them.
set -euo pipefail
version=$1 homepage=$2 release_url=$3 out=$4; shift 4
commit=$(git -C "$(dirname "$0")/.." rev-parse -q --short=12 --verify HEAD 2>/dev/null || echo unknown)
top=kubectl-gpu-$version
{
cat <<EOT
# krew plugin manifest for kubectl-gpu, written by \`make dist\` (scripts/krew-manifest.sh) from
# the archives built from commit $commit: each sha256 is that of the archive \`make dist\` built
# (a release publishes those archives at the uri below).  Test an install without publishing:
#   kubectl krew install --manifest=plugins/gpu.yaml --archive=build/$top-linux-amd64.tar.gz
apiVersion: krew.googlecontainertools.github.com/v1alpha2
kind: Plugin
metadata:
  name: gpu
spec:
  version: v$version
  homepage: $homepage
  shortDescription: Show GPU allocation, explain pending GPU pods, plan sharing
  description: |
    Shows a cluster's GPUs as they really are: what each node has, which pods
    hold them and how busy they are (DCGM metrics through Prometheus or the
    exporter pods). Explains why a GPU pod is Pending and what would make it
    fit, and recommends MIG layouts, time-slicing or MPS from observed usage,
    with the device-plugin and mig-parted ConfigMaps to apply. Read-only
    against the cluster.
  caveats: |
    Reading nodes and pods cluster-wide needs RBAC to list them.
    For \`kubectl gpu <TAB>\` completion (kubectl 1.26+), put the
    kubectl_complete-gpu script from the plugin's directory on your PATH:
      ln -s "\$(dirname "\$(readlink -f "\$(command -v kubectl-gpu)")")/kubectl_complete-gpu" \\
        ~/.krew/bin/kubectl_complete-gpu
  platforms:
EOT
for a in "$@"; do
  name=$(basename "$a")
  osarch=${name#"$top"-}; osarch=${osarch%.tar.gz}
  os=${osarch%%-*} arch=${osarch#*-}
  sum=$(sha256sum "$a" | cut -d' ' -f1)
  cat <<EOT
  - selector:
      matchLabels:
        os: $os
        arch: $arch
    uri: $release_url/$name
    sha256: "$sum"
    files:
    - from: $top/kubectl-gpu
      to: .
    - from: $top/lib
      to: lib
    - from: $top/share
      to: share
    - from: $top/completions/kubectl_complete-gpu
      to: .
    - from: $top/LICENSE
      to: .
    bin: kubectl-gpu
EOT
done
} >"$out.tmp"
mv -f "$out.tmp" "$out"
echo "  KREW    $out"
