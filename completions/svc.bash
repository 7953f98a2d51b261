# bash completion for svc.
# Generated from the command registry by `npm run gen`; do not edit.
# Install: source this file from ~/.bashrc, or: source <(svc completion bash)

# The options of the line passed on to `svc __complete` (which server, namespace, mount ...).
_svc_forwarded=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name path '

# The subcommands of the words in $1.
_svc_words() {
  case "$1" in
    '') REPLY='agent agent-info alloc auth completion delete deployment eval event identity job kv list login monitor namespace node operator patch path-help policy print read run secrets server service status stop system token ui version write' ;;
    'alloc') REPLY='checks exec fs logs pause restart signal status stop' ;;
    'auth') REPLY='cloud disable enable list tune' ;;
    'auth cloud') REPLY='accesslist config denylist role rotate-root tidy' ;;
    'auth cloud accesslist') REPLY='delete list read' ;;
    'auth cloud config') REPLY='certificate client identity sts tidy' ;;
    'auth cloud config certificate') REPLY='delete list read write' ;;
    'auth cloud config client') REPLY='delete read write' ;;
    'auth cloud config identity') REPLY='read write' ;;
    'auth cloud config sts') REPLY='delete list read write' ;;
    'auth cloud config tidy') REPLY='delete read write' ;;
    'auth cloud denylist') REPLY='add delete list read' ;;
    'auth cloud role') REPLY='delete list read tag write' ;;
    'auth cloud tidy') REPLY='accesslist denylist' ;;
    'deployment') REPLY='fail list pause promote resume status' ;;
    'eval') REPLY='list status' ;;
    'event') REPLY='stream' ;;
    'identity') REPLY='entity entity-alias lookup' ;;
    'identity entity') REPLY='create delete list read update' ;;
    'identity entity-alias') REPLY='create delete list read update' ;;
    'identity lookup') REPLY='entity' ;;
    'job') REPLY='action allocs deployments dispatch eval history init inspect periodic plan promote restart revert run scale scaling-events status stop tag validate' ;;
    'job periodic') REPLY='force' ;;
    'job tag') REPLY='apply unset' ;;
    'kv') REPLY='delete destroy enable-versioning get list metadata patch put undelete' ;;
    'kv metadata') REPLY='delete get patch put' ;;
    'namespace') REPLY='apply delete list status' ;;
    'node') REPLY='drain eligibility status' ;;
    'operator') REPLY='members metrics' ;;
    'policy') REPLY='delete fmt list read write' ;;
    'print') REPLY='cloud-endpoint token' ;;
    'secrets') REPLY='disable enable list move tune' ;;
    'server') REPLY='members' ;;
    'service') REPLY='info list' ;;
    'system') REPLY='gc' ;;
    'token') REPLY='capabilities create lookup renew revoke' ;;
    *) REPLY='' ;;
  esac
}

