#!/usr/bin/env python3
"""Load and faults for the collector (`metrics-report-collect`), against the real server on 127.0.0.1.

Posts PAYLOADS distinct payloads from CONNECTIONS concurrent connections, a share of them malformed
and a share sent again (as devices retry), while the server is killed with SIGKILL at random moments
and started again. Requests that get no answer or a 503 (busy, stopping, or out of space) are sent
again, as the uploader does. When everything is answered, the server gets SIGTERM and must exit 0;
then the store is reconciled by a reader stricter than gzip's: each segment member by member from its
first byte to its last (a torn member, zero padding or any byte that is not a whole member is a
problem), each member's checksum, length and ids checked against its lines. Every acknowledged
payload must be stored exactly once, nothing refused or never sent stored, and every malformed
payload answered 400 naming its key. Prints one JSON line of figures; exits 1 on any discrepancy.

usage: collector-load.py COLLECTOR STORE [--payloads N] [--connections C] [--per-request K] [--rate R]
                         [--malformed F] [--duplicates F] [--kills K] [--seed S] [--max-store-bytes B]
                         [--free CMD]

--rate sends the requests open loop at R payloads a second in all, each request's latency counted from
the moment it was due (for latency at a given load; no kills then). --max-store-bytes starts the
collector with that limit, as a disk that fills up: once it has answered "out of space", it is stopped
and started with room, and every payload it refused for want of space must then be stored; --free CMD
does the same for a disk that really fills up (a small tmpfs), running CMD (which makes room) instead of
a restart; --kill-after-free then kills the collector once more after room was made.
The figures include the server's peak resident memory (VmHWM) and CPU time (user + system) of its last
run, and, when it ran once, its CPU time a payload sent.
"""
import argparse, asyncio, gzip, hashlib, http.client, json, os, queue, random, re, signal, struct, subprocess
import sys, threading, time, zlib

BUNDLE = "com.example.load"
TOKEN = "mrt_load_" + "0" * 40


