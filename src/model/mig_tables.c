/* mig_tables.c — MIG profile and placement tables, one per GPU model.
 *
 * Source: shared/reference/mig-profiles.md (§2 placements, §3 per-GPU tables, §5 names).
 * memory_mib is what a workload can count on inside the instance.  Where the reference has a
 * directly observed MiB value (GFD nvidia.com/mig-<p>.memory, nvidia-smi) it is used ("obs");
 * otherwise it is derived, and marked so:
 *   "lgip"  = the "Memory GiB" column of nvidia-smi mig -lgip x 1024, rounded down; where two
 *             drivers disagree the smaller value is used;
 *   "same"  = a profile with the same memory slices whose value is known (1g with 2 memory
 *             slices ~ 2g; 4g ~ 3g: both own 4 memory slices);
 *   "2x/4x" = multiples of the 2-slice value, a lower bound (the real value is a little larger).
 * Values move by tens of MiB between drivers; every derived value errs on the small side so
 * that a workload sized against it is not promised memory it will not get.
 */
#include "model/mig_tables.h"
#include <string.h>
#include <strings.h>

/* 7-compute-slice / 8-memory-slice parts: the placement geometry of reference §2a */
#define P1(n, mib)   { .name = n, .compute = 1, .size = 1, .max_instances = 7, \
                       .starts = {0, 1, 2, 3, 4, 5, 6}, .nstarts = 7, .memory_mib = mib }
#define P1ME(n, mib) { .name = n, .compute = 1, .size = 1, .max_instances = 1, \
                       .starts = {0, 1, 2, 3, 4, 5, 6}, .nstarts = 7, .memory_mib = mib, \
                       .media_ext = true, .variant = true }
#define P1M2(n, mib) { .name = n, .compute = 1, .size = 2, .max_instances = 4, \
                       .starts = {0, 2, 4, 6}, .nstarts = 4, .memory_mib = mib }
#define P2(n, mib)   { .name = n, .compute = 2, .size = 2, .max_instances = 3, \
                       .starts = {0, 2, 4}, .nstarts = 3, .memory_mib = mib }
#define P3(n, mib)   { .name = n, .compute = 3, .size = 4, .max_instances = 2, \
                       .starts = {0, 4}, .nstarts = 2, .memory_mib = mib }
#define P4(n, mib)   { .name = n, .compute = 4, .size = 4, .max_instances = 1, \
                       .starts = {0}, .nstarts = 1, .memory_mib = mib }
#define P7(n, mib)   { .name = n, .compute = 7, .size = 8, .max_instances = 1, \
                       .starts = {0}, .nstarts = 1, .memory_mib = mib }
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- A100-SXM4-40GB / A100-PCIE-40GB (-lgipp observed) ---- */
static const MigProfile a100_40gb[] = {
    P1("1g.5gb", 4864),          /* lgip 4.75 */
    P1ME("1g.5gb+me", 4864),     /* lgip 4.75 */
    P1M2("1g.10gb", 9984),       /* same as 2g.10gb (not listed by lgip in the reference) */
    P2("2g.10gb", 9984),         /* lgip 9.75 */
    P3("3g.20gb", 20096),        /* obs (20224 and 20096 on one GPU: the smaller) */
    P4("4g.20gb", 20096),        /* same as 3g.20gb (lgip 19.62 for both) */
    P7("7g.40gb", 40448),        /* lgip 39.50 */
};
static const char *const a100_40gb_products[] = {
    "NVIDIA-A100-SXM4-40GB", "NVIDIA-A100-PCIE-40GB", NULL };
static const char *const a100_40gb_ids[] = {
    "0x20B010DE", "0x20B110DE", "0x20F110DE", "0x20F610DE", NULL };

