#!/usr/bin/python3
"""The real side of the ZooKeeper conformance suite (tests/zk_conformance.rs runs it).

For each sequence file given, starts a ZooKeeper 3.8 server of its own on 127.0.0.1 (Debian's
package, its own free port, temporary data directory and configuration file with tickTime=3000,
the default Kafka's config/zookeeper.properties leaves in force), runs the sequence's steps
through kazoo, and prints one JSON document on standard output: for each sequence, the
normalised result of each step (what the op returned, the stats with zxids relative to the
zxid after setup, the watch notifications each session received) and the measurements taken
(negotiated timeouts, how late after its timeout each silent session expired). The servers are
stopped when the run ends, also when it fails.

Each client talks to the server through a small TCP proxy of its own, so that a step can cut
its connection (the session stays on the server) and let it back (the client reconnects within
its session). kazoo does not send SetWatches after a reconnect (it dropped the request in 2.4),
so the driver sends it itself, with the watches the client held and the last zxid it saw, as
ZooKeeper's Java client (ClientCnxn.SendThread.primeConnection) does.

Run with Debian's /usr/bin/python3 (python3-kazoo is installed for it): the exit status is 0
when every sequence ran, 2 when something it needs is missing, 1 on any other failure.
"""

import atexit
import json
import logging
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback

TICK_MS = 3000
# How far a real instant may stray from the rule: the expiry is seen by polling the server's
# session list every POLL_S, and the proxy and the server stamp a packet a moment apart.
TOLERANCE_MS = 150
POLL_S = 0.01
# After the server expired a session, the time it needs to apply the closeSession
# transaction and send its notifications before the driver reads again.
SETTLE_S = 0.3
ZK_JAR = "/usr/share/java/zookeeper.jar"
LOG_JARS = ["/usr/share/java/slf4j-simple.jar"]


def missing(message):
    print("zk-conformance: " + message, file=sys.stderr)
    sys.exit(2)


if not os.path.exists(ZK_JAR):
    missing(ZK_JAR + " is missing: install Debian's zookeeper package (www/scripts/setup.sh)")
if shutil.which("java") is None:
    missing("java is missing: install Debian's zookeeper package, which pulls a JRE (www/scripts/setup.sh)")
try:
    from kazoo.client import KazooClient, KazooState
    from kazoo.exceptions import (BadVersionError, ConnectionLoss, NoChildrenForEphemeralsError,
                                  NodeExistsError, NoNodeError, NotEmptyError, RolledBackError,
                                  RuntimeInconsistency, SessionExpiredError)
    from kazoo.protocol.serialization import int_struct, long_struct, write_string
    from kazoo.retry import KazooRetry
except ImportError as e:
    missing("the Python client kazoo is missing (%s): install Debian's python3-kazoo (www/scripts/setup.sh)" % e)

# kazoo says each dropped connection on stderr; the suite cuts connections on purpose.
logging.getLogger("kazoo").setLevel(logging.CRITICAL)

ERRORS = [
    (NoNodeError, "NONODE"),
    (NodeExistsError, "NODEEXISTS"),
    (BadVersionError, "BADVERSION"),
    (NotEmptyError, "NOTEMPTY"),
    (NoChildrenForEphemeralsError, "NOCHILDRENFOREPHEMERALS"),
    (SessionExpiredError, "SESSIONEXPIRED"),
    (RolledBackError, "ROLLEDBACK"),
    (RuntimeInconsistency, "RUNTIMEINCONSISTENCY"),
    (ConnectionLoss, "CONNECTIONLOSS"),
]


def error_name(e):
    for cls, name in ERRORS:
        if isinstance(e, cls):
            return name
    raise e


# Watch notification types on the wire (Watcher.Event.EventType).
EVENT_NAMES = {1: "NodeCreated", 2: "NodeDeleted", 3: "NodeDataChanged", 4: "NodeChildrenChanged"}


def now_ms():
    return time.monotonic() * 1000.0


# --- the server ------------------------------------------------------------------------------

SERVERS = []


def stop_all_servers():
    for s in list(SERVERS):
        s.stop()


atexit.register(stop_all_servers)


