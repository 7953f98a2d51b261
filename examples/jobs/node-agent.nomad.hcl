# A system job: one allocation on every eligible Linux node, which keeps a heartbeat file fresh.
job "node-agent" {
  datacenters = ["*"]
  type        = "system"

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  group "agent" {
    task "beat" {
      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args    = ["-c", "while true; do date > \"$NOMAD_ALLOC_DIR/data/heartbeat\"; sleep 5; done"]
      }

      kill_timeout = "3s"

      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
