# ownership-renames.sed — functions named *_free that only release what their argument holds,
# renamed after tests/README.md ("Ownership names"): S_release frees what S holds, S_clear
# also leaves S zeroed and usable, S_free frees S itself.  A branch written against the old
# names is brought over with:  sed -i -f scripts/ownership-renames.sed FILES
# (claim_free is also a local variable in src/analysis/explain_dra_dp.c: leave that file out)
s/\bmerged_free\b/merged_release/g
s/\bexporters_free\b/exporters_release/g
s/\bseries_free\b/series_release/g
s/\bwatch_target_free\b/watch_target_clear/g
s/\bcluster_event_free\b/cluster_event_clear/g
s/\bevent_free\b/event_clear/g
s/\bdevice_free\b/device_release/g
s/\bclaim_free\b/claim_release/g
s/\bselreq_free\b/selreq_release/g
# issue 30 (branch arch-names): the static and module-internal ones left, each read (none frees
# its argument; candidate_free and explain_intents_free also leave it empty, hence _clear)
s/\bctx_free\b/ctx_release/g
s/\bcandidate_free\b/candidate_clear/g
s/\bpacker_free\b/packer_release/g
s/\bhistogram_free\b/histogram_release/g
s/\bgpu_usage_free\b/gpu_usage_release/g
s/\bnode_status_free\b/node_status_release/g
s/\bexplain_intents_free\b/explain_intents_clear/g
s/\bnode_reason_free\b/node_reason_release/g
s/\bquota_error_free\b/quota_error_release/g
