#compdef svc
# zsh completion for svc.
# Generated from the command registry by `npm run gen`; do not edit.
# Install: copy this file to a directory on $fpath as _svc, or: source <(svc completion zsh)

# The subcommands of the words in $1, as name:description.
_svc_words() {
  case "$1" in
    '') reply=('alloc:Interact with allocations' 'auth:Interact with auth methods' 'completion:Print a shell completion script' 'delete:Delete data at any path of the secrets API' 'deployment:Interact with deployments' 'eval:Interact with evaluations' 'identity:Interact with the identity store' 'job:Interact with jobs' 'list:List the keys under any path of the secrets API' 'login:Authenticate locally' 'namespace:Interact with scheduler namespaces' 'node:Interact with nodes' 'path-help:Print help for a path of the secrets API' 'policy:Interact with policies' 'read:Read data from any path of the secrets API' 'run:Run a new job or update an existing job (alias of "job run")' 'server:Start the svc server (both APIs and a local node)' 'service:Interact with registered services' 'status:Print the status of the server' 'stop:Stop a running job (alias of "job stop")' 'system:Interact with the system API' 'token:Interact with tokens' 'version:Print the svc version' 'write:Write data to any path of the secrets API') ;;
    'alloc') reply=('checks:Outputs service health check status information' 'exec:Execute commands in task' 'fs:Inspect the contents of an allocation directory' 'logs:Stream the logs of a task' 'pause:Override the pause schedule of a task' 'restart:Restart a running allocation' 'signal:Signal a running allocation' 'status:Display allocation status information and metadata' 'stop:Stop and reschedule a running allocation') ;;
    'auth') reply=('cloud:Configure the cloud auth method' 'disable:Disable an auth method' 'enable:Enable an auth method' 'list:List the enabled auth methods') ;;
    'auth cloud') reply=('accesslist:Manage the identity access list' 'config:Configure the cloud auth method' 'denylist:Manage the role tag deny list' 'role:Manage roles and role tags' 'rotate-root:Rotate the access key the server uses' 'tidy:Remove expired list entries') ;;
    'auth cloud accesslist') reply=('delete:Remove an instance from the access list' 'list:List the instances on the access list' 'read:Print an access list entry') ;;
    'auth cloud config') reply=('certificate:Manage trusted provider certificates' 'client:Manage the provider credentials and endpoints' 'identity:Manage the identity integration' 'sts:Manage the roles assumed per account' 'tidy:Configure tidying of the access and deny lists') ;;
    'auth cloud config certificate') reply=('delete:Remove a registered certificate' 'list:List the registered certificates' 'read:Print a registered certificate' 'write:Register a provider certificate') ;;
    'auth cloud config client') reply=('delete:Remove the provider client configuration' 'read:Print the provider client configuration' 'write:Configure the provider credentials and endpoints') ;;
    'auth cloud config identity') reply=('read:Print the identity integration' 'write:Configure the identity integration') ;;
    'auth cloud config sts') reply=('delete:Stop assuming a role for an account' 'list:List the accounts with a role to assume' 'read:Print the role assumed for an account' 'write:Set the role to assume for an account') ;;
    'auth cloud config tidy') reply=('delete:Reset the tidy configuration of a list' 'read:Print the tidy configuration of a list' 'write:Configure tidying of a list') ;;
    'auth cloud denylist') reply=('add:Put a role tag on the deny list' 'delete:Take a role tag off the deny list' 'list:List the deny-listed role tags' 'read:Print a deny list entry') ;;
    'auth cloud role') reply=('delete:Delete a role' 'list:List the roles' 'read:Print a role' 'tag:Create a role tag' 'write:Create or update a role') ;;
    'auth cloud tidy') reply=('accesslist:Remove expired entries of the identity access list' 'denylist:Remove expired entries of the role tag deny list') ;;
    'deployment') reply=('fail:Manually fail a deployment' 'list:List deployments' 'pause:Pause a deployment' 'promote:Promote canaries in a deployment' 'resume:Resume a paused deployment' 'status:Display the status of a deployment') ;;
    'eval') reply=('list:List evaluations' 'status:Display evaluation status and placement failure reasons') ;;
    'identity') reply=('entity:Manage entities' 'entity-alias:Manage entity aliases') ;;
    'identity entity') reply=('create:Create an entity' 'delete:Delete an entity and its aliases' 'list:List the entities' 'read:Print an entity' 'update:Update an entity') ;;
    'identity entity-alias') reply=('create:Create an entity alias' 'delete:Delete an entity alias' 'list:List the entity aliases' 'read:Print an entity alias' 'update:Update an entity alias') ;;
    'job') reply=('action:Run a pre-defined action from a job'\''s task' 'allocs:List the allocations of a job' 'deployments:List the deployments of a job' 'dispatch:Dispatch an instance of a parameterized job' 'eval:Force an evaluation of a job' 'history:Display all tracked versions of a job' 'inspect:Inspect a submitted job' 'periodic:Interact with periodic jobs' 'plan:Dry-run a job update to see what the scheduler would do' 'promote:Promote a job'\''s canaries' 'revert:Revert a job to an earlier version' 'run:Run a new job or update an existing job' 'scale:Change the count of a job'\''s task group' 'scaling-events:Display the scaling events of a job' 'status:Display status information about a job' 'stop:Stop a running job' 'tag:Tag job versions' 'validate:Check a job file for errors') ;;
    'job periodic') reply=('force:Launch an instance of a periodic job now') ;;
    'job tag') reply=('apply:Tag a job version' 'unset:Remove a tag from a job version') ;;
    'namespace') reply=('apply:Create or update a namespace' 'delete:Delete a namespace' 'list:List namespaces' 'status:Display a namespace'\''s status') ;;
    'node') reply=('drain:Toggle drain mode on a given node' 'eligibility:Toggle scheduling eligibility for a node' 'status:Display status information about nodes') ;;
    'policy') reply=('delete:Delete a policy' 'list:List the installed policies' 'read:Print the text of a policy' 'write:Upload a policy from a file or stdin') ;;
    'service') reply=('info:Display the registrations of a service' 'list:List registered services') ;;
    'system') reply=('gc:Run the system garbage collection process') ;;
    'token') reply=('create:Create a new token' 'lookup:Display information about a token' 'renew:Renew a token lease' 'revoke:Revoke a token and its children') ;;
    *) reply=() ;;
  esac
}

