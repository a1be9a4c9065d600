"""Studies: what plays games to answer a question (docs/design.md, "Layout"), apart from
`moaisim.analysis`, which only reads their results.

- `experiment`: a declarative study (an experiments/*.toml file) played and reported;
- `versus`: one strategy against a field, seats rotated;
- `metagame`: every composition of a library of strategies played on the same deals;
- `restricted`: restricted play (a strategy with mechanisms forbidden, against its field);
- `tune`: strength by simulation and the CMA-ES tuner of heuristic weights;
- `population`: the PSRO loop over a pool of strategies, with its certificate;
- `field`: field studies (the meta-game, the certificate and restricted play together);
- `bench`: the engines' and the runner's speed and memory (`moaisim bench`).
"""

from moaisim.studies.experiment import load_experiment, run_experiment
from moaisim.studies.versus import versus

__all__ = ["load_experiment", "run_experiment", "versus"]
