"""`python3 -m host_tools ...` is the `micro960` command."""
import sys

from .cli import main

sys.exit(main())
