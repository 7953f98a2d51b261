# For people who review access: they can see every policy, auth method and
# job, and change none of them.
# Upload with:  svc policy write auditor examples/policies/auditor.hcl

path "sys/policies/acl" {
  capabilities = ["list"]
}

path "sys/policies/acl/*" {
  capabilities = ["read"]
}

# Listing auth methods needs only "read" on sys/auth; reading one mount's
# settings sits under sys/auth/* and needs "sudo" as well, so it is not granted.
path "sys/auth" {
  capabilities = ["read"]
}

path "sys/capabilities" {
  capabilities = ["update"]
}

# Read jobs in every namespace, but not their logs or files: those may hold secrets.
namespace "*" {
  policy = "read"
}
