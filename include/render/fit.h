/* fit.h (render) — the one presentation of `kubectl gpu fit` (analysis/fit.h): one text block
 * per template, like explain's (verdict, where the replicas go, why the first that does not
 * fit waits, fixes, notes), or the GPUFit document as JSON or YAML:
 *   {"apiVersion": "kubectl-gpu/v1", "kind": "GPUFit",
 *    "items": [{"kind", "namespace", "name", "replicas", "requests" (per pod, as explain shows them),
 *               "verdict": "Fits"|<pending verdict>, "reason", "fitsReplicas",
 *               "nodes": [{"name", "replicas"}], "fixes": [...], "notes": [...],
 *               "nodeReasons": explain's "nodes" for the first pod that does not fit}],
 *    "skipped": [...], "warnings": [...]}
 * Warnings (the cluster's) and the skipped templates go to stderr in text, into the document
 * otherwise.  0, or -1 when writing failed.
 */
#ifndef KGPU_RENDER_FIT_H
#define KGPU_RENDER_FIT_H
#include <stdbool.h>
#include "analysis/fit.h"
#include "render/render.h"

int fit_render(const FitResult *r, const Strvec *warnings, RenderFormat fmt);
#endif