/* ---- A100-SXM4-80GB / A100 80GB PCIe (-lgipp observed) ---- */
static const MigProfile a100_80gb[] = {
    P1("1g.10gb", 9728),         /* obs (GFD, R515) */
    P1ME("1g.10gb+me", 9728),    /* same as 1g.10gb */
    P1M2("1g.20gb", 19968),      /* same as 2g.20gb (not in R515 output) */
    P2("2g.20gb", 19968),        /* obs */
    P3("3g.40gb", 40192),        /* obs */
    P4("4g.40gb", 40192),        /* same as 3g.40gb (lgip equal) */
    P7("7g.80gb", 80896),        /* lgip 79.00 */
};
static const char *const a100_80gb_products[] = {
    "NVIDIA-A100-SXM4-80GB", "NVIDIA-A100-80GB-PCIe", NULL };
static const char *const a100_80gb_ids[] = {
    "0x20B210DE", "0x20B510DE", "0x20F310DE", "0x20F510DE", NULL };

/* ---- A30-24GB: 4 compute slices, 4 memory slices (reference §2b, -lgipp on R535) ---- */
static const MigProfile a30[] = {
    { .name = "1g.6gb", .compute = 1, .size = 1, .max_instances = 4,
      .starts = {0, 1, 2, 3}, .nstarts = 4, .memory_mib = 5952 },                /* obs */
    { .name = "1g.6gb+me", .compute = 1, .size = 1, .max_instances = 1,
      .starts = {0, 1, 2, 3}, .nstarts = 4, .memory_mib = 5952,                  /* same */
      .media_ext = true, .variant = true },
    { .name = "2g.12gb", .compute = 2, .size = 2, .max_instances = 2,
      .starts = {0, 2}, .nstarts = 2, .memory_mib = 11968 },                     /* obs */
    { .name = "2g.12gb+me", .compute = 2, .size = 2, .max_instances = 1,
      .starts = {0, 2}, .nstarts = 2, .memory_mib = 11968,                       /* same */
      .media_ext = true, .variant = true },
    { .name = "4g.24gb", .compute = 4, .size = 4, .max_instances = 1,
      .starts = {0}, .nstarts = 1, .memory_mib = 24002 },                        /* lgip 23.44 */
};
static const char *const a30_products[] = { "NVIDIA-A30", NULL };
static const char *const a30_ids[] = { "0x20B710DE", NULL };

/* ---- H100 80GB: SXM5 "H100 80GB HBM3" and "H100 PCIe" (-lgipp observed on SXM5) ---- */
static const MigProfile h100_80gb[] = {
    P1("1g.10gb", 9984),         /* obs (GFD, R550) */
    P1ME("1g.10gb+me", 9984),    /* same as 1g.10gb */
    P1M2("1g.20gb", 20096),      /* same as 2g.20gb (lgip 19.62 for both) */
    P2("2g.20gb", 20096),        /* obs (GFD) */
    P3("3g.40gb", 40320),        /* obs (R550; 40448 on R580: the smaller) */
    P4("4g.40gb", 40320),        /* same as 3g.40gb */
    P7("7g.80gb", 81152),        /* lgip 79.25 */
};
static const char *const h100_80gb_products[] = {
    "NVIDIA-H100-80GB-HBM3", "NVIDIA-H100-PCIe", NULL };
static const char *const h100_80gb_ids[] = {
    "0x233010DE", "0x233110DE", "0x232210DE", "0x232410DE", NULL };

/* ---- H100 NVL 94GB (-lgipp observed) ---- */
static const MigProfile h100_94gb[] = {
    P1("1g.12gb", 11008),        /* obs */
    P1ME("1g.12gb+me", 11008),   /* same as 1g.12gb */
    P1M2("1g.24gb", 22144),      /* obs */
    P2("2g.24gb", 22144),        /* same as 1g.24gb (lgip 21.62 for both) */
    P3("3g.47gb", 47488),        /* obs */
    P4("4g.47gb", 47488),        /* same as 3g.47gb */
    P7("7g.94gb", 95354),        /* lgip 93.12 */
};
static const char *const h100_94gb_products[] = { "NVIDIA-H100-NVL", NULL };
static const char *const h100_94gb_ids[] = { "0x232110DE", "0x233A10DE", NULL };

/* ---- H100 96GB (GH200 96GB, H100-96GB) and H20: names from the MIG User Guide / operator
 * config; no -lgip memory in the reference, so every value is the H100 NVL (94GB) one, a
 * lower bound for the 96GB part.  Placements inferred (reference §2a). ---- */