# The flags of the command in $1 that take no value, as name:description.
_svc_bool_flags() {
  case "$1" in
    'alloc checks') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON' '-verbose:Show full IDs when a prefix matches several allocations') ;;
    'alloc exec') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-job:ALLOC is a job ID: use a random running allocation of it' '-i:Pass stdin to the command' '-t:Allocate a terminal; the default when stdin and stdout are terminals' '-verbose:Show full IDs') ;;
    'alloc fs') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-machine:Sizes in bytes, not KiB, MiB … (Nomad'\''s -H)' '-stat:Print the file information' '-f:Follow the file' '-tail:Print the end: the last -n lines (10) or -c bytes' '-job:ALLOC is a job: use its newest running allocation' '-verbose:Show full IDs') ;;
    'alloc logs') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-stdout:Print stdout (the default, except with -f alone)' '-stderr:Print stderr' '-f:Follow the log until the task is dead' '-tail:Start near the end: the last -n lines (10) or -c bytes' '-job:ALLOC is a job: use its newest running allocation' '-verbose:Show full IDs') ;;
    'alloc pause') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-status:Print the task'\''s pause state instead of setting it' '-verbose:Show full IDs') ;;
    'alloc restart') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-all-tasks:Restart every task of the allocation, not only the running ones' '-verbose:Show full IDs') ;;
    'alloc signal') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-verbose:Show full IDs') ;;
    'alloc status') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON' '-short:Show one line per task (its last event) instead of the task details' '-verbose:Full IDs, absolute times, and the placement metrics') ;;
    'alloc stop') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-detach:Print the follow-up evaluation ID and return instead of following it' '-no-shutdown-delay:Ignore the group'\''s and tasks'\'' shutdown_delay' '-verbose:Show full IDs') ;;
    'auth cloud accesslist delete') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud accesslist list') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud accesslist read') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config certificate delete') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config certificate list') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config certificate read') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config certificate write') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config client delete') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config client read') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config client write') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-use-sts-region-from-client:On iam logins, send the caller-identity request to the token service ...') ;;
    'auth cloud config identity read') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config identity write') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config sts delete') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config sts list') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config sts read') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config sts write') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config tidy delete') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config tidy read') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud config tidy write') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-disable-periodic-tidy:Do not tidy the list periodically') ;;
    'auth cloud denylist add') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud denylist delete') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud denylist list') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud denylist read') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud role delete') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud role list') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud role read') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud role tag') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-allow-instance-migration:Let an instance with a newer pendingTime log in without its nonce' '-disallow-reauthentication:Allow one login per instance with this tag') ;;
    'auth cloud role write') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-resolve-cloud-unique-ids:Resolve each bound_iam_principal_arn without a trailing "*" to the pr...' '-allow-instance-migration:Let an instance whose pendingTime is newer than the one remembered lo...' '-disallow-reauthentication:Allow one login per instance; another needs the instance'\''s access lis...' '-token-no-default-policy:Do not add the "default" policy to issued tokens') ;;
    'auth cloud rotate-root') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud tidy accesslist') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth cloud tidy denylist') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth disable') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth enable') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'auth list') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-detailed:Print more columns: TTLs, token type, replication, seal wrap, options...') ;;
    'delete') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'deployment fail') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-detach:Return at once instead of following an evaluation the server creates' '-verbose:Show full IDs') ;;
    'deployment list') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON' '-verbose:Show full IDs') ;;
    'deployment pause') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-verbose:Show full IDs') ;;
    'deployment promote') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-detach:Print the evaluation ID and return instead of following the evaluation' '-verbose:Show full IDs') ;;
    'deployment resume') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-detach:Return at once instead of following the evaluation' '-verbose:Show full IDs') ;;
    'deployment status') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON' '-verbose:Show full IDs; with -monitor, also the deployment'\''s allocations' '-monitor:Follow the deployment until it succeeds, fails or is cancelled') ;;
    'eval list') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON' '-verbose:Show full IDs') ;;
    'eval status') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON' '-verbose:Full IDs, absolute times, and the previous, next and blocked evaluations' '-monitor:Follow the evaluation until it finishes, as `svc job run` does') ;;
    'identity entity create') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-disabled:Whether the entity is disabled') ;;
    'identity entity delete') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'identity entity list') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-by-name:List the entity names instead of their IDs') ;;
    'identity entity read') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'identity entity update') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-disabled:Whether the entity is disabled') ;;
    'identity entity-alias create') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'identity entity-alias delete') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'identity entity-alias list') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'identity entity-alias read') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'identity entity-alias update') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'job action') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-i:Pass stdin to the action' '-t:Allocate a terminal; the default when stdin and stdout are terminals' '-verbose:Show full IDs') ;;
    'job allocs') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON' '-all:Include the allocations of earlier jobs registered under the same ID' '-verbose:Full IDs, the evaluation and node name, and absolute times') ;;
    'job deployments') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON' '-latest:Show only the latest deployment' '-all:Include the deployments of earlier jobs registered under the same ID' '-verbose:Show full IDs') ;;
    'job dispatch') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-detach:Return after dispatching instead of following the evaluation' '-verbose:Show full IDs') ;;
    'job eval') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-force-reschedule:Reschedule failed allocations now, even those whose reschedule delay ...' '-detach:Print the evaluation ID and return instead of following the evaluation' '-verbose:Show full IDs') ;;
    'job history') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON' '-p:Show the differences between each version and the one before it' '-full:Print the whole job of each version') ;;
    'job inspect') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON' '-hcl:Print the job file that was submitted for the version, instead of the...') ;;
    'job periodic force') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-detach:Print the evaluation ID and return instead of following the evaluation' '-verbose:Show full IDs') ;;
    'job plan') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-diff:Show the difference between the job and the one on the server' '-verbose:Show the fields of added and removed groups and tasks, and of an unch...' '-json:The file holds a job in the API'\''s JSON shape; variables cannot be use...' '-policy-override:Plan as if soft-mandatory policy failures were overridden' '-hcl2-strict:Fail on unknown variables in -var and -var-file (always on; accepted ...') ;;
    'job promote') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-detach:Print the evaluation ID and return instead of following the evaluation' '-verbose:Show full IDs') ;;
    'job revert') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-detach:Print the evaluation ID and return instead of following the evaluation' '-verbose:Show full IDs') ;;
    'job run') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-detach:Return right after submitting, printing the evaluation ID, instead of...' '-verbose:Show full IDs, and the deployment'\''s allocations' '-json:The file holds a job in the API'\''s JSON shape ({"Job": …} or the bare ...' '-output:Print the job as the API JSON request ({"Job": …}) instead of submitt...' '-policy-override:Override soft-mandatory policy failures' '-preserve-counts:Keep the current counts of the job'\''s existing task groups instead of ...' '-hcl2-strict:Fail on unknown variables in -var and -var-file (always on; accepted ...') ;;
    'job scale') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-detach:Print the evaluation ID and return instead of following the evaluation' '-verbose:Show full IDs') ;;
    'job scaling-events') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-verbose:Add each event'\''s error flag, message and evaluation ID') ;;
    'job status') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON' '-short:Print only the job'\''s header, without the summary and allocations' '-evals:Also list the job'\''s evaluations' '-all-allocs:Also list the allocations of earlier jobs registered under the same ID' '-verbose:Full IDs, absolute times, and the evaluations') ;;
    'job stop') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-detach:Print the evaluation ID and return instead of following the evaluation' '-purge:Remove the job and its history at once instead of leaving it for garb...' '-global:Stop a multi-region job in every region (svc has one region)' '-no-shutdown-delay:Ignore the groups'\'' and tasks'\'' shutdown_delay' '-yes:Do not ask for confirmation when a job was named by a prefix' '-verbose:Show full IDs') ;;
    'job tag apply') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'job tag unset') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'job validate') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:The file holds a job in the API'\''s JSON shape; variables cannot be use...') ;;
    'list') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'login') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-no-store:Do not store the token in the token file' '-token-only:Print only the token and do not store it; the same as -field=token -n...' '-no-print:Print nothing on success; only the exit code tells') ;;
    'namespace apply') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'namespace delete') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'namespace list') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON') ;;
    'namespace status') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON') ;;
    'node drain') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-enable:Enable draining for the node' '-disable:Disable draining for the node' '-detach:Return immediately instead of following the drain' '-monitor:Follow the drain in progress without changing it' '-force:Stop every allocation on the node now' '-no-deadline:Let the allocations move off the node without ever stopping them at a...' '-ignore-system:Leave system job allocations running; the drain completes without them' '-keep-ineligible:When cancelling the drain, keep the node ineligible for scheduling' '-self:Drain the node of the server the command talks to' '-yes:Do not ask for confirmation when the node was named by a prefix') ;;
    'node eligibility') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-enable:Make the node eligible for scheduling' '-disable:Make the node ineligible for scheduling' '-self:Set the eligibility of the node of the server the command talks to') ;;
    'node status') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON' '-verbose:Full IDs, node addresses and versions; for one node its drivers, attr...' '-short:For one node: only its header and its allocations') ;;
    'path-help') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'policy delete') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'policy list') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'policy read') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'policy write') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'read') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'run') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-detach:Return right after submitting, printing the evaluation ID, instead of...' '-verbose:Show full IDs, and the deployment'\''s allocations' '-json:The file holds a job in the API'\''s JSON shape ({"Job": …} or the bare ...' '-output:Print the job as the API JSON request ({"Job": …}) instead of submitt...' '-policy-override:Override soft-mandatory policy failures' '-preserve-counts:Keep the current counts of the job'\''s existing task groups instead of ...' '-hcl2-strict:Fail on unknown variables in -var and -var-file (always on; accepted ...') ;;
    'server') reply=('-dev:Development mode: temporary storage, root token written to the token ...' '-dev-cloud:With -dev: run a cloud provider simulator that auth/cloud trusts, to ...' '-cloud-allow-sha1:Accept ec2 logins with SHA-1 signed documents (the DSA pkcs7 one)' '-client:Run a node in this server that runs tasks') ;;
    'service info') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON' '-verbose:Show each registration in full, with full IDs') ;;
    'service list') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-json:Print the output as JSON') ;;
    'status') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'stop') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-detach:Print the evaluation ID and return instead of following the evaluation' '-purge:Remove the job and its history at once instead of leaving it for garb...' '-global:Stop a multi-region job in every region (svc has one region)' '-no-shutdown-delay:Ignore the groups'\'' and tasks'\'' shutdown_delay' '-yes:Do not ask for confirmation when a job was named by a prefix' '-verbose:Show full IDs') ;;
    'system gc') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal') ;;
    'token create') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-no-default-policy:Do not add the "default" policy to the token' '-orphan:Create the token with no parent, so it is not revoked with its creator' '-renewable:Allow the token to be renewed up to its max TTL') ;;
    'token lookup') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-accessor:Treat the argument as an accessor instead of a token') ;;
    'token renew') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-accessor:Treat the argument as an accessor instead of a token') ;;
    'token revoke') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-accessor:Treat the argument as an accessor instead of a token' '-self:Revoke the token in use; takes no argument') ;;
    'write') reply=('-no-color:Disable colour in the output' '-force-color:Colour the output even when it is not a terminal' '-force:Allow the write with no K=V pairs, for endpoints that need or expect ...') ;;
    *) reply=() ;;
  esac
}

