# Reads the database secret of examples/jobs/secret-template.hcl, and nothing else.
path "secret/data/db" {
  capabilities = ["read"]
}