def canonical(value):
    """The collector's canonical form: keys sorted, no whitespace, characters unescaped (the payloads
    here hold integers and ASCII strings only, whose canonical form this is)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def payload(i, rng):
    """A valid legacy metric payload, canonical, unique by its index."""
    day = 1 + i % 28
    return canonical({
        "appVersion": "1.%d" % (i % 3), "timeStampBegin": "2026-05-%02d 00:00:00" % day,
        "timeStampEnd": "2026-05-%02d 23:59:00" % day,
        "metaData": {"deviceType": "iPhone%d,1" % (12 + i % 4), "osVersion": "iPhone OS 26.%d" % (i % 2),
                     "bundleIdentifier": BUNDLE, "applicationBuildVersion": str(i)},
        "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": {"histogramValue": {
            "0": {"bucketStart": "%d ms" % (100 + i % 900), "bucketEnd": "%d ms" % (110 + i % 900),
                  "bucketCount": 1 + rng.randrange(5)}}}},
    })


def malformed(i):
    """A payload the decoder refuses at a known key: a bucket count that is text."""
    return canonical({
        "appVersion": "1.0", "timeStampBegin": "2026-05-01 00:00:00", "timeStampEnd": "2026-05-01 23:59:00",
        "metaData": {"bundleIdentifier": BUNDLE, "applicationBuildVersion": "bad%d" % i},
        "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": {"histogramValue": {
            "0": {"bucketStart": "1 ms", "bucketEnd": "2 ms", "bucketCount": "many"}}}},
    })


HEADERS = {"Authorization": "Bearer " + TOKEN, "Content-Encoding": "gzip", "Content-Type": "application/x-ndjson"}


async def paced(batches, bodies, rate, connections, port, record):
    """Open loop: batch k is due at k·n/rate seconds whatever the answers before it, and its latency
    runs from that moment (a request held back because every connection is busy counts its wait)."""
    due = asyncio.Queue()
    start = time.perf_counter()

    async def schedule():
        sent = 0
        for k in range(len(batches)):
            moment = start + sent / rate
            sent += len(batches[k])
            delay = moment - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            due.put_nowait((k, moment))
        for _ in range(connections):
            due.put_nowait(None)

    async def connection():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        head = "".join("%s: %s\r\n" % kv for kv in HEADERS.items())
        while (item := await due.get()) is not None:
            k, moment = item
            while True:
                writer.write(("POST /v1/payloads HTTP/1.1\r\nHost: 127.0.0.1\r\n%sContent-Length: %d\r\n\r\n"
                              % (head, len(bodies[k]))).encode() + bodies[k])
                status = int((await reader.readline()).split()[1])
                length = 0
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode().partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                answer = await reader.readexactly(length)
                if record(batches[k], status, answer, time.perf_counter() - moment):
                    break
                await asyncio.sleep(0.05)
        writer.close()

    await asyncio.gather(schedule(), *(connection() for _ in range(connections)))


class Server:
    def __init__(self, binary, store, tokens, extra, instance="load"):
        self.binary, self.store, self.tokens, self.extra, self.instance = binary, store, tokens, extra, instance
        self.lock = threading.Lock()
        self.port = None
        self.process = None
        self.starts = 0

    def start(self):
        self.process = subprocess.Popen(
            [self.binary, self.store, "--tokens", self.tokens, "--port", "0", "--instance", self.instance,
             "--seal-seconds", "2"] + self.extra,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        m = re.search(r":(\d+),", line)
        if not m:
            raise SystemExit("the collector did not start: %r" % line)
        with self.lock:
            self.port = int(m.group(1))
            self.starts += 1

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        """SIGTERM: the collector drains, seals and must exit 0."""
        self.process.send_signal(signal.SIGTERM)
        if self.process.wait(timeout=60) != 0:
            raise SystemExit("the collector exited %d on SIGTERM" % self.process.returncode)

    def current(self):
        with self.lock:
            return self.port


def strict_members(data):
    """The payload ids of a segment read member by member from byte 0 to its end, and the first
    problem met (None when every byte belongs to a whole member whose checksum, length and ids match
    its lines). Stricter than gzip readers, which skip zero padding between members."""
    ids = []
    offset = 0
    while offset < len(data):
        head = data[offset:offset + 23]
        if len(head) < 23 or head[:4] != b"\x1f\x8b\x08\x04":
            zeros = len(data[offset:]) - len(data[offset:].lstrip(b"\x00"))
            return ids, "%d bytes at offset %d are no member (%d of them zero)" % (len(data) - offset, offset, zeros)
        xlen = struct.unpack_from("<H", data, offset + 10)[0]
        if data[offset + 12:offset + 14] != b"MR" or data[offset + 16] != 1:
            return ids, "no collector member at offset %d" % offset
        length, count = struct.unpack_from("<IH", data, offset + 17)
        member_ids = [data[offset + 23 + 32 * k:offset + 55 + 32 * k].hex() for k in range(count)]
        start = offset + 12 + xlen
        end = start + length + 8
        if end > len(data):
            return ids, "the member at offset %d is cut short" % offset
        inflater = zlib.decompressobj(-15)
        lines = inflater.decompress(data[start:start + length])
        crc, size = struct.unpack_from("<II", data, start + length)
        if not inflater.eof or inflater.unused_data or zlib.crc32(lines) != crc or len(lines) != size:
            return ids, "the member at offset %d does not match its checksum or length" % offset
        if [hashlib.sha256(line).hexdigest() for line in lines.split(b"\n")[:-1]] != member_ids:
            return ids, "the member at offset %d lists other ids than its lines'" % offset
        ids += member_ids
        offset = end
    return ids, None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("store")
    p.add_argument("--payloads", type=int, default=2000)
    p.add_argument("--connections", type=int, default=20)
    p.add_argument("--per-request", type=int, default=1)
    p.add_argument("--malformed", type=float, default=0.05)
    p.add_argument("--duplicates", type=float, default=0.10)
    p.add_argument("--kills", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-store-bytes", type=int)
    p.add_argument("--free", help="a shell command run once the collector has answered out of space (it makes room on a disk that filled up)")
    p.add_argument("--rate", type=float)
    p.add_argument("--instances", type=int, default=1,
                   help="collectors on the one folder, named load, load-2, load-3…: each payload is posted to "
                        "one of them by its id (as affinity by client address would), and the kills pick one at random")
    p.add_argument("--kill-after-free", action="store_true",
                   help="with --free: kill the collector once more (SIGKILL) after room was made, and start it again")
    a = p.parse_args()
    if a.rate and (a.kills or a.max_store_bytes or a.free):
        p.error("--rate measures latency: no --kills, --max-store-bytes or --free with it")
    rng = random.Random(a.seed)
    os.makedirs(a.store, exist_ok=True)
    tokens = os.path.join(a.store + ".tokens")
    with open(tokens, "w") as f:
        f.write("sha256:%s %s\n" % (hashlib.sha256(TOKEN.encode()).hexdigest(), BUNDLE))
    extra = ["--max-store-bytes", str(a.max_store_bytes)] if a.max_store_bytes else []
    if a.instances > 1 and (a.rate or a.max_store_bytes or a.free):
        p.error("--instances goes with kills only")
    # "load" and "load-2" on one folder: the second's name starts with the first's.
    servers = [Server(a.binary, a.store, tokens, extra, "load" if k == 0 else "load-%d" % (k + 1))
               for k in range(a.instances)]
    for s in servers:
        s.start()
    server = servers[0]

    valid = {}
    bad = set()
    jobs = []
    for i in range(a.payloads):
        if rng.random() < a.malformed:
            text = malformed(i)
            bad.add(hashlib.sha256(text.encode()).hexdigest())
        else:
            text = payload(i, rng)
            valid[hashlib.sha256(text.encode()).hexdigest()] = text
        jobs.append(text)
    resent = [t for t in jobs if rng.random() < a.duplicates]
    jobs += resent
    rng.shuffle(jobs)
    # Each payload goes to one collector, chosen by its id (a device's retries meet the same index,
    # as affinity by client address gives), and is batched with the others of that collector.
    works = [queue.Queue() for _ in servers]
    for n, share in enumerate(works):
        mine = [t for t in jobs if int(hashlib.sha256(t.encode()).hexdigest(), 16) % len(servers) == n]
        for k in range(0, len(mine), a.per_request):
            share.put(mine[k:k + a.per_request])
    work = works[0]
    total_requests = sum(w.qsize() for w in works)

    lock = threading.Lock()
    acked = {}          # id -> number of 202 answers listing it as stored
    duplicates = [0]
    refused = []        # (id, error) for 400 answers
    retries = {"503": 0, "full": 0, "lost": 0}
    latencies = []
    answered = [0]

    def record(batch, status, answer, elapsed):
        """One answer's accounting; False when the batch must be sent again (503)."""
        with lock:
            if status == 503:
                retries["full" if b"out of space" in answer else "503"] += 1
                return False
            if status not in (202, 400):
                raise SystemExit("unexpected status %d: %s" % (status, answer[:200]))
            receipt = json.loads(answer)
            latencies.append(elapsed)
            for i in receipt.get("stored", []):
                acked[i] = acked.get(i, 0) + 1
            duplicates[0] += len(receipt.get("duplicates", []))
            for rejection in receipt.get("rejected", []):
                text = batch[rejection["index"]]
                refused.append((hashlib.sha256(text.encode()).hexdigest(), rejection["error"]))
            answered[0] += 1
            return True

    def body(batch):
        return gzip.compress(("\n".join(batch) + "\n").encode(), 1)

    def worker(k):
        server = servers[k % len(servers)]
        work = works[k % len(servers)]
        conn, port = None, None
        while True:
            try:
                batch = work.get_nowait()
            except queue.Empty:
                return
            data = body(batch)
            while True:
                try:
                    if conn is None or port != server.current():
                        port = server.current()
                        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    start = time.perf_counter()
                    conn.request("POST", "/v1/payloads", data, HEADERS)
                    r = conn.getresponse()
                    answer = r.read()
                    elapsed = time.perf_counter() - start
                except (OSError, http.client.HTTPException):
                    with lock:
                        retries["lost"] += 1
                    conn = None
                    time.sleep(0.05)
                    continue
                if record(batch, r.status, answer, elapsed):
                    break
                time.sleep(min(0.2, float(r.getheader("Retry-After", "1")) / 10))

    kills = 0
    if a.rate:
        batches = []
        while not work.empty():
            batches.append(work.get_nowait())
        bodies = [body(b) for b in batches]
        started = time.perf_counter()
        asyncio.run(paced(batches, bodies, a.rate, a.connections, server.current(), record))
        threads = []
    else:
        started = time.perf_counter()
        threads = [threading.Thread(target=worker, args=(k,)) for k in range(a.connections)]
        for t in threads:
            t.start()
    # Kills at random moments; with --max-store-bytes, once the full store has refused a batch, the
    # collector is stopped and started with room (as when space is freed), and every batch refused
    # for want of space must then be stored.
    freed = not (a.max_store_bytes or a.free)
    killed_after_free = not a.kill_after_free
    while (kills < a.kills or not freed or not killed_after_free) and answered[0] < total_requests:
        time.sleep(rng.uniform(0.2, 1.0))
        if answered[0] >= total_requests:
            break
        if freed and not killed_after_free:
            server.kill()
            server.start()
            killed_after_free = True
        elif not freed and retries["full"] > 0 and a.free:
            subprocess.run(a.free, shell=True, check=True)
            freed = True
        elif not freed and retries["full"] > 0:
            server.stop()
            server.extra = []
            server.start()
            freed = True
        elif kills < a.kills:
            victim = rng.choice(servers)
            victim.kill()
            victim.start()
            kills += 1
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    peak_kb = None
    cpu_seconds = None
    try:
        with open("/proc/%d/status" % server.process.pid) as f:
            peak_kb = int(re.search(r"VmHWM:\s+(\d+)", f.read()).group(1))
        # The server's CPU time (user + system) of its last run: what it spent on the payloads
        # answered, whatever else the machine did.
        with open("/proc/%d/stat" % server.process.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        cpu_seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, AttributeError, IndexError, ValueError):
        pass
    for s in servers:
        s.process.send_signal(signal.SIGTERM)
    statuses = [s.process.wait(timeout=60) for s in servers]
    status = max(statuses, key=abs)

    stored = {}
    hidden = []
    damaged = []
    for folder, _, files in os.walk(a.store):
        for name in files:
            path = os.path.join(folder, name)
            if name.startswith("."):
                if name.endswith(".open"):
                    hidden.append(path)
                continue
            if not name.endswith(".ndjson.gz"):
                continue
            with open(path, "rb") as f:
                data = f.read()
            ids, problem = strict_members(data)
            if problem:
                damaged.append("%s: %s" % (path, problem))
            for i in ids:
                stored[i] = stored.get(i, 0) + 1
    problems = []
    if status != 0:
        problems.append("SIGTERM exit status %d" % status)
    if hidden:
        problems.append("open segments left after SIGTERM: %s" % hidden[:3])
    if damaged:
        problems.append("%d segments that are not whole members end to end: %s" % (len(damaged), damaged[:3]))
    twice = [i for i, n in stored.items() if n > 1]
    if twice:
        problems.append("%d payloads stored more than once" % len(twice))
    lost = [i for i in acked if i not in stored]
    if lost:
        problems.append("%d acknowledged payloads not stored" % len(lost))
    foreign = [i for i in stored if i not in valid]
    if foreign:
        problems.append("%d stored payloads never sent as valid" % len(foreign))
    acked_twice = [i for i, n in acked.items() if n > 1]
    if acked_twice:
        problems.append("%d payloads acknowledged as stored twice" % len(acked_twice))
    unnamed = [e for i, e in refused if i in bad and "bucketCount" not in e]
    if unnamed or {i for i, _ in refused} != bad:
        problems.append("malformed answers: %d without the key, %d refused of %d malformed"
                        % (len(unnamed), len({i for i, _ in refused} & bad), len(bad)))
    missing = [i for i in valid if i not in stored]
    if missing:
        problems.append("%d valid payloads never stored" % len(missing))
    latencies.sort()
    figures = {
        "payloads": a.payloads, "requests": total_requests, "valid": len(valid), "malformed": len(bad),
        "resent": len(resent), "stored": len(stored), "duplicates_answered": duplicates[0], "kills": kills,
        "instances": len(servers), "starts": sum(s.starts for s in servers), "retries": retries, "seconds": round(elapsed, 2),
        "payloads_per_second": round(len(jobs) / elapsed),
        "p50_ms": round(1000 * latencies[len(latencies) // 2], 1) if latencies else None,
        "p99_ms": round(1000 * latencies[int(len(latencies) * 0.99)], 1) if latencies else None,
        "server_peak_mb": round(peak_kb / 1024) if peak_kb else None,
        "server_cpu_seconds": cpu_seconds,
        "server_cpu_us_per_payload": (round(1e6 * cpu_seconds / len(jobs), 1)
                                      if cpu_seconds is not None and server.starts == 1 and len(servers) == 1 else None),
        "problems": problems,
    }
    print(json.dumps(figures))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