def on_signal(signum, _frame):
    stop_all_servers()
    sys.exit(128 + signum)


signal.signal(signal.SIGTERM, on_signal)
signal.signal(signal.SIGINT, on_signal)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def four_letters(port, word, timeout=2.0):
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(word.encode())
        chunks = []
        while True:
            b = s.recv(65536)
            if not b:
                break
            chunks.append(b)
    return b"".join(chunks).decode("utf-8", "replace")


class Server:
    """One standalone ZooKeeper (ZooKeeperServerMain) with its own directory and config."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="zk-conformance-")
        self.port = free_port()
        self.proc = None
        self.log = None
        config = os.path.join(self.dir, "zoo.cfg")
        with open(config, "w") as f:
            f.write(
                "# Kafka's config/zookeeper.properties sets no tickTime: ZooKeeper's default, 3000.\n"
                "tickTime=%d\n"
                "dataDir=%s\n"
                "clientPort=%d\n"
                "clientPortAddress=127.0.0.1\n"
                "maxClientCnxns=0\n"
                "admin.enableServer=false\n"
                "4lw.commands.whitelist=ruok,dump\n"
                % (TICK_MS, os.path.join(self.dir, "data"), self.port)
            )
        self.config = config

    def start(self):
        classpath = ":".join([ZK_JAR] + [j for j in LOG_JARS if os.path.exists(j)])
        self.log = open(os.path.join(self.dir, "server.log"), "w")
        SERVERS.append(self)
        self.proc = subprocess.Popen(
            ["java", "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
             "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", classpath,
             "org.apache.zookeeper.server.ZooKeeperServerMain", self.config],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("ZooKeeper exited at start (status %s): %s"
                                   % (self.proc.returncode, self.log_tail()))
            try:
                # ruok answers imok as soon as the port listens, before the server has loaded its
                # database and serves sessions (a client then is closed with "ZooKeeperServer not
                # running"); dump says "not currently serving requests" until it does.
                if four_letters(self.port, "ruok", 0.5) == "imok" and \
                        "not currently serving" not in four_letters(self.port, "dump", 0.5):
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("ZooKeeper did not answer within 60 s: " + self.log_tail())

    def log_tail(self):
        try:
            with open(os.path.join(self.dir, "server.log")) as f:
                return f.read()[-2000:]
        except OSError:
            return "(no log)"

    def sessions(self):
        """The ids of the sessions the server's session tracker holds (the dump command)."""
        text = four_letters(self.port, "dump")
        # The tracker's part comes first: its expiry buckets, each session on a line of its own.
        tracker = text.split("ephemeral nodes dump:")[0]
        return {int(line.strip(), 16) for line in tracker.splitlines() if line.startswith("\t0x")}

    def stop(self):
        if self in SERVERS:
            SERVERS.remove(self)
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=10)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.proc.wait()
        if self.log is not None:
            self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


# --- a proxy that can cut one client's connection ------------------------------------------------


class Proxy:
    """Forwards one client's connections to the server; `cut` closes them and turns new ones away
    (the server sees the connection close, the session stays), `restore` lets them through."""

    def __init__(self, server_port):
        self.server_port = server_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.is_cut = False
        self.open = []
        self.last_to_server_ms = None
        self.closed = False
        threading.Thread(target=self.accept_loop, daemon=True).start()

    def accept_loop(self):
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                if self.is_cut or self.closed:
                    client.close()
                    continue
                try:
                    upstream = socket.create_connection(("127.0.0.1", self.server_port))
                except OSError:
                    client.close()
                    continue
                self.open += [client, upstream]
            threading.Thread(target=self.pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self.pump, args=(upstream, client, False), daemon=True).start()

    def pump(self, src, dst, to_server):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                with self.lock:
                    if self.is_cut:
                        break
                    if to_server:
                        self.last_to_server_ms = now_ms()
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self):
        with self.lock:
            self.is_cut = True
            for s in self.open:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            self.open = []
            return self.last_to_server_ms

    def restore(self):
        with self.lock:
            self.is_cut = False

    def close(self):
        self.closed = True
        self.cut()
        self.listener.close()


# --- SetWatches, which kazoo does not send --------------------------------------------------------


