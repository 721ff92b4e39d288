#!/usr/bin/env bash
# smpi_baseline.sh — MPI_Bcast baseline for paper 002's multicast experiment, on SimGrid's SMPI.
#
# Builds validation/multicast/smpi/bcast_baseline.c with smpicc, writes a Dragonfly platform
# (the links and routes of tsunagi's Dragonfly, by smpi/dragonfly_platform.py, or SimGrid's own
# DRAGONFLY cluster with --routing simgrid) and a hostfile, runs
# MPI_Bcast over groups of r = 8..256 of 256 worker ranks for several SMPI bcast algorithms, and
# writes one CSV of 10 % trimmed means. See validation/multicast/smpi/README.md, and --help.
#
# Nothing is written into the source tree: the program, platform and hostfile go to the build
# directory, the CSVs and logs to the output directory.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
SOURCE="$SCRIPT_DIR/smpi/bcast_baseline.c"
PLATFORM_WRITER="$SCRIPT_DIR/smpi/dragonfly_platform.py"

# ---- defaults: the figures of scenarios/papers/xc30-256.toml and xc30-256-multigroup.toml ------
BUILD_DIR="$REPO_ROOT/build/smpi-baseline"
OUT_DIR=""                      # default: $BUILD_DIR/results
PLATFORM="single"
TOPO=""                         # default: from --platform
ROUTING="tsunagi"
LINK_BW="5.25GBps"
LINK_LAT="100ns"
HOST_SPEED="1Gf"
LOOPBACK_BW="20GBps"
LOOPBACK_LAT="10ns"
WORKERS=256
MODEL="CM02"
REPEATS=10
SIZES="81920,8388608"
R_LIST="8,16,32,64,128,256"
ALGORITHMS="binomial_tree,scatter_rdb_allgather,scatter_LR_allgather"
CHANGING_ALGORITHMS=""          # default: the same list as ALGORITHMS
BUFFERS="auto"
MEASURE=0
BENCHMARK=0
KEEP_GOING=0
RUN_TIMEOUT=0                   # seconds per smpirun, 0 = none

# Every MPI_Bcast algorithm SimGrid 3.32's SMPI has (--cfg=smpi/bcast:help), but "automatic"
# (which runs all of them inside one call) and "default" (= mpich's selector, listed as mpich).
readonly ALL_ALGORITHMS="binomial_tree,flattree,flattree_pipeline,NTSB,NTSL,NTSL_Isend,\
ompi_pipeline,ompi_split_bintree,ompi,mpich,impi,mvapich2,mvapich2_inter_node,\
mvapich2_intra_node,mvapich2_knomial_intra_node,SMP_binary,SMP_binomial,SMP_linear,\
arrival_pattern_aware,arrival_pattern_aware_wait,arrival_scatter,scatter_LR_allgather,\
scatter_rdb_allgather"

readonly TOPO_SINGLE="1,1;6,3;16,1;4"   # one Aries group: 6 chassis x 16 routers x 4 nodes = 384
readonly TOPO_MULTI="2,4;3,3;16,1;4"    # two groups of 3 chassis = 384 nodes: workers 0-191 in
                                        # group 0, 192-255 in group 1, so traffic crosses blue links

