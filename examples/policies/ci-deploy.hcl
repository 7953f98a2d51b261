# For CI machines that log in with their cloud identity and deploy jobs.
# Upload with:  svc policy write ci-deploy examples/policies/ci-deploy.hcl

# Submit, dispatch and inspect jobs in the "default" namespace, read their
# logs, and exec into allocations to debug a failed deploy. Exec reaches
# isolated tasks only (the exec driver): a raw_exec task runs on the host, so
# exec into it also needs "alloc-node-exec", which "write" does not include.
namespace "default" {
  policy = "write"
}

# Let the token look after itself, so a pipeline can check its remaining
# TTL, renew it during a long deploy and revoke it when it is done. These
# are also in the "default" policy; they are repeated here so the policy
# still works for roles issued with token_no_default_policy.
path "auth/token/lookup-self" {
  capabilities = ["read"]
}

path "auth/token/renew-self" {
  capabilities = ["update"]
}

path "auth/token/revoke-self" {
  capabilities = ["update"]
}

path "sys/capabilities-self" {
  capabilities = ["update"]
}