# The flags of the command in $1 that take a value, as name=:description.
_svc_value_flags() {
  case "$1" in
    'alloc checks') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-t=:Format the results (the map keyed by check ID) with a Go template') ;;
    'alloc exec') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-task=:The task to run in; needed when there are several' '-group=:With -job: only allocations of this task group' '-e=:The escape character (ESCAPE ') ;;
    'alloc fs') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-n=:With -tail: lines from the end' '-c=:With -tail: bytes from the end') ;;
    'alloc logs') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-n=:With -tail: lines from the end' '-c=:With -tail: bytes from the end' '-task=:The task (the same as the TASK argument)') ;;
    'alloc pause') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-state=:Override the schedule: pause, run, or scheduled (follow the schedule ...' '-task=:The task (the same as the TASK argument)') ;;
    'alloc restart') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-task=:Restart only this task (the same as the TASK argument)') ;;
    'alloc signal') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-s=:The signal to send, by name (SIGHUP, SIGUSR1, …)' '-task=:Signal only this task (the same as the TASK argument)') ;;
    'alloc status') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'alloc stop') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'auth cloud accesslist delete') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud accesslist list') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud accesslist read') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud config certificate delete') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud config certificate list') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud config certificate read') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud config certificate write') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...' '-cloud-public-cert=:The certificate: PEM, or base64 of the PEM' '-type=:What it verifies: "pkcs7" (the pkcs7 and rsa2048 documents) or "ident...') ;;
    'auth cloud config client delete') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud config client read') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud config client write') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...' '-max-retries=:Retries of a provider call after throttling or a server error; -1 mea...' '-access-key=:Access key the server queries the provider with' '-secret-key=:Secret key of access_key' '-endpoint=:URL of the compute API, instead of the one generated from the region' '-iam-endpoint=:URL of the identity (IAM) API, instead of the generated one' '-sts-endpoint=:URL of the token service (STS), instead of the global one; set sts_re...' '-sts-region=:Region of sts_endpoint; set it only together with sts_endpoint' '-iam-server-id-header-value=:When set, iam logins must carry header X-Svc-Cloud-IAM-Server-ID with...' '-allowed-sts-header-values=:Request headers allowed in iam logins besides the ones a caller-ident...') ;;
    'auth cloud config identity read') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud config identity write') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...' '-iam-alias=:What names the entity alias of an iam login: role_id, unique_id or fu...' '-iam-metadata=:Login facts copied to the token and alias metadata on iam logins: "de...' '-ec2-alias=:What names the entity alias of an ec2 login: role_id, instance_id or ...' '-ec2-metadata=:Login facts copied to the token and alias metadata on ec2 logins: "de...') ;;
    'auth cloud config sts delete') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud config sts list') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud config sts read') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud config sts write') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...' '-sts-role=:ARN of the role to assume for that account; the server must be allowe...') ;;
    'auth cloud config tidy delete') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud config tidy read') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud config tidy write') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...' '-safety-buffer=:How long past its expiry an entry of the list is kept before tidy rem...') ;;
    'auth cloud denylist add') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud denylist delete') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud denylist list') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud denylist read') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud role delete') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud role list') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud role read') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud role tag') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...' '-policies=:Policies of tokens issued with the tag: a subset of the role'\''s' '-max-ttl=:Longest lifetime of tokens issued with the tag' '-instance-id=:The only instance allowed to use the tag') ;;
    'auth cloud role write') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...' '-auth-type=:How members log in: "iam" (a signed caller-identity request; the defa...' '-bound-ami-id=:Image IDs the instance must use one of' '-bound-account-id=:Account IDs the instance must belong to one of' '-bound-region=:Regions the instance must run in one of' '-bound-vpc-id=:VPC IDs the instance must be in one of' '-bound-subnet-id=:Subnet IDs the instance must be in one of' '-bound-iam-role-arn=:ARNs of the role of the instance'\''s profile, one of which must match; ...' '-bound-iam-instance-profile-arn=:Instance profile ARNs, one of which must match; a trailing "*" matche...' '-bound-ec2-instance-id=:Instance IDs the instance must be one of' '-role-tag=:Key of the instance tag that holds a role tag; empty disables role tags' '-bound-iam-principal-arn=:ARNs of the principals allowed to log in with iam; a trailing "*" mat...' '-inferred-entity-type=:Infer an instance from an iam login ("ec2_instance", the only value) ...' '-inferred-cloud-region=:Region the inferred instance is looked up in; required with inferred_...' '-token-ttl=:Initial lifetime of issued tokens; 0 means the mount default' '-token-max-ttl=:Longest lifetime of issued tokens, renewals included; 0 means the mou...' '-token-policies=:Policies of issued tokens' '-token-bound-cidrs=:CIDR blocks logins are allowed from; issued tokens work only from them' '-token-explicit-max-ttl=:Hard limit on the lifetime of issued tokens, which no renewal can pass' '-token-num-uses=:Requests an issued token may make; 0 means unlimited (a token that cr...' '-token-period=:Issue periodic tokens: each renewal resets the lifetime to this period' '-token-type=:Type of issued tokens: "service", "batch", or "default" (the mount'\''s ...') ;;
    'auth cloud rotate-root') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...') ;;
    'auth cloud tidy accesslist') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...' '-safety-buffer=:How long past its expiry an entry is kept before it is removed (secon...') ;;
    'auth cloud tidy denylist') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-path=:Mount path of the cloud auth method, relative to auth/ (the -path giv...' '-safety-buffer=:How long past its expiry an entry is kept before it is removed (secon...') ;;
    'auth disable') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'auth enable') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-path=:The mount path, relative to auth/' '-description=:A human-friendly description of the auth method' '-default-lease-ttl=:The default lease duration of tokens issued by this mount' '-max-lease-ttl=:The maximum lease duration of tokens issued by this mount' '-token-type=:The type of tokens the mount issues') ;;
    'auth list') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...') ;;
    'delete') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...') ;;
    'deployment fail') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'deployment list') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-filter=:A filter expression evaluated against each deployment' '-per-page=:How many deployments to show per page' '-page-token=:Where the page starts: the token the previous page printed') ;;
    'deployment pause') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'deployment promote') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-group=:Promote only this task group'\''s canaries') ;;
    'deployment resume') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'deployment status') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'eval list') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-job=:Only evaluations of this job ID' '-status=:Only evaluations with this status' '-filter=:A filter expression evaluated against each evaluation' '-per-page=:How many evaluations to show per page' '-page-token=:Where the page starts: the token the previous page printed') ;;
    'eval status') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'identity entity create') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-name=:Name of the entity' '-metadata=:Metadata of the entity, as string keys and values' '-policies=:Policies granted to every token of the entity, on top of the tokens'\'' ...') ;;
    'identity entity delete') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-name=:Delete the entity with this name instead of by ID') ;;
    'identity entity list') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...') ;;
    'identity entity read') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-name=:Read the entity with this name instead of by ID') ;;
    'identity entity update') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-name=:New name of the entity' '-metadata=:Metadata of the entity, as string keys and values' '-policies=:Policies granted to every token of the entity, on top of the tokens'\'' ...') ;;
    'identity entity-alias create') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-name=:Identifier of the client in the authentication source, for example a ...' '-canonical-id=:ID of the entity that owns the alias' '-mount-accessor=:Accessor of the auth mount the alias belongs to (see `svc auth list`)' '-id=:ID of an existing alias to update with the given values, instead of c...' '-custom-metadata=:User-provided metadata describing the alias, as string keys and values') ;;
    'identity entity-alias delete') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...') ;;
    'identity entity-alias list') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...') ;;
    'identity entity-alias read') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...') ;;
    'identity entity-alias update') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-name=:Identifier of the client in the authentication source, for example a ...' '-canonical-id=:ID of the entity to move the alias to' '-mount-accessor=:Accessor of the auth mount to move the alias to' '-custom-metadata=:User-provided metadata describing the alias') ;;
    'job action') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-job=:The job; required without -alloc' '-alloc=:The allocation (ID or prefix) to run in' '-group=:Only allocations of this task group' '-task=:The task whose action to run' '-e=:The escape character, or "none" (see svc alloc exec)') ;;
    'job allocs') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'job deployments') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'job dispatch') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-meta=:A metadata value for the instance, as key=value' '-idempotency-token=:Dispatch at most one instance with this token while that instance is ...' '-id-prefix-template=:Put this text in the instance'\''s ID: <job>/dispatch-<template>-<time>-...' '-priority=:Priority of the instance (1 to 100); the job'\''s by default') ;;
    'job eval') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'job history') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-diff-version=:With -p, compare every version with this version number instead' '-diff-tag=:With -p, compare every version with the version tagged with this name...' '-version=:Show only this version') ;;
    'job inspect') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-version=:Inspect this version of the job instead of the current one') ;;
    'job periodic force') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'job plan') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-var=:A variable value, as name=value' '-var-file=:A file of variable values, HCL or JSON') ;;
    'job promote') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-group=:Promote only this task group'\''s canaries') ;;
    'job revert') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'job run') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-check-index=:Register only if the job'\''s modify index is this number; 0 means the j...' '-var=:A variable value, as name=value' '-var-file=:A file of variable values, HCL or JSON' '-eval-priority=:Priority of the evaluation the registration creates (1 to 100); the j...') ;;
    'job scale') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-check-index=:Scale only if the job'\''s modify index is this number') ;;
    'job scaling-events') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'job status') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'job stop') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-eval-priority=:Priority of the evaluation that stops the job (1 to 100)') ;;
    'job tag apply') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-name=:The tag'\''s name (required)' '-description=:What the version is (at most 1000 characters)' '-version=:The version to tag; the current one by default') ;;
    'job tag unset') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-name=:The tag to remove (required)') ;;
    'job validate') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-var=:A variable value, as name=value' '-var-file=:A file of variable values, HCL or JSON') ;;
    'list') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...') ;;
    'login') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-method=:The auth method to log in with: token or cloud' '-path=:Mount path of the auth method, relative to auth/; the method name by ...') ;;
    'namespace apply') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-description=:A human-readable description of the namespace') ;;
    'namespace delete') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'namespace list') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'namespace status') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'node drain') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-deadline=:How long allocations may take to move off the node (a duration such a...' '-m=:A message for the drain, kept in its metadata as "message" (as "cance...' '-meta=:Metadata for the drain, key=value; may be repeated') ;;
    'node eligibility') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'node status') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'path-help') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the help text (table) or the OpenAPI document for the path (jso...') ;;
    'policy delete') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'policy list') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...') ;;
    'policy read') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...') ;;
    'policy write') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'read') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...') ;;
    'run') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-check-index=:Register only if the job'\''s modify index is this number; 0 means the j...' '-var=:A variable value, as name=value' '-var-file=:A file of variable values, HCL or JSON' '-eval-priority=:Priority of the evaluation the registration creates (1 to 100); the j...') ;;
    'server') reply=('-config=:Path to a configuration file (HCL, YAML or JSON)' '-data-dir=:Directory for the server state' '-bind=:Address to listen on' '-port=:Port to listen on; 0 picks a free port' '-log-level=:Log level' '-dev-root-token-id=:With -dev: use this value as the root token instead of a random one' '-dc=:Datacenter of the node' '-node=:Name of the node' '-node-class=:Class of the node, for constraints on ${node.class}' '-meta=:Node metadata as key=value, for constraints on ${meta.<key>}') ;;
    'service info') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'service list') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'status') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...') ;;
    'stop') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-eval-priority=:Priority of the evaluation that stops the job (1 to 100)') ;;
    'system gc') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use') ;;
    'token create') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-policy=:Policies for the token' '-ttl=:Initial TTL of the token; 0 means the system default (768h), capped b...' '-explicit-max-ttl=:Hard limit on the lifetime of the token, which renewals cannot pass' '-period=:Make the token periodic: every renewal resets its TTL to this period' '-use-limit=:Number of requests the token may make before it is revoked; 0 means u...' '-bound-cidrs=:CIDR blocks or IP addresses the token may be used from' '-type=:The token type: service, or batch (lightweight: not renewable, no acc...' '-metadata=:Metadata to attach to the token, shown in lookups and in audit' '-display-name=:A name for the token; it is shown as "token-<name>"' '-id=:Use this value as the token instead of a random one' '-entity-id=:Attach the token to this identity entity, which must exist') ;;
    'token lookup') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...') ;;
    'token renew') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...' '-increment=:The requested TTL from now; without it the token gets its current TTL...') ;;
    'token revoke') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-mode=:With "orphan", revoke only the token and leave its children as orphans') ;;
    'write') reply=('-address=:Address of the svc server' '-token=:Token to authenticate with' '-namespace=:The scheduler namespace to use' '-region=:The scheduler region to use' '-format=:Print the output in the given format' '-field=:Print only the value of the given field, raw: strings without quotes,...') ;;
    *) reply=() ;;
  esac
}

