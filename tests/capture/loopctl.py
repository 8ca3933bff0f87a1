#!/usr/bin/env python3
"""Add or remove a loop device by number via /dev/loop-control (LOOP_CTL_ADD/REMOVE).
Removing makes /sys/block/loopN vanish, so iostat sees the device disappear, and a
re-added device starts with zeroed statistics.   Usage: loopctl.py add|remove N"""

import fcntl
import os
import sys

LOOP_CTL_ADD, LOOP_CTL_REMOVE = 0x4C80, 0x4C81
op, n = sys.argv[1], int(sys.argv[2])
fd = os.open("/dev/loop-control", os.O_RDWR)
try:
    fcntl.ioctl(fd, LOOP_CTL_ADD if op == "add" else LOOP_CTL_REMOVE, n)
finally:
    os.close(fd)