usage() {
  cat <<EOF
usage: $(basename "$0") [options]

Runs MPI_Bcast (SimGrid SMPI, simulated time) over groups of r members of W worker ranks, member i
being worker (W/r)*i as in paper 002, and writes OUT/smpi_bcast.csv:
  algorithm,mode,r,bytes,time_s,runs     (time_s = 10 % trimmed mean over 'runs' repeats)
mode "static": communicator made before timing, time = MPI_Bcast until the last member has the data;
mode "changing": MPI_Comm_create_group + MPI_Bcast timed together, MPI_Comm_free after;
mode "create_group": the MPI_Comm_create_group part of "changing" alone.

Where things go:
  --build-dir DIR     program, platform and hostfile (default: build/smpi-baseline, made if missing)
  --out DIR           CSVs, raw per-run CSVs and logs (default: BUILD_DIR/results)

What is run:
  --algorithms LIST   SMPI bcast algorithms for static mode, comma separated
                      (default: $ALGORITHMS); "all" = every one SimGrid 3.32 has:
                      $ALL_ALGORITHMS
  --changing-algorithms LIST
                      algorithms for changing mode (default: same as --algorithms; "none" skips)
  --sizes LIST        message sizes in bytes (default: $SIZES)
  --r-list LIST       group sizes (default: $R_LIST)
  --repeats N         timed repeats per point (default: $REPEATS). SMPI is deterministic: on an
                      idle simulated network every repeat gives the same time, so repeats only
                      confirm that (the 10 % trimmed mean is still computed as in the paper).
  --workers W         worker ranks, one per node on nodes 0..W-1 (default: $WORKERS)
  --buffers KIND      auto | shared | real (default auto: real, checksummed buffers up to 1 MiB,
                      SMPI_SHARED_MALLOC above; 'real' at 8 MB needs ~2 GB of memory)

Platform (SimGrid cluster topology="DRAGONFLY"; nodes are nid0, nid1, ...):
  --platform single|multi
                      single = $TOPO_SINGLE (one group, 384 nodes; default), as
                               scenarios/papers/xc30-256.toml
                      multi  = $TOPO_MULTI (two groups of 192 nodes; traffic crosses the
                               blue links), as scenarios/papers/xc30-256-multigroup.toml
  --topo STRING       any topo_parameters string, overrides --platform
  --routing tsunagi|simgrid
                      tsunagi (default): explicit routes written by smpi/dragonfly_platform.py, the
                      same links as tsunagi's SimGrid and ns-3 Dragonfly; simgrid: SimGrid 3.32's
                      own <cluster topology="DRAGONFLY">, whose routes inside a group are wrong
                      when they start outside chassis 0 (docs/simgrid.md, "Dragonfly")
  --bw BW             every link's bandwidth (default $LINK_BW)
  --lat LAT           every link's latency (default $LINK_LAT)
  --speed SPEED       host speed (default $HOST_SPEED; unused: computation is not simulated)
  --loopback-bw BW    (default $LOOPBACK_BW)     --loopback-lat LAT  (default $LOOPBACK_LAT)

Network model:
  --model CM02|SMPI   CM02 (default) = tsunagi's SimGrid default: flow model, latency and bandwidth
                      factors 1, weight-S 0, no cross-traffic. SMPI = SimGrid's MPI model with its
                      own defaults (piecewise smpi/bw-factor and smpi/lat-factor, cross-traffic on),
                      to show the difference.

Measurement of the simulator itself:
  --measure           wrap each smpirun in /usr/bin/time -v (package: time) and write
                      OUT/smpi_measure.csv: wall seconds, user/sys seconds, peak RSS, peak PSS
  --benchmark         the benchmark "256 ranks, 100 multicasts of 8 MB": exactly 100 repeats of
                      r=256, 8388608 B, static mode, binomial_tree and scatter_LR_allgather;
                      implies --measure (other run options except --buffers/--model/--platform
                      are ignored)
  --keep-going        a run that fails or times out is listed in OUT/failed.txt and skipped
                      (some SMPI algorithms abort on some platforms); without it the script stops
  --timeout SECONDS   wall-clock limit per smpirun (default: none)
  -h, --help          this text

Progress goes to stderr. Exit status is non-zero if smpicc/smpirun (package libsimgrid-dev) is
missing, a build or run fails, or a run delivers wrong data.
EOF
}

log() { printf '[smpi_baseline] %s\n' "$*" >&2; }
die() { printf '[smpi_baseline] error: %s\n' "$*" >&2; exit 1; }

