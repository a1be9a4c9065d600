#!/bin/bash
# Population round 3 (issue 44): absorb every known challenger, 2-5 players.
cd "$(dirname "$0")/../.."  # the checkout
W=strategies/moai/weights
for P in 4 5 2 3; do
  case $P in
    2) LIB="tuned,forester,moai,fisher,greedy" ;;
    3) LIB="tuned,heuristic(shipped='l3-3p-br3.toml'),heuristic(shipped='l3-3p-br1.toml'),forester,moai,fisher" ;;
    4) LIB="tuned,heuristic(shipped='l3-4p-br3.toml'),forester,moai,fisher,greedy" ;;
    5) LIB="tuned,heuristic(shipped='l3-5p-br1.toml'),heuristic(shipped='l3-5p-br2.toml'),forester,moai,fisher" ;;
  esac
  .venv/bin/moaisim tune --population -p $P --library "$LIB" \
    --start $W/tuned-${P}p.toml --start reports/field-seed7026/challengers/${P}p-cma.toml --start $W/tuned-3p.toml \
    --absorb 'reports/*/challengers/*.toml' --absorb "$W/*.toml" \
    --iterations 6 --meta-games 100 --games 100 --generations 12 --held-out-games 400 \
    --epsilon 0.03 --seed 2031 --jobs 2 --out out/population3/${P}p > out/population3/${P}p.log 2>&1
  echo "$P done rc=$?" >> out/population3/status
done
