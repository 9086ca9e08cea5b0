"""CPython-only tools around the firmware: the `micro960` command."""