parse_args() {
  local value_options=" --build-dir --out --platform --topo --routing --bw --lat --speed --loopback-bw"
  value_options+=" --loopback-lat --workers --model --repeats --sizes --r-list --algorithms"
  value_options+=" --changing-algorithms --buffers --timeout "
  while [[ $# -gt 0 ]]; do
    case "$1" in
      -h|--help) usage; exit 0 ;;
      --measure) MEASURE=1; shift; continue ;;
      --benchmark) BENCHMARK=1; MEASURE=1; shift; continue ;;
      --keep-going) KEEP_GOING=1; shift; continue ;;
    esac
    [[ "$value_options" == *" $1 "* ]] || die "unknown option $1 (see --help)"
    [[ $# -ge 2 ]] || die "option $1 needs a value (see --help)"
    case "$1" in
      --build-dir) BUILD_DIR="$2" ;;
      --out) OUT_DIR="$2" ;;
      --platform) PLATFORM="$2" ;;
      --topo) TOPO="$2" ;;
      --routing) ROUTING="$2" ;;
      --bw) LINK_BW="$2" ;;
      --lat) LINK_LAT="$2" ;;
      --speed) HOST_SPEED="$2" ;;
      --loopback-bw) LOOPBACK_BW="$2" ;;
      --loopback-lat) LOOPBACK_LAT="$2" ;;
      --workers) WORKERS="$2" ;;
      --model) MODEL="$2" ;;
      --repeats) REPEATS="$2" ;;
      --sizes) SIZES="$2" ;;
      --r-list) R_LIST="$2" ;;
      --algorithms) ALGORITHMS="$2" ;;
      --changing-algorithms) CHANGING_ALGORITHMS="$2" ;;
      --buffers) BUFFERS="$2" ;;
      --timeout) RUN_TIMEOUT="$2" ;;
    esac
    shift 2
  done
}

check_args() {
  case "$PLATFORM" in
    single) : "${TOPO:=$TOPO_SINGLE}" ;;
    multi) : "${TOPO:=$TOPO_MULTI}" ;;
    *) die "--platform must be single or multi, not '$PLATFORM'" ;;
  esac
  case "$ROUTING" in tsunagi|simgrid) ;; *) die "--routing must be tsunagi or simgrid" ;; esac
  case "$MODEL" in CM02|SMPI) ;; *) die "--model must be CM02 or SMPI, not '$MODEL'" ;; esac
  case "$BUFFERS" in auto|shared|real) ;; *) die "--buffers must be auto, shared or real" ;; esac
  [[ "$REPEATS" =~ ^[1-9][0-9]*$ ]] || die "--repeats must be a positive integer"
  [[ "$WORKERS" =~ ^[1-9][0-9]*$ ]] || die "--workers must be a positive integer"
  [[ "$RUN_TIMEOUT" =~ ^[0-9]+$ ]] || die "--timeout must be a number of seconds"
  [[ "$ALGORITHMS" == "all" ]] && ALGORITHMS="$ALL_ALGORITHMS"
  [[ "$CHANGING_ALGORITHMS" == "all" ]] && CHANGING_ALGORITHMS="$ALL_ALGORITHMS"
  [[ -n "$CHANGING_ALGORITHMS" ]] || CHANGING_ALGORITHMS="$ALGORITHMS"
  [[ "$CHANGING_ALGORITHMS" == "none" ]] && CHANGING_ALGORITHMS=""
  if [[ $BENCHMARK -eq 1 ]]; then
    REPEATS=100
    SIZES="8388608"
    R_LIST="256"
    ALGORITHMS="binomial_tree,scatter_LR_allgather"
    CHANGING_ALGORITHMS=""
  fi
  : "${OUT_DIR:=$BUILD_DIR/results}"
  local nodes
  nodes=$(topo_nodes "$TOPO") || die "bad topo_parameters '$TOPO' (want G,g;C,c;R,r;N)"
  [[ "$WORKERS" -le "$nodes" ]] || die "--workers $WORKERS exceeds the platform's $nodes nodes"
}

check_tools() {
  command -v smpicc >/dev/null || die "smpicc not found: install Debian package libsimgrid-dev"
  command -v smpirun >/dev/null || die "smpirun not found: install Debian package libsimgrid-dev"
  if [[ $MEASURE -eq 1 && ! -x /usr/bin/time ]]; then
    die "/usr/bin/time not found (needed by --measure): install Debian package time"
  fi
  [[ -f "$SOURCE" ]] || die "missing source $SOURCE"
  [[ "$ROUTING" == "simgrid" ]] || command -v python3 >/dev/null ||
    die "python3 not found (needed to write the --routing tsunagi platform)"
}

# ---- platform ---------------------------------------------------------------------------------

