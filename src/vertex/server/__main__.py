"""`python -m vertex.server`: the same as `vertex serve`."""

import argparse
import sys

from vertex.server.cli import HELP, add_arguments, run

parser = argparse.ArgumentParser(prog="vertex serve", description=HELP)
add_arguments(parser)
sys.exit(run(parser.parse_args()))