# The flags of the command in $1 as offered; a trailing = marks a flag that takes a value.
_svc_flags() {
  case "$1" in
    'agent') REPLY='-servers= -data-dir= -token= -config= -log-level= -log-json -ca-cert= -client-cert= -client-key= -tls-server-name= -dc= -node= -node-class= -meta=' ;;
    'agent-info') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t=' ;;
    'alloc checks') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -verbose' ;;
    'alloc exec') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -non-interactive -task= -job -group= -i -t -e= -verbose' ;;
    'alloc fs') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -machine -stat -f -tail -n= -c= -job -verbose' ;;
    'alloc logs') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -non-interactive -stdout -stderr -f -tail -n= -c= -task= -job -verbose' ;;
    'alloc pause') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -state= -status -task= -verbose' ;;
    'alloc restart') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -task= -all-tasks -verbose' ;;
    'alloc signal') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -s= -task= -verbose' ;;
    'alloc status') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -short -verbose -stats' ;;
    'alloc stop') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -detach -no-shutdown-delay -verbose' ;;
    'auth cloud accesslist delete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud accesslist list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud accesslist read') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud config certificate delete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud config certificate list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud config certificate read') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud config certificate write') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path= -cloud-public-cert= -type=' ;;
    'auth cloud config client delete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud config client read') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud config client write') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path= -max-retries= -access-key= -secret-key= -endpoint= -iam-endpoint= -sts-endpoint= -sts-region= -use-sts-region-from-client -iam-server-id-header-value= -allowed-sts-header-values=' ;;
    'auth cloud config identity read') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud config identity write') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path= -iam-alias= -iam-metadata= -ec2-alias= -ec2-metadata=' ;;
    'auth cloud config sts delete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud config sts list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud config sts read') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud config sts write') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path= -sts-role=' ;;
    'auth cloud config tidy delete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud config tidy read') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud config tidy write') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path= -safety-buffer= -disable-periodic-tidy' ;;
    'auth cloud denylist add') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud denylist delete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud denylist list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud denylist read') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud role delete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud role list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud role read') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud role tag') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path= -policies= -max-ttl= -instance-id= -allow-instance-migration -disallow-reauthentication' ;;
    'auth cloud role write') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path= -auth-type= -bound-ami-id= -bound-account-id= -bound-region= -bound-vpc-id= -bound-subnet-id= -bound-iam-role-arn= -bound-iam-instance-profile-arn= -bound-ec2-instance-id= -role-tag= -bound-iam-principal-arn= -inferred-entity-type= -inferred-cloud-region= -resolve-cloud-unique-ids -allow-instance-migration -disallow-reauthentication -token-ttl= -token-max-ttl= -token-policies= -token-bound-cidrs= -token-explicit-max-ttl= -token-no-default-policy -token-num-uses= -token-period= -token-type=' ;;
    'auth cloud rotate-root') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path=' ;;
    'auth cloud tidy accesslist') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path= -safety-buffer=' ;;
    'auth cloud tidy denylist') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -path= -safety-buffer=' ;;
    'auth disable') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color' ;;
    'auth enable') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -path= -description= -default-lease-ttl= -max-lease-ttl= -token-type=' ;;
    'auth list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -detailed' ;;
    'auth tune') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -default-lease-ttl= -max-lease-ttl= -description= -listing-visibility= -token-type=' ;;
    'delete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field=' ;;
    'deployment fail') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -detach -verbose' ;;
    'deployment list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -filter= -per-page= -page-token= -verbose' ;;
    'deployment pause') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -verbose' ;;
    'deployment promote') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -group= -detach -verbose' ;;
    'deployment resume') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -detach -verbose' ;;
    'deployment status') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -verbose -monitor' ;;
    'eval list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -job= -status= -filter= -per-page= -page-token= -verbose' ;;
    'eval status') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -verbose -monitor' ;;
    'event stream') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -topic= -index= -json' ;;
    'identity entity create') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -name= -metadata= -policies= -disabled' ;;
    'identity entity delete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -name=' ;;
    'identity entity list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -by-name' ;;
    'identity entity read') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -name=' ;;
    'identity entity update') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -name= -metadata= -policies= -disabled' ;;
    'identity entity-alias create') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -name= -canonical-id= -mount-accessor= -id= -custom-metadata=' ;;
    'identity entity-alias delete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field=' ;;
    'identity entity-alias list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field=' ;;
    'identity entity-alias read') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field=' ;;
    'identity entity-alias update') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -name= -canonical-id= -mount-accessor= -custom-metadata=' ;;
    'identity lookup entity') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -id= -name= -alias-id= -alias-name= -alias-mount-accessor=' ;;
    'job action') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -non-interactive -job= -alloc= -group= -task= -i -t -e= -verbose' ;;
    'job allocs') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -all -verbose' ;;
    'job deployments') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -latest -all -verbose' ;;
    'job dispatch') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -meta= -idempotency-token= -id-prefix-template= -priority= -detach -verbose' ;;
    'job eval') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -force-reschedule -detach -verbose' ;;
    'job history') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -p -diff-version= -diff-tag= -full -version=' ;;
    'job init') REPLY='-short -connect' ;;
    'job inspect') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -version= -hcl' ;;
    'job periodic force') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -detach -verbose' ;;
    'job plan') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -diff -verbose -json -var= -var-file= -policy-override -hcl2-strict' ;;
    'job promote') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -group= -detach -verbose' ;;
    'job restart') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -yes -non-interactive -all-tasks -batch-size= -batch-wait= -group= -task= -on-error= -reschedule -verbose' ;;
    'job revert') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -detach -verbose' ;;
    'job run') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -detach -verbose -check-index= -json -output -var= -var-file= -policy-override -preserve-counts -eval-priority= -hcl2-strict' ;;
    'job scale') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -check-index= -detach -verbose' ;;
    'job scaling-events') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -verbose' ;;
    'job status') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -short -evals -all-allocs -verbose' ;;
    'job stop') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -yes -non-interactive -detach -purge -global -no-shutdown-delay -eval-priority= -verbose' ;;
    'job tag apply') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -name= -description= -version=' ;;
    'job tag unset') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -name=' ;;
    'job validate') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -json -var= -var-file=' ;;
    'kv delete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -mount= -versions=' ;;
    'kv destroy') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -mount= -versions=' ;;
    'kv enable-versioning') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color' ;;
    'kv get') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -mount= -version=' ;;
    'kv list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -mount=' ;;
    'kv metadata delete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -mount=' ;;
    'kv metadata get') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -mount=' ;;
    'kv metadata patch') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -mount= -max-versions= -cas-required -delete-version-after= -custom-metadata=' ;;
    'kv metadata put') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -mount= -max-versions= -cas-required -delete-version-after= -custom-metadata=' ;;
    'kv patch') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -mount= -cas= -method= -remove-data=' ;;
    'kv put') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -mount= -cas=' ;;
    'kv undelete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -mount= -versions=' ;;
    'list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field=' ;;
    'login') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -non-interactive -method= -path= -no-store -token-only -no-print' ;;
    'monitor') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -log-level= -json' ;;
    'namespace apply') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -description=' ;;
    'namespace delete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color' ;;
    'namespace list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t=' ;;
    'namespace status') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t=' ;;
    'node drain') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -yes -non-interactive -enable -disable -deadline= -detach -monitor -force -no-deadline -ignore-system -keep-ineligible -m= -meta= -self' ;;
    'node eligibility') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -enable -disable -self' ;;
    'node status') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -verbose -short -self -stats' ;;
    'operator members') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field=' ;;
    'operator metrics') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -pretty' ;;
    'patch') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -force' ;;
    'path-help') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format=' ;;
    'policy delete') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color' ;;
    'policy list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field=' ;;
    'policy read') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field=' ;;
    'policy write') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color' ;;
    'print token') REPLY='-token=' ;;
    'read') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field=' ;;
    'run') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -detach -verbose -check-index= -json -output -var= -var-file= -policy-override -preserve-counts -eval-priority= -hcl2-strict' ;;
    'secrets disable') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color' ;;
    'secrets enable') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -path= -description= -default-lease-ttl= -max-lease-ttl= -options= -version= -local -seal-wrap -external-entropy-access -force-no-cache -plugin-version= -audit-non-hmac-request-keys= -audit-non-hmac-response-keys= -listing-visibility= -passthrough-request-headers= -allowed-response-headers=' ;;
    'secrets list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -detailed' ;;
    'secrets move') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color' ;;
    'secrets tune') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -description= -default-lease-ttl= -max-lease-ttl= -options= -version=' ;;
    'server') REPLY='-dev -config= -data-dir= -storage-url= -advertise= -bind= -port= -log-level= -log-json -dev-root-token-id= -dev-cloud -dev-cloud-port= -cloud-allow-sha1 -seal-key-file= -audit-file= -tls-cert= -tls-key= -tls-client-ca= -tls-require-client-cert -tls-node-client-cert -client -dc= -node= -node-class= -meta=' ;;
    'server members') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -verbose' ;;
    'service info') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t= -verbose' ;;
    'service list') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -json -t=' ;;
    'status') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field=' ;;
    'stop') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -yes -non-interactive -detach -purge -global -no-shutdown-delay -eval-priority= -verbose' ;;
    'system gc') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color' ;;
    'token capabilities') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -accessor' ;;
    'token create') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -policy= -ttl= -explicit-max-ttl= -period= -use-limit= -bound-cidrs= -no-default-policy -orphan -renewable -type= -metadata= -display-name= -id= -entity-id=' ;;
    'token lookup') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -accessor' ;;
    'token renew') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -increment= -accessor' ;;
    'token revoke') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -accessor -self -mode=' ;;
    'ui') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -authenticate -show-url' ;;
    'write') REPLY='-address= -token= -namespace= -region= -ca-cert= -ca-path= -client-cert= -client-key= -tls-server-name= -tls-skip-verify -output-curl-string -no-color -force-color -format= -field= -force' ;;
    *) REPLY='' ;;
  esac
}