# Number of nodes of a Dragonfly "G,g;C,c;R,r;N": groups x chassis x routers x nodes per router.
topo_nodes() {
  local g c r n
  IFS=';' read -r g c r n <<<"$1"
  [[ "$g" =~ ^[0-9]+,[0-9]+$ && "$c" =~ ^[0-9]+,[0-9]+$ && "$r" =~ ^[0-9]+,[0-9]+$ &&
     "$n" =~ ^[0-9]+$ ]] || return 1
  echo $(( ${g%,*} * ${c%,*} * ${r%,*} * n ))
}

# The Dragonfly platform. Every link (node-router, green, black, blue) has the same bandwidth
# and latency; k parallel links are one link of k times the bandwidth; links are SPLITDUPLEX
# (each direction has the full bandwidth); routing is static and minimal. Nodes are nid<i>,
# numbered as SimGrid and tsunagi number them (router by router).
write_platform() {
  local file="$1"
  if [[ "$ROUTING" == "tsunagi" ]]; then
    python3 "$PLATFORM_WRITER" "$TOPO" "$LINK_BW" "$LINK_LAT" "$HOST_SPEED" "$LOOPBACK_BW" \
      "$LOOPBACK_LAT" "$file" >/dev/null || die "could not write the platform"
  else
    write_simgrid_zone_platform "$file"
  fi
}

# SimGrid's own zone in one cluster tag (its routing as SimGrid 3.32 computes it).
write_simgrid_zone_platform() {
  local file="$1" nodes
  nodes=$(topo_nodes "$TOPO")
  cat >"$file" <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- Generated by validation/multicast/smpi_baseline.sh: Cray XC30-like Dragonfly (Aries), SimGrid's
     DragonflyZone. topo_parameters "$TOPO" = groups,global-links ; chassis,black-links ;
     routers,green-links ; nodes-per-router; $nodes nodes nid0..nid$((nodes - 1)). -->
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="xc30" prefix="nid" suffix="" radical="0-$((nodes - 1))" speed="$HOST_SPEED"
             bw="$LINK_BW" lat="$LINK_LAT" topology="DRAGONFLY" topo_parameters="$TOPO"
             sharing_policy="SPLITDUPLEX" loopback_bw="$LOOPBACK_BW" loopback_lat="$LOOPBACK_LAT"/>
  </zone>
</platform>
EOF
}

# Worker w runs on node w: one rank per node, nodes 0..W-1.
write_hostfile() {
  local file="$1"
  : >"$file"
  for ((w = 0; w < WORKERS; w++)); do echo "nid$w" >>"$file"; done
}

# ---- SimGrid configuration --------------------------------------------------------------------

# Printed one per line so callers can read them into an array.
simgrid_config() {
  local algorithm="$1"
  if [[ "$MODEL" == "CM02" ]]; then
    # Exactly what tsunagi's SimGrid backend sets (sim/simgrid/src/engine_setup.cpp).
    printf '%s\n' --cfg=network/model:CM02 --cfg=network/latency-factor:1 \
      --cfg=network/bandwidth-factor:1 --cfg=network/weight-S:0 --cfg=network/crosstraffic:0 \
      --cfg=network/TCP-gamma:4194304
  else
    printf '%s\n' --cfg=network/model:SMPI
  fi
  # Only communication takes simulated time: the program's own code (buffer fill, checksums)
  # is not benchmarked and injected, and MPI_Wtime adds no 10 ns of its own.
  printf '%s\n' --cfg=smpi/simulate-computation:no --cfg=smpi/wtime:0 --cfg=surf/precision:1e-9 \
    "--cfg=smpi/bcast:$algorithm" --log=root.thres:warning
}

# ---- runs -------------------------------------------------------------------------------------

MEASURE_CSV=""
RUN_INDEX=0
RUN_TOTAL=0

