#!/usr/bin/env python3
"""Runs the documentation: every fenced block of README.md, Samples/README.md, Docs/ and the DocC
articles, as a reader would.

- A block whose lines start with `$ ` is a terminal session: each command runs in a scratch copy of
  the repository (`swift run PRODUCT` runs the product already built; `dumps/` is the sample dump), and
  what it prints (both streams, as a terminal shows them) must be the lines shown under it. A line that
  is `…` alone stands for any number of lines; a line ending in ` …` for any line that starts with
  what comes before it.
- A `sh` block without prompts is a script: it runs there too and must succeed.
- A `swift` block is compiled against the library, from a package of its own.
- A `yaml` block holding `rules:` is checked with `metrics-report rules --check`.
- Each command's synopsis in Docs/commands.md lists every option its `--help` does.
- A block preceded by `<!-- illustrative: why -->` is not run; it is counted, with its reason.
Other blocks (JSON shapes, layouts) are text.

    Scripts/docs-check.py [--write] [FILE…]     (all documentation when no file is named)

With --write, the lines under each drifted command are replaced with what it printed, whole: trim them
again with `…` where an excerpt reads better.

Exits 1 when a block fails or drifts, printing the difference.
"""
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ELISION = "…"


def documents(named):
    if named:
        return named
    return (["README.md", "Samples/README.md"] + sorted(glob.glob("Docs/*.md"))
            + sorted(glob.glob("Sources/MetricKitAnalysis/MetricKitAnalysis.docc/*.md")))


def blocks(path):
    """(line, info, body, illustrative reason or None) of each fenced block."""
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        fence = re.match(r"^(```+)(\w*)", lines[i])
        if not fence:
            i += 1
            continue
        start = i
        end = i + 1
        while end < len(lines) and not lines[end].startswith(fence.group(1)):
            end += 1
        previous = lines[start - 1].strip() if start > 0 else ""
        mark = re.match(r"<!-- illustrative: (.+) -->", previous)
        yield start + 1, fence.group(2), lines[start + 1:end], mark.group(1) if mark else None
        i = end + 1


def session(body):
    """(command, expected lines) pairs of a terminal session."""
    steps = []
    i = 0
    while i < len(body):
        line = body[i]
        if not line.startswith("$ "):
            i += 1
            continue
        command = line[2:]
        while command.endswith("\\") and i + 1 < len(body):
            i += 1
            command = command + "\n" + body[i]
        i += 1
        expected = []
        while i < len(body) and not body[i].startswith("$ "):
            expected.append(body[i])
            i += 1
        while expected and expected[-1].strip() == "":
            expected.pop()
        steps.append((command, expected))
    return steps


def matches(expected, actual):
    """Whether the actual lines are the expected ones, `…` lines standing for any lines."""
    expected = [e.rstrip() for e in expected]
    actual = [a.rstrip() for a in actual]
    memo = {}

    def match(e, a):
        if (e, a) in memo:
            return memo[(e, a)]
        if e == len(expected):
            result = a == len(actual)
        elif expected[e].strip() == ELISION:
            result = any(match(e + 1, k) for k in range(a, len(actual) + 1))
        elif a < len(actual) and (
            actual[a] == expected[e]
            or (expected[e].endswith(" " + ELISION) and actual[a].startswith(expected[e][:-len(ELISION)].rstrip()))
        ):
            result = match(e + 1, a + 1)
        else:
            result = False
        memo[(e, a)] = result
        return result

    return match(0, 0)


