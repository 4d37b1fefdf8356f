# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Debian's pyverbs as a user runs it: Python dlopen()s the extension
RTLD_LOCAL, so libibverbs is in no global scope. Opens mlx5_0, queries the
device and port, then loops an RC SEND back between two QPs and reads the
bytes. Run with Debian's python3 under rdma-sim, nothing preloaded."""
import ctypes
import sys
import time

import pyverbs.device as d
import pyverbs.enums as e
from pyverbs.addr import AHAttr
from pyverbs.cq import CQ
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.wr import SGE, RecvWR, SendWR

fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print('FAIL', what, file=sys.stderr)


# the workaround this test must not need: libibverbs in the global scope
glob = ctypes.CDLL(None)
check(not hasattr(glob, 'ibv_get_device_list'),
      'libibverbs is in the global scope')

names = [dev.name.decode() for dev in d.get_device_list()]
check(names == ['mlx5_0'], 'device list %s' % names)
ctx = d.Context(name='mlx5_0')
attr = ctx.query_device()
check(attr.vendor_id == 0x02c9, 'vendor_id %#x' % attr.vendor_id)
port = ctx.query_port(1)
check(port.state == e.IBV_PORT_ACTIVE, 'port state %d' % port.state)
print('mlx5_0: fw %s vendor %#x part %#x, port 1 lid %d' %
      (attr.fw_version, attr.vendor_id, attr.vendor_part_id, port.lid))

MSG = 64
pd = PD(ctx)
cq = CQ(ctx, 8)
mr = MR(pd, 2 * MSG, e.IBV_ACCESS_LOCAL_WRITE)
cap = QPCap(max_send_wr=4, max_recv_wr=4, max_send_sge=1, max_recv_sge=1)
init = QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, cap=cap)
qa, qb = QP(pd, init), QP(pd, init)
for qp, peer in ((qa, qb), (qb, qa)):
    a = QPAttr(qp_state=e.IBV_QPS_INIT)
    a.pkey_index, a.port_num, a.qp_access_flags = 0, 1, 0
    qp.modify(a, e.IBV_QP_STATE | e.IBV_QP_PKEY_INDEX | e.IBV_QP_PORT |
              e.IBV_QP_ACCESS_FLAGS)
    a = QPAttr(qp_state=e.IBV_QPS_RTR)
    a.ah_attr = AHAttr(dlid=port.lid, port_num=1)
    a.path_mtu, a.dest_qp_num, a.rq_psn = e.IBV_MTU_1024, peer.qp_num, 0
    a.max_dest_rd_atomic, a.min_rnr_timer = 1, 12
    qp.modify(a, e.IBV_QP_STATE | e.IBV_QP_AV | e.IBV_QP_PATH_MTU |
              e.IBV_QP_DEST_QPN | e.IBV_QP_RQ_PSN |
              e.IBV_QP_MAX_DEST_RD_ATOMIC | e.IBV_QP_MIN_RNR_TIMER)
    a = QPAttr(qp_state=e.IBV_QPS_RTS)
    a.timeout, a.retry_cnt, a.rnr_retry, a.sq_psn = 14, 7, 7, 0
    a.max_rd_atomic = 1
    qp.modify(a, e.IBV_QP_STATE | e.IBV_QP_TIMEOUT | e.IBV_QP_RETRY_CNT |
              e.IBV_QP_RNR_RETRY | e.IBV_QP_SQ_PSN |
              e.IBV_QP_MAX_QP_RD_ATOMIC)

data = bytes((i * 5 + 3) & 0xff for i in range(MSG))
mr.write(data, MSG)
qb.post_recv(RecvWR(wr_id=2, num_sge=1, sg=[SGE(mr.buf + MSG, MSG,
                                                  mr.lkey)]))
qa.post_send(SendWR(wr_id=1, opcode=e.IBV_WR_SEND, num_sge=1,
                    sg=[SGE(mr.buf, MSG, mr.lkey)],
                    send_flags=e.IBV_SEND_SIGNALED))
wcs = []
end = time.monotonic() + 30
while len(wcs) < 2 and time.monotonic() < end:
    n, got = cq.poll(2 - len(wcs))
    wcs += got[:n]
check(len(wcs) == 2, '%d of 2 completions' % len(wcs))
for wc in wcs:
    check(wc.status == e.IBV_WC_SUCCESS, 'wc %d status %d' %
          (wc.wr_id, wc.status))
    want = (e.IBV_WC_SEND, 0) if wc.wr_id == 1 else (e.IBV_WC_RECV, MSG)
    check((wc.opcode, wc.byte_len if wc.wr_id == 2 else 0) == want,
          'wc %d opcode %d len %d' % (wc.wr_id, wc.opcode, wc.byte_len))
check(mr.read(MSG, MSG) == data, 'received bytes differ')
for o in (qa, qb, mr, cq, pd, ctx):
    o.close()
print('%d failure(s)' % len(fails) if fails else 'pyverbs: ok')
sys.exit(1 if fails else 0)