def write_strings(items):
    b = bytearray(int_struct.pack(len(items)))
    for s in items:
        b.extend(write_string(s))
    return b


class SetWatches:
    """ZooKeeper's SetWatches request (OpCode.setWatches, 101): relativeZxid, then the paths of
    the data watches (getData/exists on a znode that existed), the exist watches (exists on a
    znode that did not) and the child watches."""

    type = 101

    def __init__(self, relative_zxid, data, exist, child):
        self.relative_zxid = relative_zxid
        self.data, self.exist, self.child = data, exist, child

    def serialize(self):
        return (bytearray(long_struct.pack(self.relative_zxid)) + write_strings(self.data)
                + write_strings(self.exist) + write_strings(self.child))

    @classmethod
    def deserialize(cls, _bytes, _offset):
        return True


# --- one client session ------------------------------------------------------------------------


class Client:
    def __init__(self, name, server, timeout_ms):
        self.name = name
        self.proxy = Proxy(server.port)
        self.events = []  # (arrival ms, type name, path)
        self.negotiated = []
        self.data_watches = {}  # path -> whether the znode existed when the watch was set
        self.child_watches = set()
        self.lost = threading.Event()
        self.connected = threading.Event()
        self.state = "live"  # live, cut, closed, expired
        self.zk = KazooClient(
            hosts="127.0.0.1:%d" % self.proxy.port, timeout=timeout_ms / 1000.0,
            connection_retry=KazooRetry(max_tries=-1, delay=0.05, backoff=1, max_jitter=0.0,
                                        max_delay=0.05))
        conn = self.zk._connection
        read_event, connect = conn._read_watch_event, conn._connect

        def record_event(buffer, offset):
            from kazoo.protocol.serialization import Watch
            watch, _ = Watch.deserialize(buffer, offset)
            self.events.append((now_ms(), EVENT_NAMES.get(watch.type, str(watch.type)), watch.path))
            return read_event(buffer, offset)

        def record_connect(host, hostip, port):
            read_timeout, connect_timeout = connect(host, hostip, port)
            # One server: connectTimeout = the negotiated session timeout / 1.
            self.negotiated.append(int(round(connect_timeout)))
            return read_timeout, connect_timeout

        conn._read_watch_event = record_event
        conn._connect = record_connect

        def listener(state):
            if state == KazooState.LOST:
                # The session is gone: kazoo would open a new one at once; the model's client
                # side here has none, so this client stops.
                self.zk._stopped.set()
                self.lost.set()
            elif state == KazooState.CONNECTED:
                self.connected.set()
            else:
                self.connected.clear()

        self.zk.add_listener(listener)

    def start(self):
        self.zk.start(timeout=15)
        self.session_id = self.zk.client_id[0]

    def stop(self):
        try:
            if not self.zk._stopped.is_set():
                self.zk.stop()
            self.zk.close()
        except Exception:
            pass
        self.proxy.close()

    def note_event(self, kind, path):
        if kind in ("NodeCreated", "NodeDataChanged"):
            self.data_watches.pop(path, None)
        elif kind == "NodeDeleted":
            self.data_watches.pop(path, None)
            self.child_watches.discard(path)
        elif kind == "NodeChildrenChanged":
            self.child_watches.discard(path)


# --- running a sequence ---------------------------------------------------------------------------