# Every name (aliases too) of the flags of $1 that take a value, to skip their values.
_svc_valued() {
  case "$1" in
    'alloc checks') REPLY=' address token namespace region t ' ;;
    'alloc exec') REPLY=' address token namespace region task group e ' ;;
    'alloc fs') REPLY=' address token namespace region n c ' ;;
    'alloc logs') REPLY=' address token namespace region n c task ' ;;
    'alloc pause') REPLY=' address token namespace region state task ' ;;
    'alloc restart') REPLY=' address token namespace region task ' ;;
    'alloc signal') REPLY=' address token namespace region s task ' ;;
    'alloc status') REPLY=' address token namespace region ' ;;
    'alloc stop') REPLY=' address token namespace region ' ;;
    'auth cloud accesslist delete') REPLY=' address token namespace region format field path ' ;;
    'auth cloud accesslist list') REPLY=' address token namespace region format field path ' ;;
    'auth cloud accesslist read') REPLY=' address token namespace region format field path ' ;;
    'auth cloud config certificate delete') REPLY=' address token namespace region format field path ' ;;
    'auth cloud config certificate list') REPLY=' address token namespace region format field path ' ;;
    'auth cloud config certificate read') REPLY=' address token namespace region format field path ' ;;
    'auth cloud config certificate write') REPLY=' address token namespace region format field path cloud-public-cert type ' ;;
    'auth cloud config client delete') REPLY=' address token namespace region format field path ' ;;
    'auth cloud config client read') REPLY=' address token namespace region format field path ' ;;
    'auth cloud config client write') REPLY=' address token namespace region format field path max-retries access-key secret-key endpoint iam-endpoint sts-endpoint sts-region iam-server-id-header-value allowed-sts-header-values ' ;;
    'auth cloud config identity read') REPLY=' address token namespace region format field path ' ;;
    'auth cloud config identity write') REPLY=' address token namespace region format field path iam-alias iam-metadata ec2-alias ec2-metadata ' ;;
    'auth cloud config sts delete') REPLY=' address token namespace region format field path ' ;;
    'auth cloud config sts list') REPLY=' address token namespace region format field path ' ;;
    'auth cloud config sts read') REPLY=' address token namespace region format field path ' ;;
    'auth cloud config sts write') REPLY=' address token namespace region format field path sts-role ' ;;
    'auth cloud config tidy delete') REPLY=' address token namespace region format field path ' ;;
    'auth cloud config tidy read') REPLY=' address token namespace region format field path ' ;;
    'auth cloud config tidy write') REPLY=' address token namespace region format field path safety-buffer ' ;;
    'auth cloud denylist add') REPLY=' address token namespace region format field path ' ;;
    'auth cloud denylist delete') REPLY=' address token namespace region format field path ' ;;
    'auth cloud denylist list') REPLY=' address token namespace region format field path ' ;;
    'auth cloud denylist read') REPLY=' address token namespace region format field path ' ;;
    'auth cloud role delete') REPLY=' address token namespace region format field path ' ;;
    'auth cloud role list') REPLY=' address token namespace region format field path ' ;;
    'auth cloud role read') REPLY=' address token namespace region format field path ' ;;
    'auth cloud role tag') REPLY=' address token namespace region format field path policies max-ttl instance-id ' ;;
    'auth cloud role write') REPLY=' address token namespace region format field path auth-type bound-ami-id bound-account-id bound-region bound-vpc-id bound-subnet-id bound-iam-role-arn bound-iam-instance-profile-arn bound-ec2-instance-id role-tag bound-iam-principal-arn inferred-entity-type inferred-cloud-region token-ttl token-max-ttl token-policies policy token-bound-cidrs token-explicit-max-ttl token-num-uses token-period token-type ' ;;
    'auth cloud rotate-root') REPLY=' address token namespace region format field path ' ;;
    'auth cloud tidy accesslist') REPLY=' address token namespace region format field path safety-buffer ' ;;
    'auth cloud tidy denylist') REPLY=' address token namespace region format field path safety-buffer ' ;;
    'auth disable') REPLY=' address token namespace region ' ;;
    'auth enable') REPLY=' address token namespace region path description default-lease-ttl max-lease-ttl token-type ' ;;
    'auth list') REPLY=' address token namespace region format field ' ;;
    'delete') REPLY=' address token namespace region format field ' ;;
    'deployment fail') REPLY=' address token namespace region ' ;;
    'deployment list') REPLY=' address token namespace region filter per-page page-token ' ;;
    'deployment pause') REPLY=' address token namespace region ' ;;
    'deployment promote') REPLY=' address token namespace region group ' ;;
    'deployment resume') REPLY=' address token namespace region ' ;;
    'deployment status') REPLY=' address token namespace region ' ;;
    'eval list') REPLY=' address token namespace region job status filter per-page page-token ' ;;
    'eval status') REPLY=' address token namespace region ' ;;
    'identity entity create') REPLY=' address token namespace region format field name metadata policies ' ;;
    'identity entity delete') REPLY=' address token namespace region format field name ' ;;
    'identity entity list') REPLY=' address token namespace region format field ' ;;
    'identity entity read') REPLY=' address token namespace region format field name ' ;;
    'identity entity update') REPLY=' address token namespace region format field name metadata policies ' ;;
    'identity entity-alias create') REPLY=' address token namespace region format field name canonical-id mount-accessor id custom-metadata ' ;;
    'identity entity-alias delete') REPLY=' address token namespace region format field ' ;;
    'identity entity-alias list') REPLY=' address token namespace region format field ' ;;
    'identity entity-alias read') REPLY=' address token namespace region format field ' ;;
    'identity entity-alias update') REPLY=' address token namespace region format field name canonical-id mount-accessor custom-metadata ' ;;
    'job action') REPLY=' address token namespace region job alloc group task e ' ;;
    'job allocs') REPLY=' address token namespace region ' ;;
    'job deployments') REPLY=' address token namespace region ' ;;
    'job dispatch') REPLY=' address token namespace region meta idempotency-token id-prefix-template priority ' ;;
    'job eval') REPLY=' address token namespace region ' ;;
    'job history') REPLY=' address token namespace region diff-version diff-tag version ' ;;
    'job inspect') REPLY=' address token namespace region version ' ;;
    'job periodic force') REPLY=' address token namespace region ' ;;
    'job plan') REPLY=' address token namespace region var var-file ' ;;
    'job promote') REPLY=' address token namespace region group ' ;;
    'job revert') REPLY=' address token namespace region ' ;;
    'job run') REPLY=' address token namespace region check-index var var-file eval-priority ' ;;
    'job scale') REPLY=' address token namespace region check-index ' ;;
    'job scaling-events') REPLY=' address token namespace region ' ;;
    'job status') REPLY=' address token namespace region ' ;;
    'job stop') REPLY=' address token namespace region eval-priority ' ;;
    'job tag apply') REPLY=' address token namespace region name description version ' ;;
    'job tag unset') REPLY=' address token namespace region name ' ;;
    'job validate') REPLY=' address token namespace region var var-file ' ;;
    'list') REPLY=' address token namespace region format field ' ;;
    'login') REPLY=' address token namespace region format field method path ' ;;
    'namespace apply') REPLY=' address token namespace region description ' ;;
    'namespace delete') REPLY=' address token namespace region ' ;;
    'namespace list') REPLY=' address token namespace region ' ;;
    'namespace status') REPLY=' address token namespace region ' ;;
    'node drain') REPLY=' address token namespace region deadline m meta ' ;;
    'node eligibility') REPLY=' address token namespace region ' ;;
    'node status') REPLY=' address token namespace region ' ;;
    'path-help') REPLY=' address token namespace region format ' ;;
    'policy delete') REPLY=' address token namespace region ' ;;
    'policy list') REPLY=' address token namespace region format field ' ;;
    'policy read') REPLY=' address token namespace region format field ' ;;
    'policy write') REPLY=' address token namespace region ' ;;
    'read') REPLY=' address token namespace region format field ' ;;
    'run') REPLY=' address token namespace region check-index var var-file eval-priority ' ;;
    'server') REPLY=' config data-dir bind port log-level dev-root-token-id dc node node-class meta ' ;;
    'service info') REPLY=' address token namespace region ' ;;
    'service list') REPLY=' address token namespace region ' ;;
    'status') REPLY=' address token namespace region format field ' ;;
    'stop') REPLY=' address token namespace region eval-priority ' ;;
    'system gc') REPLY=' address token namespace region ' ;;
    'token create') REPLY=' address token namespace region format field policy ttl explicit-max-ttl period use-limit bound-cidrs type metadata display-name id entity-id ' ;;
    'token lookup') REPLY=' address token namespace region format field ' ;;
    'token renew') REPLY=' address token namespace region format field increment i ' ;;
    'token revoke') REPLY=' address token namespace region mode ' ;;
    'write') REPLY=' address token namespace region format field ' ;;
    *) REPLY='' ;;
  esac
}