# Every name (aliases too) of the flags of $1 that take a value, to skip their values.
_svc_valued() {
  case "$1" in
    'agent') REPLY=' servers data-dir token config log-level ca-cert client-cert client-key tls-server-name dc node node-class meta ' ;;
    'agent-info') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'alloc checks') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'alloc exec') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name task group e ' ;;
    'alloc fs') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name n c ' ;;
    'alloc logs') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name n c task ' ;;
    'alloc pause') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name state task ' ;;
    'alloc restart') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name task ' ;;
    'alloc signal') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name s task ' ;;
    'alloc status') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'alloc stop') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'auth cloud accesslist delete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud accesslist list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud accesslist read') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud config certificate delete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud config certificate list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud config certificate read') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud config certificate write') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path cloud-public-cert aws-public-cert type ' ;;
    'auth cloud config client delete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud config client read') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud config client write') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path max-retries access-key secret-key endpoint iam-endpoint sts-endpoint sts-region iam-server-id-header-value allowed-sts-header-values ' ;;
    'auth cloud config identity read') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud config identity write') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path iam-alias iam-metadata ec2-alias ec2-metadata ' ;;
    'auth cloud config sts delete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud config sts list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud config sts read') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud config sts write') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path sts-role ' ;;
    'auth cloud config tidy delete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud config tidy read') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud config tidy write') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path safety-buffer ' ;;
    'auth cloud denylist add') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud denylist delete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud denylist list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud denylist read') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud role delete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud role list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud role read') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud role tag') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path policies max-ttl instance-id ' ;;
    'auth cloud role write') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path auth-type bound-ami-id bound-account-id bound-region bound-vpc-id bound-subnet-id bound-iam-role-arn bound-iam-instance-profile-arn bound-ec2-instance-id role-tag bound-iam-principal-arn inferred-entity-type inferred-cloud-region inferred-aws-region token-ttl token-max-ttl token-policies policy token-bound-cidrs token-explicit-max-ttl token-num-uses token-period token-type ' ;;
    'auth cloud rotate-root') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path ' ;;
    'auth cloud tidy accesslist') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path safety-buffer ' ;;
    'auth cloud tidy denylist') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field path safety-buffer ' ;;
    'auth disable') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'auth enable') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name path description default-lease-ttl max-lease-ttl token-type ' ;;
    'auth list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'auth tune') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name default-lease-ttl max-lease-ttl description listing-visibility token-type ' ;;
    'delete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'deployment fail') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'deployment list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t filter per-page page-token ' ;;
    'deployment pause') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'deployment promote') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name group ' ;;
    'deployment resume') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'deployment status') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'eval list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t job status filter per-page page-token ' ;;
    'eval status') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'event stream') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name topic index ' ;;
    'identity entity create') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field name metadata policies ' ;;
    'identity entity delete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field name ' ;;
    'identity entity list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'identity entity read') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field name ' ;;
    'identity entity update') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field name metadata policies ' ;;
    'identity entity-alias create') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field name canonical-id mount-accessor id custom-metadata ' ;;
    'identity entity-alias delete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'identity entity-alias list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'identity entity-alias read') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'identity entity-alias update') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field name canonical-id mount-accessor custom-metadata ' ;;
    'identity lookup entity') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field id name alias-id alias-name alias-mount-accessor ' ;;
    'job action') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name job alloc group task e ' ;;
    'job allocs') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'job deployments') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'job dispatch') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name meta idempotency-token id-prefix-template priority ' ;;
    'job eval') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'job history') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t diff-version diff-tag version ' ;;
    'job inspect') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t version ' ;;
    'job periodic force') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'job plan') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name var var-file ' ;;
    'job promote') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name group ' ;;
    'job restart') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name batch-size batch-wait group task on-error ' ;;
    'job revert') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'job run') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name check-index var var-file eval-priority ' ;;
    'job scale') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name check-index ' ;;
    'job scaling-events') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'job status') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'job stop') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name eval-priority ' ;;
    'job tag apply') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name name description version ' ;;
    'job tag unset') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name name ' ;;
    'job validate') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name var var-file ' ;;
    'kv delete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name mount versions ' ;;
    'kv destroy') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name mount versions ' ;;
    'kv enable-versioning') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'kv get') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field mount version ' ;;
    'kv list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field mount ' ;;
    'kv metadata delete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name mount ' ;;
    'kv metadata get') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field mount ' ;;
    'kv metadata patch') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name mount max-versions delete-version-after custom-metadata ' ;;
    'kv metadata put') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name mount max-versions delete-version-after custom-metadata ' ;;
    'kv patch') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field mount cas method remove-data ' ;;
    'kv put') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field mount cas ' ;;
    'kv undelete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name mount versions ' ;;
    'list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'login') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field method path ' ;;
    'monitor') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name log-level ' ;;
    'namespace apply') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name description ' ;;
    'namespace delete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'namespace list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'namespace status') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'node drain') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name deadline m meta ' ;;
    'node eligibility') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'node status') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'operator members') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'operator metrics') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format ' ;;
    'patch') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'path-help') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format ' ;;
    'policy delete') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'policy list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'policy read') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'policy write') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'print token') REPLY=' token ' ;;
    'read') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'run') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name check-index var var-file eval-priority ' ;;
    'secrets disable') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'secrets enable') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name path description default-lease-ttl max-lease-ttl options version plugin-version audit-non-hmac-request-keys audit-non-hmac-response-keys listing-visibility passthrough-request-headers allowed-response-headers ' ;;
    'secrets list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'secrets move') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'secrets tune') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name description default-lease-ttl max-lease-ttl options version ' ;;
    'server') REPLY=' config data-dir storage-url advertise bind port log-level dev-root-token-id dev-cloud-port seal-key-file audit-file tls-cert tls-key tls-client-ca dc node node-class meta ' ;;
    'server members') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'service info') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'service list') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field t ' ;;
    'status') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'stop') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name eval-priority ' ;;
    'system gc') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'token capabilities') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'token create') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field policy ttl explicit-max-ttl period use-limit bound-cidrs type metadata display-name id entity-id ' ;;
    'token lookup') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    'token renew') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field increment i ' ;;
    'token revoke') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name mode ' ;;
    'ui') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name ' ;;
    'write') REPLY=' address token namespace region ca-cert ca-path client-cert client-key tls-server-name format field ' ;;
    *) REPLY='' ;;
  esac
}

