# fish completion for svc.
# Generated from the command registry by `npm run gen`; do not edit.
# Install: copy this file to ~/.config/fish/completions/svc.fish, or: svc completion fish | source

# The subcommands of the words in $argv[1], as name<TAB>description.
function __svc_words
    switch $argv[1]
        case ''
            printf '%s\n' 'alloc	Interact with allocations' 'auth	Interact with auth methods' 'completion	Print a shell completion script' 'delete	Delete data at any path of the secrets API' 'deployment	Interact with deployments' 'eval	Interact with evaluations' 'identity	Interact with the identity store' 'job	Interact with jobs' 'list	List the keys under any path of the secrets API' 'login	Authenticate locally' 'namespace	Interact with scheduler namespaces' 'node	Interact with nodes' 'path-help	Print help for a path of the secrets API' 'policy	Interact with policies' 'read	Read data from any path of the secrets API' 'run	Run a new job or update an existing job (alias of "job run")' 'server	Start the svc server (both APIs and a local node)' 'status	Print the status of the server' 'stop	Stop a running job (alias of "job stop")' 'token	Interact with tokens' 'version	Print the svc version' 'write	Write data to any path of the secrets API'
        case 'alloc'
            printf '%s\n' 'restart	Restart a running allocation' 'signal	Signal a running allocation' 'status	Display allocation status information and metadata' 'stop	Stop and reschedule a running allocation'
        case 'auth'
            printf '%s\n' 'disable	Disable an auth method' 'enable	Enable an auth method' 'list	List the enabled auth methods'
        case 'deployment'
            printf '%s\n' 'fail	Manually fail a deployment' 'list	List deployments' 'pause	Pause a deployment' 'promote	Promote canaries in a deployment' 'resume	Resume a paused deployment' 'status	Display the status of a deployment'
        case 'eval'
            printf '%s\n' 'list	List evaluations' 'status	Display evaluation status and placement failure reasons'
        case 'identity'
            printf '%s\n' 'entity	Manage entities' 'entity-alias	Manage entity aliases'
        case 'identity entity'
            printf '%s\n' 'create	Create an entity' 'delete	Delete an entity and its aliases' 'list	List the entities' 'read	Print an entity' 'update	Update an entity'
        case 'identity entity-alias'
            printf '%s\n' 'create	Create an entity alias' 'delete	Delete an entity alias' 'list	List the entity aliases' 'read	Print an entity alias' 'update	Update an entity alias'
        case 'job'
            printf '%s\n' 'allocs	List the allocations of a job' 'deployments	List the deployments of a job' 'eval	Force an evaluation of a job' 'history	Display all tracked versions of a job' 'inspect	Inspect a submitted job' 'run	Run a new job or update an existing job' 'status	Display status information about a job' 'stop	Stop a running job' 'validate	Check a job file for errors'
        case 'namespace'
            printf '%s\n' 'apply	Create or update a namespace' 'delete	Delete a namespace' 'list	List namespaces'
        case 'node'
            printf '%s\n' 'status	Display status information about nodes'
        case 'policy'
            printf '%s\n' 'delete	Delete a policy' 'list	List the installed policies' 'read	Print the text of a policy' 'write	Upload a policy from a file or stdin'
        case 'token'
            printf '%s\n' 'create	Create a new token' 'lookup	Display information about a token' 'renew	Renew a token lease' 'revoke	Revoke a token and its children'
    end
end

