# The smallest useful job: run a command once on any client with the raw_exec driver.
job "hello" {
  datacenters = ["*"]
  type        = "batch"

  group "hello" {
    task "say" {
      driver = "raw_exec"

      config {
        command = "/bin/echo"
        args    = ["hello from ${NOMAD_JOB_NAME} in alloc ${NOMAD_ALLOC_ID}"]
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }
  }
}