# What to offer for a value: $1 is "<words>|-<flag>" or "<words>#<argument index>".
_svc_value_spec() {
  case "$1" in
    'agent|-data-dir'|'agent-info|-ca-path'|'alloc checks|-ca-path'|'alloc exec|-ca-path'|'alloc fs|-ca-path'|'alloc logs|-ca-path'|'alloc pause|-ca-path'|'alloc restart|-ca-path'|'alloc signal|-ca-path'|'alloc status|-ca-path'|'alloc stop|-ca-path'|'auth cloud accesslist delete|-ca-path'|'auth cloud accesslist list|-ca-path'|'auth cloud accesslist read|-ca-path'|'auth cloud config certificate delete|-ca-path'|'auth cloud config certificate list|-ca-path'|'auth cloud config certificate read|-ca-path'|'auth cloud config certificate write|-ca-path'|'auth cloud config client delete|-ca-path'|'auth cloud config client read|-ca-path'|'auth cloud config client write|-ca-path'|'auth cloud config identity read|-ca-path'|'auth cloud config identity write|-ca-path'|'auth cloud config sts delete|-ca-path'|'auth cloud config sts list|-ca-path'|'auth cloud config sts read|-ca-path'|'auth cloud config sts write|-ca-path'|'auth cloud config tidy delete|-ca-path'|'auth cloud config tidy read|-ca-path'|'auth cloud config tidy write|-ca-path'|'auth cloud denylist add|-ca-path'|'auth cloud denylist delete|-ca-path'|'auth cloud denylist list|-ca-path'|'auth cloud denylist read|-ca-path'|'auth cloud role delete|-ca-path'|'auth cloud role list|-ca-path'|'auth cloud role read|-ca-path'|'auth cloud role tag|-ca-path'|'auth cloud role write|-ca-path'|'auth cloud rotate-root|-ca-path'|'auth cloud tidy accesslist|-ca-path'|'auth cloud tidy denylist|-ca-path'|'auth disable|-ca-path'|'auth enable|-ca-path'|'auth list|-ca-path'|'auth tune|-ca-path'|'delete|-ca-path'|'deployment fail|-ca-path'|'deployment list|-ca-path'|'deployment pause|-ca-path'|'deployment promote|-ca-path'|'deployment resume|-ca-path'|'deployment status|-ca-path'|'eval list|-ca-path'|'eval status|-ca-path'|'event stream|-ca-path'|'identity entity create|-ca-path'|'identity entity delete|-ca-path'|'identity entity list|-ca-path'|'identity entity read|-ca-path'|'identity entity update|-ca-path'|'identity entity-alias create|-ca-path'|'identity entity-alias delete|-ca-path'|'identity entity-alias list|-ca-path'|'identity entity-alias read|-ca-path'|'identity entity-alias update|-ca-path'|'identity lookup entity|-ca-path'|'job action|-ca-path'|'job allocs|-ca-path'|'job deployments|-ca-path'|'job dispatch|-ca-path'|'job eval|-ca-path'|'job history|-ca-path'|'job inspect|-ca-path'|'job periodic force|-ca-path'|'job plan|-ca-path'|'job promote|-ca-path'|'job restart|-ca-path'|'job revert|-ca-path'|'job run|-ca-path'|'job scale|-ca-path'|'job scaling-events|-ca-path'|'job status|-ca-path'|'job stop|-ca-path'|'job tag apply|-ca-path'|'job tag unset|-ca-path'|'job validate|-ca-path'|'kv delete|-ca-path'|'kv destroy|-ca-path'|'kv enable-versioning|-ca-path'|'kv get|-ca-path'|'kv list|-ca-path'|'kv metadata delete|-ca-path'|'kv metadata get|-ca-path'|'kv metadata patch|-ca-path'|'kv metadata put|-ca-path'|'kv patch|-ca-path'|'kv put|-ca-path'|'kv undelete|-ca-path'|'list|-ca-path'|'login|-ca-path'|'monitor|-ca-path'|'namespace apply|-ca-path'|'namespace delete|-ca-path'|'namespace list|-ca-path'|'namespace status|-ca-path'|'node drain|-ca-path'|'node eligibility|-ca-path'|'node status|-ca-path'|'operator members|-ca-path'|'operator metrics|-ca-path'|'patch|-ca-path'|'path-help|-ca-path'|'policy delete|-ca-path'|'policy list|-ca-path'|'policy read|-ca-path'|'policy write|-ca-path'|'read|-ca-path'|'run|-ca-path'|'secrets disable|-ca-path'|'secrets enable|-ca-path'|'secrets list|-ca-path'|'secrets move|-ca-path'|'secrets tune|-ca-path'|'server|-data-dir'|'server members|-ca-path'|'service info|-ca-path'|'service list|-ca-path'|'status|-ca-path'|'stop|-ca-path'|'system gc|-ca-path'|'token capabilities|-ca-path'|'token create|-ca-path'|'token lookup|-ca-path'|'token renew|-ca-path'|'token revoke|-ca-path'|'ui|-ca-path'|'write|-ca-path') REPLY='dir' ;;
    'agent|-config'|'agent|-ca-cert'|'agent|-client-cert'|'agent|-client-key'|'agent-info|-ca-cert'|'agent-info|-client-cert'|'agent-info|-client-key'|'alloc checks|-ca-cert'|'alloc checks|-client-cert'|'alloc checks|-client-key'|'alloc exec|-ca-cert'|'alloc exec|-client-cert'|'alloc exec|-client-key'|'alloc fs|-ca-cert'|'alloc fs|-client-cert'|'alloc fs|-client-key'|'alloc logs|-ca-cert'|'alloc logs|-client-cert'|'alloc logs|-client-key'|'alloc pause|-ca-cert'|'alloc pause|-client-cert'|'alloc pause|-client-key'|'alloc restart|-ca-cert'|'alloc restart|-client-cert'|'alloc restart|-client-key'|'alloc signal|-ca-cert'|'alloc signal|-client-cert'|'alloc signal|-client-key'|'alloc status|-ca-cert'|'alloc status|-client-cert'|'alloc status|-client-key'|'alloc stop|-ca-cert'|'alloc stop|-client-cert'|'alloc stop|-client-key'|'auth cloud accesslist delete|-ca-cert'|'auth cloud accesslist delete|-client-cert'|'auth cloud accesslist delete|-client-key'|'auth cloud accesslist list|-ca-cert'|'auth cloud accesslist list|-client-cert'|'auth cloud accesslist list|-client-key'|'auth cloud accesslist read|-ca-cert'|'auth cloud accesslist read|-client-cert'|'auth cloud accesslist read|-client-key'|'auth cloud config certificate delete|-ca-cert'|'auth cloud config certificate delete|-client-cert'|'auth cloud config certificate delete|-client-key'|'auth cloud config certificate list|-ca-cert'|'auth cloud config certificate list|-client-cert'|'auth cloud config certificate list|-client-key'|'auth cloud config certificate read|-ca-cert'|'auth cloud config certificate read|-client-cert'|'auth cloud config certificate read|-client-key'|'auth cloud config certificate write|-ca-cert'|'auth cloud config certificate write|-client-cert'|'auth cloud config certificate write|-client-key'|'auth cloud config client delete|-ca-cert'|'auth cloud config client delete|-client-cert'|'auth cloud config client delete|-client-key'|'auth cloud config client read|-ca-cert'|'auth cloud config client read|-client-cert'|'auth cloud config client read|-client-key'|'auth cloud config client write|-ca-cert'|'auth cloud config client write|-client-cert'|'auth cloud config client write|-client-key'|'auth cloud config identity read|-ca-cert'|'auth cloud config identity read|-client-cert'|'auth cloud config identity read|-client-key'|'auth cloud config identity write|-ca-cert'|'auth cloud config identity write|-client-cert'|'auth cloud config identity write|-client-key'|'auth cloud config sts delete|-ca-cert'|'auth cloud config sts delete|-client-cert'|'auth cloud config sts delete|-client-key'|'auth cloud config sts list|-ca-cert'|'auth cloud config sts list|-client-cert'|'auth cloud config sts list|-client-key'|'auth cloud config sts read|-ca-cert'|'auth cloud config sts read|-client-cert'|'auth cloud config sts read|-client-key'|'auth cloud config sts write|-ca-cert'|'auth cloud config sts write|-client-cert'|'auth cloud config sts write|-client-key'|'auth cloud config tidy delete|-ca-cert'|'auth cloud config tidy delete|-client-cert'|'auth cloud config tidy delete|-client-key'|'auth cloud config tidy read|-ca-cert'|'auth cloud config tidy read|-client-cert'|'auth cloud config tidy read|-client-key'|'auth cloud config tidy write|-ca-cert'|'auth cloud config tidy write|-client-cert'|'auth cloud config tidy write|-client-key'|'auth cloud denylist add|-ca-cert'|'auth cloud denylist add|-client-cert'|'auth cloud denylist add|-client-key'|'auth cloud denylist delete|-ca-cert'|'auth cloud denylist delete|-client-cert'|'auth cloud denylist delete|-client-key'|'auth cloud denylist list|-ca-cert'|'auth cloud denylist list|-client-cert'|'auth cloud denylist list|-client-key'|'auth cloud denylist read|-ca-cert'|'auth cloud denylist read|-client-cert'|'auth cloud denylist read|-client-key'|'auth cloud role delete|-ca-cert'|'auth cloud role delete|-client-cert'|'auth cloud role delete|-client-key'|'auth cloud role list|-ca-cert'|'auth cloud role list|-client-cert'|'auth cloud role list|-client-key'|'auth cloud role read|-ca-cert'|'auth cloud role read|-client-cert'|'auth cloud role read|-client-key'|'auth cloud role tag|-ca-cert'|'auth cloud role tag|-client-cert'|'auth cloud role tag|-client-key'|'auth cloud role write|-ca-cert'|'auth cloud role write|-client-cert'|'auth cloud role write|-client-key'|'auth cloud rotate-root|-ca-cert'|'auth cloud rotate-root|-client-cert'|'auth cloud rotate-root|-client-key'|'auth cloud tidy accesslist|-ca-cert'|'auth cloud tidy accesslist|-client-cert'|'auth cloud tidy accesslist|-client-key'|'auth cloud tidy denylist|-ca-cert'|'auth cloud tidy denylist|-client-cert'|'auth cloud tidy denylist|-client-key'|'auth disable|-ca-cert'|'auth disable|-client-cert'|'auth disable|-client-key'|'auth enable|-ca-cert'|'auth enable|-client-cert'|'auth enable|-client-key'|'auth list|-ca-cert'|'auth list|-client-cert'|'auth list|-client-key'|'auth tune|-ca-cert'|'auth tune|-client-cert'|'auth tune|-client-key'|'delete|-ca-cert'|'delete|-client-cert'|'delete|-client-key'|'deployment fail|-ca-cert'|'deployment fail|-client-cert'|'deployment fail|-client-key'|'deployment list|-ca-cert'|'deployment list|-client-cert'|'deployment list|-client-key'|'deployment pause|-ca-cert'|'deployment pause|-client-cert'|'deployment pause|-client-key'|'deployment promote|-ca-cert'|'deployment promote|-client-cert'|'deployment promote|-client-key'|'deployment resume|-ca-cert'|'deployment resume|-client-cert'|'deployment resume|-client-key'|'deployment status|-ca-cert'|'deployment status|-client-cert'|'deployment status|-client-key'|'eval list|-ca-cert'|'eval list|-client-cert'|'eval list|-client-key'|'eval status|-ca-cert'|'eval status|-client-cert'|'eval status|-client-key'|'event stream|-ca-cert'|'event stream|-client-cert'|'event stream|-client-key'|'identity entity create|-ca-cert'|'identity entity create|-client-cert'|'identity entity create|-client-key'|'identity entity delete|-ca-cert'|'identity entity delete|-client-cert'|'identity entity delete|-client-key'|'identity entity list|-ca-cert'|'identity entity list|-client-cert'|'identity entity list|-client-key'|'identity entity read|-ca-cert'|'identity entity read|-client-cert'|'identity entity read|-client-key'|'identity entity update|-ca-cert'|'identity entity update|-client-cert'|'identity entity update|-client-key'|'identity entity-alias create|-ca-cert'|'identity entity-alias create|-client-cert'|'identity entity-alias create|-client-key'|'identity entity-alias delete|-ca-cert'|'identity entity-alias delete|-client-cert'|'identity entity-alias delete|-client-key'|'identity entity-alias list|-ca-cert'|'identity entity-alias list|-client-cert'|'identity entity-alias list|-client-key'|'identity entity-alias read|-ca-cert'|'identity entity-alias read|-client-cert'|'identity entity-alias read|-client-key'|'identity entity-alias update|-ca-cert'|'identity entity-alias update|-client-cert'|'identity entity-alias update|-client-key'|'identity lookup entity|-ca-cert'|'identity lookup entity|-client-cert'|'identity lookup entity|-client-key'|'job action|-ca-cert'|'job action|-client-cert'|'job action|-client-key'|'job allocs|-ca-cert'|'job allocs|-client-cert'|'job allocs|-client-key'|'job deployments|-ca-cert'|'job deployments|-client-cert'|'job deployments|-client-key'|'job dispatch|-ca-cert'|'job dispatch|-client-cert'|'job dispatch|-client-key'|'job eval|-ca-cert'|'job eval|-client-cert'|'job eval|-client-key'|'job history|-ca-cert'|'job history|-client-cert'|'job history|-client-key'|'job inspect|-ca-cert'|'job inspect|-client-cert'|'job inspect|-client-key'|'job periodic force|-ca-cert'|'job periodic force|-client-cert'|'job periodic force|-client-key'|'job plan|-ca-cert'|'job plan|-client-cert'|'job plan|-client-key'|'job plan|-var-file'|'job promote|-ca-cert'|'job promote|-client-cert'|'job promote|-client-key'|'job restart|-ca-cert'|'job restart|-client-cert'|'job restart|-client-key'|'job revert|-ca-cert'|'job revert|-client-cert'|'job revert|-client-key'|'job run|-ca-cert'|'job run|-client-cert'|'job run|-client-key'|'job run|-var-file'|'job scale|-ca-cert'|'job scale|-client-cert'|'job scale|-client-key'|'job scaling-events|-ca-cert'|'job scaling-events|-client-cert'|'job scaling-events|-client-key'|'job status|-ca-cert'|'job status|-client-cert'|'job status|-client-key'|'job stop|-ca-cert'|'job stop|-client-cert'|'job stop|-client-key'|'job tag apply|-ca-cert'|'job tag apply|-client-cert'|'job tag apply|-client-key'|'job tag unset|-ca-cert'|'job tag unset|-client-cert'|'job tag unset|-client-key'|'job validate|-ca-cert'|'job validate|-client-cert'|'job validate|-client-key'|'job validate|-var-file'|'kv delete|-ca-cert'|'kv delete|-client-cert'|'kv delete|-client-key'|'kv destroy|-ca-cert'|'kv destroy|-client-cert'|'kv destroy|-client-key'|'kv enable-versioning|-ca-cert'|'kv enable-versioning|-client-cert'|'kv enable-versioning|-client-key'|'kv get|-ca-cert'|'kv get|-client-cert'|'kv get|-client-key'|'kv list|-ca-cert'|'kv list|-client-cert'|'kv list|-client-key'|'kv metadata delete|-ca-cert'|'kv metadata delete|-client-cert'|'kv metadata delete|-client-key'|'kv metadata get|-ca-cert'|'kv metadata get|-client-cert'|'kv metadata get|-client-key'|'kv metadata patch|-ca-cert'|'kv metadata patch|-client-cert'|'kv metadata patch|-client-key'|'kv metadata put|-ca-cert'|'kv metadata put|-client-cert'|'kv metadata put|-client-key'|'kv patch|-ca-cert'|'kv patch|-client-cert'|'kv patch|-client-key'|'kv put|-ca-cert'|'kv put|-client-cert'|'kv put|-client-key'|'kv undelete|-ca-cert'|'kv undelete|-client-cert'|'kv undelete|-client-key'|'list|-ca-cert'|'list|-client-cert'|'list|-client-key'|'login|-ca-cert'|'login|-client-cert'|'login|-client-key'|'monitor|-ca-cert'|'monitor|-client-cert'|'monitor|-client-key'|'namespace apply|-ca-cert'|'namespace apply|-client-cert'|'namespace apply|-client-key'|'namespace delete|-ca-cert'|'namespace delete|-client-cert'|'namespace delete|-client-key'|'namespace list|-ca-cert'|'namespace list|-client-cert'|'namespace list|-client-key'|'namespace status|-ca-cert'|'namespace status|-client-cert'|'namespace status|-client-key'|'node drain|-ca-cert'|'node drain|-client-cert'|'node drain|-client-key'|'node eligibility|-ca-cert'|'node eligibility|-client-cert'|'node eligibility|-client-key'|'node status|-ca-cert'|'node status|-client-cert'|'node status|-client-key'|'operator members|-ca-cert'|'operator members|-client-cert'|'operator members|-client-key'|'operator metrics|-ca-cert'|'operator metrics|-client-cert'|'operator metrics|-client-key'|'patch|-ca-cert'|'patch|-client-cert'|'patch|-client-key'|'path-help|-ca-cert'|'path-help|-client-cert'|'path-help|-client-key'|'policy delete|-ca-cert'|'policy delete|-client-cert'|'policy delete|-client-key'|'policy list|-ca-cert'|'policy list|-client-cert'|'policy list|-client-key'|'policy read|-ca-cert'|'policy read|-client-cert'|'policy read|-client-key'|'policy write|-ca-cert'|'policy write|-client-cert'|'policy write|-client-key'|'read|-ca-cert'|'read|-client-cert'|'read|-client-key'|'run|-ca-cert'|'run|-client-cert'|'run|-client-key'|'run|-var-file'|'secrets disable|-ca-cert'|'secrets disable|-client-cert'|'secrets disable|-client-key'|'secrets enable|-ca-cert'|'secrets enable|-client-cert'|'secrets enable|-client-key'|'secrets list|-ca-cert'|'secrets list|-client-cert'|'secrets list|-client-key'|'secrets move|-ca-cert'|'secrets move|-client-cert'|'secrets move|-client-key'|'secrets tune|-ca-cert'|'secrets tune|-client-cert'|'secrets tune|-client-key'|'server|-config'|'server|-seal-key-file'|'server|-audit-file'|'server|-tls-cert'|'server|-tls-key'|'server|-tls-client-ca'|'server members|-ca-cert'|'server members|-client-cert'|'server members|-client-key'|'service info|-ca-cert'|'service info|-client-cert'|'service info|-client-key'|'service list|-ca-cert'|'service list|-client-cert'|'service list|-client-key'|'status|-ca-cert'|'status|-client-cert'|'status|-client-key'|'stop|-ca-cert'|'stop|-client-cert'|'stop|-client-key'|'system gc|-ca-cert'|'system gc|-client-cert'|'system gc|-client-key'|'token capabilities|-ca-cert'|'token capabilities|-client-cert'|'token capabilities|-client-key'|'token create|-ca-cert'|'token create|-client-cert'|'token create|-client-key'|'token lookup|-ca-cert'|'token lookup|-client-cert'|'token lookup|-client-key'|'token renew|-ca-cert'|'token renew|-client-cert'|'token renew|-client-key'|'token revoke|-ca-cert'|'token revoke|-client-cert'|'token revoke|-client-key'|'ui|-ca-cert'|'ui|-client-cert'|'ui|-client-key'|'write|-ca-cert'|'write|-client-cert'|'write|-client-key') REPLY='file' ;;
    'agent|-log-level'|'server|-log-level') REPLY='choices:trace debug info warn error' ;;
    'agent-info|-namespace'|'alloc checks|-namespace'|'alloc exec|-namespace'|'alloc fs|-namespace'|'alloc logs|-namespace'|'alloc pause|-namespace'|'alloc restart|-namespace'|'alloc signal|-namespace'|'alloc status|-namespace'|'alloc stop|-namespace'|'auth cloud accesslist delete|-namespace'|'auth cloud accesslist list|-namespace'|'auth cloud accesslist read|-namespace'|'auth cloud config certificate delete|-namespace'|'auth cloud config certificate list|-namespace'|'auth cloud config certificate read|-namespace'|'auth cloud config certificate write|-namespace'|'auth cloud config client delete|-namespace'|'auth cloud config client read|-namespace'|'auth cloud config client write|-namespace'|'auth cloud config identity read|-namespace'|'auth cloud config identity write|-namespace'|'auth cloud config sts delete|-namespace'|'auth cloud config sts list|-namespace'|'auth cloud config sts read|-namespace'|'auth cloud config sts write|-namespace'|'auth cloud config tidy delete|-namespace'|'auth cloud config tidy read|-namespace'|'auth cloud config tidy write|-namespace'|'auth cloud denylist add|-namespace'|'auth cloud denylist delete|-namespace'|'auth cloud denylist list|-namespace'|'auth cloud denylist read|-namespace'|'auth cloud role delete|-namespace'|'auth cloud role list|-namespace'|'auth cloud role read|-namespace'|'auth cloud role tag|-namespace'|'auth cloud role write|-namespace'|'auth cloud rotate-root|-namespace'|'auth cloud tidy accesslist|-namespace'|'auth cloud tidy denylist|-namespace'|'auth disable|-namespace'|'auth enable|-namespace'|'auth list|-namespace'|'auth tune|-namespace'|'delete|-namespace'|'deployment fail|-namespace'|'deployment list|-namespace'|'deployment pause|-namespace'|'deployment promote|-namespace'|'deployment resume|-namespace'|'deployment status|-namespace'|'eval list|-namespace'|'eval status|-namespace'|'event stream|-namespace'|'identity entity create|-namespace'|'identity entity delete|-namespace'|'identity entity list|-namespace'|'identity entity read|-namespace'|'identity entity update|-namespace'|'identity entity-alias create|-namespace'|'identity entity-alias delete|-namespace'|'identity entity-alias list|-namespace'|'identity entity-alias read|-namespace'|'identity entity-alias update|-namespace'|'identity lookup entity|-namespace'|'job action|-namespace'|'job allocs|-namespace'|'job deployments|-namespace'|'job dispatch|-namespace'|'job eval|-namespace'|'job history|-namespace'|'job inspect|-namespace'|'job periodic force|-namespace'|'job plan|-namespace'|'job promote|-namespace'|'job restart|-namespace'|'job revert|-namespace'|'job run|-namespace'|'job scale|-namespace'|'job scaling-events|-namespace'|'job status|-namespace'|'job stop|-namespace'|'job tag apply|-namespace'|'job tag unset|-namespace'|'job validate|-namespace'|'kv delete|-namespace'|'kv destroy|-namespace'|'kv enable-versioning|-namespace'|'kv get|-namespace'|'kv list|-namespace'|'kv metadata delete|-namespace'|'kv metadata get|-namespace'|'kv metadata patch|-namespace'|'kv metadata put|-namespace'|'kv patch|-namespace'|'kv put|-namespace'|'kv undelete|-namespace'|'list|-namespace'|'login|-namespace'|'monitor|-namespace'|'namespace apply|-namespace'|'namespace delete|-namespace'|'namespace list|-namespace'|'namespace status|-namespace'|'node drain|-namespace'|'node eligibility|-namespace'|'node status|-namespace'|'operator members|-namespace'|'operator metrics|-namespace'|'patch|-namespace'|'path-help|-namespace'|'policy delete|-namespace'|'policy list|-namespace'|'policy read|-namespace'|'policy write|-namespace'|'read|-namespace'|'run|-namespace'|'secrets disable|-namespace'|'secrets enable|-namespace'|'secrets list|-namespace'|'secrets move|-namespace'|'secrets tune|-namespace'|'server members|-namespace'|'service info|-namespace'|'service list|-namespace'|'status|-namespace'|'stop|-namespace'|'system gc|-namespace'|'token capabilities|-namespace'|'token create|-namespace'|'token lookup|-namespace'|'token renew|-namespace'|'token revoke|-namespace'|'ui|-namespace'|'write|-namespace') REPLY='dynamic:namespace' ;;
    'agent-info|-format'|'alloc checks|-format'|'alloc status|-format'|'auth cloud accesslist delete|-format'|'auth cloud accesslist list|-format'|'auth cloud accesslist read|-format'|'auth cloud config certificate delete|-format'|'auth cloud config certificate list|-format'|'auth cloud config certificate read|-format'|'auth cloud config certificate write|-format'|'auth cloud config client delete|-format'|'auth cloud config client read|-format'|'auth cloud config client write|-format'|'auth cloud config identity read|-format'|'auth cloud config identity write|-format'|'auth cloud config sts delete|-format'|'auth cloud config sts list|-format'|'auth cloud config sts read|-format'|'auth cloud config sts write|-format'|'auth cloud config tidy delete|-format'|'auth cloud config tidy read|-format'|'auth cloud config tidy write|-format'|'auth cloud denylist add|-format'|'auth cloud denylist delete|-format'|'auth cloud denylist list|-format'|'auth cloud denylist read|-format'|'auth cloud role delete|-format'|'auth cloud role list|-format'|'auth cloud role read|-format'|'auth cloud role tag|-format'|'auth cloud role write|-format'|'auth cloud rotate-root|-format'|'auth cloud tidy accesslist|-format'|'auth cloud tidy denylist|-format'|'auth list|-format'|'delete|-format'|'deployment list|-format'|'deployment status|-format'|'eval list|-format'|'eval status|-format'|'identity entity create|-format'|'identity entity delete|-format'|'identity entity list|-format'|'identity entity read|-format'|'identity entity update|-format'|'identity entity-alias create|-format'|'identity entity-alias delete|-format'|'identity entity-alias list|-format'|'identity entity-alias read|-format'|'identity entity-alias update|-format'|'identity lookup entity|-format'|'job allocs|-format'|'job deployments|-format'|'job history|-format'|'job inspect|-format'|'job scaling-events|-format'|'job status|-format'|'kv get|-format'|'kv list|-format'|'kv metadata get|-format'|'kv patch|-format'|'kv put|-format'|'list|-format'|'login|-format'|'namespace list|-format'|'namespace status|-format'|'node status|-format'|'operator members|-format'|'patch|-format'|'path-help|-format'|'policy list|-format'|'policy read|-format'|'read|-format'|'secrets list|-format'|'server members|-format'|'service info|-format'|'service list|-format'|'status|-format'|'token capabilities|-format'|'token create|-format'|'token lookup|-format'|'token renew|-format'|'write|-format') REPLY='choices:table json yaml' ;;
    'alloc pause|-state') REPLY='choices:pause run scheduled' ;;
    'auth cloud accesslist delete|-path'|'auth cloud accesslist list|-path'|'auth cloud accesslist read|-path'|'auth cloud config certificate delete|-path'|'auth cloud config certificate list|-path'|'auth cloud config certificate read|-path'|'auth cloud config certificate write|-path'|'auth cloud config client delete|-path'|'auth cloud config client read|-path'|'auth cloud config client write|-path'|'auth cloud config identity read|-path'|'auth cloud config identity write|-path'|'auth cloud config sts delete|-path'|'auth cloud config sts list|-path'|'auth cloud config sts read|-path'|'auth cloud config sts write|-path'|'auth cloud config tidy delete|-path'|'auth cloud config tidy read|-path'|'auth cloud config tidy write|-path'|'auth cloud denylist add|-path'|'auth cloud denylist delete|-path'|'auth cloud denylist list|-path'|'auth cloud denylist read|-path'|'auth cloud role delete|-path'|'auth cloud role list|-path'|'auth cloud role read|-path'|'auth cloud role tag|-path'|'auth cloud role write|-path'|'auth cloud rotate-root|-path'|'auth cloud tidy accesslist|-path'|'auth cloud tidy denylist|-path') REPLY='dynamic:cloud-mount' ;;
    'auth cloud config certificate write|-type') REPLY='choices:pkcs7 identity' ;;
    'auth cloud config identity write|-iam-alias') REPLY='choices:role_id unique_id full_arn' ;;
    'auth cloud config identity write|-ec2-alias') REPLY='choices:role_id instance_id image_id' ;;
    'auth cloud role tag|-policies'|'auth cloud role write|-token-policies'|'auth cloud role write|-policy'|'identity entity create|-policies'|'identity entity update|-policies'|'token create|-policy') REPLY='dynamic:policy' ;;
    'auth cloud role write|-auth-type') REPLY='choices:ec2 iam' ;;
    'auth cloud role write|-token-type') REPLY='choices:default service batch' ;;
    'auth enable|-token-type'|'auth tune|-token-type') REPLY='choices:default-service default-batch service batch' ;;
    'eval list|-job'|'job action|-job') REPLY='dynamic:job' ;;
    'eval list|-status') REPLY='choices:blocked pending complete failed canceled' ;;
    'identity entity delete|-name'|'identity entity read|-name'|'identity lookup entity|-name') REPLY='dynamic:entity-name' ;;
    'identity entity-alias create|-canonical-id'|'identity entity-alias update|-canonical-id'|'identity lookup entity|-id'|'token create|-entity-id') REPLY='dynamic:entity' ;;
    'identity entity-alias create|-mount-accessor'|'identity entity-alias update|-mount-accessor'|'identity lookup entity|-alias-mount-accessor') REPLY='dynamic:accessor' ;;
    'identity entity-alias create|-id'|'identity lookup entity|-alias-id') REPLY='dynamic:entity-alias' ;;
    'job action|-alloc') REPLY='dynamic:alloc' ;;
    'job restart|-on-error') REPLY='choices:ask fail' ;;
    'kv patch|-method') REPLY='choices:patch rw' ;;
    'login|-method') REPLY='choices:token cloud' ;;
    'login|-path') REPLY='dynamic:mount' ;;
    'login@role') REPLY='dynamic:role' ;;
    'login@type') REPLY='choices:iam ec2' ;;
    'login@document') REPLY='choices:rsa2048 pkcs7 identity' ;;
    'operator metrics|-format') REPLY='choices:json prometheus' ;;
    'token create|-type') REPLY='choices:service batch' ;;
    'token revoke|-mode') REPLY='choices:orphan' ;;
    'alloc checks#0') REPLY='dynamic:alloc' ;;
    'alloc exec#0') REPLY='dynamic:alloc' ;;
    'alloc fs#0') REPLY='dynamic:alloc' ;;
    'alloc logs#0') REPLY='dynamic:alloc' ;;
    'alloc pause#0') REPLY='dynamic:alloc' ;;
    'alloc restart#0') REPLY='dynamic:alloc' ;;
    'alloc signal#0') REPLY='dynamic:alloc' ;;
    'alloc status#0') REPLY='dynamic:alloc' ;;
    'alloc stop#0') REPLY='dynamic:alloc' ;;
    'auth cloud accesslist delete#0') REPLY='dynamic:accesslist' ;;
    'auth cloud accesslist read#0') REPLY='dynamic:accesslist' ;;
    'auth cloud config certificate delete#0') REPLY='dynamic:certificate' ;;
    'auth cloud config certificate read#0') REPLY='dynamic:certificate' ;;
    'auth cloud config certificate write#0') REPLY='dynamic:certificate' ;;
    'auth cloud config sts delete#0') REPLY='dynamic:sts-account' ;;
    'auth cloud config sts read#0') REPLY='dynamic:sts-account' ;;
    'auth cloud config sts write#0') REPLY='dynamic:sts-account' ;;
    'auth cloud config tidy delete#0') REPLY='choices:identity-accesslist roletag-denylist' ;;
    'auth cloud config tidy read#0') REPLY='choices:identity-accesslist roletag-denylist' ;;
    'auth cloud config tidy write#0') REPLY='choices:identity-accesslist roletag-denylist' ;;
    'auth cloud denylist delete#0') REPLY='dynamic:denylist' ;;
    'auth cloud denylist read#0') REPLY='dynamic:denylist' ;;
    'auth cloud role delete#0') REPLY='dynamic:role' ;;
    'auth cloud role read#0') REPLY='dynamic:role' ;;
    'auth cloud role tag#0') REPLY='dynamic:role' ;;
    'auth cloud role write#0') REPLY='dynamic:role' ;;
    'auth disable#0') REPLY='dynamic:mount' ;;
    'auth enable#0') REPLY='choices:cloud' ;;
    'auth tune#0') REPLY='dynamic:mount' ;;
    'completion#0') REPLY='choices:bash zsh fish' ;;
    'delete#0') REPLY='dynamic:secrets-path' ;;
    'deployment fail#0') REPLY='dynamic:deployment' ;;
    'deployment pause#0') REPLY='dynamic:deployment' ;;
    'deployment promote#0') REPLY='dynamic:deployment' ;;
    'deployment resume#0') REPLY='dynamic:deployment' ;;
    'deployment status#0') REPLY='dynamic:deployment' ;;
    'eval status#0') REPLY='dynamic:eval' ;;
    'identity entity delete#0') REPLY='dynamic:entity' ;;
    'identity entity read#0') REPLY='dynamic:entity' ;;
    'identity entity update#0') REPLY='dynamic:entity' ;;
    'identity entity-alias delete#0') REPLY='dynamic:entity-alias' ;;
    'identity entity-alias read#0') REPLY='dynamic:entity-alias' ;;
    'identity entity-alias update#0') REPLY='dynamic:entity-alias' ;;
    'job allocs#0') REPLY='dynamic:job' ;;
    'job deployments#0') REPLY='dynamic:job' ;;
    'job dispatch#0') REPLY='dynamic:job' ;;
    'job dispatch#1') REPLY='file' ;;
    'job eval#0') REPLY='dynamic:job' ;;
    'job history#0') REPLY='dynamic:job' ;;
    'job init#0') REPLY='file' ;;
    'job inspect#0') REPLY='dynamic:job' ;;
    'job periodic force#0') REPLY='dynamic:job' ;;
    'job plan#0') REPLY='file' ;;
    'job promote#0') REPLY='dynamic:job' ;;
    'job restart#0') REPLY='dynamic:job' ;;
    'job revert#0') REPLY='dynamic:job' ;;
    'job run#0') REPLY='file' ;;
    'job scale#0') REPLY='dynamic:job' ;;
    'job scaling-events#0') REPLY='dynamic:job' ;;
    'job status#0') REPLY='dynamic:job' ;;
    'job stop#'*) REPLY='dynamic:job' ;;
    'job tag apply#0') REPLY='dynamic:job' ;;
    'job tag unset#0') REPLY='dynamic:job' ;;
    'job validate#0') REPLY='file' ;;
    'kv delete#0') REPLY='dynamic:secrets-path' ;;
    'kv destroy#0') REPLY='dynamic:secrets-path' ;;
    'kv enable-versioning#0') REPLY='dynamic:secrets-path' ;;
    'kv get#0') REPLY='dynamic:secrets-path' ;;
    'kv list#0') REPLY='dynamic:secrets-path' ;;
    'kv metadata delete#0') REPLY='dynamic:secrets-path' ;;
    'kv metadata get#0') REPLY='dynamic:secrets-path' ;;
    'kv metadata patch#0') REPLY='dynamic:secrets-path' ;;
    'kv metadata put#0') REPLY='dynamic:secrets-path' ;;
    'kv patch#0') REPLY='dynamic:secrets-path' ;;
    'kv put#0') REPLY='dynamic:secrets-path' ;;
    'kv undelete#0') REPLY='dynamic:secrets-path' ;;
    'list#0') REPLY='dynamic:secrets-path' ;;
    'namespace apply#0') REPLY='dynamic:namespace' ;;
    'namespace delete#0') REPLY='dynamic:namespace' ;;
    'namespace status#0') REPLY='dynamic:namespace' ;;
    'node drain#0') REPLY='dynamic:node' ;;
    'node eligibility#0') REPLY='dynamic:node' ;;
    'node status#0') REPLY='dynamic:node' ;;
    'patch#0') REPLY='dynamic:secrets-path' ;;
    'path-help#0') REPLY='dynamic:secrets-path' ;;
    'policy delete#0') REPLY='dynamic:policy' ;;
    'policy fmt#0') REPLY='file' ;;
    'policy read#0') REPLY='dynamic:policy' ;;
    'policy write#0') REPLY='dynamic:policy' ;;
    'policy write#1') REPLY='file' ;;
    'read#0') REPLY='dynamic:secrets-path' ;;
    'run#0') REPLY='file' ;;
    'secrets disable#0') REPLY='dynamic:secrets-path' ;;
    'secrets enable#0') REPLY='choices:kv kv-v2' ;;
    'secrets move#0') REPLY='dynamic:secrets-path' ;;
    'secrets tune#0') REPLY='dynamic:secrets-path' ;;
    'service info#0') REPLY='dynamic:service' ;;
    'stop#'*) REPLY='dynamic:job' ;;
    'ui#0') REPLY='dynamic:job' ;;
    'write#0') REPLY='dynamic:secrets-path' ;;
    *) REPLY='' ;;
  esac
}

