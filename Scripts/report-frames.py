#!/usr/bin/env python3
"""What a crosshair move costs on a report page, frame by frame, with a real mouse.

Starts headless Chromium (DevTools over a pipe, a fresh profile), opens PAGE at 1400x1000, scrolls to
the first trend chart, and moves the mouse across its plot MOVES times (Input.dispatchMouseEvent, one
move a frame). The page's `metricsReport.recordFrames()` times each move from its handler to the end
of the frame that shows it: script, style, layout and paint on the page's thread. Prints the median,
p90 and worst in ms and how many frames took 16 ms or more; exits 1 past --limit (median) when given.

  Scripts/report-frames.py PAGE.html [--moves 300] [--loads 1] [--chart chart-0] [--limit 16]

With --loads N the page is opened N times, each in a fresh browser, and the frames of all are pooled.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, executable, width, height):
        self.profile = tempfile.mkdtemp(prefix="mr-frames-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        # Chromium reads commands on fd 3 and writes answers on fd 4.
        self.process = subprocess.Popen(
            [executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--disable-background-networking", "--disable-component-update",
             f"--user-data-dir={self.profile}", f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=lambda: self._descriptors(to_browser_r, from_browser_w), close_fds=False)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 1
        self.session = None
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}, session=False)
        self.session = attached["sessionId"]
        for domain in ("Page", "Runtime"):
            self.send(f"{domain}.enable")

    @staticmethod
    def _descriptors(commands, answers):
        # In the child: the pipe's ends at 3 and 4, inherited (copied first, as either may be 3 or 4).
        a, b = os.dup(commands), os.dup(answers)
        os.dup2(a, 3)
        os.dup2(b, 4)

    def send(self, method, params=None, session=True, timeout=60):
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        self.next_id += 1
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_browser, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("id") == message["id"]:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
        raise RuntimeError(f"timed out waiting for {method}")

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"evaluate: {result['exceptionDetails']}")
        return result["result"].get("value")

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("page")
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--chart", default="chart-0")
    parser.add_argument("--loads", type=int, default=1)
    parser.add_argument("--limit", type=float)
    args = parser.parse_args()
    executable = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser") \
        or shutil.which("google-chrome")
    if not executable:
        print("chromium not found: Scripts/bootstrap.sh --browser", file=sys.stderr)
        return 2
    times = []
    for _ in range(args.loads):
        times += frames(executable, args)
    times.sort()
    return report(times, args)


def frames(executable, args):
    """The frame times of one load of the page."""
    browser = Browser(executable, 1400, 1000)
    try:
        browser.send("Page.navigate", {"url": "file://" + os.path.abspath(args.page)})
        deadline = time.time() + 60
        while browser.evaluate("document.documentElement && document.documentElement.dataset.reportReady") != "true":
            if time.time() > deadline:
                raise RuntimeError("the page did not get ready")
            time.sleep(0.1)
        errors = browser.evaluate("document.documentElement.dataset.reportErrors")
        if errors:
            raise RuntimeError(f"script errors: {errors}")
        box = browser.evaluate(f"""(() => {{ const o = document.querySelector('#{args.chart} .overlay');
          o.scrollIntoView({{block: 'center'}}); const r = o.getBoundingClientRect();
          window.__frames = window.metricsReport.recordFrames(); return [r.left, r.top, r.width, r.height]; }})()""")
        time.sleep(0.5)  # the observer of charts in view settles
        left, top, width, height = box
        for i in range(args.moves):
            x = left + width * (0.02 + 0.96 * (i + 0.5) / args.moves)
            browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": top + height / 2})
            time.sleep(0.034)  # about two frames: each move gets a frame of its own
        time.sleep(0.2)
        return browser.evaluate("window.__frames")
    finally:
        browser.close()


def report(times, args):
    if not times:
        print("no frame was timed", file=sys.stderr)
        return 1
    median = times[(len(times) - 1) // 2]
    p90 = times[int(len(times) * 0.9) - 1]
    slow = sum(1 for t in times if t >= 16)
    print(f"{os.path.basename(args.page)}: {len(times)} frames after a mouse move ({args.loads} loads): median {median:.2f} ms, "
          f"p90 {p90:.2f} ms, worst {times[-1]:.2f} ms; {slow} of {len(times)} at 16 ms or more")
    if args.limit is not None and median >= args.limit:
        print(f"median {median:.2f} ms is past the limit of {args.limit} ms", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