static const MigProfile h100_96gb[] = {
    P1("1g.12gb", 11008),        /* derived: H100 NVL value */
    P1ME("1g.12gb+me", 11008),   /* derived */
    P1M2("1g.24gb", 22144),      /* derived */
    P2("2g.24gb", 22144),        /* derived */
    P3("3g.48gb", 47488),        /* derived */
    P4("4g.48gb", 47488),        /* derived */
    P7("7g.96gb", 95354),        /* derived */
};
/* "NVIDIA-H20" observed; "NVIDIA-GH200-480GB" is the NVML name public transcripts show for the
 * 96GB-HBM3 GH200, not confirmed by the reference (n/o there) */
static const char *const h100_96gb_products[] = { "NVIDIA-H20", "NVIDIA-GH200-480GB", NULL };
static const char *const h100_96gb_ids[] = {
    "0x234210DE", "0x233D10DE", "0x20B610DE", "0x232910DE", NULL };

/* ---- H200 141GB: SXM and NVL (placements inferred) ---- */
static const MigProfile h200[] = {
    P1("1g.18gb", 16384),        /* lgip 16.00 */
    P1ME("1g.18gb+me", 16384),   /* lgip 16.00 */
    P1M2("1g.35gb", 33024),      /* lgip 32.25 */
    P2("2g.35gb", 33024),        /* lgip 32.25 (another dump 32.50) */
    P3("3g.71gb", 71168),        /* lgip 69.50 */
    P4("4g.71gb", 71168),        /* lgip 69.50 */
    P7("7g.141gb", 143104),      /* lgip 139.75 (another dump 140.00) */
};
static const char *const h200_products[] = { "NVIDIA-H200", "NVIDIA-H200-NVL", NULL };
static const char *const h200_ids[] = { "0x233510DE", "0x233B10DE", NULL };

/* ---- B200 180GB (placements inferred) ---- */
static const MigProfile b200[] = {
    P1("1g.23gb", 20992),        /* lgip 20.50 (Mar-2025 driver; 22.00 on an older one) */
    P1ME("1g.23gb+me", 20992),   /* lgip, same */
    P1M2("1g.45gb", 45312),      /* lgip 44.25 */
    P2("2g.45gb", 45312),        /* lgip 44.25 */
    P3("3g.90gb", 90624),        /* derived: 2x 2g.45gb */
    P4("4g.90gb", 90624),        /* derived: 2x 2g.45gb (profile needs 2025-03+ software) */
    P7("7g.180gb", 181248),      /* derived: 4x 2g.45gb */
};
static const char *const b200_products[] = { "NVIDIA-B200", NULL };
static const char *const b200_ids[] = { "0x290110DE", NULL };

/* ---- GB200 186GB, production names (placements inferred) ---- */
static const MigProfile gb200[] = {
    P1("1g.23gb", 22528),        /* lgip 22.00 */
    P1ME("1g.23gb+me", 22528),   /* lgip 22.00 */
    P1M2("1g.47gb", 46592),      /* lgip 45.50 */
    P2("2g.47gb", 46592),        /* lgip 45.50 */
    P3("3g.93gb", 93184),        /* derived: 2x 2g.47gb */
    P4("4g.93gb", 93184),        /* derived: 2x 2g.47gb */
    P7("7g.186gb", 186368),      /* derived: 4x 2g.47gb */
};
static const char *const gb200_products[] = { "NVIDIA-GB200", NULL };
static const char *const gb200_ids[] = { "0x294110DE", NULL };

/* ---- RTX PRO 6000 Blackwell (Server / Workstation / Max-Q): 4 compute slices on a
 * 12-unit placement axis (reference §2c, -lgipp observed on the Server Edition) ---- */
#define R1(n, mib, mx, me, all, var) { .name = n, .compute = 1, .size = 3, .max_instances = mx, \
        .starts = {0, 3, 6, 9}, .nstarts = 4, .memory_mib = mib, .media_ext = me, \
        .media_all = all, .variant = var }
