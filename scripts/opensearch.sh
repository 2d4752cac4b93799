#!/usr/bin/env bash
# Run a local OpenSearch 2.19.6 for recall's archive (`recall push`, `recall remote`) and its tests.
#
# The engine comes from Maven Central once, into <repo>/.cache/opensearch/ (as root:
# /var/cache/recall-opensearch/, which the engine's user can reach): the integ-test zip
# (the engine without plugins) and the analysis-common module (asciifolding, cjk_bigram), which
# that zip lacks. It listens on 127.0.0.1 only, on free ports, runs as the user `recall-os` when
# started by root (OpenSearch refuses root), with a 512 MB heap, and is stopped by its pid.
#
# Usage:
#   scripts/opensearch.sh start  [--dir DIR] [--nodes 1|2] [--setting KEY=VALUE]...
#                                 prints the URL once the cluster is healthy; a start of a
#                                 running DIR prints its URL again
#   scripts/opensearch.sh status [--dir DIR]   prints the URL; exit 1 when not running
#   scripts/opensearch.sh stop   [--dir DIR]   stops every node of DIR
#   scripts/opensearch.sh fetch                 only downloads and unpacks
#
# DIR holds the nodes' data, logs, configuration and pids (default .cache/opensearch/run).
# Environment: RECALL_OPENSEARCH_CACHE overrides the cache folder.
set -euo pipefail

VERSION="2.19.6"
RUN_AS="recall-os"
HEAP="-Xms512m -Xmx512m"
HEALTH_WAIT_SECONDS=180

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# As root the engine runs as another user, who may not reach into the checkout (a clone in a private
# folder): its cache is then a system folder open to that user.
if [ "$(id -u)" = 0 ]; then default_cache="/var/cache/recall-opensearch"; else default_cache="$repo_root/.cache/opensearch"; fi
cache="${RECALL_OPENSEARCH_CACHE:-$default_cache}"
home="$cache/opensearch-$VERSION"

die() { echo "opensearch.sh: $*" >&2; exit 2; }

command="${1:-}"
[ $# -gt 0 ] && shift
dir="$cache/run"
nodes=1
settings=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="${2:?--dir needs a folder}"; shift 2 ;;
    --nodes) nodes="${2:?--nodes needs 1 or 2}"; shift 2 ;;
    --setting) settings+=("-E" "${2:?--setting needs KEY=VALUE}"); shift 2 ;;
    *) die "unknown argument: $1" ;;
  esac
done
case "$nodes" in 1|2) ;; *) die "--nodes is 1 or 2, not $nodes" ;; esac

# Maven, quiet and without colours; Maven 3.8 still writes ESC[0m around what it prints, taken out here.
mvn_quiet() {
  { mvn -q --batch-mode -Dstyle.color=never "$@" 2>&1 1>&3 3>&- | sed 's/\x1b\[[0-9;]*m//g' >&2; } 3>&1 | sed 's/\x1b\[[0-9;]*m//g'
}

# The folder being unpacked into, removed however the script ends.
unpack=""
trap '[ -z "$unpack" ] || rm -rf "$unpack"' EXIT

# Downloads the engine and the module through Maven once, and unpacks them into the cache.
fetch() {
  [ -x "$home/bin/opensearch" ] && [ -f "$home/modules/analysis-common/plugin-descriptor.properties" ] && return 0
  command -v mvn >/dev/null 2>&1 || die "Maven (mvn) is needed to fetch OpenSearch"
  # Maven's own repository: under its user.home (the account's home, whatever HOME says), or where settings.xml puts it.
  local repository="${MAVEN_REPOSITORY:-}"
  if [ -z "$repository" ]; then
    repository="$(mvn_quiet help:evaluate -Dexpression=settings.localRepository -DforceStdout)" || die "Maven could not say where its repository is: $repository"
  fi
  [ -d "$repository" ] || mkdir -p "$repository"
  local m2="$repository/org/opensearch"
  local zip="$m2/distribution/integ-test-zip/opensearch/$VERSION/opensearch-$VERSION.zip"
  local jar="$m2/plugin/analysis-common/$VERSION/analysis-common-$VERSION.jar"
  [ -f "$zip" ] || mvn_quiet dependency:get -Dmaven.repo.local="$repository" -Dartifact="org.opensearch.distribution.integ-test-zip:opensearch:$VERSION:zip" -Dtransitive=false >&2
  [ -f "$jar" ] || mvn_quiet dependency:get -Dmaven.repo.local="$repository" -Dartifact="org.opensearch.plugin:analysis-common:$VERSION" -Dtransitive=false >&2
  [ -f "$zip" ] && [ -f "$jar" ] || die "Maven did not put OpenSearch $VERSION in $repository"
  mkdir -p "$cache" && chmod 755 "$cache"
  unpack="$cache/unpack.$$"
  rm -rf "$unpack" && mkdir -p "$unpack"
  unzip -q "$zip" -d "$unpack" || die "could not unpack $zip (a damaged download? delete it, and fetch again)"
  # A module is a folder holding its jar and its descriptor. Painless is absent, so the module
  # extends nothing (its Painless whitelist is simply not loaded).
  local module="$unpack/opensearch-$VERSION/modules/analysis-common"
  mkdir -p "$module"
  cp "$jar" "$module/"
  cat >"$module/plugin-descriptor.properties" <<EOF
description=Adds "built in" analyzers to OpenSearch.
version=$VERSION
name=analysis-common
classname=org.opensearch.analysis.common.CommonAnalysisPlugin
java.version=11
opensearch.version=$VERSION
custom.foldername=
extended.plugins=
has.native.controller=false
EOF
  rm -rf "$home"
  mv "$unpack/opensearch-$VERSION" "$home"
  rm -rf "$unpack"
  unpack=""
}

