"""micro960: a Chess960 engine small enough for a microcontroller."""
VERSION = "0.1.0"