# What to offer for a value: $1 is "<words>|-<flag>" or "<words>#<argument index>".
_svc_value_spec() {
  case "$1" in
    ('alloc checks|-namespace'|'alloc exec|-namespace'|'alloc fs|-namespace'|'alloc logs|-namespace'|'alloc pause|-namespace'|'alloc restart|-namespace'|'alloc signal|-namespace'|'alloc status|-namespace'|'alloc stop|-namespace'|'auth cloud accesslist delete|-namespace'|'auth cloud accesslist list|-namespace'|'auth cloud accesslist read|-namespace'|'auth cloud config certificate delete|-namespace'|'auth cloud config certificate list|-namespace'|'auth cloud config certificate read|-namespace'|'auth cloud config certificate write|-namespace'|'auth cloud config client delete|-namespace'|'auth cloud config client read|-namespace'|'auth cloud config client write|-namespace'|'auth cloud config identity read|-namespace'|'auth cloud config identity write|-namespace'|'auth cloud config sts delete|-namespace'|'auth cloud config sts list|-namespace'|'auth cloud config sts read|-namespace'|'auth cloud config sts write|-namespace'|'auth cloud config tidy delete|-namespace'|'auth cloud config tidy read|-namespace'|'auth cloud config tidy write|-namespace'|'auth cloud denylist add|-namespace'|'auth cloud denylist delete|-namespace'|'auth cloud denylist list|-namespace'|'auth cloud denylist read|-namespace'|'auth cloud role delete|-namespace'|'auth cloud role list|-namespace'|'auth cloud role read|-namespace'|'auth cloud role tag|-namespace'|'auth cloud role write|-namespace'|'auth cloud rotate-root|-namespace'|'auth cloud tidy accesslist|-namespace'|'auth cloud tidy denylist|-namespace'|'auth disable|-namespace'|'auth enable|-namespace'|'auth list|-namespace'|'delete|-namespace'|'deployment fail|-namespace'|'deployment list|-namespace'|'deployment pause|-namespace'|'deployment promote|-namespace'|'deployment resume|-namespace'|'deployment status|-namespace'|'eval list|-namespace'|'eval status|-namespace'|'identity entity create|-namespace'|'identity entity delete|-namespace'|'identity entity list|-namespace'|'identity entity read|-namespace'|'identity entity update|-namespace'|'identity entity-alias create|-namespace'|'identity entity-alias delete|-namespace'|'identity entity-alias list|-namespace'|'identity entity-alias read|-namespace'|'identity entity-alias update|-namespace'|'job action|-namespace'|'job allocs|-namespace'|'job deployments|-namespace'|'job dispatch|-namespace'|'job eval|-namespace'|'job history|-namespace'|'job inspect|-namespace'|'job periodic force|-namespace'|'job plan|-namespace'|'job promote|-namespace'|'job revert|-namespace'|'job run|-namespace'|'job scale|-namespace'|'job scaling-events|-namespace'|'job status|-namespace'|'job stop|-namespace'|'job tag apply|-namespace'|'job tag unset|-namespace'|'job validate|-namespace'|'list|-namespace'|'login|-namespace'|'namespace apply|-namespace'|'namespace delete|-namespace'|'namespace list|-namespace'|'namespace status|-namespace'|'node drain|-namespace'|'node eligibility|-namespace'|'node status|-namespace'|'path-help|-namespace'|'policy delete|-namespace'|'policy list|-namespace'|'policy read|-namespace'|'policy write|-namespace'|'read|-namespace'|'run|-namespace'|'service info|-namespace'|'service list|-namespace'|'status|-namespace'|'stop|-namespace'|'system gc|-namespace'|'token create|-namespace'|'token lookup|-namespace'|'token renew|-namespace'|'token revoke|-namespace'|'write|-namespace') REPLY='dynamic:namespace' ;;
    ('alloc pause|-state') REPLY='choices:pause run scheduled' ;;
    ('auth cloud accesslist delete|-format'|'auth cloud accesslist list|-format'|'auth cloud accesslist read|-format'|'auth cloud config certificate delete|-format'|'auth cloud config certificate list|-format'|'auth cloud config certificate read|-format'|'auth cloud config certificate write|-format'|'auth cloud config client delete|-format'|'auth cloud config client read|-format'|'auth cloud config client write|-format'|'auth cloud config identity read|-format'|'auth cloud config identity write|-format'|'auth cloud config sts delete|-format'|'auth cloud config sts list|-format'|'auth cloud config sts read|-format'|'auth cloud config sts write|-format'|'auth cloud config tidy delete|-format'|'auth cloud config tidy read|-format'|'auth cloud config tidy write|-format'|'auth cloud denylist add|-format'|'auth cloud denylist delete|-format'|'auth cloud denylist list|-format'|'auth cloud denylist read|-format'|'auth cloud role delete|-format'|'auth cloud role list|-format'|'auth cloud role read|-format'|'auth cloud role tag|-format'|'auth cloud role write|-format'|'auth cloud rotate-root|-format'|'auth cloud tidy accesslist|-format'|'auth cloud tidy denylist|-format'|'auth list|-format'|'delete|-format'|'identity entity create|-format'|'identity entity delete|-format'|'identity entity list|-format'|'identity entity read|-format'|'identity entity update|-format'|'identity entity-alias create|-format'|'identity entity-alias delete|-format'|'identity entity-alias list|-format'|'identity entity-alias read|-format'|'identity entity-alias update|-format'|'list|-format'|'login|-format'|'path-help|-format'|'policy list|-format'|'policy read|-format'|'read|-format'|'status|-format'|'token create|-format'|'token lookup|-format'|'token renew|-format'|'write|-format') REPLY='choices:table json yaml' ;;
    ('auth cloud config certificate write|-type') REPLY='choices:pkcs7 identity' ;;
    ('auth cloud config identity write|-iam-alias') REPLY='choices:role_id unique_id full_arn' ;;
    ('auth cloud config identity write|-ec2-alias') REPLY='choices:role_id instance_id image_id' ;;
    ('auth cloud role write|-auth-type') REPLY='choices:ec2 iam' ;;
    ('auth cloud role write|-token-type') REPLY='choices:default service batch' ;;
    ('auth enable|-token-type') REPLY='choices:default-service default-batch service batch' ;;
    ('eval list|-job'|'job action|-job') REPLY='dynamic:job' ;;
    ('eval list|-status') REPLY='choices:blocked pending complete failed canceled' ;;
    ('job action|-alloc') REPLY='dynamic:alloc' ;;
    ('job plan|-var-file'|'job run|-var-file'|'job validate|-var-file'|'run|-var-file'|'server|-config') REPLY='file' ;;
    ('server|-data-dir') REPLY='dir' ;;
    ('server|-log-level') REPLY='choices:trace debug info warn error' ;;
    ('token create|-type') REPLY='choices:service batch' ;;
    ('token revoke|-mode') REPLY='choices:orphan' ;;
    ('alloc checks#0') REPLY='dynamic:alloc' ;;
    ('alloc exec#0') REPLY='dynamic:alloc' ;;
    ('alloc fs#0') REPLY='dynamic:alloc' ;;
    ('alloc logs#0') REPLY='dynamic:alloc' ;;
    ('alloc pause#0') REPLY='dynamic:alloc' ;;
    ('alloc restart#0') REPLY='dynamic:alloc' ;;
    ('alloc signal#0') REPLY='dynamic:alloc' ;;
    ('alloc status#0') REPLY='dynamic:alloc' ;;
    ('alloc stop#0') REPLY='dynamic:alloc' ;;
    ('deployment fail#0') REPLY='dynamic:deployment' ;;
    ('deployment pause#0') REPLY='dynamic:deployment' ;;
    ('deployment promote#0') REPLY='dynamic:deployment' ;;
    ('deployment resume#0') REPLY='dynamic:deployment' ;;
    ('deployment status#0') REPLY='dynamic:deployment' ;;
    ('job allocs#0') REPLY='dynamic:job' ;;
    ('job deployments#0') REPLY='dynamic:job' ;;
    ('job dispatch#0') REPLY='dynamic:job' ;;
    ('job dispatch#1') REPLY='file' ;;
    ('job eval#0') REPLY='dynamic:job' ;;
    ('job history#0') REPLY='dynamic:job' ;;
    ('job inspect#0') REPLY='dynamic:job' ;;
    ('job periodic force#0') REPLY='dynamic:job' ;;
    ('job plan#0') REPLY='file' ;;
    ('job promote#0') REPLY='dynamic:job' ;;
    ('job revert#0') REPLY='dynamic:job' ;;
    ('job run#0') REPLY='file' ;;
    ('job scale#0') REPLY='dynamic:job' ;;
    ('job scaling-events#0') REPLY='dynamic:job' ;;
    ('job status#0') REPLY='dynamic:job' ;;
    ('job stop#'*) REPLY='dynamic:job' ;;
    ('job tag apply#0') REPLY='dynamic:job' ;;
    ('job tag unset#0') REPLY='dynamic:job' ;;
    ('job validate#0') REPLY='file' ;;
    ('node drain#0') REPLY='dynamic:node' ;;
    ('node eligibility#0') REPLY='dynamic:node' ;;
    ('node status#0') REPLY='dynamic:node' ;;
    ('policy delete#0') REPLY='dynamic:policy' ;;
    ('policy read#0') REPLY='dynamic:policy' ;;
    ('policy write#0') REPLY='dynamic:policy' ;;
    ('policy write#1') REPLY='file' ;;
    ('run#0') REPLY='file' ;;
    ('stop#'*) REPLY='dynamic:job' ;;
    *) REPLY='' ;;
  esac
}