#define R2(n, mib, mx, all, var) { .name = n, .compute = 2, .size = 6, .max_instances = mx, \
        .starts = {0, 6}, .nstarts = 2, .memory_mib = mib, .media_all = all, .variant = var }
#define R4(n, mib, var) { .name = n, .compute = 4, .size = 12, .max_instances = 1, \
        .starts = {0}, .nstarts = 1, .memory_mib = mib, .variant = var }
static const MigProfile rtx_pro_6000[] = {
    R1("1g.24gb", 23674, 4, false, false, false),        /* lgip 23.12 (23.62 on another driver) */
    R1("1g.24gb+me", 23674, 1, true, false, true),
    R1("1g.24gb+gfx", 23674, 4, false, false, true),
    R1("1g.24gb+me.all", 23674, 1, false, true, true),
    R1("1g.24gb-me", 23674, 4, false, false, true),
    R2("2g.48gb", 48517, 2, false, false),               /* lgip 47.38 */
    R2("2g.48gb+gfx", 48517, 2, false, true),
    R2("2g.48gb+me.all", 48517, 1, true, true),
    R2("2g.48gb-me", 48517, 2, false, true),
    R4("4g.96gb", 97402, false),                         /* lgip 95.12 */
    R4("4g.96gb+gfx", 97402, true),
};
static const char *const rtx_pro_6000_products[] = {
    "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition",
    "NVIDIA-RTX-PRO-6000-Blackwell-Workstation-Edition",          /* derived name */
    "NVIDIA-RTX-PRO-6000-Blackwell-Max-Q-Workstation-Edition", NULL };
static const char *const rtx_pro_6000_ids[] = { "0x2BB510DE", "0x2BB110DE", "0x2BB410DE", NULL };

#define MODEL(k, disp, prof, prods, ids, c, ax, mem, inferred) \
    { .key = k, .display = disp, .products = prods, .compute_slices = c, .axis = ax, \
      .memory_mib = mem, .profiles = prof, .nprofiles = NELEM(prof), .device_ids = ids, \
      .placements_inferred = inferred }

/* memory_mib: GFD nvidia.com/gpu.memory as observed (reference §5); 40GB/80GB A100 and A30
 * are exact powers of two; H100 96GB uses the H20 value */
static const MigGpuModel models[] = {
    MODEL("a100-40gb", "A100 40GB", a100_40gb, a100_40gb_products, a100_40gb_ids, 7, 8, 40960, false),
    MODEL("a100-80gb", "A100 80GB", a100_80gb, a100_80gb_products, a100_80gb_ids, 7, 8, 81920, false),
    MODEL("a30", "A30", a30, a30_products, a30_ids, 4, 4, 24576, false),
    MODEL("h100-80gb", "H100 80GB", h100_80gb, h100_80gb_products, h100_80gb_ids, 7, 8, 81559, false),
    MODEL("h100-94gb", "H100 NVL 94GB", h100_94gb, h100_94gb_products, h100_94gb_ids, 7, 8, 95830, false),
    MODEL("h100-96gb", "H100 96GB / H20", h100_96gb, h100_96gb_products, h100_96gb_ids, 7, 8, 97871, true),
    MODEL("h200", "H200 141GB", h200, h200_products, h200_ids, 7, 8, 143771, true),
    MODEL("b200", "B200", b200, b200_products, b200_ids, 7, 8, 183359, true),
    MODEL("gb200", "GB200", gb200, gb200_products, gb200_ids, 7, 8, 189471, true),
    MODEL("rtx-pro-6000", "RTX PRO 6000 Blackwell", rtx_pro_6000, rtx_pro_6000_products,
          rtx_pro_6000_ids, 4, 12, 97887, false),
};

size_t mig_model_count(void) { return NELEM(models); }

const MigGpuModel *mig_model_at(size_t i) { return i < NELEM(models) ? &models[i] : NULL; }

const MigGpuModel *mig_model_by_key(const char *key)
{
    for (size_t i = 0; key && i < NELEM(models); i++)
        if (strcmp(models[i].key, key) == 0) return &models[i];
    return NULL;
}

/* "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb-SHARED" -> length of "NVIDIA-A100-SXM4-40GB", and skip an
 * "NVIDIA-" prefix so that old-driver names ("A100-SXM4-40GB") compare equal */
