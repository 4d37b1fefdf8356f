#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""iproute2's `rdma` (Debian's, unmodified) as the judge of RDMA netlink.

Runs inside rdma-sim: `rdma dev|link|system|resource|statistic`, text and
JSON, against exact values; objects of a running process (res_holder)
listed with their ids, users, PSNs and keys; gone when it exits or is
killed; the port counters moved by a known RDMA WRITE/READ load.

  rdma_tool.py HOLDER DRIVER NDEV PORT
"""
import json
import os
import signal
import subprocess
import sys
import time

from judge_util import check, eq, finish, model
import judge_util

HOLDER, DRIVER, NDEV = sys.argv[1], sys.argv[2], int(sys.argv[3])
PORT = sys.argv[4]  # perftest's TCP port
MLX5, PREFIX, GUID = model(DRIVER)


def run(*args):
    return judge_util.run('rdma', *args)


def js(*args):
    out = run('-j', *args)
    try:
        return json.loads(out)
    except ValueError:
        check(False, 'rdma -j %s: not JSON: %r' % (' '.join(args), out))
        return []


def guid(i):
    g = GUID + i
    return ':'.join('%04x' % (g >> s & 0xffff) for s in (48, 32, 16, 0))


def admin():
    """Does this process hold CAP_NET_ADMIN (keys are shown)?"""
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith('CapEff:'):
                return bool(int(line.split()[1], 16) >> 12 & 1)
    return False


def devices():
    want = []
    for i in range(NDEV):
        d = {'ifindex': i, 'ifname': PREFIX + str(i), 'node_type': 'ca'}
        if MLX5:
            d['fw'] = '22.36.1010'
        d.update(node_guid=guid(i), sys_image_guid=guid(i))
        want.append(d)
    eq(js('dev', 'show'), want, 'rdma -j dev show')
    eq(run('dev').splitlines()[0],
       '0: %s0: node_type ca %snode_guid %s sys_image_guid %s ' %
       (PREFIX, 'fw 22.36.1010 ' if MLX5 else '', guid(0), guid(0)),
       'rdma dev')


def links():
    want = []
    for i in range(NDEV):
        d = {'ifindex': i, 'ifname': PREFIX + str(i), 'port': 1}
        if MLX5:  # InfiniBand: the SM's view; device N has LID N+1
            d.update(subnet_prefix='fe80:0000:0000:0000', lid=i + 1,
                     sm_lid=1, lmc=0)
        d.update(state='ACTIVE', physical_state='LINK_UP')
        want.append(d)
    eq(js('link', 'show'), want, 'rdma -j link show')
    text = ('link %s0/1 %sstate ACTIVE physical_state LINK_UP ' %
            (PREFIX, 'subnet_prefix fe80:0000:0000:0000 lid 1 sm_lid 1 '
             'lmc 0 ' if MLX5 else ''))
    eq(run('link', 'show', PREFIX + '0/1').splitlines(), [text],
       'rdma link show %s0/1' % PREFIX)


def system():
    # iproute2 6.1 prints the system text only, -j or not
    eq(run('system').strip(), 'netns shared copy-on-fork on', 'rdma system')


def summary(dev, pd, cq, qp, mr, ctx, srq):
    return {'ifindex': dev, 'ifname': PREFIX + str(dev), 'pd': pd, 'cq': cq,
            'qp': qp, 'cm_id': 0, 'mr': mr, 'ctx': ctx, 'srq': srq}


# The MAD layer's objects on each port: PD 0, CQ 0, QP0 (IB) and QP1.
KQPS = 2 if MLX5 else 1


def baseline():
    eq(js('resource', 'show'),
       [summary(i, 1, 1, KQPS, 0, 0, 0) for i in range(NDEV)],
       'rdma -j resource show, no process')
    qps = js('resource', 'show', 'qp')
    want = [{'ifindex': i, 'ifname': PREFIX + str(i), 'port': 1,
             'lqpn': n, 'type': 'GSI' if n else 'SMI', 'state': 'RTS',
             'sq-psn': 0, 'comm': 'ib_core'}
            for i in range(NDEV) for n in range(2 - KQPS, 2)]
    eq(qps, want, 'rdma -j resource show qp, no process')
    cqe = 2047 if MLX5 else 1023  # 1280 / 640 asked, rounded as drivers do
    cq = {'ifindex': 0, 'ifname': PREFIX + '0', 'cqn': 0, 'cqe': cqe,
          'users': 2 * KQPS, 'poll-ctx': 'WORKQUEUE',
          'adaptive-moderation': MLX5, 'comm': 'ib_core'}
    eq(js('resource', 'show', 'cq', 'dev', PREFIX + '0'), [cq],
       'kernel CQ')
    pd = {'ifindex': 0, 'ifname': PREFIX + '0', 'pdn': 0}
    if admin():
        pd['local_dma_lkey'] = '0'
    pd.update(users=KQPS, comm='ib_core')
    eq(js('resource', 'show', 'pd', 'dev', PREFIX + '0'), [pd], 'kernel PD')
    for kind in ('mr', 'ctx', 'srq', 'cm_id'):
        eq(js('resource', 'show', kind), [], 'no %s without a process' % kind)


def holder():
    p = subprocess.Popen([HOLDER, PREFIX + '0'], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    line = p.stdout.readline().split()
    check(line[:1] == ['ready'], 'res_holder did not start: %r' % line)
    return p, [int(x) for x in line[1:]]


def held(pid, nums):
    a, b, ud, lkey, rkey = nums
    dev = {'ifindex': 0, 'ifname': PREFIX + '0'}
    own = {'pid': pid, 'comm': 'res_holder'}
    eq(js('resource', 'show', PREFIX + '0'),
       [summary(0, 2, 2, KQPS + 3, 1, 1, 1)], 'summary with res_holder')
    qps = [q for q in js('resource', 'show', 'qp') if q.get('pid') == pid]
    rc = dict(dev, port=1)
    want = [dict(rc, lqpn=a, rqpn=b, type='RC', state='RTS', **{
        'rq-psn': 0x456, 'sq-psn': 0x123, 'path-mig-state': 'MIGRATED',
        'pdn': 1}, **own),
            dict(rc, lqpn=b, rqpn=a, type='RC', state='RTS', **{
                'rq-psn': 0x456, 'sq-psn': 0x123,
                'path-mig-state': 'MIGRATED', 'pdn': 1}, **own),
            dict(rc, lqpn=ud, type='UD', state='INIT', **{'sq-psn': 0},
                 pdn=1, **own)]
    eq(qps, want, 'res_holder QPs')
    pd = dict(dev, pdn=1)
    if admin():
        pd['local_dma_lkey'] = '0'
    # users: 3 QPs, the MR, the SRQ and the MW (the kernel's usecnt)
    pd.update(users=6, ctxn=0, **own)
    eq(js('resource', 'show', 'pd', 'dev', PREFIX + '0')[1:], [pd],
       'res_holder PD')
    # 100 entries asked: 127 (a power of two minus one); 3 QPs x 2
    cq = dict(dev, cqn=1, cqe=127, users=6,
              **{'adaptive-moderation': False}, ctxn=0, **own)
    eq(js('resource', 'show', 'cq', 'dev', PREFIX + '0')[1:], [cq],
       'res_holder CQ')
    mr = dict(dev, mrn=0)
    if admin():
        mr.update(rkey='%x' % rkey, lkey='%x' % lkey)
    mr.update(mrlen=8192, pdn=1, **own)
    eq(js('resource', 'show', 'mr'), [mr], 'res_holder MR')
    eq(js('resource', 'show', 'ctx'), [dict(dev, ctxn=0, **own)],
       'res_holder context')
    eq(js('resource', 'show', 'srq'),
       [dict(dev, srqn=0, type='BASIC', lqpn=[str(ud)], pdn=1, **own)],
       'res_holder SRQ')


def zombie(pid):
    """Wait until pid has died and is not reaped yet."""
    for _ in range(10000):
        with open('/proc/%d/stat' % pid) as f:
            if f.read().rsplit(')', 1)[1].split()[0] == 'Z':
                return
        time.sleep(0.001)
    check(False, 'process %d did not become a zombie' % pid)


def resources():
    baseline()
    p, nums = holder()
    held(p.pid, nums)
    p.stdin.close()
    eq(p.wait(), 0, 'res_holder exit')
    baseline()
    # A killed process: its objects go with it (ids move on)
    p, nums = holder()
    eq(js('resource', 'show', PREFIX + '0'),
       [summary(0, 2, 2, KQPS + 3, 1, 1, 1)], 'second res_holder')
    eq([m['mrn'] for m in js('resource', 'show', 'mr')], [1],
       'MR ids are not reused')
    os.kill(p.pid, signal.SIGKILL)
    zombie(p.pid)
    baseline()  # dead, not reaped: its files closed at exit
    p.wait()
    baseline()


def counters():
    names = [k for k in js('statistic', 'show')[0] if k not in
             ('ifname', 'port')]
    if not MLX5:
        eq(names[:4], ['sent_pkts', 'rcvd_pkts', 'duplicate_request',
                       'out_of_seq_request'], 'rxe counters')
        return
    eq(len(names), 31, 'mlx5 port counters')
    before = js('statistic', 'show', 'link', PREFIX + '0/1')[0]
    for prog, key in (('ib_write_bw', 'rx_write_requests'),
                      ('ib_read_bw', 'rx_read_requests'),
                      ('ib_atomic_bw', 'rx_atomic_requests')):
        srv = subprocess.Popen([prog, '-n', '200', '-p', PORT],
                               stdout=subprocess.DEVNULL)
        cli = None
        for _ in range(50):
            cli = subprocess.run([prog, '-n', '200', '-p', PORT,
                                  'localhost'], capture_output=True)
            if cli.returncode == 0:
                break
        eq(cli.returncode, 0, '%s client' % prog)
        eq(srv.wait(), 0, '%s server' % prog)
        after = js('statistic', 'show', 'link', PREFIX + '0/1')[0]
        eq(after[key] - before[key], 200, '%s: %s' % (prog, key))
        before = after
    eq(before['duplicate_request'], 0, 'no duplicates on a clean wire')
    eq(before['local_ack_timeout_err'], 0, 'no ACK timeouts')


def errors():
    """What rdma says where the kernel refuses."""
    p = subprocess.run(['rdma', 'dev', 'set', PREFIX + '0', 'name', 'x'],
                       capture_output=True, text=True)
    check(p.returncode != 0, 'renaming a device succeeded')


devices()
links()
system()
resources()
counters()
errors()
finish('rdma_tool %s %d device(s)' % (DRIVER, NDEV))
