# Lifecycle hooks: a prestart task prepares a file, a sidecar keeps running beside the main task, a
# poststart task announces the start, and a poststop task cleans up when the main task is done.
job "lifecycle" {
  datacenters = ["*"]
  type        = "batch"

  group "app" {
    task "prepare" {
      driver = "raw_exec"

      lifecycle {
        hook    = "prestart"
        sidecar = false
      }

      config {
        command = "/bin/sh"
        args    = ["-c", "echo ready > \"$NOMAD_ALLOC_DIR/data/prepared\""]
      }
    }

    task "logger" {
      driver = "raw_exec"

      lifecycle {
        hook    = "prestart"
        sidecar = true
      }

      config {
        command = "/bin/sh"
        args    = ["-c", "while true; do sleep 1; done"]
      }
    }

    task "main" {
      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args    = ["-c", "cat \"$NOMAD_ALLOC_DIR/data/prepared\"; sleep 2"]
      }
    }

    task "announce" {
      driver = "raw_exec"

      lifecycle {
        hook = "poststart"
      }

      config {
        command = "/bin/echo"
        args    = ["main task of ${NOMAD_JOB_NAME} started"]
      }
    }

    task "cleanup" {
      driver = "raw_exec"

      lifecycle {
        hook = "poststop"
      }

      config {
        command = "/bin/rm"
        args    = ["-f", "${NOMAD_ALLOC_DIR}/data/prepared"]
      }
    }
  }
}
