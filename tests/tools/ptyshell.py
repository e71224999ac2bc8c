#!/usr/bin/env python3
"""Drive an interactive shell in a pseudo-terminal, to test completion the way a person
meets it: readline / ZLE / fish's reader, not just the completion function.

    ptyshell.py [--setup LINE]... [--wait S] -- SHELL ARGS...  < KEYS
Starts SHELL in a pty (80x24, TERM=dumb), sends each setup line, then KEYS from stdin (use
"\\t" for TAB), waits until the output is quiet, sends Ctrl-C and exit, and prints everything
the shell wrote with escape sequences removed.  Exit 0 unless the shell did not start.
"""
import os
import pty
import re
import select
import struct
import sys
import time
import fcntl
import termios

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[=>]|\r")


def read_quiet(fd, quiet=0.6, limit=10.0):
    out, end, last = b"", time.time() + limit, time.time()
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
            last = time.time()
        elif time.time() - last > quiet:
            break
    return out


def main():
    args, setup, wait = sys.argv[1:], [], 0.6
    while args and args[0] != "--":
        if args[0] == "--setup":
            setup.append(args[1]); args = args[2:]
        elif args[0] == "--wait":
            wait = float(args[1]); args = args[2:]
        else:
            raise SystemExit("ptyshell: unknown option " + args[0])
    cmd = args[1:]
    keys = sys.stdin.read().replace("\\t", "\t")
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "dumb"
        os.execvp(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out = read_quiet(fd, wait)
    for line in setup:
        os.write(fd, line.encode() + b"\n")
        out += read_quiet(fd, wait)
    mark = len(out)
    for ch in keys:              # one key at a time, as typed
        os.write(fd, ch.encode())
        if ch == "\t":
            out += read_quiet(fd, wait)
    out += read_quiet(fd, wait)
    os.write(fd, b"\x03")
    read_quiet(fd, 0.3)
    os.write(fd, b"exit\n")
    read_quiet(fd, 0.3, 2)
    try:
        os.kill(pid, 9)
    except OSError:
        pass
    os.waitpid(pid, 0)
    sys.stdout.write(ANSI.sub("", out[mark:].decode("utf-8", "replace")))


if __name__ == "__main__":
    main()
