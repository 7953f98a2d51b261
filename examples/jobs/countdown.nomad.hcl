# A batch job that counts down and exits; failures are retried by the restart policy, then the
# allocation is rescheduled once.
job "countdown" {
  datacenters = ["*"]
  type        = "batch"

  group "count" {
    count = 2

    restart {
      attempts = 2
      interval = "1m"
      delay    = "2s"
      mode     = "fail"
    }

    reschedule {
      attempts  = 1
      interval  = "10m"
      delay     = "5s"
      unlimited = false
    }

    task "count" {
      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args    = ["-c", "for i in 3 2 1; do echo \"$NOMAD_ALLOC_NAME: $i\"; sleep 1; done; echo liftoff"]
      }

      resources {
        cpu    = 50
        memory = 32
      }

      logs {
        max_files     = 3
        max_file_size = 1
      }
    }
  }
}
