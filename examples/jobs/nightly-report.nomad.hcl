# A periodic batch job: launched every night at 03:00 UTC, never twice at once.
job "nightly-report" {
  datacenters = ["*"]
  type        = "batch"

  periodic {
    crons            = ["0 3 * * *"]
    time_zone        = "UTC"
    prohibit_overlap = true
  }

  group "report" {
    task "build" {
      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args    = ["-c", "echo building report for $(date -u +%F)"]
      }
    }
  }
}
