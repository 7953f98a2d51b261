# A long-running service with two dynamic ports, a health check and a rolling update. Both allocations
# fit on one node (a dev server's): a static port would allow one allocation per node.
# Override the greeting with -var greeting=hi: a changed template replaces the allocations one by one.
variable "greeting" {
  type    = string
  default = "hello"
}

job "web" {
  datacenters = ["dc1"]
  type        = "service"
  priority    = 60

  meta {
    team = "platform"
  }

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  update {
    max_parallel     = 1
    min_healthy_time = "10s"
    healthy_deadline = "3m"
    auto_revert      = true
  }

  group "frontend" {
    count = 2

    network {
      port "http" {}
      port "admin" {}
    }

    restart {
      attempts = 3
      interval = "5m"
      delay    = "15s"
      mode     = "delay"
    }

    service {
      name     = "web-frontend"
      provider = "nomad"
      port     = "http"
      tags     = ["web", "v1"]

      check {
        type     = "http"
        path     = "/"
        interval = "10s"
        timeout  = "2s"
      }
    }

    task "server" {
      driver = "raw_exec"

      config {
        command = "/usr/bin/python3"
        args    = ["-m", "http.server", "${NOMAD_PORT_http}", "--bind", "${NOMAD_IP_http}"]
      }

      # Python buffers its output when it is not a terminal; unbuffered, the log shows it at once.
      env {
        PYTHONUNBUFFERED = "1"
        NODE_ID          = "${node.unique.id}"
        RACK             = "${meta.rack}"
      }

      template {
        destination = "local/config.env"
        env         = true
        data        = <<-EOT
          GREETING=${var.greeting}
          PORT={{ env "NOMAD_PORT_http" }}
        EOT
      }

      resources {
        cpu    = 200
        memory = 128
      }

      kill_timeout = "20s"

      logs {
        max_files     = 5
        max_file_size = 15
      }
    }
  }
}