class Run:
    def __init__(self, seq, server):
        self.seq = seq
        self.server = server
        self.clients = {}
        self.owner_names = {}
        self.base = 0
        self.measurements = []
        self.expiries = []  # (session name, expiry instant ms)
        self.seen = {}  # session name -> events already reported

    def z(self, zxid):
        return "z%d" % (zxid - self.base)

    def stat(self, st):
        owner = self.owner_names.get(st.ephemeralOwner, "?") if st.ephemeralOwner else "-"
        return "czxid=%s mzxid=%s version=%d owner=%s" % (
            self.z(st.czxid), self.z(st.mzxid), st.version, owner)

    def setup(self):
        c = KazooClient(hosts="127.0.0.1:%d" % self.server.port, timeout=30)
        c.start(timeout=15)
        # The model's server starts with Kafka's persistent paths in place.
        for path in ["/brokers", "/brokers/ids", "/brokers/topics", "/isr_change_notification"] + \
                self.seq.get("setup", []):
            parts = path.strip("/").split("/")
            for i in range(1, len(parts) + 1):
                p = "/" + "/".join(parts[:i])
                if c.exists(p) is None:
                    c.create(p, b"")
        c.exists("/")
        self.base = c.last_zxid
        self.setup_client = c

    def live(self):
        return [n for n in sorted(self.clients) if self.clients[n].state == "live"]

    def barrier(self):
        """A read on every connected session: the server answers after it sent every
        notification the steps before caused, on the same connection."""
        for n in self.live():
            self.clients[n].zk.exists("/")

    def new_events(self):
        lines = []
        for n in sorted(self.clients):
            c = self.clients[n]
            start = self.seen.get(n, 0)
            for _, kind, path in c.events[start:]:
                lines.append("%s got %s %s" % (n, kind, path))
                c.note_event(kind, path)
            self.seen[n] = len(c.events)
        return lines

    def step(self, st):
        op = st["op"]
        name = st.get("session")
        c = self.clients.get(name)
        try:
            return getattr(self, "op_" + op)(st, c)
        except tuple(cls for cls, _ in ERRORS) as e:
            return error_name(e)

    def op_connect(self, st, _c):
        c = Client(st["session"], self.server, st["timeout_ms"])
        self.clients[c.name] = c
        c.start()
        self.owner_names[c.session_id] = c.name
        self.measurements.append("%s asked for %d ms, granted %d ms" % (
            c.name, st["timeout_ms"], c.negotiated[-1]))
        return "connected timeout=%d" % c.negotiated[-1]

    def op_create(self, st, c):
        _, stat = c.zk.create(st["path"], st.get("data", "").encode(),
                              ephemeral=st.get("ephemeral", False), include_data=True)
        return "OK " + self.stat(stat)

    def op_set(self, st, c):
        v = st.get("version")
        stat = c.zk.set(st["path"], st.get("data", "").encode(), -1 if v is None else v)
        return "OK " + self.stat(stat)

    def op_delete(self, st, c):
        c.zk.delete(st["path"])
        return "OK"

    def op_exists(self, st, c):
        watch = st.get("watch", False)
        stat = c.zk.exists(st["path"], watch=(lambda e: None) if watch else None)
        if watch:
            c.data_watches[st["path"]] = stat is not None
        if stat is None:
            return "none"
        data, _ = c.zk.get(st["path"])
        return "node %s data=%s" % (self.stat(stat), json.dumps(data.decode()))

    def op_children(self, st, c):
        watch = st.get("watch", False)
        kids = c.zk.get_children(st["path"], watch=(lambda e: None) if watch else None)
        if watch:
            c.child_watches.add(st["path"])
        return "[%s]" % ", ".join(sorted(kids))

    def op_multi(self, st, c):
        t = c.zk.transaction()
        for o in st["ops"]:
            kind = o["op"]
            if kind == "check":
                t.check(o["path"], o["version"])
            elif kind == "create":
                t.create(o["path"], o.get("data", "").encode(), ephemeral=o.get("ephemeral", False))
            elif kind == "set":
                v = o.get("version")
                t.set_data(o["path"], o.get("data", "").encode(), -1 if v is None else v)
            elif kind == "delete":
                t.delete(o["path"])
            else:
                raise ValueError("unknown multi op " + kind)
        results = t.commit()
        errors = [r for r in results if isinstance(r, Exception)]
        if errors:
            first = [e for e in errors if not isinstance(e, (RolledBackError, RuntimeInconsistency))]
            return error_name(first[0] if first else errors[0])
        out = []
        for o, r in zip(st["ops"], results):
            if o["op"] == "check":
                out.append("checked")
            elif o["op"] == "create":
                out.append("created %s" % r)
            elif o["op"] == "set":
                out.append("set " + self.stat(r))
            else:
                out.append("deleted")
        return "OK [%s]" % "; ".join(out)

    def op_close(self, _st, c):
        c.zk.stop()
        c.zk.close()
        c.state = "closed"
        return "closed"

    def op_cut(self, _st, c):
        c.last_contact = c.proxy.cut()
        c.state = "cut"
        return "cut"

    def op_sleep(self, st, _c):
        time.sleep(st["ms"] / 1000.0)
        return "slept"

    def op_reconnect(self, _st, c):
        c.connected.clear()
        c.proxy.restore()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not c.connected.is_set() and not c.lost.is_set():
            time.sleep(0.01)
        if c.lost.is_set():
            c.state = "expired"
            return "SESSIONEXPIRED"
        if not c.connected.is_set():
            raise RuntimeError("%s did not reconnect within 30 s" % c.name)
        if c.zk.client_id[0] != c.session_id:
            raise RuntimeError("%s came back with another session" % c.name)
        c.state = "live"
        data = sorted(p for p, existed in c.data_watches.items() if existed)
        exist = sorted(p for p, existed in c.data_watches.items() if not existed)
        child = sorted(c.child_watches)
        if data or exist or child:
            result = c.zk.handler.async_result()
            c.zk._call(SetWatches(c.zk.last_zxid, data, exist, child), result)
            result.get(timeout=10)
        return "reconnected timeout=%d" % c.negotiated[-1]

    def op_await_expiry(self, st, c):
        if c.state != "cut":
            raise RuntimeError("await_expiry of %s, which is not cut" % c.name)
        if c.session_id not in self.server.sessions():
            # Its expiry instant is lost: the sequence must wait for it before it can happen.
            raise RuntimeError("%s expired before the step that waits for it" % c.name)
        deadline = time.monotonic() + 120
        while c.session_id in self.server.sessions():
            if time.monotonic() > deadline:
                raise RuntimeError("%s was not expired within 120 s" % c.name)
            time.sleep(POLL_S)
        expired = now_ms()
        time.sleep(SETTLE_S)
        c.state = "expired"
        timeout = c.negotiated[-1]
        late = expired - c.last_contact - timeout
        self.measurements.append(
            "%s (timeout %d ms) expired %.0f ms after its last packet: %.0f ms after its timeout"
            % (c.name, timeout, expired - c.last_contact, late))
        if late < -TOLERANCE_MS:
            when = "before its timeout"
        elif late <= TICK_MS + TOLERANCE_MS:
            when = "after its timeout, within one tick"
        else:
            when = "more than a tick after its timeout"
        text = "expired %s" % when
        if self.expiries:
            prev_name, prev_at = self.expiries[-1]
            gap = expired - prev_at
            off = gap % TICK_MS
            whole = off <= TOLERANCE_MS or off >= TICK_MS - TOLERANCE_MS
            self.measurements.append("%s expired %.0f ms after %s" % (c.name, gap, prev_name))
            text += ", %s ticks after %s" % ("a whole number of" if whole else "not a whole number of",
                                             prev_name)
        self.expiries.append((c.name, expired))
        return text

    def run(self):
        self.setup()
        steps = []
        for st in self.seq["steps"]:
            result = self.step(st)
            self.barrier()
            steps.append([result] + self.new_events())
        return steps

    def close(self):
        for c in self.clients.values():
            c.stop()
        try:
            self.setup_client.stop()
            self.setup_client.close()
        except Exception:
            pass


def run_sequence(path, results):
    name = os.path.splitext(os.path.basename(path))[0]
    started = time.monotonic()
    server = Server()
    run = None
    try:
        with open(path) as f:
            seq = json.load(f)
        server.start()
        run = Run(seq, server)
        steps = run.run()
        results[name] = {"steps": steps, "measurements": run.measurements,
                         "seconds": round(time.monotonic() - started, 1)}
    except Exception:
        results[name] = {"error": traceback.format_exc() + "\nserver log:\n" + server.log_tail()}
    finally:
        if run is not None:
            run.close()
        server.stop()


def main(paths):
    if not paths:
        print("usage: driver.py SEQUENCE.json...", file=sys.stderr)
        return 2
    results = {}
    threads = [threading.Thread(target=run_sequence, args=(p, results)) for p in paths]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    json.dump({"sequences": results}, sys.stdout, indent=1, sort_keys=True)
    print()
    return 1 if any("error" in r for r in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
