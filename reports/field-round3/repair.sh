#!/bin/bash
# Repair round (issue 44): the shipped L3 (nash-<P>p.toml) did not pass `moaisim certify`
# at epsilon 0.03, so a population loop starts again from its members and the library, with
# certify's CMA-ES challengers as starts and every CMA-ES run of that certify run and every
# known challenger file absorbed. The certify runs that made out/cert/<P>p first:
#   moaisim certify strategies/moai/weights/nash-<P>p.toml --out out/cert/<P>p -j 2 --epsilon 0.03 --seed 4401 --record
# Usage: reports/field-round3/repair.sh 3 4 5   (player counts)
cd "$(dirname "$0")/../.."  # the checkout
W=strategies/moai/weights
C=reports/field-round3/challengers
mkdir -p out/repair
for P in "$@"; do
  MEMBERS=$(ls $W/l3-${P}p-r3-*.toml | xargs -n1 basename | sed "s/.*/heuristic(shipped='&')/" | paste -sd,)
  case $P in
    2|4) LIB="$MEMBERS,tuned,forester,moai,fisher,greedy" ;;
    *) LIB="$MEMBERS,tuned,forester,moai,fisher" ;;
  esac
  .venv/bin/moaisim tune --population -p $P --library "$LIB" \
    --start $C/${P}p-cma.toml --start $C/${P}p-deviations.toml \
    --absorb "$C/*.toml" --absorb "out/cert/${P}p/cma/*/*.toml" \
    --iterations 5 --meta-games 100 --games 100 --generations 12 --held-out-games 400 \
    --epsilon 0.03 --seed 2051 --jobs 2 --out out/repair/${P}p > out/repair/${P}p.log 2>&1
  echo "$P rc=$? $(date)" >> out/repair/status
done
