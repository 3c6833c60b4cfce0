"""``quotactl convert``: rewrite Kueue manifests from kueue.x-k8s.io/v1beta1 (and the v1alpha1
Cohort, and the config.kueue.x-k8s.io/v1beta1 Configuration) to v1beta2 the way Kueue's conversion
functions do (kueue apis/kueue/v1beta1/*_conversion.go, apis/config/v1beta1/configuration_conversion.go),
keeping every other byte of the file.  Pure: no printing, no writing."""
