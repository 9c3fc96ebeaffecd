#!/usr/bin/env python3
"""Checks that references between the library's folders flow one way.

The folders of Sources/MetricKitAnalysis are stages in the order of the data flow, then the features
that sit beside them. A file may name a type declared in its own folder or in an earlier one; naming a
type of a later folder is a reference that runs backwards, and fails the check. The few known ones
are listed in Scripts/layout-exceptions.txt ("Folder -> Folder: Type", one a line): one that is no
longer there must be taken off the list, so the list only shrinks.

Usage: Scripts/layout-check.py [--graph] [--library DIR]
  --graph    prints every reference between folders
  --library  checks another copy of the library's folder
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LIBRARY = os.path.join(ROOT, "Sources", "MetricKitAnalysis")
EXCEPTIONS = os.path.join(ROOT, "Scripts", "layout-exceptions.txt")

# Earlier first. Support, Concurrency and Model are for everyone; then the stages of the data flow;
# then the features beside them, each a vertical slice over the stages.
ORDER = [
    "Support", "Concurrency", "Model", "Metrics",
    "Reading", "Coding", "Symbolication", "Filtering", "Aggregation", "Statistics",
    "Rules", "Snapshots", "Evaluation", "Organizer", "Watching", "Reporting", "Exporting", "Rendering",
    "Caching", "MetricKitFacade",
]

DECLARATION = re.compile(
    r"^(?:(?:public|package|internal|private|fileprivate|final|indirect|nonisolated)\s+)*"
    r"(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)", re.M)


def code(text):
    """The text without comments and string literals (a type named in a comment is no reference)."""
    text = re.sub(r'"""[\s\S]*?"""', '""', text)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*[\s\S]*?\*/", "", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def main():
    global LIBRARY
    if "--library" in sys.argv:
        LIBRARY = sys.argv[sys.argv.index("--library") + 1]
    files = {}
    for folder, _, names in os.walk(LIBRARY):
        for name in names:
            if name.endswith(".swift"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    files[os.path.relpath(path, LIBRARY)] = code(f.read())
    stage = lambda path: path.split(os.sep)[0]
    unknown = sorted({stage(p) for p in files} - set(ORDER))
    if unknown:
        sys.exit(f"layout-check: folders not in the order: {', '.join(unknown)} (add them to ORDER)")
    owner = {}
    for path, text in files.items():
        for name in DECLARATION.findall(text):
            owner.setdefault(name, set()).add(stage(path))
    references = {}
    for path, text in files.items():
        mine = stage(path)
        for token in set(re.findall(r"\b[A-Z]\w*\b", text)):
            for theirs in owner.get(token, ()):
                if theirs != mine:
                    references.setdefault((mine, theirs, token), []).append(path)
    if "--graph" in sys.argv:
        for (mine, theirs, token), paths in sorted(references.items()):
            print(f"{mine} -> {theirs}: {token} ({', '.join(sorted(paths))})")
        return
    backwards = {k: v for k, v in references.items() if ORDER.index(k[1]) > ORDER.index(k[0])}
    known = set()
    with open(EXCEPTIONS, encoding="utf-8") as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                known.add(line)
    found = {f"{a} -> {b}: {t}" for a, b, t in backwards}
    failures = 0
    for (mine, theirs, token), paths in sorted(backwards.items()):
        if f"{mine} -> {theirs}: {token}" not in known:
            failures += 1
            print(f"layout-check: {', '.join(sorted(paths))} names {token}, of {theirs}, a later folder than {mine}")
    for line in sorted(known - found):
        failures += 1
        print(f"layout-check: '{line}' is no longer a reference: take it off {os.path.relpath(EXCEPTIONS, ROOT)}")
    if failures:
        sys.exit(1)
    print(f"layout-check: {len(references) - len(backwards)} of {len(references)} references between "
          f"{len(ORDER)} folders flow one way; the {len(known)} listed run backwards")


if __name__ == "__main__":
    main()
