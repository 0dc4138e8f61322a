// Public API of @schedlab/workloads: workload controllers and admission that turn manifests into pods.
