#!/bin/bash
# The wide repair loop (issue 44, 2026-12-04 evening): a loop's three CMA-ES starts find a
# local best response while certify's forty find the holes, so this population loop starts a
# CMA-ES best response from every shipped weights file and every known challenger of the
# player count at each iteration (certify's starts; 8 generations of 60 games a rotation, as
# certify's), from the shipped L3's members and the library, every known challenger file and
# shipped l3-*/tuned* weights file absorbed.
# Usage: reports/field-round3/wide.sh P ITERATIONS SEED [JOBS]   (writes out/wide/<P>p)
# The 3-player run: wide.sh 3 6 2061 on the files of commit 6539b27 (before l3-3p-r5-* were
# shipped: its members and starts came from the L3 it replaced); stopped during iteration 5,
# iteration 4's mixture kept.
cd "$(dirname "$0")/../.."  # the checkout
P=$1; IT=$2; SEED=$3; JOBS=${4:-2}
W=strategies/moai/weights
MEMBERS=$(grep -o "shipped='[^']*'" $W/nash-${P}p.toml | sed "s/shipped='\(.*\)'/\1/" | sed "s/.*/heuristic(shipped='&')/" | paste -sd,)
case $P in
  2|4) LIB="$MEMBERS,tuned,forester,moai,fisher,greedy" ;;
  *) LIB="$MEMBERS,tuned,forester,moai,fisher" ;;
esac
STARTS=""
for f in $(ls $W/*.toml | grep -v /nash-) $(ls reports/field*/challengers/${P}p-*.toml); do STARTS="$STARTS --start $f"; done
mkdir -p out/wide
.venv/bin/moaisim tune --population -p $P --library "$LIB" $STARTS \
  --absorb 'reports/*/challengers/*.toml' --absorb "$W/l3-*.toml" --absorb "$W/tuned*.toml" \
  --iterations $IT --meta-games 100 --games 60 --generations 8 --held-out-games 800 \
  --epsilon 0.03 --seed $SEED --jobs $JOBS --out out/wide/${P}p > out/wide/${P}p.log 2>&1
