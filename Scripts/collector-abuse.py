#!/usr/bin/env python3
"""Abuse for the collector (`metrics-report-collect`), against the real server on 127.0.0.1: what a slow, greedy or
impatient client does, and what an operator does to a running collector.

  collector-abuse.py COLLECTOR STORE

Starts the collector with small bounds (--max-connections 8, --idle-seconds 1, --body-seconds 4,
--shutdown-seconds 2) and checks, each as a named finding:

- connections past the cap are answered 503 and closed, and a client still gets through once they go;
- a connection that sends nothing, or half a request head, is closed after the idle timeout;
- a body that trickles in is answered 408 once the body deadline passes;
- `Expect: 100-continue` is answered `100 Continue` at once (curl would otherwise wait a second);
- SIGHUP reads the tokens file again: a token added afterwards is taken, one removed is refused, and
  the process lives on;
- SIGTERM while bodies still arrive: a request whose body ends soon after is answered with
  `Connection: close`, one whose body trickles on is answered 503 once the shutdown deadline passes,
  and the process exits 0 within a few seconds of it.

Prints one JSON line {"checks": {...}, "problems": [...]}; exits 1 on any problem.
"""
import hashlib, json, os, re, signal, socket, subprocess, sys, threading, time

BUNDLE = "com.example.abuse"


def token_line(token):
    return "sha256:%s %s\n" % (hashlib.sha256(token.encode()).hexdigest(), BUNDLE)


PAYLOAD = json.dumps({
    "appVersion": "1.0", "timeStampBegin": "2026-05-01 00:00:00", "timeStampEnd": "2026-05-01 23:59:00",
    "metaData": {"bundleIdentifier": BUNDLE, "applicationBuildVersion": "1"},
    "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": {"histogramValue": {
        "0": {"bucketStart": "100 ms", "bucketEnd": "110 ms", "bucketCount": 1}}}},
}, separators=(",", ":"), sort_keys=True).encode()


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.settimeout(10)
    return s


def head(token, length, extra=""):
    return ("POST /v1/payloads HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
            "Content-Type: application/json\r\nContent-Length: %d\r\n%s\r\n" % (token, length, extra)).encode()