# A TCP port nothing listens on now.
free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

pids() {
  local file
  for file in "$dir"/node*/pid; do
    [ -f "$file" ] && echo "$(cat "$file" 2>/dev/null)"
  done
  return 0
}

running() {
  local pid found=1
  for pid in $(pids); do
    kill -0 "$pid" 2>/dev/null && found=0
  done
  return $found
}

healthy() {
  local url
  url="$(cat "$dir/url" 2>/dev/null)" || return 1
  curl -fsS --max-time 5 "$url/_cluster/health?wait_for_nodes=$(cat "$dir/nodes")&wait_for_status=yellow&timeout=1s" >/dev/null 2>&1
}

start() {
  command -v java >/dev/null 2>&1 || die "Java is not installed (OpenSearch $VERSION needs Java 11 or later)"
  mkdir -p "$dir"
  exec 9>"$dir/.lock"
  flock 9
  if running && healthy; then
    cat "$dir/url"
    return 0
  fi
  running && stop_nodes
  fetch
  local user=""
  if [ "$(id -u)" = 0 ]; then
    id -u "$RUN_AS" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$RUN_AS"
    user="$RUN_AS"
    # The nodes' folders are theirs; the way to them must be open to that user.
    chmod 755 "$dir"
  fi
  local java_home
  java_home="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
  local http=() transport=() names=() seeds=() n
  for n in $(seq 1 "$nodes"); do
    http+=("$(free_port)")
    transport+=("$(free_port)")
    names+=("node$n")
    seeds+=("127.0.0.1:${transport[$((n - 1))]}")
  done
  local discovery=("-E" "discovery.type=single-node")
  if [ "$nodes" -gt 1 ]; then
    discovery=("-E" "discovery.seed_hosts=$(IFS=,; echo "${seeds[*]}")" "-E" "cluster.initial_cluster_manager_nodes=$(IFS=,; echo "${names[*]}")")
  fi
  echo "$nodes" >"$dir/nodes"
  echo "http://127.0.0.1:${http[0]}" >"$dir/url"
  for n in $(seq 1 "$nodes"); do
    local node="$dir/node$n"
    rm -rf "$node" && mkdir -p "$node/data" "$node/logs"
    cp -r "$home/config" "$node/config"
    # The JVM's own logs and heap dumps go to the node's folders, not to the working directory.
    sed -i -e "s|=logs/|=$node/logs/|; s|file=logs/|file=$node/logs/|; s|HeapDumpPath=data|HeapDumpPath=$node/data|" "$node/config/jvm.options"
    [ -n "$user" ] && chown -R "$user" "$node"
    local launch=(env OPENSEARCH_JAVA_HOME="$java_home" OPENSEARCH_PATH_CONF="$node/config" OPENSEARCH_JAVA_OPTS="$HEAP"
      "$home/bin/opensearch" -d -p "$node/pid"
      -E cluster.name=recall-archive -E node.name="node$n"
      -E network.host=127.0.0.1 -E http.port="${http[$((n - 1))]}" -E transport.port="${transport[$((n - 1))]}"
      -E path.data="$node/data" -E path.logs="$node/logs"
      -E cluster.routing.allocation.disk.threshold_enabled=false
      "${discovery[@]}" ${settings[@]+"${settings[@]}"})
    # Its output goes to the node's folder: a daemon holding our stdout would keep a caller waiting.
    if [ -n "$user" ]; then launch=(runuser -u "$user" -- "${launch[@]}"); fi
    if ! "${launch[@]}" >"$node/logs/start.out" 2>&1 </dev/null 9>&-; then
      echo "opensearch.sh: node$n did not start:" >&2
      grep -v '^warning: no-jdk' "$node/logs/start.out" | tail -n 5 >&2
      stop_nodes
      exit 2
    fi
  done
  local waited=0
  until healthy; do
    # A node writes its pid file once started: none yet is not a failure.
    if [ $waited -ge $HEALTH_WAIT_SECONDS ] || { [ -n "$(pids)" ] && ! running; }; then
      echo "opensearch.sh: OpenSearch did not become healthy; its log: $dir/node1/logs/recall-archive.log" >&2
      stop_nodes
      exit 2
    fi
    sleep 1
    waited=$((waited + 1))
  done
  cat "$dir/url"
}

stop_nodes() {
  local pid waited stopping
  # Read once: a node deletes its pid file as it shuts down, before it has let go of its files.
  stopping=$(pids)
  for pid in $stopping; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in $stopping; do
    waited=0
    while kill -0 "$pid" 2>/dev/null; do
      if [ $waited -ge 30 ]; then kill -9 "$pid" 2>/dev/null || true; fi
      sleep 1
      waited=$((waited + 1))
    done
  done
  rm -f "$dir"/node*/pid "$dir/url"
}

case "$command" in
  fetch) fetch ;;
  start) start ;;
  status) running && healthy && cat "$dir/url" || { echo "not running" >&2; exit 1; } ;;
  stop) [ -d "$dir" ] && stop_nodes; exit 0 ;;
  -h|--help|"") sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) die "unknown command: $command" ;;
esac
