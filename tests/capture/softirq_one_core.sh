#!/usr/bin/env bash
# tests/fixtures/runs/softirq_one_core (issue 25): network receive work on one core, recorded on
# this 2-CPU VM. A veth pair between two network namespaces, the receiving side's RPS mask set to
# CPU 1 (rps_cpus = 2), so that its NET_RX softirq runs on CPU 1; a UDP flood (socat) from 10 s to
# 30 s, sender and receiver processes pinned to CPU 0. mpstat -P ALL 1 and sar -u ALL -P ALL 1 for
# 40 s. As root (ip netns); the namespaces are removed at the end.
#
#   bash tests/capture/softirq_one_core.sh
set -euo pipefail
OUT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../fixtures" && pwd)/runs/softirq_one_core
mkdir -p "$OUT"
cleanup() { ip netns del blsend 2>/dev/null || true; ip netns del blrecv 2>/dev/null || true; }
trap cleanup EXIT
cleanup
ip netns add blsend
ip netns add blrecv
ip link add blv0 type veth peer name blv1
ip link set blv0 netns blsend
ip link set blv1 netns blrecv
ip -n blsend addr add 10.250.0.1/30 dev blv0
ip -n blrecv addr add 10.250.0.2/30 dev blv1
ip -n blsend link set blv0 up
ip -n blrecv link set blv1 up
ip netns exec blrecv sh -c 'echo 2 > /sys/class/net/blv1/queues/rx-0/rps_cpus'
E=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TZ=UTC LC_ALL=C.UTF-8)
"${E[@]}" mpstat -P ALL 1 40 >"$OUT/mpstat.log" & M=$!
"${E[@]}" sar -u ALL -P ALL 1 40 >"$OUT/sar.log" & S=$!
sleep 10
timeout 21 ip netns exec blrecv taskset -c 0 socat -u UDP-RECV:47999 /dev/null & R=$!
sleep 0.3
timeout 20 ip netns exec blsend taskset -c 0 socat -u /dev/zero UDP-SENDTO:10.250.0.2:47999 || true
wait $R || true
wait $M $S
