# A parameterized batch job with a job-level task, gathered from test/jobspec/mapping.test.ts.
job "label" {
  id   = "dispatch"
  type = "batch"

  parameterized {
    payload       = "required"
    meta_required = ["x"]
  }

  reschedule {
    attempts = 0
  }

  task "solo" {
    driver = "raw_exec"
    config {
      command = "/bin/cat"
      args    = ["local/input.json"]
    }
    dispatch_payload {
      file = "input.json"
    }
  }
}
