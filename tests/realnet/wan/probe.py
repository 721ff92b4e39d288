#!/usr/bin/env python3
"""Real TCP connects between the host namespaces of a WAN plan (tests/realnet/wan_policy.sh).

Usage: probe.py NS_FROM NS_TO IP_TO PORT. Starts a listener in NS_TO, connects from NS_FROM
with the kernel's own SYN time-out (the namespace's tcp_syn_retries), and prints one line:
`accept PEER_ADDRESS` (what the listener saw), `refuse` or `drop`.
"""
import subprocess
import sys

ns_from, ns_to, ip_to, port = sys.argv[1:5]
LISTEN = (
    "import socket,sys\n"
    "s=socket.socket();s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1)\n"
    f"s.bind(('{ip_to}',{port}));s.listen(4);print('up',flush=True)\n"
    "s.settimeout(15)\n"
    "try:\n c,a=s.accept();print(a[0],flush=True)\n"
    "except OSError:\n print('none',flush=True)\n"
)
CONNECT = (
    "import socket,errno\n"
    "s=socket.socket()\n"
    f"try:\n s.connect(('{ip_to}',{port}));print('accept')\n"
    "except ConnectionRefusedError:\n print('refuse')\n"
    "except (TimeoutError,OSError) as e:\n print('drop' if e.errno in (errno.ETIMEDOUT,None) else 'error '+str(e))\n"
)
listener = subprocess.Popen(["ip", "netns", "exec", ns_to, "python3", "-c", LISTEN],
                            stdout=subprocess.PIPE, text=True)
assert listener.stdout.readline().strip() == "up"
outcome = subprocess.run(["ip", "netns", "exec", ns_from, "python3", "-c", CONNECT],
                         capture_output=True, text=True, timeout=30).stdout.strip()
if outcome == "accept":
    outcome += " " + listener.stdout.readline().strip()
listener.kill()
listener.wait()
print(outcome)
