"""Reading a live cluster (``--from-cluster``): the objects quotactl uses, listed from the API
server with the user's kubeconfig, rendered as a snapshot (``quotactl snapshot``) and loaded
through the same loader as files, so a replayed snapshot gives the same answers.

Layers: ``client`` (the kubernetes client library, imported lazily; errors as one line),
``resources`` (what each scheduler needs), ``discovery`` (which versions the server serves),
``fetch`` (paginated lists, RBAC-denied lists skipped), ``snapshot`` (the deterministic text).
"""