def read_response(s):
    """The status, the headers (lower-case names) and the body of one response; None if the
    connection closed first."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            return None
        data += chunk
    top, _, rest = data.partition(b"\r\n\r\n")
    lines = top.decode().split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = s.recv(65536)
        if not chunk:
            break
        rest += chunk
    return status, headers, rest[:length]


def closed_within(s, seconds):
    """Whether the server closes `s` within `seconds`."""
    s.settimeout(seconds)
    try:
        return s.recv(1) == b""
    except socket.timeout:
        return False
    except OSError:
        return True


def post(port, token, body=PAYLOAD):
    s = connect(port)
    s.sendall(head(token, len(body)) + body)
    answer = read_response(s)
    s.close()
    return answer


def main():
    binary, store = sys.argv[1], sys.argv[2]
    os.makedirs(os.path.dirname(store) or ".", exist_ok=True)
    tokens = store + ".tokens"
    with open(tokens, "w") as f:
        f.write(token_line("mrt_first"))
    process = subprocess.Popen(
        [binary, store, "--tokens", tokens, "--port", "0", "--max-connections", "8",
         "--idle-seconds", "1", "--body-seconds", "4", "--shutdown-seconds", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    problems, checks = [], {}
    try:
        line = process.stdout.readline()
        m = re.search(r":(\d+),", line)
        if not m:
            raise SystemExit("the collector did not start: %r" % line)
        port = int(m.group(1))

        # The connection cap: 8 idle connections held, the 9th answered 503 and closed.
        held = [connect(port) for _ in range(8)]
        time.sleep(0.2)
        extra = connect(port)
        extra.sendall(head("mrt_first", len(PAYLOAD)) + PAYLOAD)
        answer = read_response(extra)
        checks["past the cap"] = answer[0] if answer else None
        if not answer or answer[0] != 503 or "retry-after" not in answer[1]:
            problems.append("a connection past the cap was not answered 503 with Retry-After: %r" % (answer,))
        # The held connections send nothing: closed after the idle timeout.
        closed = sum(closed_within(s, 3) for s in held)
        checks["idle connections closed"] = closed
        if closed != len(held):
            problems.append("%d of %d idle connections were not closed after --idle-seconds" % (len(held) - closed, len(held)))
        for s in held:
            s.close()
        extra.close()
        time.sleep(0.2)
        answer = post(port, "mrt_first")
        checks["after the idle ones went"] = answer[0] if answer else None
        if not answer or answer[0] != 202:
            problems.append("a client was not served once the idle connections were closed: %r" % (answer,))

        # Half a request head, then nothing: closed.
        half = connect(port)
        half.sendall(b"POST /v1/payloads HTTP/1.1\r\nHost: 127")
        checks["half a head closed"] = closed_within(half, 4)
        if not checks["half a head closed"]:
            problems.append("a connection that sent half a head was not closed")
        half.close()

        # A body that trickles: 408 once the body deadline passes.
        slow = connect(port)
        slow.sendall(head("mrt_first", len(PAYLOAD)))
        started = time.time()
        answer = None
        slow.settimeout(0.3)
        for byte in PAYLOAD[:40]:
            try:
                slow.sendall(bytes([byte]))
                data = slow.recv(65536)
                if data:
                    slow.settimeout(10)
                    rest = data
                    while b"\r\n\r\n" not in rest:
                        rest += slow.recv(65536)
                    answer = int(rest.split()[1])
                    break
            except socket.timeout:
                continue
            except OSError:
                break
        checks["trickling body"] = answer
        checks["trickling body seconds"] = round(time.time() - started, 1)
        if answer != 408:
            problems.append("a trickling body was answered %r, not 408" % answer)
        slow.close()

        # Expect: 100-continue is answered at once.
        s = connect(port)
        s.sendall(head("mrt_first", len(PAYLOAD), "Expect: 100-continue\r\n"))
        s.settimeout(0.5)
        try:
            first = s.recv(65536)
        except socket.timeout:
            first = b""
        checks["100 continue"] = first.split(b"\r\n")[0].decode() if first else None
        if not first.startswith(b"HTTP/1.1 100"):
            problems.append("Expect: 100-continue got no 100 Continue within 0.5 s: %r" % first[:40])
        s.settimeout(10)
        s.sendall(PAYLOAD)
        answer = read_response(s)
        if not answer or answer[0] != 202:
            problems.append("the body after 100 Continue was not taken: %r" % (answer,))
        s.close()

        # SIGHUP: the tokens file read again.
        with open(tokens, "w") as f:
            f.write(token_line("mrt_second"))
        process.send_signal(signal.SIGHUP)
        time.sleep(0.5)
        second, first_again = post(port, "mrt_second"), post(port, "mrt_first")
        checks["after SIGHUP"] = [second and second[0], first_again and first_again[0]]
        if process.poll() is not None:
            problems.append("SIGHUP ended the collector (exit %s)" % process.returncode)
        elif not second or second[0] != 202 or not first_again or first_again[0] != 401:
            problems.append("after SIGHUP the new token got %r and the removed one %r" % (second, first_again))

        # SIGTERM while two bodies arrive a byte every 0.3 s: one ends soon after the signal, one would
        # take 15 s (past the shutdown deadline, 2 s, before its body deadline, 4 s).
        answers = {}

        def trickle(name, count):
            s = connect(port)
            s.sendall(head("mrt_second", len(PAYLOAD)))
            for byte in PAYLOAD[:count]:
                try:
                    s.sendall(bytes([byte]))
                except OSError:
                    break
                time.sleep(0.3)
            try:
                s.sendall(PAYLOAD[count:])
            except OSError:
                pass
            s.settimeout(10)
            try:
                answers[name] = read_response(s)
            except OSError as e:
                answers[name] = repr(e)
            s.close()

        ending = threading.Thread(target=trickle, args=("ending", 4))
        endless = threading.Thread(target=trickle, args=("endless", 50))
        endless.start()
        ending.start()
        time.sleep(0.6)
        process.send_signal(signal.SIGTERM)
        stopped = time.time()
        ending.join()
        endless.join()
        answer = answers.get("ending")
        checks["ending after SIGTERM"] = answer and [answer[0], answer[1].get("connection")]
        if not answer or answer[0] != 202 or answer[1].get("connection", "").lower() != "close":
            problems.append("a body that ended after SIGTERM was not stored with Connection: close: %r" % (answer,))
        answer = answers.get("endless")
        checks["trickling after SIGTERM"] = answer and answer[0]
        if not answer or answer[0] != 503:
            problems.append("a body still trickling at the shutdown deadline was answered %r, not 503" % (answer,))
        try:
            status = process.wait(timeout=8)
        except subprocess.TimeoutExpired:
            status = None
        checks["exit"] = status
        checks["stop seconds"] = round(time.time() - stopped, 1)
        if status != 0:
            problems.append("the collector did not exit 0 within 8 s of SIGTERM (%r)" % status)
        stderr = process.stderr.read() if status is not None else ""
        if "request refused" not in stderr or "status=408" not in stderr.replace(": ", "="):
            problems.append("refused requests are not logged with their status")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    print(json.dumps({"checks": checks, "problems": problems}))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
