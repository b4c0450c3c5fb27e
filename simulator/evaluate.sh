#!/usr/bin/env bash
# The evaluation of docs/evaluation.md: every policy on philly_dev_slice_2000.csv, on 2x12x8 (heavy load) and
# 2x16x8 (moderate), in both fidelity modes. Results (CSV, summaries, HTML reports, comparison tables) go under
# OUT (default eval-out), one directory per cluster and mode.
#   simulator/evaluate.sh [OUT] [TRACE]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-eval-out}
trace=${2:-$here/../shared/traces/philly_dev_slice_2000.csv}
policies=fifo,srtf-oracle,tiresias-las,tiresias-gittins,gandiva,quanta
for cluster in 2x12x8 2x16x8; do
  for model in tiresias-compatible realistic; do
    echo "== $cluster $model" >&2
    "$here/simulator/simulate.sh" --trace "$trace" --cluster "$cluster" --model "$model" --seed 1 \
      --compare "$policies" --out "$out/$cluster-$model" --no-progress
  done
done
