"""`python -m psl.cli` is `psl`."""

from psl.cli import main

main()
