# Variables and locals: override with -var, -var-file or NOMAD_VAR_<name>.
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

    task "api" {
      driver = "raw_exec"

      config {
        command = "/usr/local/bin/api"
        args    = ["--tags", join(",", local.tags), "--listen", ":$${PORT}"]
      }

      env {
        VERSION = var.image_tag
        DEBUG   = var.replicas > 1 ? "false" : "true"
      }
    }
  }
}