class Runner:
    def __init__(self):
        self.scratch = tempfile.mkdtemp(prefix="metrics-report-docs.")
        self.failures = []
        self.counts = {"run": 0, "compiled": 0, "checked": 0, "illustrative": 0, "text": 0}
        self.illustrative = []
        self.write = False
        self.rewrites = []

    def setup(self):
        subprocess.run(["swift", "build"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        self.bin = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                                  capture_output=True, text=True).stdout.strip()
        # The repository as a clone has it, and the sample dump where recipes say dumps/.
        files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                               check=True, capture_output=True).stdout
        for name in files.decode().split("\0"):
            if not name or not os.path.lexists(os.path.join(ROOT, name)):
                continue
            target = os.path.join(self.scratch, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(os.path.join(ROOT, name), target, follow_symlinks=False)
        os.symlink("Samples/dump", os.path.join(self.scratch, "dumps"))
        # `swift run [options] PRODUCT ARGS` runs the product built above; the products are on PATH.
        shims = os.path.join(self.scratch, ".docs-bin")
        os.makedirs(shims)
        real = shutil.which("swift")
        with open(os.path.join(shims, "swift"), "w") as f:
            f.write(f"""#!/usr/bin/env bash
if [[ "$1" == run ]]; then
  args=("${{@:2}}")
  while [[ "${{args[0]}}" == -* ]]; do
    case "${{args[0]}}" in -c|--package-path|--scratch-path) args=("${{args[@]:2}}") ;; *) args=("${{args[@]:1}}") ;; esac
  done
  if [[ -x "{self.bin}/${{args[0]}}" ]]; then exec "{self.bin}/${{args[0]}}" "${{args[@]:1}}"; fi
fi
exec "{real}" "$@"
""")
        os.chmod(os.path.join(shims, "swift"), 0o755)
        self.env = dict(os.environ, PATH=f"{shims}:{self.bin}:{os.environ['PATH']}", COLUMNS="200")

    def shell(self, command):
        """Runs `command` with bash in the scratch copy; what it prints, both streams as a terminal
        shows them, is in `stdout`."""
        process = subprocess.Popen(["bash", "-c", command], cwd=self.scratch, env=self.env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, start_new_session=True)
        try:
            stdout, _ = process.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            # The command and everything it started.
            os.killpg(process.pid, signal.SIGKILL)
            stdout, _ = process.communicate()
            stdout += "\n(stopped after 300 s)"
        return subprocess.CompletedProcess(command, process.returncode, stdout)

    def fail(self, where, what):
        self.failures.append(f"{where}: {what}")

    def run_session(self, where, body):
        for command, expected in session(body):
            result = self.shell(command)
            actual = result.stdout.rstrip("\n").split("\n") if result.stdout else []
            self.counts["run"] += 1
            if not matches(expected, actual) and self.write:
                self.rewrites.append((where, command, expected, actual))
            elif not matches(expected, actual):
                self.fail(where, f"$ {command}\n--- shown\n" + "\n".join(expected) + "\n--- printed (exit "
                          + f"{result.returncode})\n" + "\n".join(actual))

    def run_script(self, where, body):
        result = self.shell("set -euo pipefail\n" + "\n".join(body))
        self.counts["run"] += 1
        if result.returncode != 0:
            self.fail(where, f"the script exits {result.returncode}:\n" + result.stdout)

    def check_rules(self, where, body):
        path = os.path.join(self.scratch, ".docs-rules.yml")
        with open(path, "w") as f:
            f.write("\n".join(body) + "\n")
        result = self.shell(f"metrics-report rules --check {path}")
        self.counts["checked"] += 1
        if result.returncode != 0:
            self.fail(where, "the rule file does not check:\n" + result.stdout)

    def compile(self, snippets):
        """Compiles each Swift block as the main file of an executable of one package."""
        if not snippets:
            return
        package = os.path.join(self.scratch, ".docs-snippets")
        targets = []
        for n, (where, body) in enumerate(snippets):
            name = f"Snippet{n}"
            os.makedirs(os.path.join(package, "Sources", name))
            with open(os.path.join(package, "Sources", name, "main.swift"), "w") as f:
                f.write(f"// {where}\n" + "\n".join(body) + "\n")
            targets.append((name, where))
        products = ", ".join(
            f'.executableTarget(name: "{name}", dependencies: [.product(name: "MetricKitAnalysis", '
            f'package: "metrics-report"), .product(name: "MetricKitReports", package: "metrics-report")])'
            for name, _ in targets)
        with open(os.path.join(package, "Package.swift"), "w") as f:
            f.write(f"""// swift-tools-version:6.0
import PackageDescription
let package = Package(
  name: "DocSnippets", platforms: [.macOS(.v15)],
  dependencies: [.package(name: "metrics-report", path: "{ROOT}")],
  targets: [{products}])
""")
        # The separate package shares the examples' build folder, where the library is built already.
        def build(*target):
            return subprocess.run(
                ["swift", "build", "--package-path", package, "--scratch-path",
                 os.path.join(ROOT, "Examples/AnalysisScript/.build")] + [a for t in target for a in ("--target", t)],
                capture_output=True, text=True)
        self.counts["compiled"] += len(snippets)
        if build().returncode == 0:
            return
        # A build stops at its first failing target: each is built alone to name every one that fails.
        for name, where in targets:
            result = build(name)
            if result.returncode != 0:
                errors = [l for l in (result.stdout + result.stderr).split("\n") if "error:" in l]
                self.fail(where, "does not compile:\n" + "\n".join(sorted(set(errors)) or [result.stderr]))

    def rewrite(self):
        """Puts what each drifted command printed under it, in its file."""
        for where, command, expected, actual in reversed(self.rewrites):
            path, line = where.rsplit(":", 1)
            lines = open(path, encoding="utf-8").read().split("\n")
            # The command's first line, from the block's fence on, then its shown lines.
            first = "$ " + command.split("\n")[0]
            at = lines.index(first, int(line))
            start = at + command.count("\n") + 1
            end = start
            while end < len(lines) and not lines[end].startswith("$ ") and not lines[end].startswith("```"):
                end += 1
            while end > start and lines[end - 1].strip() == "":
                end -= 1
            lines[start:end] = [a.replace(self.scratch, "…") for a in actual]
            open(path, "w", encoding="utf-8").write("\n".join(lines))
            print(f"rewrote {where}: $ {first[2:]}")

    COMMANDS = ["summary", "trend", "compare", "report", "watch", "export", "snapshot", "diagnostics", "merge", "rules",
                "organizer fetch", "organizer show", "cache stats", "cache prune"]

    def check_synopses(self):
        """Every option a command's --help lists is in its synopsis in Docs/commands.md; `[filters]` (or
        `[the filters and limits of summary]`) stands for summary's input options, which its own synopsis
        lists."""
        text = open(os.path.join(ROOT, "Docs/commands.md"), encoding="utf-8").read().split("\n")

        def synopsis(command):
            for i, line in enumerate(text):
                if line.startswith(f"metrics-report {command} "):
                    lines = [line]
                    for more in text[i + 1:]:
                        if not more.startswith(" "):
                            break
                        lines.append(more)
                    return " ".join(lines)
            return None

        def options(command):
            result = self.shell(f"metrics-report {command} --help")
            return set(re.findall(r"(?m)^\s+(?:-\w, )?(--[a-z][a-z0-9-]*)", result.stdout)) - {"--help", "--version"}

        filters = options("summary") - {"--format", "--output", "--percentiles", "--pooling", "--metric", "--by",
                                         "--top", "--organizer", "--organizer-device", "--estimator",
                                         "--interpolation"}
        for command in self.COMMANDS:
            shown = synopsis(command)
            self.counts["checked"] += 1
            if shown is None:
                self.fail("Docs/commands.md", f"no synopsis of `metrics-report {command}`")
                continue
            # `-o FILE` stands for --output.
            listed = set(re.findall(r"--[a-z][a-z0-9-]*", shown)) | ({"--output"} if re.search(r"(^|[ \[])-o ", shown) else set())
            if "[filters]" in shown or "[the filters and limits of summary]" in shown:
                listed |= filters
            missing = sorted(options(command) - listed)
            if missing:
                self.fail("Docs/commands.md", f"the synopsis of `metrics-report {command}` lacks {', '.join(missing)}")

    def main(self, named):
        self.setup()
        snippets = []
        for path in documents(named):
            for line, info, body, reason in blocks(path):
                where = f"{path}:{line}"
                prompts = any(l.startswith("$ ") for l in body)
                runnable = prompts or info in ("sh", "bash", "swift") or (info == "yaml" and any(
                    l.startswith("rules:") for l in body))
                if reason:
                    self.counts["illustrative"] += 1
                    self.illustrative.append(f"{where}: {reason}")
                elif prompts:
                    self.run_session(where, body)
                elif info in ("sh", "bash"):
                    self.run_script(where, body)
                elif info == "swift":
                    snippets.append((where, body))
                elif runnable:
                    self.check_rules(where, body)
                else:
                    self.counts["text"] += 1
        self.compile(snippets)
        if not named:
            self.check_synopses()
        self.rewrite()
        for failure in self.failures:
            print(f"DRIFT {failure}\n")
        for note in self.illustrative:
            print(f"illustrative: {note}")
        c = self.counts
        print(f"docs: {c['run']} commands run, {c['compiled']} Swift blocks compiled, {c['checked']} rule files and "
              f"synopses checked, {c['illustrative']} blocks illustrative, {c['text']} blocks of text (formats, "
              f"layouts); {len(self.failures)} drifted")
        shutil.rmtree(self.scratch, ignore_errors=True)
        return 1 if self.failures else 0


if __name__ == "__main__":
    os.chdir(ROOT)
    runner = Runner()
    arguments = sys.argv[1:]
    if "--write" in arguments:
        runner.write = True
        arguments.remove("--write")
    sys.exit(runner.main(arguments))
