# A periodic batch job with a prestart task, gathered from test/jobspec/mapping.test.ts.
job "cron" {
  type = "batch"

  periodic {
    crons            = ["*/5 * * * *"]
    prohibit_overlap = true
  }

  group "g" {
    max_run_duration = 1000

    task "prep" {
      driver = "raw_exec"
      lifecycle {
        hook    = "prestart"
        sidecar = false
      }
      config {
        command = "/bin/true"
      }
    }
    task "main" {
      driver = "raw_exec"
      config {
        command = "/bin/true"
      }
    }
  }
}
