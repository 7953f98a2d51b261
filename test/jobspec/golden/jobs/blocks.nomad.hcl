# The blocks of a service job the examples leave out, gathered from test/jobspec/mapping.test.ts.
job "blocks" {
  datacenters = ["dc1"]
  meta = { "a.b" = 1, c = true }

  vault {
    policies = ["p"]
  }

  group "g" {
    shutdown_delay = "5s"

    update {
      max_parallel     = 2
      canary           = 1
      auto_promote     = true
      health_check     = "checks"
      min_healthy_time = "15s"
      healthy_deadline = "4m"
      stagger          = "20s"
    }

    migrate {
      max_parallel     = 1
      health_check     = "task_states"
      min_healthy_time = "5s"
    }

    reschedule {
      delay     = "30s"
      max_delay = "1h"
      unlimited = "true"
    }

    network {
      mode = "bridge"
      port "db" {
        to = 5432
      }
      port "metrics" {
        static       = 9100
        host_network = "private"
      }
      dns {
        servers = ["1.1.1.1"]
      }
    }

    constraint {
      distinct_hosts = true
    }
    constraint {
      distinct_property = "${meta.rack}"
      value             = "2"
    }
    constraint {
      attribute = "${attr.os.version}"
      version   = ">= 1.0"
    }
    affinity {
      attribute = "${node.datacenter}"
      value     = "dc1"
      weight    = 80
    }
    spread {
      attribute = "${node.datacenter}"
      target "dc1" {
        percent = 70
      }
    }

    volume "data" {
      type      = "host"
      source    = "data"
      read_only = true
    }

    scaling {
      min = 2
      max = 5
    }

    service {
      port = "db"
      check_restart {
        limit = 3
        grace = "10s"
      }
      check {
        type     = "tcp"
        interval = "5s"
        timeout  = "1s"
      }
    }

    task "t" {
      driver = "docker"
      config {
        image = "redis:7"
        ports = ["db"]
        mount {
          type   = "bind"
          target = "/data"
        }
        labels = { app_name = "x" }
      }
      env {
        PORT = 8080
      }
      resources {
        cpu        = 500
        memory     = 256
        memory_max = 512
        device "nvidia/gpu" {
          count = 2
        }
      }
      volume_mount {
        volume      = "data"
        destination = "/srv/data"
      }
      artifact {
        source      = "https://example.com/app.tgz"
        destination = "local/app"
        options {
          checksum = "sha256:abc"
        }
      }
      restart {
        attempts = 1
      }
      identity {
        env = true
      }
      identity {
        name = "vault"
        aud  = ["vault.io"]
        ttl  = "1h"
      }
      action "hello" {
        command = "/bin/echo"
        args    = ["hi"]
      }
    }
  }
}