# Offers the values of spec $1 for the word being completed (any "-flag=" already set aside).
_svc_values() {
  local spec=$1
  local -a vals
  case $spec in
    choices:*) vals=(${(s: :)${spec#choices:}}); compadd -a vals ;;
    file) _files ;;
    dir) _files -/ ;;
    dynamic:*) vals=(${(f)"$($_svc_prog __complete ${spec#dynamic:} -- $PREFIX 2>/dev/null)"}); compadd -a vals ;;
  esac
}

_svc() {
  local cur=${words[CURRENT]} key='' i=2 REPLY
  local -a reply
  _svc_prog=${words[1]}
  while (( i < CURRENT )); do
    _svc_words "$key"
    (( ${reply[(I)${words[i]}:*]} )) || break
    key=${key:+$key }${words[i]}
    (( i++ ))
  done
  _svc_valued "$key"
  local valued=$REPLY pos=0 pending='' dashdash='' w name
  for (( ; i < CURRENT; i++ )); do
    w=${words[i]}
    if [[ -n $pending ]]; then pending=''; continue; fi
    if [[ -z $dashdash && $w == -- ]]; then dashdash=1; continue; fi
    if [[ -z $dashdash && $w == -?* ]]; then
      name=${w#-}; name=${name#-}
      [[ $name != *=* && $valued == *" $name "* ]] && pending=$name
      continue
    fi
    (( pos++ ))
  done
  if [[ -n $pending ]]; then
    _svc_value_spec "$key|-$pending"; _svc_values "$REPLY"; return
  fi
  if [[ -z $dashdash && $cur == -*=* ]]; then
    name=${cur%%=*}; name=${name#-}; name=${name#-}
    compset -P '*='
    _svc_value_spec "$key|-$name"; _svc_values "$REPLY"; return
  fi
  if [[ -z $dashdash && $cur == -* ]]; then
    _svc_bool_flags "$key"; local -a bools=("${reply[@]}")
    _svc_value_flags "$key"; local -a valued_flags=("${reply[@]}")
    (( ${#bools} )) && _describe -t flags 'flag' bools
    (( ${#valued_flags} )) && _describe -t flags 'flag' valued_flags -S ''
    return
  fi
  _svc_words "$key"
  if (( ${#reply} && pos == 0 )); then
    _describe -t commands 'command' reply
    return
  fi
  _svc_value_spec "$key#$pos"; _svc_values "$REPLY"
}

# Autoloaded from $fpath the file is the body of _svc; sourced, it registers the function.
if [[ $funcstack[1] == _svc ]]; then
  _svc "$@"
else
  compdef _svc svc
fi
