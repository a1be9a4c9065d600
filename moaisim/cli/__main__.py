"""`python -m moaisim.cli`: the `moaisim` command."""

from moaisim.cli import run

run()
