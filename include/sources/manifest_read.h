/* manifest_read.h — the manifests `kubectl gpu fit -f FILE` reads: a file ("-" = standard
 * input) of one or more YAML documents ("---" between them), or JSON (one object, a List
 * included, or several one after the other, as kubectl reads them), parsed through util/yaml_load.h (libyaml) or cJSON, each document handed to
 * model/manifest_pods.h.  Empty documents are skipped, as kubectl skips them.
 *
 * Errors name the file and the document (1-based, in file order): "train.yaml: document 2:
 * yaml: line 14: mapping values are not allowed in this context".
 */
#ifndef KGPU_MANIFEST_READ_H
#define KGPU_MANIFEST_READ_H
#include "model/manifest_pods.h"

struct Error;
/* reads path, appends its pod templates to out and its notes (objects without a pod template)
 * to notes.  0, or -1 with err set (a file that cannot be read, a document that is not YAML
 * or JSON or not a Kubernetes object, a file without any object). */
int manifest_read_file(const char *path, const char *default_ns, ManifestPodList *out, Strvec *notes,
                       struct Error *err);
/* the same for text already in memory; name is what errors call it */
int manifest_read_text(const char *name, const char *text, size_t len, const char *default_ns,
                       ManifestPodList *out, Strvec *notes, struct Error *err);
#endif
