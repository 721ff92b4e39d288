#!/usr/bin/env bash
# Remakes the repository's generated pictures. Every one of them lives in docs/figures/ and
# nowhere else (docs/figures/README.md; ctest docs:figures keeps it so), and this is the one
# command that draws them again from their runs:
#   tools/figures.sh --list         one line per figure: NAME, then what remakes it
#   tools/figures.sh [NAME...]      remake these (default: every figure) into docs/figures/
#   tools/figures.sh --build DIR    the build whose tsunagi runs them (default: build)
# A figure comes from simulated runs (SimGrid, ns-3), from real sockets in network namespaces
# (fig910.png: root and tools/install-deps.sh's iproute2), from SimGrid SMPI (fig8_fig9_*:
# smpicc) or from headless Chromium's screenshot of a run's report (the report screens). The
# drivers' committed CSVs are rewritten with their figures (validation/README.md). Costs go
# from seconds (fig4_rtt.png) to tens of minutes (fig5_intsort.png, the report of 10,000 ranks).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=build
names=()
list=0
while [ $# -gt 0 ]; do
  case "$1" in
    --list) list=1; shift ;;
    --build) build=$2; shift 2 ;;
    -h|--help) sed -n 2,12p "$0"; exit 0 ;;
    *) names+=("$1"); shift ;;
  esac
done
case $build in /*) ;; *) build=$src/$build ;; esac
figures=$src/docs/figures
py=/usr/bin/python3

# NAME|what remakes it (a shell line run from the source tree; $build, $scratch and $figures are
# set). Drivers with --update write their PNG into docs/figures/ themselves (validation/common.py).
recipes=(
  "fig4_rtt.png|$py validation/kaneda/fig4_rtt.py --update"
  "fig5_intsort.png|$py validation/kaneda/fig5_intsort.py --update -j 2"
  "fig8_fig9_single.png|$py validation/multicast/fig8_fig9.py --platform single --update"
  "fig8_fig9_multi.png|$py validation/multicast/fig8_fig9.py --platform multi --update"
  "concurrent_connect.png|$py validation/ssock/concurrent_connect.py --update"
  "connectivity.png|$py validation/ssock/connectivity_matrix.py --update"
  "pingpong.png|$py validation/ssock/pingpong.py --update"
  "fig34_supersinet.png|$py validation/supersinet/table5.py --backends simgrid,ns3 --update"
  "ablation.png|cmake --build \$build --target lmmc_ablation && \$build/validation/lmmc/lmmc_ablation \$scratch/ablation.csv && $py validation/lmmc/plot_ablation.py \$scratch/ablation.csv \$figures/ablation.png"
  "ablation-sim.png|$py validation/lmmc/sim_ablation.py --build \$build --out \$scratch -j 2 && cp \$scratch/ablation-sim.csv validation/lmmc/ && cp \$scratch/ablation-sim.png \$figures/"
  "fig910.png|$py validation/lmmc/fig910.py --build \$build --out \$scratch --repeats 20 --copies 8 && cp \$scratch/fig910.csv validation/lmmc/ && cp \$scratch/fig910.png \$figures/"
  "two-switches-timeline.png|\$build/app/tsunagi run scenarios/teaching/two-switches.toml --out \$scratch/run --quiet --report && tools/report_screenshots.sh \$scratch/run two-switches timeline"
  "kaneda-112-timeline.png|\$build/app/tsunagi run scenarios/papers/kaneda-112.toml --out \$scratch/run --quiet --report && tools/report_screenshots.sh \$scratch/run kaneda-112 timeline"
  "kaneda-112-overlay.png|\$build/app/tsunagi run scenarios/papers/kaneda-112.toml --out \$scratch/run --quiet --report && tools/report_screenshots.sh \$scratch/run kaneda-112 overlay"
  "switched-10k-timeline.png|\$build/app/tsunagi run scenarios/bench/switched-100k.toml --set network.tree.levels.1.fanout=25 --out \$scratch/run --quiet --report && tools/report_screenshots.sh \$scratch/run switched-10k timeline"
  "switched-10k-overlay.png|\$build/app/tsunagi run scenarios/bench/switched-100k.toml --set network.tree.levels.1.fanout=25 --out \$scratch/run --quiet --report && tools/report_screenshots.sh \$scratch/run switched-10k overlay"
)

if [ $list -eq 1 ]; then
  for r in "${recipes[@]}"; do printf '%s\t%s\n' "${r%%|*}" "${r#*|}"; done
  exit 0
fi
if [ ${#names[@]} -eq 0 ]; then
  for r in "${recipes[@]}"; do names+=("${r%%|*}"); done
fi
cd "$src"
export TSUNAGI=$build/app/tsunagi  # the drivers' tsunagi (validation/common.py)
for name in "${names[@]}"; do
  recipe=
  for r in "${recipes[@]}"; do [ "${r%%|*}" = "$name" ] && recipe=${r#*|}; done
  [ -n "$recipe" ] || { echo "figures.sh: no figure $name (tools/figures.sh --list)" >&2; exit 2; }
  scratch=$(mktemp -d)
  echo "figures.sh: $name: $recipe" >&2
  build=$build scratch=$scratch figures=$figures bash -euo pipefail -c "$recipe"
  rm -rf "$scratch"
  [ -s "$figures/$name" ] || { echo "figures.sh: $name was not written" >&2; exit 1; }
done
