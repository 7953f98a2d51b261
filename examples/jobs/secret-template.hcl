# A service that reads its database password from the KV store into a config file, and is restarted
# with the new file whenever the secret changes (svc reads it again every 5 seconds):
#   svc kv put secret/db password=one
#   svc policy write db-read examples/policies/db-read.hcl
#   svc job run examples/jobs/secret-template.hcl
#   svc alloc exec -task app <alloc> cat secrets/db.conf
#   svc kv put secret/db password=two
job "secret-template" {
  type = "service"

  group "app" {
    task "app" {
      driver = "raw_exec"

      # The task's own token, with only this policy: it is what the template reads the secret with.
      vault {
        policies = ["db-read"]
      }

      config {
        command = "/bin/sh"
        args    = ["-c", "while true; do cat ${NOMAD_SECRETS_DIR}/db.conf; sleep 5; done"]
      }

      template {
        destination = "secrets/db.conf"
        perms       = "0600"
        change_mode = "restart"
        data        = <<-EOT
          {{ with secret "secret/data/db" -}}
          password = "{{ .Data.data.password }}"
          {{- end }}
        EOT
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }
  }
}