# The flags of the command in $argv[1]; a trailing = marks a flag that takes a value.
function __svc_flags
    switch $argv[1]
        case 'alloc restart'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-task=	Restart only this task (the same as the TASK argument)' '-all-tasks	Restart every task of the allocation, not only the running ones' '-verbose	Show full IDs'
        case 'alloc signal'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-s=	The signal to send, by name (SIGHUP, SIGUSR1, …)' '-task=	Signal only this task (the same as the TASK argument)' '-verbose	Show full IDs'
        case 'alloc status'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-json	Print the output as JSON' '-short	Show one line per task (its last event) instead of the task details' '-verbose	Full IDs, absolute times, and the placement metrics'
        case 'alloc stop'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-detach	Print the follow-up evaluation ID and return instead of following it' '-no-shutdown-delay	Ignore the group\'s and tasks\' shutdown_delay' '-verbose	Show full IDs'
        case 'auth disable'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal'
        case 'auth enable'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-path=	The mount path, relative to auth/' '-description=	A human-friendly description of the auth method' '-default-lease-ttl=	The default lease duration of tokens issued by this mount' '-max-lease-ttl=	The maximum lease duration of tokens issued by this mount' '-token-type=	The type of tokens the mount issues'
        case 'auth list'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...' '-detailed	Print more columns: TTLs, token type, replication, seal wrap, options...'
        case 'delete'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...'
        case 'deployment fail'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-detach	Return at once instead of following an evaluation the server creates' '-verbose	Show full IDs'
        case 'deployment list'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-json	Print the output as JSON' '-filter=	A filter expression evaluated against each deployment' '-per-page=	How many deployments to show per page' '-page-token=	Where the page starts: the token the previous page printed' '-verbose	Show full IDs'
        case 'deployment pause'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-verbose	Show full IDs'
        case 'deployment promote'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-group=	Promote only this task group\'s canaries' '-detach	Print the evaluation ID and return instead of following the evaluation' '-verbose	Show full IDs'
        case 'deployment resume'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-detach	Return at once instead of following the evaluation' '-verbose	Show full IDs'
        case 'deployment status'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-json	Print the output as JSON' '-verbose	Show full IDs; with -monitor, also the deployment\'s allocations' '-monitor	Follow the deployment until it succeeds, fails or is cancelled'
        case 'eval list'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-json	Print the output as JSON' '-job=	Only evaluations of this job ID' '-status=	Only evaluations with this status' '-filter=	A filter expression evaluated against each evaluation' '-per-page=	How many evaluations to show per page' '-page-token=	Where the page starts: the token the previous page printed' '-verbose	Show full IDs'
        case 'eval status'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-json	Print the output as JSON' '-verbose	Full IDs, absolute times, and the previous, next and blocked evaluations' '-monitor	Follow the evaluation until it finishes, as `svc job run` does'
        case 'identity entity create'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...' '-name=	Name of the entity' '-metadata=	Metadata of the entity, as string keys and values' '-policies=	Policies granted to every token of the entity, on top of the tokens\' ...' '-disabled	Whether the entity is disabled'
        case 'identity entity delete'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...' '-name=	Delete the entity with this name instead of by ID'
        case 'identity entity list'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...' '-by-name	List the entity names instead of their IDs'
        case 'identity entity read'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...' '-name=	Read the entity with this name instead of by ID'
        case 'identity entity update'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...' '-name=	New name of the entity' '-metadata=	Metadata of the entity, as string keys and values' '-policies=	Policies granted to every token of the entity, on top of the tokens\' ...' '-disabled	Whether the entity is disabled'
        case 'identity entity-alias create'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...' '-name=	Identifier of the client in the authentication source, for example a ...' '-canonical-id=	ID of the entity that owns the alias' '-mount-accessor=	Accessor of the auth mount the alias belongs to (see `svc auth list`)' '-id=	ID of an existing alias to update with the given values, instead of c...' '-custom-metadata=	User-provided metadata describing the alias, as string keys and values'
        case 'identity entity-alias delete'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...'
        case 'identity entity-alias list'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...'
        case 'identity entity-alias read'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...'
        case 'identity entity-alias update'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...' '-name=	Identifier of the client in the authentication source, for example a ...' '-canonical-id=	ID of the entity to move the alias to' '-mount-accessor=	Accessor of the auth mount to move the alias to' '-custom-metadata=	User-provided metadata describing the alias'
        case 'job allocs'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-json	Print the output as JSON' '-all	Include the allocations of earlier jobs registered under the same ID' '-verbose	Full IDs, the evaluation and node name, and absolute times'
        case 'job deployments'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-json	Print the output as JSON' '-latest	Show only the latest deployment' '-all	Include the deployments of earlier jobs registered under the same ID' '-verbose	Show full IDs'
        case 'job eval'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-force-reschedule	Reschedule failed allocations now, even those whose reschedule delay ...' '-detach	Print the evaluation ID and return instead of following the evaluation' '-verbose	Show full IDs'
        case 'job history'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-json	Print the output as JSON' '-p	Show the differences between each version and the one before it' '-diff-version=	With -p, compare every version with this version number instead' '-diff-tag=	With -p, compare every version with the version tagged with this name...' '-full	Print the whole job of each version' '-version=	Show only this version'
        case 'job inspect'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-json	Print the output as JSON' '-version=	Inspect this version of the job instead of the current one' '-hcl	Print the job file that was submitted for the version, instead of the...'
        case 'job run'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-detach	Return right after submitting, printing the evaluation ID, instead of...' '-verbose	Show full IDs, and the deployment\'s allocations' '-check-index=	Register only if the job\'s modify index is this number; 0 means the j...' '-json	The file holds a job in the API\'s JSON shape ({"Job": …} or the bare ...' '-output	Print the job as the API JSON request ({"Job": …}) instead of submitt...' '-var=	A variable value, as name=value' '-var-file=	A file of variable values, HCL or JSON' '-policy-override	Override soft-mandatory policy failures' '-preserve-counts	Keep the current counts of the job\'s existing task groups instead of ...' '-eval-priority=	Priority of the evaluation the registration creates (1 to 100); the j...' '-hcl2-strict	Fail on unknown variables in -var and -var-file (always on; accepted ...'
        case 'job status'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-json	Print the output as JSON' '-short	Print only the job\'s header, without the summary and allocations' '-evals	Also list the job\'s evaluations' '-all-allocs	Also list the allocations of earlier jobs registered under the same ID' '-verbose	Full IDs, absolute times, and the evaluations'
        case 'job stop'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-detach	Print the evaluation ID and return instead of following the evaluation' '-purge	Remove the job and its history at once instead of leaving it for garb...' '-global	Stop a multi-region job in every region (svc has one region)' '-no-shutdown-delay	Ignore the groups\' and tasks\' shutdown_delay' '-eval-priority=	Priority of the evaluation that stops the job (1 to 100)' '-yes	Do not ask for confirmation when a job was named by a prefix' '-verbose	Show full IDs'
        case 'job validate'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-json	The file holds a job in the API\'s JSON shape; variables cannot be use...' '-var=	A variable value, as name=value' '-var-file=	A file of variable values, HCL or JSON'
        case 'list'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...'
        case 'login'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...' '-method=	The auth method to log in with' '-no-store	Do not store the token in the token file' '-token-only	Print only the token and do not store it; the same as -field=token -n...' '-no-print	Print nothing on success; only the exit code tells'
        case 'namespace apply'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-description=	A human-readable description of the namespace'
        case 'namespace delete'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal'
        case 'namespace list'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-json	Print the output as JSON'
        case 'node status'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-json	Print the output as JSON' '-verbose	Full IDs, node addresses and versions; for one node its drivers, attr...' '-short	For one node: only its header and its allocations'
        case 'path-help'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the help text (table) or the OpenAPI document for the path (jso...'
        case 'policy delete'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal'
        case 'policy list'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...'
        case 'policy read'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...'
        case 'policy write'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal'
        case 'read'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...'
        case 'run'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-detach	Return right after submitting, printing the evaluation ID, instead of...' '-verbose	Show full IDs, and the deployment\'s allocations' '-check-index=	Register only if the job\'s modify index is this number; 0 means the j...' '-json	The file holds a job in the API\'s JSON shape ({"Job": …} or the bare ...' '-output	Print the job as the API JSON request ({"Job": …}) instead of submitt...' '-var=	A variable value, as name=value' '-var-file=	A file of variable values, HCL or JSON' '-policy-override	Override soft-mandatory policy failures' '-preserve-counts	Keep the current counts of the job\'s existing task groups instead of ...' '-eval-priority=	Priority of the evaluation the registration creates (1 to 100); the j...' '-hcl2-strict	Fail on unknown variables in -var and -var-file (always on; accepted ...'
        case 'server'
            printf '%s\n' '-dev	Development mode: temporary storage, root token written to the token ...' '-config=	Path to a configuration file (HCL, YAML or JSON)' '-data-dir=	Directory for the server state' '-bind=	Address to listen on' '-port=	Port to listen on; 0 picks a free port' '-log-level=	Log level' '-dev-root-token-id=	With -dev: use this value as the root token instead of a random one' '-client	Run a node in this server that runs tasks' '-dc=	Datacenter of the node' '-node=	Name of the node' '-node-class=	Class of the node, for constraints on ${node.class}' '-meta=	Node metadata as key=value, for constraints on ${meta.<key>}'
        case 'status'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...'
        case 'stop'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-detach	Print the evaluation ID and return instead of following the evaluation' '-purge	Remove the job and its history at once instead of leaving it for garb...' '-global	Stop a multi-region job in every region (svc has one region)' '-no-shutdown-delay	Ignore the groups\' and tasks\' shutdown_delay' '-eval-priority=	Priority of the evaluation that stops the job (1 to 100)' '-yes	Do not ask for confirmation when a job was named by a prefix' '-verbose	Show full IDs'
        case 'token create'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...' '-policy=	Policies for the token' '-ttl=	Initial TTL of the token; 0 means the system default (768h), capped b...' '-explicit-max-ttl=	Hard limit on the lifetime of the token, which renewals cannot pass' '-period=	Make the token periodic: every renewal resets its TTL to this period' '-use-limit=	Number of requests the token may make before it is revoked; 0 means u...' '-bound-cidrs=	CIDR blocks or IP addresses the token may be used from' '-no-default-policy	Do not add the "default" policy to the token' '-orphan	Create the token with no parent, so it is not revoked with its creator' '-renewable	Allow the token to be renewed up to its max TTL' '-type=	The token type: service, or batch (lightweight: not renewable, no acc...' '-metadata=	Metadata to attach to the token, shown in lookups and in audit' '-display-name=	A name for the token; it is shown as "token-<name>"' '-id=	Use this value as the token instead of a random one' '-entity-id=	Attach the token to this identity entity, which must exist'
        case 'token lookup'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...' '-accessor	Treat the argument as an accessor instead of a token'
        case 'token renew'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...' '-increment=	The requested TTL from now; without it the token gets its current TTL...' '-accessor	Treat the argument as an accessor instead of a token'
        case 'token revoke'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-accessor	Treat the argument as an accessor instead of a token' '-self	Revoke the token in use; takes no argument' '-mode=	With "orphan", revoke only the token and leave its children as orphans'
        case 'write'
            printf '%s\n' '-address=	Address of the svc server' '-token=	Token to authenticate with' '-namespace=	The scheduler namespace to use' '-region=	The scheduler region to use' '-no-color	Disable colour in the output' '-force-color	Colour the output even when it is not a terminal' '-format=	Print the output in the given format' '-field=	Print only the value of the given field, raw: strings without quotes,...' '-force	Allow the write with no K=V pairs, for endpoints that need or expect ...'
    end
end

# Every name (aliases too) of the flags of $argv[1] that take a value, to skip their values.
function __svc_valued
    switch $argv[1]
        case 'alloc restart'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'task'
        case 'alloc signal'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 's' 'task'
        case 'alloc status'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'alloc stop'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'auth disable'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'auth enable'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'path' 'description' 'default-lease-ttl' 'max-lease-ttl' 'token-type'
        case 'auth list'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field'
        case 'delete'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field'
        case 'deployment fail'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'deployment list'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'filter' 'per-page' 'page-token'
        case 'deployment pause'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'deployment promote'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'group'
        case 'deployment resume'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'deployment status'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'eval list'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'job' 'status' 'filter' 'per-page' 'page-token'
        case 'eval status'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'identity entity create'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field' 'name' 'metadata' 'policies'
        case 'identity entity delete'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field' 'name'
        case 'identity entity list'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field'
        case 'identity entity read'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field' 'name'
        case 'identity entity update'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field' 'name' 'metadata' 'policies'
        case 'identity entity-alias create'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field' 'name' 'canonical-id' 'mount-accessor' 'id' 'custom-metadata'
        case 'identity entity-alias delete'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field'
        case 'identity entity-alias list'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field'
        case 'identity entity-alias read'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field'
        case 'identity entity-alias update'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field' 'name' 'canonical-id' 'mount-accessor' 'custom-metadata'
        case 'job allocs'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'job deployments'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'job eval'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'job history'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'diff-version' 'diff-tag' 'version'
        case 'job inspect'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'version'
        case 'job run'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'check-index' 'var' 'var-file' 'eval-priority'
        case 'job status'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'job stop'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'eval-priority'
        case 'job validate'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'var' 'var-file'
        case 'list'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field'
        case 'login'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field' 'method'
        case 'namespace apply'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'description'
        case 'namespace delete'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'namespace list'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'node status'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'path-help'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format'
        case 'policy delete'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'policy list'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field'
        case 'policy read'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field'
        case 'policy write'
            printf '%s\n' 'address' 'token' 'namespace' 'region'
        case 'read'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field'
        case 'run'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'check-index' 'var' 'var-file' 'eval-priority'
        case 'server'
            printf '%s\n' 'config' 'data-dir' 'bind' 'port' 'log-level' 'dev-root-token-id' 'dc' 'node' 'node-class' 'meta'
        case 'status'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field'
        case 'stop'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'eval-priority'
        case 'token create'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field' 'policy' 'ttl' 'explicit-max-ttl' 'period' 'use-limit' 'bound-cidrs' 'type' 'metadata' 'display-name' 'id' 'entity-id'
        case 'token lookup'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field'
        case 'token renew'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field' 'increment' 'i'
        case 'token revoke'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'mode'
        case 'write'
            printf '%s\n' 'address' 'token' 'namespace' 'region' 'format' 'field'
    end
end

# What to offer for a value: $argv[1] is "<words>|-<flag>" or "<words>#<argument index>".
function __svc_value_spec
    switch $argv[1]
        case 'alloc restart|-namespace' 'alloc signal|-namespace' 'alloc status|-namespace' 'alloc stop|-namespace' 'auth disable|-namespace' 'auth enable|-namespace' 'auth list|-namespace' 'delete|-namespace' 'deployment fail|-namespace' 'deployment list|-namespace' 'deployment pause|-namespace' 'deployment promote|-namespace' 'deployment resume|-namespace' 'deployment status|-namespace' 'eval list|-namespace' 'eval status|-namespace' 'identity entity create|-namespace' 'identity entity delete|-namespace' 'identity entity list|-namespace' 'identity entity read|-namespace' 'identity entity update|-namespace' 'identity entity-alias create|-namespace' 'identity entity-alias delete|-namespace' 'identity entity-alias list|-namespace' 'identity entity-alias read|-namespace' 'identity entity-alias update|-namespace' 'job allocs|-namespace' 'job deployments|-namespace' 'job eval|-namespace' 'job history|-namespace' 'job inspect|-namespace' 'job run|-namespace' 'job status|-namespace' 'job stop|-namespace' 'job validate|-namespace' 'list|-namespace' 'login|-namespace' 'namespace apply|-namespace' 'namespace delete|-namespace' 'namespace list|-namespace' 'node status|-namespace' 'path-help|-namespace' 'policy delete|-namespace' 'policy list|-namespace' 'policy read|-namespace' 'policy write|-namespace' 'read|-namespace' 'run|-namespace' 'status|-namespace' 'stop|-namespace' 'token create|-namespace' 'token lookup|-namespace' 'token renew|-namespace' 'token revoke|-namespace' 'write|-namespace'
            echo 'dynamic:namespace'
        case 'auth enable|-token-type'
            echo 'choices:default-service default-batch service batch'
        case 'auth list|-format' 'delete|-format' 'identity entity create|-format' 'identity entity delete|-format' 'identity entity list|-format' 'identity entity read|-format' 'identity entity update|-format' 'identity entity-alias create|-format' 'identity entity-alias delete|-format' 'identity entity-alias list|-format' 'identity entity-alias read|-format' 'identity entity-alias update|-format' 'list|-format' 'login|-format' 'path-help|-format' 'policy list|-format' 'policy read|-format' 'read|-format' 'status|-format' 'token create|-format' 'token lookup|-format' 'token renew|-format' 'write|-format'
            echo 'choices:table json yaml'
        case 'eval list|-job'
            echo 'dynamic:job'
        case 'eval list|-status'
            echo 'choices:blocked pending complete failed canceled'
        case 'job run|-var-file' 'job validate|-var-file' 'run|-var-file' 'server|-config'
            echo 'file'
        case 'server|-data-dir'
            echo 'dir'
        case 'server|-log-level'
            echo 'choices:trace debug info warn error'
        case 'token create|-type'
            echo 'choices:service batch'
        case 'token revoke|-mode'
            echo 'choices:orphan'
        case 'alloc restart#0'
            echo 'dynamic:alloc'
        case 'alloc signal#0'
            echo 'dynamic:alloc'
        case 'alloc status#0'
            echo 'dynamic:alloc'
        case 'alloc stop#0'
            echo 'dynamic:alloc'
        case 'deployment fail#0'
            echo 'dynamic:deployment'
        case 'deployment pause#0'
            echo 'dynamic:deployment'
        case 'deployment promote#0'
            echo 'dynamic:deployment'
        case 'deployment resume#0'
            echo 'dynamic:deployment'
        case 'deployment status#0'
            echo 'dynamic:deployment'
        case 'job allocs#0'
            echo 'dynamic:job'
        case 'job deployments#0'
            echo 'dynamic:job'
        case 'job eval#0'
            echo 'dynamic:job'
        case 'job history#0'
            echo 'dynamic:job'
        case 'job inspect#0'
            echo 'dynamic:job'
        case 'job run#0'
            echo 'file'
        case 'job status#0'
            echo 'dynamic:job'
        case 'job stop#*'
            echo 'dynamic:job'
        case 'job validate#0'
            echo 'file'
        case 'node status#0'
            echo 'dynamic:node'
        case 'policy delete#0'
            echo 'dynamic:policy'
        case 'policy read#0'
            echo 'dynamic:policy'
        case 'policy write#0'
            echo 'dynamic:policy'
        case 'policy write#1'
            echo 'file'
        case 'run#0'
            echo 'file'
        case 'stop#*'
            echo 'dynamic:job'
    end
end

# Prints the values of spec $argv[1] that start with $argv[2], each prefixed with $argv[3].
function __svc_values
    set -l spec $argv[1]
    set -l cur $argv[2]
    set -l prefix $argv[3]
    switch $spec
        case 'choices:*'
            for v in (string split " " (string replace "choices:" "" -- "$spec"))
                string match -q -- "$cur*" "$v"; and echo -- "$prefix$v"
            end
        case file
            for v in (__fish_complete_path "$cur")
                echo -- "$prefix$v"
            end
        case dir
            for v in (__fish_complete_directories "$cur")
                echo -- "$prefix$v"
            end
        case 'dynamic:*'
            for v in ($__svc_prog __complete (string replace "dynamic:" "" -- "$spec") -- "$cur" 2>/dev/null)
                echo -- "$prefix$v"
            end
    end
end

function __svc_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -g __svc_prog $words[1]
    set -l key ''
    set -l i 2
    set -l n (count $words)
    while test $i -le $n
        set -l subs (__svc_words "$key" | string replace -r "\t.*" "")
        contains -- $words[$i] $subs; or break
        set key (string trim -- "$key $words[$i]")
        set i (math $i + 1)
    end
    set -l valued (__svc_valued "$key")
    set -l pos 0
    set -l pending ''
    set -l dashdash 0
    while test $i -le $n
        set -l w $words[$i]
        set i (math $i + 1)
        if test -n "$pending"
            set pending ''
            continue
        end
        if test $dashdash = 0; and test "$w" = --
            set dashdash 1
            continue
        end
        if test $dashdash = 0; and string match -qr -- "^-." "$w"
            set -l name (string replace -r -- "^--?" "" "$w")
            if not string match -q -- "*=*" "$name"; and contains -- $name $valued
                set pending $name
            end
            continue
        end
        set pos (math $pos + 1)
    end
    if test -n "$pending"
        set -l spec (__svc_value_spec "$key|-$pending")
        __svc_values "$spec" "$cur" ""
        return
    end
    if test $dashdash = 0; and string match -qr -- "^-.*=" "$cur"
        set -l flag (string replace -r -- "=.*" "" "$cur")
        set -l name (string replace -r -- "^--?" "" "$flag")
        set -l spec (__svc_value_spec "$key|-$name")
        __svc_values "$spec" (string replace -r -- "^[^=]*=" "" "$cur") "$flag="
        return
    end
    if test $dashdash = 0; and string match -q -- "-*" "$cur"
        __svc_flags "$key"
        return
    end
    set -l subs (__svc_words "$key")
    if test (count $subs) -gt 0; and test $pos = 0
        printf '%s\n' $subs
        return
    end
    set -l spec (__svc_value_spec "$key#$pos")
    __svc_values "$spec" "$cur" ""
end

complete -c svc -f -a '(__svc_complete)'
