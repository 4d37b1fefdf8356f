# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""What the Python judges under rdma-sim share: failures counted, exact
comparisons, unmodified tools run, and the device names of the model."""
import subprocess
import sys

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print('FAIL: %s' % what)


def eq(got, want, what):
    check(got == want, '%s:\n  got  %r\n  want %r' % (what, got, want))


def run(*cmd):
    """A tool's stdout; a non-zero exit is a failure."""
    p = subprocess.run(list(cmd), capture_output=True, text=True)
    check(p.returncode == 0, '%s: exit %d: %s' %
          (' '.join(cmd), p.returncode, p.stderr.strip()))
    return p.stdout


def model(driver):
    """(InfiniBand?, device name prefix, GUID of device 0)."""
    if driver == 'mlx5':
        return True, 'mlx5_', 0x0c42a10300b3d0e0
    return False, 'rxe', 0x505400fffe123400


def finish(name):
    print('%s: %s' % (name, 'FAIL' if failures else 'ok'))
    sys.exit(1 if failures else 0)
