#!/bin/bash
# The 5-player repair loop (issue 44, 2026-12-04 evening): the 5-player L3 of 2026-12-04
# lost +0.126 to the 4-player member l3-4p-r3-3.toml, which its loop had absorbed before the
# 4-player loop made it. A population loop starts again from L3's members, that file and
# the library, with the round's 5-player challengers and that file as CMA-ES starts and every
# known challenger file and shipped l3-*/tuned* weights file absorbed.
# Usage: reports/field-round3/repair5.sh   (run from anywhere; writes out/repair/5p)
cd "$(dirname "$0")/../.."  # the checkout
W=strategies/moai/weights
C=reports/field-round3/challengers
mkdir -p out/repair
MEMBERS=$(ls $W/l3-5p-r3-*.toml $W/l3-4p-r3-3.toml | xargs -n1 basename | sed "s/.*/heuristic(shipped='&')/" | paste -sd,)
.venv/bin/moaisim tune --population -p 5 --library "$MEMBERS,tuned,forester,moai,fisher" \
  --start $C/5p-cma.toml --start $C/5p-deviations.toml --start $W/l3-4p-r3-3.toml \
  --absorb 'reports/*/challengers/*.toml' --absorb "$W/l3-*.toml" --absorb "$W/tuned*.toml" \
  --iterations 4 --meta-games 100 --games 100 --generations 12 --held-out-games 400 \
  --epsilon 0.03 --seed 2052 --jobs 2 --out out/repair/5p > out/repair/5p.log 2>&1
