"""`python -m faultlines VERB ...`: the instructor CLI (see faultlines/cli/)."""

import sys

from faultlines.cli import main

sys.exit(main(sys.argv[1:]))
