/**
 * The job files `svc job init` writes, in the shape of Nomad's: a service job named "example", written to
 * run as it is on any node of svc (`svc server -dev` included), so it uses the raw_exec driver and needs
 * nothing but /bin/sh. `-short` is the same job without its comments.
 */

export const EXAMPLE_JOB = `# There can only be a single job definition per file. This job is named
# "example" so it will create a job with the ID and Name "example".

# The "job" block is the top-most configuration option in the job
# specification. A job is a declarative specification of tasks that should
# be run by the scheduler.
job "example" {
  # The "datacenters" parameter specifies the list of datacenters which should
  # be considered when placing this task. The "*" wildcard takes every
  # datacenter.
  datacenters = ["*"]

  # The "type" parameter controls the type of job, which impacts the scheduler's
  # decision on placement: "service" (long-lived), "batch" (runs to completion),
  # "system" and "sysbatch" (one allocation on every node).
  type = "service"

  # The "update" block specifies the update strategy of task groups: how many
  # allocations are replaced at a time, and how long a new one must be healthy
  # before the next goes.
  update {
    # The "max_parallel" parameter specifies the maximum number of updates to
    # perform in parallel.
    max_parallel = 1

    # The "min_healthy_time" parameter specifies the minimum time the
    # allocation must be in the healthy state before it is marked as healthy
    # and unblocks further allocations from being updated.
    min_healthy_time = "10s"

    # The "healthy_deadline" parameter specifies the deadline in which the
    # allocation must be marked as healthy after which the allocation is
    # automatically transitioned to unhealthy.
    healthy_deadline = "3m"

    # The "auto_revert" parameter specifies if the job should auto-revert to the
    # last stable job on deployment failure.
    auto_revert = false
  }

  # The "group" block defines a series of tasks that should be co-located on
  # the same client (host). All tasks within a group will be placed on the
  # same host.
  group "web" {
    # The "count" parameter specifies the number of the task groups that should
    # be running under this group. This value must be non-negative.
    count = 1

    # The "network" block specifies the network configuration for the
    # allocation, including requesting port bindings. A port without "static"
    # is dynamic: the scheduler picks a free one.
    network {
      port "http" {}
    }

    # The "service" block registers the group in svc's service catalogue
    # ("svc service list"), with the address of the "http" port.
    service {
      name     = "example-web"
      provider = "nomad"
      port     = "http"
      tags     = ["example"]
    }

    # The "restart" block configures a group's behavior on task failure. If
    # left unspecified, a default restart policy is used based on the job type.
    restart {
      # The number of attempts to run the job within the specified interval.
      attempts = 2
      interval = "30m"

      # The "delay" parameter specifies the duration to wait before restarting
      # a task after it has failed.
      delay = "15s"

      # The "mode" parameter controls what happens when a task has restarted
      # "attempts" times within the interval. "delay" mode delays the next
      # restart until the next interval. "fail" mode does not restart the task
      # if "attempts" has been hit within the interval.
      mode = "fail"
    }

    # The "task" block creates an individual unit of work, such as a process
    # or a command.
    task "server" {
      # The "driver" parameter specifies the task driver that should be used to
      # run the task: "raw_exec" runs a plain process on the host, "exec" the
      # same isolated in namespaces with a task root (it needs root).
      driver = "raw_exec"

      # The "config" block specifies the driver configuration, which is passed
      # directly to the driver to start the task.
      config {
        command = "/bin/sh"
        args    = ["-c", "while true; do echo \\"$NOMAD_ALLOC_NAME listening on $NOMAD_ADDR_http\\"; sleep 30; done"]
      }

      # The "env" block sets environment variables for the task; values may
      # interpolate node attributes and other variables.
      env {
        GREETING = "hello from \${node.datacenter}"
      }

      # The "resources" block describes the requirements a task needs to
      # execute: CPU in MHz and memory in MB.
      resources {
        cpu    = 100
        memory = 64
      }

      # The "logs" block sets how many rotated log files of stdout and stderr
      # are kept, and their size in MB ("svc alloc logs" reads them).
      logs {
        max_files     = 3
        max_file_size = 10
      }

      # The "kill_timeout" parameter sets how long to wait for the task to exit
      # after the kill signal before it is killed forcefully.
      kill_timeout = "5s"
    }
  }
}
`;

/**
 * Nomad's -connect example is two services talking over the Consul service mesh, the dashboard reaching
 * the API through a sidecar at a local upstream address. svc has no mesh, and its templates cannot look
 * services up, so the two tasks share one group's network instead: the dashboard reaches the API at
 * the address of the group's "api" port, given to every task of the group as NOMAD_ADDR_api. Both are
 * registered in the service catalogue.
 */
export const CONNECT_EXAMPLE_JOB = `# Two services, "count-api" and "count-dashboard". Tasks of one group share its
# network, so the dashboard reaches the API at NOMAD_ADDR_api, the address of
# the group's "api" port ("svc service info count-api" shows it too).
job "countdash" {
  datacenters = ["*"]

  group "countdash" {
    network {
      port "api" {}
      port "http" {}
    }

    # Both services are registered in svc's catalogue ("svc service list").
    service {
      name     = "count-api"
      provider = "nomad"
      port     = "api"
    }

    service {
      name     = "count-dashboard"
      provider = "nomad"
      port     = "http"
    }

    task "api" {
      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args    = ["-c", "n=0; while true; do n=$((n+1)); echo \\"count $n\\" > $NOMAD_ALLOC_DIR/count; sleep 5; done"]
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }

    task "dashboard" {
      driver = "raw_exec"

      # The upstream's address, as the dashboard is told where the API is.
      env {
        COUNTING_SERVICE_URL = "http://\${NOMAD_ADDR_api}"
      }

      config {
        command = "/bin/sh"
        args    = ["-c", "while true; do echo \\"dashboard on $NOMAD_ADDR_http reads $COUNTING_SERVICE_URL\\"; sleep 30; done"]
      }

      resources {
        cpu    = 50
        memory = 32
      }
    }
  }
}
`;

/**
 * The file without its comment lines. Blank lines stay only between blocks (after a closing brace or
 * before an opening one), where the full file has them too.
 */
export function withoutComments(text: string): string {
  const lines = text.split('\n').filter((line) => !line.trimStart().startsWith('#'));
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (line.trim() !== '') return void out.push(line);
    const previous = out.at(-1);
    const next = lines.slice(i + 1).find((l) => l.trim() !== '');
    if (previous === undefined || previous.trim() === '' || previous.endsWith('{') || next === undefined || next.trim() === '}') return;
    if (previous.trim() === '}' || next.endsWith('{')) out.push(line);
  });
  return `${out.join('\n')}\n`;
}
