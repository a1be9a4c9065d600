#!/bin/bash
# Population round 3, continued: 3p from the start, then 4p, 2p, 5p resumed with more iterations.
cd "$(dirname "$0")/../.."  # the checkout
W=strategies/moai/weights
run() {
  P=$1; IT=$2; LIB=$3; S3=$4
  .venv/bin/moaisim tune --population -p $P --library "$LIB" \
    --start $W/tuned-${P}p.toml --start reports/field-seed7026/challengers/${P}p-cma.toml --start $S3 \
    --absorb 'reports/*/challengers/*.toml' --absorb "$W/*.toml" \
    --iterations $IT --meta-games 100 --games 100 --generations 12 --held-out-games 400 \
    --epsilon 0.03 --seed 2031 --jobs 1 --out out/population3/${P}p >> out/population3/${P}p.log 2>&1
  echo "$P it$IT rc=$?" >> out/population3/status
}
run 3 6 "tuned,heuristic(shipped='l3-3p-br3.toml'),heuristic(shipped='l3-3p-br1.toml'),forester,moai,fisher" $W/tuned-4p.toml
run 4 8 "tuned,heuristic(shipped='l3-4p-br3.toml'),forester,moai,fisher,greedy" $W/tuned-3p.toml
run 2 9 "tuned,forester,moai,fisher,greedy" $W/tuned-3p.toml
run 5 8 "tuned,heuristic(shipped='l3-5p-br1.toml'),heuristic(shipped='l3-5p-br2.toml'),forester,moai,fisher" $W/tuned-3p.toml
