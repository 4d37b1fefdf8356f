#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""rdma-core 44's own test suite (Debian's python3-pyverbs) as the judge.

The suite runs under rdma-sim twice, on Debian's libibverbs + libmlx5 and
on ours, and the two are compared test by test: every test that is ok on
Debian's must be ok on ours. Differences known today are listed in the
expected-differences file; a difference not listed fails, and so does a
listed one that no longer differs (the list only shrinks). Nothing is
forced into Python: pyverbs dlopens libibverbs RTLD_LOCAL as it always
does, and a probe that opens a device through it must pass first.

  judge.py --sim SIM --devices N --ours LIBDIR --expected FILE [--suite DIR] [--jobs J]
           [--link-layer ib|eth]     (eth: RoCE ports)
  judge.py --run OUT SUITE MODULE...     (inside rdma-sim: one batch)
"""
import argparse
import concurrent.futures
import gzip
import os
import shutil
import subprocess
import sys
import tempfile
import time

SUITE = '/usr/share/doc/rdma-core/tests'
PYTHON = '/usr/bin/python3'  # Debian's, the one python3-pyverbs is built for
RUN_TIMEOUT = 300

# What a user does first: open a device, allocate a PD.
PROBE = ('import pyverbs.device as d; from pyverbs.pd import PD; '
         'c = d.Context(name=d.get_device_list()[0].name.decode()); '
         'PD(c); print("ok")')


def run_batch(out, suite, modules):
    """Inside rdma-sim: run MODULES of SUITE, one 'id status' line each."""
    import unittest

    sys.path[:0] = [suite, os.path.dirname(suite)]
    sys.argv[1:] = []
    from args_parser import parser
    parser.parse_args()
    sink = open(out, 'a', buffering=1)

    class Result(unittest.TestResult):
        def _put(self, test, status):
            sink.write('%s %s\n' % (test.id(), status))

        def addSuccess(self, test):
            super().addSuccess(test)
            self._put(test, 'ok')

        def addSkip(self, test, reason):
            super().addSkip(test, reason)
            self._put(test, 'skip')

        def addFailure(self, test, err):
            super().addFailure(test, err)
            self._put(test, 'fail')
            sys.stderr.write('FAIL %s\n%s\n' %
                             (test.id(), self._exc_info_to_string(err,
                                                                  test)))

        def addError(self, test, err):
            super().addError(test, err)
            self._put(test, 'error')
            sys.stderr.write('ERROR %s\n%s\n' %
                             (test.id(), self._exc_info_to_string(err,
                                                                  test)))

        def addExpectedFailure(self, test, err):
            super().addExpectedFailure(test, err)
            self._put(test, 'xfail')

        def addUnexpectedSuccess(self, test):
            super().addUnexpectedSuccess(test)
            self._put(test, 'xpass')

    import importlib
    pkg = importlib.import_module(os.path.basename(suite))
    loader = unittest.TestLoader()
    for name in modules:
        mod = importlib.import_module('%s.%s' % (pkg.__name__, name))
        loader.loadTestsFromModule(mod).run(Result())
    return 0


def sim_cmd(args, ndev):
    """rdma-sim with NDEV devices on the judged link layer, then '--'."""
    return [os.path.abspath(args.sim), '--devices', str(ndev),
            '--link-layer', args.link_layer, '--']


def sim_reaches_pyverbs(args, env):
    """Can pyverbs, loaded as it is, use the simulated device?"""
    cmd = sim_cmd(args, 1) + [PYTHON, '-c', PROBE]
    try:
        out = subprocess.run(cmd, env=env, capture_output=True, text=True,
                             timeout=60).stdout
    except subprocess.TimeoutExpired:
        return False
    return out.strip() == 'ok'


def rdma_link_answers(args, env):
    """Does iproute2's rdma, as rdma-core's suite calls it in its set-up
    (tests/base.py at HEAD), list every simulated port?"""
    import json
    cmd = sim_cmd(args, args.devices) + ['rdma', 'link', 'show', '-j']
    try:
        out = subprocess.run(cmd, env=env, capture_output=True, text=True,
                             timeout=60).stdout
        links = json.loads(out)
    except (subprocess.TimeoutExpired, ValueError, OSError):
        return False
    return sorted((l.get('ifname'), l.get('port')) for l in links) == \
        [('mlx5_%d' % i, 1) for i in range(args.devices)]


def unpack(dest):
    """A copy of the suite with its gzip-compressed files unpacked."""
    tests = os.path.join(dest, 'tests')
    os.mkdir(tests)
    for fn in os.listdir(SUITE):
        src = os.path.join(SUITE, fn)
        if fn.endswith('.py.gz'):
            with gzip.open(src, 'rb') as f, \
                    open(os.path.join(tests, fn[:-3]), 'wb') as t:
                shutil.copyfileobj(f, t)
        elif fn.endswith('.py'):
            shutil.copy(src, tests)
    return tests


def modules_of(suite):
    return sorted(fn[:-3] for fn in os.listdir(suite)
                  if fn.startswith('test_') and fn.endswith('.py'))


def list_tests(suite):
    out = subprocess.run([PYTHON, os.path.join(suite, 'run_tests.py'),
                          '--list-tests'], cwd=suite, check=True,
                         capture_output=True, text=True).stdout
    return [l for l in out.split('\n') if l.startswith('tests.')]


def run_lib(args, suite, label, env, work):
    """Every module of SUITE under rdma-sim on one library: {id: status}."""
    out = os.path.join(work, label + '.res')
    log = os.path.join(work, label + '.log')
    mods = modules_of(suite)
    batches = [mods[i::args.jobs] for i in range(args.jobs)]

    def one(i):
        cmd = sim_cmd(args, args.devices) + [
            PYTHON, os.path.abspath(__file__), '--run', '%s.%d' % (out, i),
            suite] + batches[i]
        with open('%s.%d' % (log, i), 'w') as lf:
            try:
                rc = subprocess.run(cmd, env=env, cwd=work, stdout=lf,
                                    stderr=subprocess.STDOUT,
                                    timeout=RUN_TIMEOUT).returncode
            except subprocess.TimeoutExpired:
                rc = 'timeout'
        return rc

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        rcs = list(ex.map(one, range(args.jobs)))
    res = {}
    for i, rc in enumerate(rcs):
        if rc != 0:
            print('  %s batch %d exited %s; its log:' % (label, i, rc))
            with open('%s.%d' % (log, i)) as lf:
                sys.stdout.write(''.join(lf.readlines()[-20:]))
        if os.path.exists('%s.%d' % (out, i)):
            with open('%s.%d' % (out, i)) as f:
                for line in f:
                    tid, status = line.split()
                    res[tid] = status
    return res


def read_expected(path, ndev):
    """'DEVICES TEST-ID  # why' lines: DEVICES like 1,2 (IB ports) or
    1eth (RoCE ports)."""
    exp = {}
    with open(path) as f:
        for line in f:
            body, _, why = line.partition('#')
            if not body.strip():
                continue
            devs, tid = body.split()
            if str(ndev) in devs.split(','):
                exp[tid] = why.strip()
    return exp


def counts(res, everything):
    c = {}
    for t in everything:
        s = res.get(t, 'missing')
        c[s] = c.get(s, 0) + 1
    return ', '.join('%s %d' % kv for kv in sorted(c.items()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--run', nargs='+')
    ap.add_argument('--sim')
    ap.add_argument('--devices', type=int, default=1)
    ap.add_argument('--ours')
    ap.add_argument('--expected')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--link-layer', choices=('ib', 'eth'), default='ib')
    args = ap.parse_args()
    if args.run:
        return run_batch(args.run[0], args.run[1], args.run[2:])

    start = time.monotonic()
    work = tempfile.mkdtemp(prefix='pyverbs-judge.')
    try:
        suite = unpack(work)
        everything = list_tests(suite)
        base = dict(os.environ)
        base.pop('LD_LIBRARY_PATH', None)
        base.pop('LD_PRELOAD', None)
        deb_env = dict(base)
        our_env = dict(base, LD_LIBRARY_PATH=args.ours)
        for name, env in (('Debian\'s', deb_env), ('ours', our_env)):
            if not sim_reaches_pyverbs(args, env):
                print('FAIL: pyverbs on %s libibverbs cannot open the '
                      'simulated device with nothing forced into it' % name)
                return 1
        if not rdma_link_answers(args, base):
            print('FAIL: `rdma link show -j` does not list the simulated '
                  'ports (the suite\'s set-up at HEAD runs it)')
            return 1
        print('`rdma link show -j` answers under rdma-sim: no stand-in')
        deb = run_lib(args, suite, 'debian', deb_env, work)
        ours = run_lib(args, suite, 'ours', our_env, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print('%d tests, %d device(s), %s ports, %.1f s' %
          (len(everything), args.devices, args.link_layer,
           time.monotonic() - start))
    ok_deb = sum(deb.get(t) == 'ok' for t in everything)
    ok_ours = sum(ours.get(t) == 'ok' for t in everything)
    print('Debian\'s: ok %d of %d (%s)' % (ok_deb, len(everything),
                                          counts(deb, everything)))
    print('ours:     ok %d of %d (%s)' % (ok_ours, len(everything),
                                          counts(ours, everything)))
    diff = [t for t in everything
            if deb.get(t) == 'ok' and ours.get(t) != 'ok']
    better = [t for t in everything
              if ours.get(t) == 'ok' and deb.get(t) != 'ok']
    exp = read_expected(args.expected, '%d%s' % (
        args.devices, '' if args.link_layer == 'ib' else args.link_layer))
    bad = 0
    print('differences (ok on Debian\'s, not on ours): %d' % len(diff))
    for t in diff:
        if t in exp:
            print('  expected  %s: %s  (%s)' % (t, ours.get(t, 'missing'),
                                               exp[t]))
        else:
            print('  NEW       %s: %s' % (t, ours.get(t, 'missing')))
            bad += 1
    for t in sorted(set(exp) - set(diff)):
        print('  GONE      %s: listed in %s but no longer differs '
              '(Debian\'s %s, ours %s): remove it' %
              (t, os.path.basename(args.expected), deb.get(t, 'missing'),
               ours.get(t, 'missing')))
        bad += 1
    for t in better:
        print('  ours only %s: Debian\'s %s' % (t, deb.get(t, 'missing')))
    if len(deb) != len(everything) or len(ours) != len(everything):
        print('FAIL: a run did not report every test (Debian\'s %d, '
              'ours %d of %d)' % (len(deb), len(ours), len(everything)))
        bad += 1
    print('pyverbs judge: %s' % ('FAIL' if bad else 'ok'))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