static const char *product_core(const char *p, size_t *len)
{
    size_t n = strlen(p);
    static const char shared[] = "-SHARED";
    if (n >= sizeof shared - 1 && strcasecmp(p + n - (sizeof shared - 1), shared) == 0)
        n -= sizeof shared - 1;
    for (size_t i = 0; i + 5 <= n; i++)     /* a compare only at a dash: this runs per node */
        if (p[i] == '-' && strncasecmp(p + i, "-MIG-", 5) == 0) { n = i; break; }
    if (n >= 7 && strncasecmp(p, "NVIDIA-", 7) == 0) { p += 7; n -= 7; }
    *len = n;
    return p;
}

static const MigGpuModel *model_lookup(const char *gfd_product)
{
    size_t n;
    const char *core = product_core(gfd_product, &n);
    for (size_t i = 0; i < NELEM(models); i++) {
        for (const char *const *pp = models[i].products; *pp; pp++) {
            size_t m;
            const char *c = product_core(*pp, &m);
            if (m == n && strncasecmp(c, core, n) == 0) return &models[i];
        }
    }
    return NULL;
}

/* The lookup compares against every product name of every table, and it is asked per node
 * several times (inventory, physical counts, plan): the last few answers are kept, per thread
 * (fleets evaluate contexts on threads), by the product's text. */
#define PRODUCT_MEMO 4
typedef struct { char product[96]; const MigGpuModel *model; } ProductMemo;
static _Thread_local ProductMemo product_memo[PRODUCT_MEMO];
static _Thread_local unsigned product_memo_next;

const MigGpuModel *mig_model_for_product(const char *gfd_product)
{
    if (!gfd_product || !*gfd_product) return NULL;
    size_t len = strlen(gfd_product);
    bool memo = len < sizeof product_memo[0].product;
    for (size_t i = 0; memo && i < PRODUCT_MEMO; i++)
        if (memcmp(product_memo[i].product, gfd_product, len + 1) == 0) return product_memo[i].model;
    const MigGpuModel *m = model_lookup(gfd_product);
    if (memo) {
        ProductMemo *e = &product_memo[product_memo_next++ % PRODUCT_MEMO];
        memcpy(e->product, gfd_product, len + 1);
        e->model = m;
    }
    return m;
}

/* "mig-1g.10gb.me" / "1g.10gb.me" / "1g.10gb+me" -> "1g.10gb+me": the first '.' after the
 * "<N>gb" token starts the attribute list (label/resource form uses '.' for '+') */
static void profile_canonical(const char *in, char *out, size_t outlen)
{
    if (strncasecmp(in, "mig-", 4) == 0) in += 4;
    size_t i = 0;
    bool attr = false;
    const char *gb = strstr(in, "gb");
    for (const char *s = in; *s && i + 1 < outlen; s++) {
        char ch = *s;
        if (!attr && gb && s == gb + 2 && ch == '.') { ch = '+'; attr = true; }
        if (gb && s == gb + 2) attr = true;
        out[i++] = ch;
    }
    out[i] = '\0';
}

const MigProfile *mig_model_profile(const MigGpuModel *m, const char *name)
{
    if (!m || !name) return NULL;
    /* the name as the tables spell it (a resource's or GFD's): no "mig-", no "gb." to mend,
     * so it is its own canonical form (plan asks some 300,000 times at 5,000 A100 nodes) */
    for (size_t i = 0; i < m->nprofiles; i++)
        if (m->profiles[i].name[0] == name[0] && strcmp(m->profiles[i].name, name) == 0) return &m->profiles[i];
    char canon[64];
    profile_canonical(name, canon, sizeof canon);
    for (size_t i = 0; i < m->nprofiles; i++)
        if (strcasecmp(m->profiles[i].name, canon) == 0) return &m->profiles[i];
    return NULL;
}

int mig_model_profile_index(const MigGpuModel *m, const MigProfile *p)
{
    if (!m || !p || p < m->profiles || p >= m->profiles + m->nprofiles) return -1;
    return (int)(p - m->profiles);
}
