# Variables and locals: override with -var, -var-file or NOMAD_VAR_<name>; image_tag has no default:
#   svc job run -var image_tag=v1 examples/jobs/vars.nomad.hcl
variable "region" {
  type        = string
  default     = "global"
  description = "Region to run in"
}

variable "datacenters" {
  type    = list(string)
  default = ["dc1", "dc2"]
}

variable "replicas" {
  type    = number
  default = 1
}

variable "image_tag" {
  type = string
}

variable "labels" {
  type    = map(string)
  default = { owner = "ops" }
}

locals {
  name       = "api-${var.image_tag}"
  full_count = var.replicas * 2
  tags       = [for dc in var.datacenters : upper(dc)]
  meta       = merge(var.labels, { version = var.image_tag })
}

job "api" {
  region      = var.region
  datacenters = var.datacenters
  name        = local.name

  meta = local.meta

  group "api" {
    count = local.full_count

    network {
      port "http" {}
    }

    task "api" {
      driver = "raw_exec"

      # $${...} escapes HCL's interpolation: the node fills in ${NOMAD_PORT_http} when the task starts.
      config {
        command = "/bin/sh"
        args    = ["-c", "echo \"api $VERSION, tags $TAGS, port $${NOMAD_PORT_http}\"; exec sleep 3600"]
      }

      env {
        VERSION = var.image_tag
        TAGS    = join(",", local.tags)
        DEBUG   = var.replicas > 1 ? "false" : "true"
      }
    }
  }
}