# Fills COMPREPLY with values of spec $1 that start with $2, each prefixed with $3.
_svc_values() {
  local spec=$1 cur=$2 prefix=$3 IFS=$'\n'
  local -a vals=()
  case "$spec" in
    choices:*) IFS=' ' read -ra vals <<<"${spec#choices:}"; vals=($(compgen -W "${vals[*]}" -- "$cur")) ;;
    file) vals=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null ;;
    dir) vals=($(compgen -d -- "$cur")); compopt -o filenames 2>/dev/null ;;
    dynamic:*) vals=($(compgen -W "$("$_svc_prog" __complete "${_svc_ctx[@]}" "${spec#dynamic:}" -- "$cur" 2>/dev/null)" -- "$cur")) ;;
  esac
  # Readline replaces only the text after the last COMP_WORDBREAKS character of the word (= and : by default).
  local word=$prefix$cur breaks=${COMP_WORDBREAKS//[[:space:]]/} lead='' v
  [[ -n $breaks ]] && lead=${word%"${word##*[$breaks]}"}
  for v in "${vals[@]}"; do
    v=$prefix$v
    COMPREPLY+=("${v#"$lead"}")
  done
  # A directory-like value (a secrets path ending in /) is completed further, as a directory is.
  [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == */ ]] && compopt -o nospace 2>/dev/null
  return 0
}

_svc() {
  # Words are taken from the line itself, so "=" splits nothing whatever COMP_WORDBREAKS holds.
  local line=${COMP_LINE:0:COMP_POINT} cur=''
  local -a words
  read -ra words <<<"$line"
  if [[ -n $line && $line != *[[:space:]] ]]; then
    cur=${words[${#words[@]}-1]}
    unset "words[${#words[@]}-1]"
  fi
  COMPREPLY=()
  local _svc_prog=${words[0]:-svc}
  local -a _svc_ctx=()
  local key='' i=1 n=${#words[@]} REPLY
  while ((i < n)); do
    _svc_words "$key"
    [[ " $REPLY " == *" ${words[i]} "* ]] || break
    key=${key:+$key }${words[i]}
    ((i++))
  done
  _svc_valued "$key"
  local valued=$REPLY pos=0 pending='' dashdash=''
  for ((; i < n; i++)); do
    local w=${words[i]}
    if [[ -n $pending ]]; then
      [[ $_svc_forwarded == *" $pending "* ]] && _svc_ctx+=("-$pending=$w")
      pending=''; continue
    fi
    if [[ -z $dashdash && $w == -- ]]; then dashdash=1; continue; fi
    if [[ -z $dashdash && $w == -?* ]]; then
      local name=${w#-}; name=${name#-}
      [[ $name == *=* && $_svc_forwarded == *" ${name%%=*} "* ]] && _svc_ctx+=("-$name")
      [[ $name != *=* && $valued == *" $name "* ]] && pending=$name
      continue
    fi
    ((pos++))
  done
  if [[ -n $pending ]]; then
    _svc_value_spec "$key|-$pending"
    _svc_values "$REPLY" "$cur" ''
    return 0
  fi
  if [[ -z $dashdash && $cur == -*=* ]]; then
    local flag=${cur%%=*} name=${cur%%=*}
    name=${name#-}; name=${name#-}
    _svc_value_spec "$key|-$name"
    _svc_values "$REPLY" "${cur#*=}" "$flag="
    return 0
  fi
  if [[ ( -n $dashdash || $cur != -* ) && $cur =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; then
    _svc_value_spec "$key@${cur%%=*}"
    if [[ -n $REPLY ]]; then
      _svc_values "$REPLY" "${cur#*=}" "${cur%%=*}="
      return 0
    fi
  fi
  if [[ -z $dashdash && $cur == -* ]]; then
    _svc_flags "$key"
    COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
    [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
    return 0
  fi
  _svc_words "$key"
  if [[ -n $REPLY && $pos -eq 0 ]]; then
    COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
    return 0
  fi
  _svc_value_spec "$key#$pos"
  _svc_values "$REPLY" "$cur" ''
  return 0
}

complete -F _svc svc
