"""Device entry point: MicroPython runs this file at boot.

It starts the console game on the serial port. (Board configurations and the
UCI and sensor-board modes are chosen here once boards/ describes them.)
"""
from micro960.console import main

main([])
