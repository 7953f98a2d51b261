#!/usr/bin/env bash
# A CI job against a throwaway dev server: start `svc server -dev -dev-cloud`, log in as the simulated
# cloud instance, deploy a job with that identity's token, and stop the server. No terminal is needed.
# SVC_PORT and SVC_CLOUD_PORT choose the ports (4646 and 4600 by default); JOB the job file.
set -euo pipefail

port="${SVC_PORT:-4646}"
cloud_port="${SVC_CLOUD_PORT:-4600}"
job="${JOB:-examples/jobs/hello.nomad.hcl}"
export SVC_ADDR="http://127.0.0.1:${port}"

svc server -dev -dev-cloud -port="$port" -dev-cloud-port="$cloud_port" >svc-server.log 2>&1 </dev/null &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" || true' EXIT

# The server answers its health check once it has started (and written the token and endpoint files).
for _ in $(seq 1 100); do
  if svc status >/dev/null 2>&1; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then cat svc-server.log; echo "the server did not start" >&2; exit 1; fi
  sleep 0.1
done
svc status >/dev/null

# As root (the dev token): let the cloud role deploy jobs.
svc policy write ci-deploy examples/policies/ci-deploy.hcl
svc write auth/cloud/role/dev-iam token_policies=ci-deploy

# Log in as the instance; its token replaces the root token in ~/.svc-token.
export CLOUD_METADATA_ENDPOINT="$(svc print cloud-endpoint)"
svc login -method=cloud -no-print type=iam role=dev-iam

# job run waits for the evaluation (and a service job's deployment); its exit code says how it went.
if ! svc job run "$job"; then
  echo "deploy failed" >&2
  exit 1
fi
echo "deployed $job"