# Peak proportional set size (kB) of the smpimain process below PID, sampled every 0.2 s until
# PID exits. RSS counts SMPI_SHARED_MALLOC's one shared 1 MiB block once per mapping (all 256
# ranks' 8 MB buffers map it with MAP_POPULATE), so it reports ~2 GB where the machine spends
# ~30 MB; PSS counts each physical page once.
sample_peak_pss() {
  local pid="$1" out="$2" peak=0 child grandchild value
  while kill -0 "$pid" 2>/dev/null; do
    for child in $(pgrep -P "$pid" || true); do
      for grandchild in $(pgrep -P "$child" || true) "$child"; do
        [[ "$(cat "/proc/$grandchild/comm" 2>/dev/null)" == "smpimain" ]] || continue
        value=$(awk '/^Pss:/ {print $2}' "/proc/$grandchild/smaps_rollup" 2>/dev/null || true)
        [[ -n "$value" && "$value" -gt "$peak" ]] && peak="$value"
      done
    done
    sleep 0.2
  done
  echo "$peak" >"$out"
}

# "h:mm:ss" or "m:ss.ss" from time -v, in seconds.
elapsed_seconds() {
  awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f\n", s }' <<<"$1"
}

record_measure() {
  local timefile="$1" pssfile="$2" algorithm="$3" mode="$4" bytes="$5"
  local wall user sys rss pss
  wall=$(elapsed_seconds "$(sed -n 's/.*Elapsed (wall clock) time.*): //p' "$timefile")")
  user=$(sed -n 's/.*User time (seconds): //p' "$timefile")
  sys=$(sed -n 's/.*System time (seconds): //p' "$timefile")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$timefile")
  pss=$(cat "$pssfile")
  # The group sizes are ';'-separated so the row stays plain CSV.
  echo "$algorithm,$mode,${R_LIST//,/;},$bytes,$REPEATS,$WORKERS,$BUFFERS,$wall,$user,$sys,$rss,$pss" \
    >>"$MEASURE_CSV"
}

# One smpirun: all group sizes of one (algorithm, mode, size). Raw CSV and log under OUT.
run_one() {
  local algorithm="$1" mode="$2" bytes="$3"
  local tag="$algorithm-$mode-$bytes"
  local raw="$OUT_DIR/raw/$tag.csv" logfile="$OUT_DIR/logs/$tag.log"
  local -a cfg cmd
  mapfile -t cfg < <(simgrid_config "$algorithm")
  cmd=()
  [[ "$RUN_TIMEOUT" -gt 0 ]] && cmd=(timeout -k 10 "$RUN_TIMEOUT")
  cmd+=(smpirun -np "$WORKERS" -platform "$BUILD_DIR/platform.xml" -hostfile "$BUILD_DIR/hostfile"
       "${cfg[@]}" "$BUILD_DIR/bcast_baseline" -s "$bytes" -n "$REPEATS" -m "$mode"
       -a "$algorithm" -r "$R_LIST" -w "$WORKERS" -b "$BUFFERS")
  RUN_INDEX=$((RUN_INDEX + 1))
  log "($RUN_INDEX/$RUN_TOTAL) $algorithm $mode $bytes B, r=$R_LIST, $REPEATS repeats ..."
  echo "${cmd[*]}" >>"$OUT_DIR/commands.txt"

  local start status=0
  start=$(date +%s.%N)
  if [[ $MEASURE -eq 1 ]]; then
    local timefile="$OUT_DIR/logs/$tag.time" pssfile="$OUT_DIR/logs/$tag.pss" pid
    /usr/bin/time -v -o "$timefile" "${cmd[@]}" >"$raw" 2>"$logfile" &
    pid=$!
    sample_peak_pss "$pid" "$pssfile" &
    wait "$pid" || status=$?
    wait  # the sampler
    [[ $status -eq 0 ]] && record_measure "$timefile" "$pssfile" "$algorithm" "$mode" "$bytes"
  else
    "${cmd[@]}" >"$raw" 2>"$logfile" || status=$?
  fi
  if [[ $status -ne 0 ]]; then
    tail -n 15 "$logfile" >&2
    [[ $KEEP_GOING -eq 1 ]] || die "run $tag failed (exit $status); log: $logfile"
    log "    run $tag failed (exit $status, 124 = timed out); skipped"
    echo "$tag,exit $status" >>"$OUT_DIR/failed.txt"
    rm -f "$raw"
    return 0
  fi
  log "    done in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
}

# smpi_bcast.csv from the raw CSVs: the program's trimmed-mean rows with the number of repeats,
# ordered by size, mode (static, changing, create_group), algorithm as given, then r.
write_summary() {
  local summary="$OUT_DIR/smpi_bcast.csv"
  echo "algorithm,mode,r,bytes,time_s,runs" >"$summary"
  awk -F, -v algorithms="$ALGORITHMS,$CHANGING_ALGORITHMS" '
    BEGIN {
      split("static,changing,create_group", modes, ",")
      for (i in modes) mode_rank[modes[i]] = i
      n_alg = split(algorithms, algs, ",")
      for (i = n_alg; i >= 1; i--) alg_rank[algs[i]] = i   # first mention wins
    }
    FNR == 1 { next }                                   # each raw file has its own header
    $5 == "trimmed_mean" { key = $1 "," $2 "," $3 "," $4; mean[key] = $6; keys[key] = 1; next }
    { runs[$1 "," $2 "," $3 "," $4]++ }
    END {
      for (key in keys) {
        split(key, f, ",")
        printf "%012d %d %03d %06d %s,%s,%d\n", f[4], mode_rank[f[2]], alg_rank[f[1]], f[3],
               key, mean[key], runs[key]
      }
    }
  ' "$OUT_DIR"/raw/*.csv | sort | cut -d' ' -f5- >>"$summary"
  log "wrote $summary"
}

write_run_info() {
  {
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "simgrid: $(smpirun -version 2>/dev/null | head -n 1)"
    echo "platform: $PLATFORM topo_parameters=$TOPO routing=$ROUTING bw=$LINK_BW lat=$LINK_LAT" \
         "loopback_bw=$LOOPBACK_BW loopback_lat=$LOOPBACK_LAT speed=$HOST_SPEED"
    echo "model: $MODEL; workers: $WORKERS; repeats: $REPEATS; buffers: $BUFFERS"
    echo "script: $0 $ORIGINAL_ARGS"
  } >"$OUT_DIR/run_info.txt"
}

build_program() {
  log "building $BUILD_DIR/bcast_baseline with smpicc"
  smpicc -O2 -Wall -o "$BUILD_DIR/bcast_baseline" "$SOURCE" 2>"$BUILD_DIR/build.log" ||
    { cat "$BUILD_DIR/build.log" >&2; die "smpicc failed"; }
}

main() {
  ORIGINAL_ARGS="$*"
  parse_args "$@"
  check_args
  check_tools

  mkdir -p "$BUILD_DIR" "$OUT_DIR/raw" "$OUT_DIR/logs"
  BUILD_DIR="$(cd "$BUILD_DIR" && pwd)"
  OUT_DIR="$(cd "$OUT_DIR" && pwd)"
  rm -f "$OUT_DIR"/raw/*.csv "$OUT_DIR/commands.txt" "$OUT_DIR/failed.txt"
  build_program
  write_platform "$BUILD_DIR/platform.xml"
  write_hostfile "$BUILD_DIR/hostfile"
  write_run_info
  if [[ $MEASURE -eq 1 ]]; then
    MEASURE_CSV="$OUT_DIR/smpi_measure.csv"
    echo "algorithm,mode,r_list,bytes,repeats,ranks,buffers,wall_s,user_s,sys_s,max_rss_kb,peak_pss_kb" \
      >"$MEASURE_CSV"
  fi

  local -a sizes algorithms changing
  IFS=',' read -r -a sizes <<<"$SIZES"
  IFS=',' read -r -a algorithms <<<"$ALGORITHMS"
  IFS=',' read -r -a changing <<<"$CHANGING_ALGORITHMS"
  RUN_TOTAL=$(( ${#sizes[@]} * (${#algorithms[@]} + ${#changing[@]}) ))
  log "platform $PLATFORM ($TOPO, $ROUTING routes), model $MODEL, $WORKERS workers, $RUN_TOTAL smpirun runs"

  local start bytes algorithm
  start=$(date +%s)
  for bytes in "${sizes[@]}"; do
    for algorithm in "${algorithms[@]}"; do run_one "$algorithm" static "$bytes"; done
    for algorithm in "${changing[@]}"; do run_one "$algorithm" changing "$bytes"; done
  done
  write_summary
  [[ $MEASURE -eq 1 ]] && log "wrote $MEASURE_CSV"
  log "all runs done in $(( $(date +%s) - start )) s"
}

main "$@"
